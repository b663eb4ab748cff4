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

void handle_sysrq(char key, struct pt_regs *regs)
{
	if (key >= 'A' && key <= 'Z')
		key = (char)(key - 'A' + 'a');	/* Shift or Caps Lock do not change the key */
	if (key == 'g') {
		pr_info("sysrq: DEBUG\n");
		/* Linux's sysrq_handle_dbg: no I/O (never configured, or kgdboc unconfigured) */
		if (!ekdb_io_registered() || !ekdb_break_in(regs, EKDB_BREAK_SYSRQ))
			printk(KERN_CRIT "ERROR: No KGDB I/O module available\n");
		return;
	}
	if (key == 'h' || kernel_sysrq(key)) {
		pr_info("sysrq: HELP : reboot(b) debug(g) show-task-states(t)\n");
		return;
	}
}

/*
 * write_sysrq_trigger - a write to /proc/sysrq-trigger (Linux's): the first
 * byte is the key, unless it is '_' (then every byte is one).  Process
 * context: sysrq-g stops right here, as Linux's kgdb_breakpoint().
 */
void write_sysrq_trigger(const char *buf, size_t len)
{
	bool bulk = false;

	for (size_t i = 0; i < len; i++) {
		char key = buf[i];

		if (key == '_') {
			bulk = true;
		} else if (key >= 'A' && key <= 'Z') {
			handle_sysrq('?', NULL);	/* Linux has no upper-case keys here: the help */
		} else if (key == 'g') {
			pr_info("sysrq: DEBUG\n");
			if (ekdb_io_registered())
				kgdb_breakpoint();
			else
				printk(KERN_CRIT "ERROR: No KGDB I/O module available\n");
		} else {
			handle_sysrq(key, NULL);
		}
		if (!bulk)
			break;
	}
}
