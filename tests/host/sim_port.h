/* SPDX-License-Identifier: GPL-2.0 */
/* sim_port.h - the host simulator's porting interface (sim_port.c). */
#ifndef TESTS_HOST_SIM_PORT_H
#define TESTS_HOST_SIM_PORT_H

#include <ekdb/port.h>
#include "sim_target.h"

/* The simulated kernel's stopped services (kdb's ps, dmesg, lsmod ...). */
extern const struct ekdb_stopped_ops sim_port_stopped;

/*
 * sim_port_attach - the services describe @s from now on; @s->host gets a
 * copy of them (a test may NULL one: kdb then says it is not available).
 */
void sim_port_attach(struct sim_target *s);

#endif
