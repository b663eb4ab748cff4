/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sysrq.c - the magic SysRq keys, as Linux's drivers/tty/sysrq.c names
 * and logs them ("sysrq: DEBUG", "sysrq: HELP : ...").  'g' is kgdb's:
 * the debugger is entered from the keyboard interrupt with the
 * interrupted registers; the others are the kernel's own (debug_glue.c
 * serves them to kdb's `sr` too).
 */
#include <kernel/kernel.h>
#include <kernel/printk.h>
#include <kernel/sysrq.h>
#include <ekdb/ekdb.h>
#include <ekdb/transport.h>

int kernel_sysrq(char key);	/* debug_glue.c: b, t, h */

void handle_sysrq(char key, struct x86_regs *regs)
{
	if (key >= 'A' && key <= 'Z')
		key = (char)(key - 'A' + 'a');	/* Shift or Caps Lock do not change the key */
	if (key == 'g') {
		pr_info("sysrq: DEBUG\n");
		if (!ekdb_break_in(regs, EKDB_BREAK_SYSRQ))
			pr_info("sysrq: the debugger is not enabled (ekgdboc=/kgdboc=)\n");
		return;
	}
	if (key == 'h' || kernel_sysrq(key)) {
		pr_info("sysrq: HELP : reboot(b) debug(g) show-task-states(t)\n");
		return;
	}
}
