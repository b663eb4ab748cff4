// SPDX-License-Identifier: GPL-2.0
/*
 * Where ekdb may plant a software breakpoint on Linux (struct
 * ekdb_port_ops.text_addr): the kernel's .text, and its .init.text until
 * free_initmem() gives it back, as core_kernel_text() answers.  Written
 * out here, not called, since it runs on the stop path.
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <asm/sections.h>

#include <ekdb/ekdb.h>
#include <ekdb/port.h>

#include "glue.h"

__ekdb_linux_nobp bool ekdb_linux_text_addr(u64 addr)
{
	if (addr >= (unsigned long)_stext && addr < (unsigned long)_etext)
		return true;
	return system_state < SYSTEM_FREEING_INITMEM &&
	       addr >= (unsigned long)_sinittext && addr < (unsigned long)_einittext;
}
NOKPROBE_SYMBOL(ekdb_linux_text_addr);
