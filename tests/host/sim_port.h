/* SPDX-License-Identifier: GPL-2.0 */
/* sim_port.h - the host simulator's porting interface (sim_port.c). */
#ifndef TESTS_HOST_SIM_PORT_H
#define TESTS_HOST_SIM_PORT_H

#include <ekdb/port.h>

extern const struct ekdb_port_ops sim_port;

#endif
