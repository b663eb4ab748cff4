/* SPDX-License-Identifier: GPL-2.0 */
/*
 * port.c - the host's services (<ekdb/port.h>): the table the host
 * registers, and the debugger's ways into it (its log lines, the stop
 * path's warn and panic).  Static storage: usable in every lifetime.
 */
#include "debug_core.h"
#include <ekdb/log.h>
#include <ekdb/port.h>
#include <ekdb/errno.h>

static const struct ekdb_port_ops no_port;
/* Read by tests/integration/test_stop_path.py (its stopped ops are roots of the stop path). */
static const struct ekdb_port_ops *ekdb_host_port = &no_port;

void ekdb_set_port(const struct ekdb_port_ops *ops)
{
	ekdb_host_port = ops ? ops : &no_port;
}

const struct ekdb_port_ops *ekdb_port(void)
{
	return ekdb_host_port;
}

int ekdb_printk(const char *fmt, ...)
{
	const struct ekdb_port_ops *p = ekdb_host_port;
	va_list ap;
	int n;

	if (!p->vprintk)
		return 0;
	va_start(ap, fmt);
	n = p->vprintk(fmt, ap);
	va_end(ap);
	return n;
}

void dbg_kernel_warn(const char *msg)
{
	if (ekdb_host_port->stopped.warn)
		ekdb_host_port->stopped.warn(msg);
}

void dbg_kernel_panic(const char *msg)
{
	if (ekdb_host_port->stopped.panic)
		ekdb_host_port->stopped.panic(msg);
}

int ekdb_console_register(struct ekdb_console *con)
{
	return ekdb_host_port->console_register ? ekdb_host_port->console_register(con) : -EKDB_ENOSYS;
}

void ekdb_console_unregister(struct ekdb_console *con)
{
	if (ekdb_host_port->console_unregister)
		ekdb_host_port->console_unregister(con);
}

void ekdb_log_hook(void (*fn)(const char *s, size_t len))
{
	if (ekdb_host_port->log_hook)
		ekdb_host_port->log_hook(fn);
}

void *ekdb_map_phys(u64 phys, u64 len)
{
	return ekdb_host_port->map_phys ? ekdb_host_port->map_phys(phys, len) : NULL;
}

void *ekdb_map_io(u64 phys, u64 len)
{
	return ekdb_host_port->map_io ? ekdb_host_port->map_io(phys, len) : NULL;
}

const struct ekdb_framebuffer *ekdb_framebuffer(void)
{
	return ekdb_host_port->framebuffer ? ekdb_host_port->framebuffer() : NULL;
}
