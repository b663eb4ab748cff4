/* SPDX-License-Identifier: GPL-2.0 */
/*
 * opts.h - the loader debugger's parameters, read from the loader's
 * command line (pure, host-tested):
 *   ekdb.loader=wait|on|off   stop in the loader / arm only / nothing (default)
 *   ekgdboc=ttySn[,baud]      the 16550 the loader debugger talks on (also 0xPORT)
 *   ekdb.loader_test=fault    test hook: the loader faults on purpose (see glue.c)
 *   kdb.cmd_enable=MASK       the kdb command classes, as in the kernel (which
 *                             takes the same line: the handed-over session keeps it)
 * Fail closed: an unknown ekdb.loader= value, a transport the loader cannot
 * drive (ekgdboc=kbd..., no ekgdboc=) or a malformed kdb.cmd_enable= leaves
 * the loader debugger off with a message (the kernel turns its own off for
 * the same mask); the boot goes on.
 */
#ifndef BOOT_DBG_OPTS_H
#define BOOT_DBG_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ldr_dbg_mode {
	LDR_DBG_OFF = 0,	/* no ekdb.loader= (or =off): the loader does no debugger work */
	LDR_DBG_ON,		/* arm: faults and breakpoints in the loader enter the debugger */
	LDR_DBG_WAIT,		/* arm and stop once the kernel is placed, before ExitBootServices */
};

enum ldr_dbg_test {
	LDR_DBG_TEST_NONE = 0,
	LDR_DBG_TEST_FAULT,	/* a #GP in the loader just before the stop point */
};

#define LDR_DBG_OPT_MAX 32

struct ldr_dbg_opts {
	enum ldr_dbg_mode mode;
	enum ldr_dbg_test test;
	char ekgdboc[LDR_DBG_OPT_MAX];	/* "ttyS1,115200" as given */
	uint16_t port;			/* its I/O base */
	uint32_t baud;
	int line;			/* n of ttySn, -1 for 0xPORT */
	uint32_t cmd_enable;		/* kdb.cmd_enable (default: every command) */
	/* why the debugger stays off although ekdb.loader= asked for it (NULL: it does not) */
	const char *off_reason;
	/* a message to print even when the debugger runs (ignored test value), or NULL */
	const char *warning;
};

/*
 * ldr_dbg_parse_opts - read @cmdline (not modified) into @o.  Always
 * fills @o; o->mode is LDR_DBG_OFF unless the debugger can run.  When
 * ekdb.loader= asked for it but it cannot, o->off_reason says why in one
 * line ("ekdb.loader=bogus: unknown value (wait, on or off)").
 */
void ldr_dbg_parse_opts(const char *cmdline, struct ldr_dbg_opts *o);

#endif
