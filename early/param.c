/* SPDX-License-Identifier: GPL-2.0 */
/*
 * param.c - the debugger's kernel parameters, Linux's names and meaning:
 *   ekgdboc=ttySn[,baud]   early debugger transport on a 16550 (0xPORT too)
 *   ekgdboc=kbd[,ttySn[,baud]]  PS/2 keyboard + screen (and the serial line too)
 *   kgdboc=[kms][,kbd][,ttySn[,baud]]  the running kernel's drivers the debugger uses (core/late/)
 *   kgdbdbgp=N[,secs]      the debugger on the Nth EHCI USB debug port; while
 *                          the kernel runs, look for a break-in every secs s
 *   kgdbxdbc=N[,secs]      the same on the Nth xHCI controller's Debug Capability
 *   kgdboc_earlycon[=name] the early debugger on the earlycon= console
 *   kgdbwait               stop in setup_arch() until the debugger resumes
 *   kgdbcon                printk output goes to gdb as 'O' packets
 *   kdb.cmd_enable=MASK    which kdb command classes may run (KDB_ENABLE_*)
 * A malformed or unknown value of any of them is reported (by
 * parse_early_param) and fails closed: the debugger stays off and kdb's
 * command mask drops to nothing; boot goes on.
 */
#include "early.h"
#include <ekdb/cmdline.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>
#include <ekdb/kdb.h>
#include "../core/core_early.h"

static int copy_opt(char *dst, const char *v)
{
	if (!v || !*v)
		return -EKDB_EINVAL;
	if (strlcpy(dst, v, EKDB_OPT_MAX) >= EKDB_OPT_MAX)
		return -EKDB_E2BIG;
	return 0;
}

/* The devices come from the kind table (transports.c): kbd, kbd,<serial>, <serial>. */
static int setup_ekgdboc(const char *v)
{
	int err = copy_opt(ekdb_opts.ekgdboc, v);

	if (!err)
		err = early_ekgdboc_parse(v, ekdb_opts.ekgdboc_dev, &ekdb_opts.n_ekgdboc_dev);
	if (err)
		ekdb_opts.ekgdboc[0] = 0;
	return dbg_opts_refuse("ekgdboc", err);
}
EARLY_PARAM("ekgdboc", setup_ekgdboc, "ttySn[,baud] | 0xPORT[,baud] | kbd[,ttySn[,baud]]");

static int setup_kgdboc(const char *v)
{
	struct kgdboc_cfg cfg;
	int err = copy_opt(ekdb_opts.kgdboc, v);

	if (!err)
		err = kgdboc_parse(v, &cfg);
	if (err)
		ekdb_opts.kgdboc[0] = 0;
	return dbg_opts_refuse("kgdboc", err);
}
EARLY_PARAM("kgdboc", setup_kgdboc, "[kms][,kbd][,ttySn[,baud]]");

/* kgdbdbgp=N[,secs] is the kind table's word "dbgpN[,secs]". */
static int setup_kgdbdbgp(const char *v)
{
	char word[EKDB_OPT_MAX] = "dbgp";
	int err = -EKDB_EINVAL;

	if (v && strlcpy(word + 4, v, sizeof(word) - 4) < sizeof(word) - 4)
		err = early_transport_parse(word, &ekdb_opts.kgdbdbgp_dev);
	if (err) {
		ekdb_opts.kgdbdbgp = false;
		dbg_opts_refuse("kgdbdbgp", err);
		return err;
	}
	ekdb_opts.kgdbdbgp = true;
	return 0;
}
EARLY_PARAM("kgdbdbgp", setup_kgdbdbgp, "N[,seconds] (N: 0-9, seconds: 0-3600)");

/* kgdbxdbc=N[,secs]: kgdbdbgp='s grammar, the kind table's word "xdbcN[,secs]". */
static int setup_kgdbxdbc(const char *v)
{
	char word[EKDB_OPT_MAX] = "xdbc";
	int err = -EKDB_EINVAL;

	if (v && strlcpy(word + 4, v, sizeof(word) - 4) < sizeof(word) - 4)
		err = early_transport_parse(word, &ekdb_opts.kgdbxdbc_dev);
	if (err) {
		ekdb_opts.kgdbxdbc = false;
		dbg_opts_refuse("kgdbxdbc", err);
		return err;
	}
	ekdb_opts.kgdbxdbc = true;
	return 0;
}
EARLY_PARAM("kgdbxdbc", setup_kgdbxdbc, "N[,seconds] (N: 0-9, seconds: 0-3600)");

/*
 * kgdboc_earlycon[=name] (Linux 5.8+): the debugger on the early console
 * (earlycon=) from the moment it exists, until kgdboc='s driver takes
 * the line over.  The name, when given, must be the earlycon's.
 */
static int setup_kgdboc_earlycon(const char *v)
{
	int err = 0;

	ekdb_opts.kgdboc_earlycon_name[0] = 0;
	if (v && *v)
		err = copy_opt(ekdb_opts.kgdboc_earlycon_name, v);
	ekdb_opts.kgdboc_earlycon = !err;
	return dbg_opts_refuse("kgdboc_earlycon", err);
}
EARLY_PARAM("kgdboc_earlycon", setup_kgdboc_earlycon, "[uart8250|uart] (the earlycon= console)");

static int setup_kgdbwait(const char *v)
{
	if (v)
		return dbg_opts_refuse("kgdbwait", -EKDB_EINVAL);
	ekdb_opts.kgdbwait = true;
	return 0;
}
EARLY_PARAM("kgdbwait", setup_kgdbwait, "");

static int setup_kgdbcon(const char *v)
{
	if (v)
		return dbg_opts_refuse("kgdbcon", -EKDB_EINVAL);
	ekdb_opts.kgdbcon = true;
	return 0;
}
EARLY_PARAM("kgdbcon", setup_kgdbcon, "");

/* kdb.cmd_enable=MASK: Linux's KDB_ENABLE_* classes (0x1 = everything). */
static int setup_kdb_cmd_enable(const char *v)
{
	u32 mask;
	int err;

	err = v ? kdb_parse_cmd_enable(v, &mask) : -EKDB_EINVAL;
	/* a restriction typo must not leave every command allowed */
	ekdb_opts.cmd_enable = err ? 0 : mask;
	return dbg_opts_refuse("kdb.cmd_enable", err);
}
EARLY_PARAM("kdb.cmd_enable", setup_kdb_cmd_enable, "MASK (e.g. 0x1 all, 0x2 mem read, 0x28 inspect+reg read)");
