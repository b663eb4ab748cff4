// SPDX-License-Identifier: GPL-2.0
/*
 * ekdb's parameters on Linux, spelled ekdb.<ekdb's name>= so that Linux's
 * own ekgdboc=, kgdbwait, kgdboc= and kdb.cmd_enable= keep their meaning
 * (docs/linux.md), and ekdb's start in setup_arch().  Without an ekdb.
 * parameter ekdb does nothing.
 */
#include <linux/ekdb.h>
#include <linux/init.h>
#include <linux/kallsyms.h>
#include <asm/setup.h>

#include <ekdb/ekdb.h>
#include <ekdb/port.h>

#include "glue.h"

/* An ekdb.<name>= parameter was given: only then does ekdb run at all. */
static bool ekdb_wanted __initdata;

static void __init ekdb_linux_param(const char *name, const char *val)
{
	if (!ekdb_wanted) {
		ekdb_set_port(&ekdb_linux_port);
		/* gdb goes on with Linux's gdbstub after the handoff (handoff.c) */
		ekdb_set_gdb_plain(true);
		ekdb_wanted = true;
	}
	ekdb_param(name, val);
}

/* One early_param() per name: ekdb.<linux_name> feeds ekdb's <name>. */
#define EKDB_LINUX_PARAM(fn, linux_name, name)			\
	static int __init fn(char *val)				\
	{							\
		ekdb_linux_param(name, val);			\
		return 0;					\
	}							\
	early_param(linux_name, fn)

EKDB_LINUX_PARAM(ekdb_linux_ekgdboc, "ekdb.ekgdboc", "ekgdboc");
EKDB_LINUX_PARAM(ekdb_linux_kgdbwait, "ekdb.kgdbwait", "kgdbwait");
EKDB_LINUX_PARAM(ekdb_linux_kgdbdbgp, "ekdb.kgdbdbgp", "kgdbdbgp");
EKDB_LINUX_PARAM(ekdb_linux_kgdbxdbc, "ekdb.kgdbxdbc", "kgdbxdbc");
EKDB_LINUX_PARAM(ekdb_linux_kgdbcon, "ekdb.kgdbcon", "kgdbcon");
EKDB_LINUX_PARAM(ekdb_linux_cmd_enable, "ekdb.cmd_enable", "kdb.cmd_enable");

/* setup_arch(), right after parse_early_param(): kgdbwait stops in here. */
void __init ekdb_linux_setup_arch(void)
{
	if (!ekdb_wanted)
		return;
	ekdb_set_text_offset(kaslr_offset());
	/* qOffsets "TextSeg=": gdb moves every segment, __init code included */
	ekdb_set_text_base((u64)_text);
	ekdb_linux_nobp_init();
	ekdb_linux_smp_init();
	ekdb_linux_started = true;
	ekdb_early_init();
}
