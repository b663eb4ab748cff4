/* SPDX-License-Identifier: GPL-2.0 */
/* debug_port.h - the kernel's boot-time port services (debug_port.c), shared with debug_glue.c. */
#ifndef KERNEL_GLUE_DEBUG_PORT_H
#define KERNEL_GLUE_DEBUG_PORT_H

#include <ekdb/types.h>
#include <kernel/kallsyms.h>

struct ekdb_framebuffer;
void *glue_map_phys(u64 phys, u64 len);
const struct ekdb_framebuffer *glue_framebuffer(void);
const void *glue_acpi_table(const char *sig, u32 *len);

/* The members of struct ekdb_port_ops there from the start of setup_arch(). */
#define DEBUG_PORT_BOOT_SERVICES					\
	.vprintk = vprintk,						\
	.log_hook = printk_set_debugger_hook,				\
	.console_register = register_console,				\
	.console_unregister = unregister_console,			\
	.map_phys = glue_map_phys,					\
	.map_io = early_ioremap_uc,					\
	.framebuffer = glue_framebuffer,				\
	.acpi_table = glue_acpi_table,					\
	.sym_lookup = kallsyms_port_lookup,				\
	.sym_by_name = kallsyms_port_by_name,				\
	.sym_get = kallsyms_port_get

#endif
