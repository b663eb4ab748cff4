/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_port.c - the host simulator's side of the porting interface
 * (<ekdb/port.h>), the third host after the reference kernel
 * (kernel-glue/debug_glue.c) and the loader (boot/dbg/glue.c): the log
 * goes to host_log.c, where a test reads it.  Installed before main()
 * in every test that links it.
 */
#include <ekdb/port.h>
#include <kernel/printk.h>
#include "host_log.h"
#include "sim_port.h"

const struct ekdb_port_ops sim_port = {
	.vprintk = vprintk,
};

__attribute__((constructor)) static void sim_port_install(void)
{
	ekdb_set_port(&sim_port);
}
