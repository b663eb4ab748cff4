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

const void *ekdb_acpi_table(const char *sig, u32 *len)
{
	return ekdb_host_port->acpi_table ? ekdb_host_port->acpi_table(sig, len) : NULL;
}

int ekdb_sym_lookup(u64 addr, struct ksym *sym, u64 *offset)
{
	const struct ekdb_port_ops *p = ekdb_host_port;

	return p->sym_lookup ? p->sym_lookup(addr, sym, offset) : -EKDB_ENOENT;
}

int ekdb_sym_by_name(const char *name, struct ksym *sym)
{
	const struct ekdb_port_ops *p = ekdb_host_port;

	return p->sym_by_name ? p->sym_by_name(name, sym) : -EKDB_ENOENT;
}

int ekdb_sym_get(unsigned long index, struct ksym *sym)
{
	const struct ekdb_port_ops *p = ekdb_host_port;

	return p->sym_get ? p->sym_get(index, sym) : -EKDB_ENOENT;
}

const struct ekdb_framebuffer *ekdb_framebuffer(void)
{
	return ekdb_host_port->framebuffer ? ekdb_host_port->framebuffer() : NULL;
}

/*
 * ---- the host's services as kdb has them: each forwards to the table in
 * force, or fails as an empty answer (no tasks, no log, no modules) when
 * the host has not (yet) given it.  kdb_session_set_host() ----
 */
static const struct ekdb_stopped_ops *kops(void)
{
	return &ekdb_port()->stopped;
}

static int h_task_get(int index, struct ekdb_task *task)
{
	return kops()->task_get ? kops()->task_get(index, task) : -EKDB_ENOENT;
}

static long h_log_read(u64 pos, char *buf, size_t len)
{
	return kops()->log_read ? kops()->log_read(pos, buf, len) : -EKDB_ENOSYS;
}

static long h_phys_read(u64 paddr, void *buf, size_t len)
{
	return kops()->phys_read ? kops()->phys_read(paddr, buf, len) : -EKDB_ENOSYS;
}

static int h_mod_get(int index, struct ekdb_module *mod)
{
	return kops()->mod_get ? kops()->mod_get(index, mod) : -EKDB_ENOENT;
}

static int h_sys_info(struct ekdb_sysinfo *info)
{
	return kops()->sys_info ? kops()->sys_info(info) : -EKDB_ENOSYS;
}

static int h_reboot(void)
{
	return kops()->reboot ? kops()->reboot() : -EKDB_ENOSYS;
}

static int h_sysrq(char key)
{
	return kops()->sysrq ? kops()->sysrq(key) : -EKDB_ENOSYS;
}

static int h_percpu_offset(unsigned cpu, u64 *offset)
{
	return kops()->percpu_offset ? kops()->percpu_offset(cpu, offset) : -EKDB_ENOSYS;
}

static int h_task_signal(int pid, int sig)
{
	return kops()->task_signal ? kops()->task_signal(pid, sig) : -EKDB_ENOSYS;
}

const struct ekdb_stopped_ops dbg_host_ops = {
	.task_get = h_task_get,
	.log_read = h_log_read,
	.phys_read = h_phys_read,
	.mod_get = h_mod_get,
	.sys_info = h_sys_info,
	.reboot = h_reboot,
	.sysrq = h_sysrq,
	.percpu_offset = h_percpu_offset,
	.task_signal = h_task_signal,
};
