/* SPDX-License-Identifier: GPL-2.0 */
/*
 * qemu_exit.c - end a QEMU run from the guest through the isa-debug-exit
 * device at port 0xf4 (tools/ekdb-qemu adds it).  QEMU exits with status
 * (code << 1) | 1; the launcher maps 0x10 to 0 (success) and 0x11 to 3.
 * Elsewhere the write goes to an unused port and nothing happens.
 */
#include <kernel/kernel.h>
#include <kernel/printk.h>
#include <asm/io.h>

#define QEMU_DEBUG_EXIT_PORT 0xf4

void qemu_exit(u8 code)
{
	pr_info("qemu_exit: 0x%x\n", code);
	outl(QEMU_DEBUG_EXIT_PORT, code);
}
