/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_early_params.c - every malformed value of every early parameter
 * is refused with a message, and a debugger option's refusal leaves the
 * debugger off (fail closed).
 *
 * ONE table (bad_words[] below) gives each option its bad values; the
 * test walks the parser's own table, the .early_param section of every
 * source that declares an EARLY_PARAM (test_early_params.mk finds them),
 * and fails when an option has no row, or a row names no option.  So a
 * new option cannot be added without its bad values.
 *
 * Each bad word is put on the command line alone and goes through the
 * kernel's parse_early_param (kernel-glue/params.c), as at boot: it must
 * print "Malformed early option '<word>'", and for a debugger option set
 * ekdb_opts.bad naming it (early/init.c then says "the debugger stays
 * off", tests/integration/test_debugger_params.py boots one) and leave
 * the option itself off.  Each row's good word must be accepted without a
 * message: a handler that refuses everything fails too.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <ekdb/cmdline.h>
#include <ekdb/string.h>
#include <kernel/kernel.h>
#include <ekdb/errno.h>
#include <ekdb/kdb.h>
#include <ekdb/port.h>
#include <kernel/printk.h>
#include "../../core/opts.h"
#include "../../core/late/late.h"
#include "../../early/early.h"
#include "../../io/serial/serial_console.h"
#include "../../io/serial/serial_pci.h"
#include "../../io/serial/serial_transport.h"
#include "../../io/kbd/kbd_transport.h"
#include "../../io/vga/vga_console.h"
#include "../../io/ehci-dbgp/ehci_dbgp.h"
#include "../../io/xhci-dbc/xhci_dbc.h"
#include "host_log.h"

extern const struct early_param __start_early_param[], __stop_early_param[];
extern int console_loglevel;
extern bool ignore_loglevel;

int console_loglevel = 7;
bool ignore_loglevel;

/*
 * The devices: a bad value must be refused before any is touched; a good
 * value may start one (counted, and it "works").
 */
static unsigned started;
int early_serial_console_init(const char *opt) { started++; return 0; }
int early_serial_console_start(const struct uart_port *p, int slot) { started++; return 0; }
int early_vga_console_init(const char *opt) { started++; return 0; }
int early_dbgp_console_init(const char *opt, bool keep) { started++; return 0; }
int early_xdbc_console_init(const char *opt, bool keep) { started++; return 0; }
int uart_pci_resolve(const struct uart_pci_spec *s, struct uart_port *p) { started++; return 0; }
/* Parsing a debugger option never makes a transport (early/transports.c's kinds). */
int uart_probe(struct uart_port *p) { fail_msg("uart_probe while parsing"); return -1; }
struct ekdb_transport *serial_transport_start(const struct uart_port *w, int *e) { fail(); return NULL; }
struct ekdb_transport *kbd_screen_transport(int *e) { fail(); return NULL; }
struct ekdb_transport *dbgp_transport_init(unsigned i, unsigned s, int *e) { fail(); return NULL; }
struct ekdb_transport *xdbc_transport_init(unsigned i, unsigned s, int *e) { fail(); return NULL; }

enum kind {
	DEBUGGER,	/* refused: ekdb_opts.bad, the debugger stays off */
	KERNEL,		/* the kernel's or a console's: refused, nothing set */
};

#define LONG33 "ttyS0,115200xxxxxxxxxxxxxxxxxxxxxxx"	/* past EKDB_OPT_MAX */

/*
 * The table: every early parameter, its bad words (the whole word as
 * typed: a bare "name" is the flag form), and one good word.  A row with
 * no bad word must say why (only the kernel's flags that Linux lets take
 * any value).
 */
static const struct row {
	const char *name;
	enum kind kind;
	const char *good;
	const char *bad[16];
	const char *why_none;
} bad_words[] = {
	{ "ekgdboc", DEBUGGER, "ekgdboc=kbd,ttyS1,115200", {
		"ekgdboc", "ekgdboc=", "ekgdboc=ttyS9", "ekgdboc=banana", "ekgdboc=ttyS1,12x",
		"ekgdboc=ttyS1,", "ekgdboc=kbd,", "ekgdboc=kbd,banana", "ekgdboc=kbd,kbd",
		"ekgdboc=0xzz", "ekgdboc=" LONG33, "ekgdboc=ttyS", }, NULL },
	{ "kgdboc", DEBUGGER, "kgdboc=kms,kbd,ttyS1,115200", {
		"kgdboc", "kgdboc=", "kgdboc=banana", "kgdboc=kms,kbd,ttyS1,12x", "kgdboc=ttyS1,",
		"kgdboc=kms,", "kgdboc=," , "kgdboc=ttyS9", "kgdboc=" LONG33, }, NULL },
	{ "kgdbdbgp", DEBUGGER, "kgdbdbgp=0,5", {
		"kgdbdbgp", "kgdbdbgp=", "kgdbdbgp=x", "kgdbdbgp=10", "kgdbdbgp=-1", "kgdbdbgp=0,",
		"kgdbdbgp=0,3601", "kgdbdbgp=0,1x", "kgdbdbgp=0x", "kgdbdbgp=0,5,5", }, NULL },
	{ "kgdbxdbc", DEBUGGER, "kgdbxdbc=0,5", {
		"kgdbxdbc", "kgdbxdbc=", "kgdbxdbc=x", "kgdbxdbc=10", "kgdbxdbc=-1", "kgdbxdbc=0,",
		"kgdbxdbc=0,3601", "kgdbxdbc=0,1x", "kgdbxdbc=0x", "kgdbxdbc=0,5,5", }, NULL },
	{ "kgdboc_earlycon", DEBUGGER, "kgdboc_earlycon", {
		"kgdboc_earlycon=uart8250_and_a_name_far_too_long_xx", }, NULL },
	{ "kgdbwait", DEBUGGER, "kgdbwait", { "kgdbwait=", "kgdbwait=yes", "kgdbwait=1", }, NULL },
	{ "kgdbcon", DEBUGGER, "kgdbcon", { "kgdbcon=", "kgdbcon=1", "kgdbcon=no", }, NULL },
	{ "kdb.cmd_enable", DEBUGGER, "kdb.cmd_enable=0x28", {
		"kdb.cmd_enable", "kdb.cmd_enable=", "kdb.cmd_enable=zebra",
		"kdb.cmd_enable=0x100000001", "kdb.cmd_enable=0x1z", "kdb.cmd_enable=-1", }, NULL },
	{ "ekdbts", DEBUGGER, "ekdbts=V1F100S100E", {
		"ekdbts", "ekdbts=", "ekdbts=Q", "ekdbts=V1F0", "ekdbts=V1V1", "ekdbts=N6",
		"ekdbts=V3", "ekdbts=F", }, NULL },
	{ "ekdb.debug_early", DEBUGGER, "ekdb.debug_early=unmap", {
		"ekdb.debug_early", "ekdb.debug_early=", "ekdb.debug_early=unmapx",
		"ekdb.debug_early=unma", "ekdb.debug_early=UNMAP", "ekdb.debug_early=unmap,", }, NULL },
	{ "earlyprintk", KERNEL, "earlyprintk=vga", {
		"earlyprintk", "earlyprintk=", "earlyprintk=banana", "earlyprintk=serialx",
		"earlyprintk=vgax", "earlyprintk=,keep",
		"earlyprintk=serial,ttyS0,115200xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
		"earlyprintk=pciserial,00:1f", "earlyprintk=pciserial,zz:00.0", }, NULL },
	{ "earlycon", KERNEL, "earlycon=uart8250,io,0x3f8,115200", {
		"earlycon=", "earlycon=banana", "earlycon=uart8250", "earlycon=uart8250,io",
		"earlycon=uart8250,io,0xzz", "earlycon=uart8250,mmio64,0x1000", "earlycon=uart8250,io,0x3f8,12x",
		"earlycon", /* no ACPI SPCR table here: nothing to take */ }, NULL },
	{ "loglevel", KERNEL, "loglevel=4", {
		"loglevel", "loglevel=", "loglevel=16", "loglevel=x", "loglevel=-1", "loglevel=4x", }, NULL },
	{ "ignore_loglevel", KERNEL, "ignore_loglevel", { NULL },
		"Linux's flag: any value is ignored, not refused" },
	{ "debug", KERNEL, "debug", { NULL }, "Linux's flag: any value is ignored, not refused" },
};

static const struct row *row_of(const char *name)
{
	for (size_t i = 0; i < sizeof(bad_words) / sizeof(bad_words[0]); i++)
		if (!strcmp(bad_words[i].name, name))
			return &bad_words[i];
	return NULL;
}

static const struct early_param *param_of(const char *name)
{
	for (const struct early_param *p = __start_early_param; p < __stop_early_param; p++)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

static void reset(void)
{
	memset(&ekdb_opts, 0, sizeof(ekdb_opts));
	ekdb_opts.cmd_enable = KDB_ENABLE_ALL;
	late.unmap_early = false;
	console_loglevel = 7;
	started = 0;
	log_clear();
}

static void parse(const char *word)
{
	reset();
	strlcpy(boot_command_line, word, EKDB_CMDLINE_MAX);
	parse_early_param();
}

/* Nothing of any debugger option is on. */
static void assert_debugger_options_off(const char *word)
{
	if (ekdb_opts.ekgdboc[0] || ekdb_opts.n_ekgdboc_dev || ekdb_opts.kgdboc[0] ||
	    ekdb_opts.kgdbdbgp || ekdb_opts.kgdbxdbc || ekdb_opts.kgdboc_earlycon ||
	    ekdb_opts.kgdbwait || ekdb_opts.kgdbcon || late.unmap_early)
		fail_msg("'%s': refused, but an option was left on", word);
}

/* The parser's table and ours name the same options. */
static void test_every_option_has_a_row(void **state)
{
	unsigned n = 0;

	for (const struct early_param *p = __start_early_param; p < __stop_early_param; p++, n++)
		if (!row_of(p->name))
			fail_msg("early parameter '%s' has no row of bad values in bad_words[]", p->name);
	for (size_t i = 0; i < sizeof(bad_words) / sizeof(bad_words[0]); i++) {
		const struct row *r = &bad_words[i];

		if (!param_of(r->name))
			fail_msg("bad_words[] row '%s' is no early parameter", r->name);
		if (!r->bad[0] && (r->kind == DEBUGGER || !r->why_none))
			fail_msg("'%s' has no bad values (and no reason it cannot have any)", r->name);
		for (size_t j = 0; r->bad[j]; j++)
			if (strncmp(r->bad[j], r->name, strlen(r->name)) ||
			    (r->bad[j][strlen(r->name)] && r->bad[j][strlen(r->name)] != '='))
				fail_msg("'%s' in the row of '%s'", r->bad[j], r->name);
	}
	assert_int_equal(n, sizeof(bad_words) / sizeof(bad_words[0]));
}

static void test_bad_values_fail_closed(void **state)
{
	char shown[EKDB_CMDLINE_MAX + 32];
	unsigned tried = 0;

	ekdb_set_port(&host_log_port);
	for (size_t i = 0; i < sizeof(bad_words) / sizeof(bad_words[0]); i++) {
		const struct row *r = &bad_words[i];

		for (size_t j = 0; r->bad[j]; j++, tried++) {
			const char *w = r->bad[j];

			parse(w);
			snprintf(shown, sizeof(shown), "Malformed early option '%s'", w);
			if (!log_has(shown))
				fail_msg("'%s' was accepted (no \"%s\"); log: %s", w, shown, log_text());
			if (started)
				fail_msg("'%s': refused, but a console was started", w);
			if (r->kind == KERNEL) {
				if (ekdb_opts.bad || console_loglevel != 7)
					fail_msg("'%s': a kernel option's refusal changed something", w);
				continue;
			}
			if (!ekdb_opts.bad || strcmp(ekdb_opts.bad_opt, r->name))
				fail_msg("'%s' refused, but the debugger is not kept off (bad=%d '%s')",
					 w, ekdb_opts.bad, ekdb_opts.bad_opt);
			assert_debugger_options_off(w);
			if (!strcmp(r->name, "kdb.cmd_enable") && ekdb_opts.cmd_enable)
				fail_msg("'%s': kdb's command mask left at 0x%x", w, ekdb_opts.cmd_enable);
		}
	}
	print_message("%u bad words refused\n", tried);
	assert_true(tried >= 80);
}

static void test_good_values_are_accepted(void **state)
{
	ekdb_set_port(&host_log_port);
	for (size_t i = 0; i < sizeof(bad_words) / sizeof(bad_words[0]); i++) {
		parse(bad_words[i].good);
		if (log_has("Malformed") || ekdb_opts.bad)
			fail_msg("good word '%s' refused: %s", bad_words[i].good, log_text());
	}
	parse("ekdb.debug_early=unmap");
	assert_true(late.unmap_early);
	parse("kgdbdbgp=3,7");
	assert_true(ekdb_opts.kgdbdbgp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_option_has_a_row),
		cmocka_unit_test(test_bad_values_fail_closed),
		cmocka_unit_test(test_good_values_are_accepted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
