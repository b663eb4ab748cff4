/* SPDX-License-Identifier: GPL-2.0 */
/* opts.c - ekdb.loader=, ekgdboc=, kdb.cmd_enable= and ekdb.loader_test= for the loader debugger (pure). */
#include "opts.h"
#include <ekdb/cmdline.h>
#include <ekdb/kdb.h>
#include <ekdb/string.h>
#include "../../io/serial/serial.h"

#define LDR_CMDLINE_COPY 2048

/* One reason at a time, in a static buffer: it names the value that was refused. */
static char reason[96];

static const char *because(const char *a, const char *b, const char *c)
{
	size_t n = 0;

	for (const char *const *p = (const char *const[]){ a, b, c, NULL }; *p; p++)
		for (const char *s = *p; *s && n + 1 < sizeof(reason); s++)
			reason[n++] = *s;
	reason[n] = 0;
	return reason;
}

static void set_transport(struct ldr_dbg_opts *o, const char *v)
{
	struct uart_port p;

	if (!v || !*v) {
		o->off_reason = "ekgdboc= is empty: the loader needs ekgdboc=ttySn[,baud]";
		return;
	}
	if (!strncmp(v, "kbd", 3)) {
		o->off_reason = because("ekgdboc=", v,
			": the keyboard is not a loader transport (the loader needs ekgdboc=ttySn[,baud])");
		return;
	}
	if (strlen(v) >= sizeof(o->ekgdboc) || (strncmp(v, "ttyS", 4) && strncmp(v, "0x", 2)) ||
	    uart_parse_options(v, &p)) {
		o->off_reason = because("ekgdboc=", v, ": not a serial line (ttySn[,baud] or 0xPORT[,baud])");
		return;
	}
	strlcpy(o->ekgdboc, v, sizeof(o->ekgdboc));
	o->port = (u16)p.regs.addr;
	o->baud = p.baud;
	o->line = -1;
	for (unsigned i = 0; i < ARRAY_SIZE(uart_std_ports); i++)
		if (!strncmp(v, "ttyS", 4) && uart_std_ports[i] == p.regs.addr)
			o->line = (int)i;
}

void ldr_dbg_parse_opts(const char *cmdline, struct ldr_dbg_opts *o)
{
	static char copy[LDR_CMDLINE_COPY];
	const char *mode_bad = NULL, *gdboc = NULL, *mask_bad = NULL;
	bool asked = false, have_gdboc = false;
	u32 mask;
	char *cur = copy, *name, *value;

	memset(o, 0, sizeof(*o));
	o->line = -1;
	o->cmd_enable = KDB_ENABLE_ALL;
	if (!cmdline)
		return;
	strlcpy(copy, cmdline, sizeof(copy));
	while (cmdline_next(&cur, &name, &value)) {
		if (!strcmp(name, "ekdb.loader")) {
			mode_bad = NULL;
			if (value && !strcmp(value, "wait"))
				o->mode = LDR_DBG_WAIT;
			else if (value && !strcmp(value, "on"))
				o->mode = LDR_DBG_ON;
			else if (value && !strcmp(value, "off"))
				o->mode = LDR_DBG_OFF;
			else
				mode_bad = value ? value : "";
			asked = true;
		} else if (!strcmp(name, "ekgdboc")) {
			gdboc = value;
			have_gdboc = true;
		} else if (!strcmp(name, "kdb.cmd_enable")) {
			/* as in the kernel: one bad mask anywhere turns the debugger off */
			if (kdb_parse_cmd_enable(value, &mask) && !mask_bad)
				mask_bad = value ? value : "";
			o->cmd_enable = mask_bad ? 0 : mask;
		} else if (!strcmp(name, "ekdb.loader_test")) {
			if (value && !strcmp(value, "fault"))
				o->test = LDR_DBG_TEST_FAULT;
			else
				o->warning = "ekdb.loader_test=: unknown value (fault): ignored";
		}
	}
	if (mode_bad) {
		/* an unknown value anywhere (the last one counts) turns it off */
		o->mode = LDR_DBG_OFF;
		o->off_reason = because("ekdb.loader=", mode_bad, ": unknown value (wait, on or off)");
		return;
	}
	if (!asked || o->mode == LDR_DBG_OFF)
		return;
	if (mask_bad) {
		o->off_reason = because("kdb.cmd_enable=", mask_bad, ": not a mask (e.g. 0x1, 0x28)");
	} else if (!have_gdboc) {
		o->off_reason = "no ekgdboc=: the loader debugger needs ekgdboc=ttySn[,baud]";
	} else {
		set_transport(o, gdboc);
	}
	if (o->off_reason)
		o->mode = LDR_DBG_OFF;
}
