/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_cmdline.c - libFuzzer target: the kernel command line, as the
 * loader hands it over (bad input from the loader is input too).
 *
 * The input is the line itself, copied into a heap buffer of exactly
 * strlen + 1 bytes, so ASan reports any read past its NUL.  It goes
 * through every parser that reads a command line:
 *  - the tokenizer (lib/cmdline.c, cmdline_next), with its properties
 *    checked: every word and value lies inside the buffer and ends at a
 *    NUL inside it, no quote survives, the cursor only moves forward and
 *    the loop ends;
 *  - each word's value through every early parameter of the debugger
 *    (early/param.c's handlers, hence uart_parse_options, kgdboc_parse,
 *    dbgp_parse_kgdbdbgp, kdb_parse_cmd_enable), each value in a buffer
 *    of its own exact size; a handler that refuses must leave the option
 *    off (fail closed);
 *  - the loader's debugger options (boot/dbg/opts.c, ldr_dbg_parse_opts)
 *    and its word lookup (boot/cmdline_parse.c, ekdb_cmdline_has_word);
 *  - the loader's extraction from UEFI LoadOptions (UCS-2) and from the
 *    command line file (the raw input bytes, not NUL-terminated), into
 *    an output buffer whose size the first byte picks: the result must
 *    be NUL-terminated printable ASCII of the length reported.
 */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "../../early/param.c"
#include "../../boot/cmdline_parse.h"
#include "../../boot/dbg/opts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

/*
 * The kind table (early/transports.c) also makes instances; parsing never
 * does: reaching one of these is a bug.
 */
#include "../../io/serial/uart16550.h"
#include "../../io/serial/serial_transport.h"
#include "../../io/kbd/kbd_transport.h"
#include "../../io/ehci-dbgp/ehci_dbgp.h"
#include "../../io/serial/serial_pci.h"
#include "../../io/xhci-dbc/xhci_dbc.h"
int uart_probe(struct uart_port *p) { __builtin_trap(); }
int uart_pci_resolve(const struct uart_pci_spec *s, struct uart_port *p) { __builtin_trap(); }
struct ekdb_transport *serial_transport_start(const struct uart_port *w, int *e) { __builtin_trap(); }
struct ekdb_transport *kbd_screen_transport(int *e) { __builtin_trap(); }
struct ekdb_transport *dbgp_transport_init(unsigned i, unsigned s, int *e) { __builtin_trap(); }
struct ekdb_transport *xdbc_transport_init(unsigned i, unsigned s, int *e) { __builtin_trap(); }

static bool inside(const char *p, const char *buf, size_t len)
{
	return p >= buf && p <= buf + len;	/* the NUL at buf[len] counts */
}

/* A copy of @s in a buffer of exactly its size: a read past the NUL is an ASan report. */
static char *exact_copy(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	CHECK(d);
	memcpy(d, s, n);
	d[n] = 0;
	return d;
}

/* Every early parameter of the debugger on one value; a refusal leaves it off. */
static void early_params(const char *name, const char *value)
{
	static const struct {
		const char *name;
		early_param_fn fn;
	} params[] = {
		{ "ekgdboc", setup_ekgdboc }, { "kgdboc", setup_kgdboc },
		{ "kgdbdbgp", setup_kgdbdbgp }, { "kgdbwait", setup_kgdbwait },
		{ "kgdbcon", setup_kgdbcon }, { "kdb.cmd_enable", setup_kdb_cmd_enable },
	};
	char *v = value ? exact_copy(value, strlen(value)) : NULL;

	for (size_t i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
		int err;

		memset(&ekdb_opts, 0, sizeof(ekdb_opts));
		ekdb_opts.cmd_enable = KDB_ENABLE_ALL;
		err = params[i].fn(v);
		CHECK(err <= 0);
		CHECK(strnlen(ekdb_opts.ekgdboc, EKDB_OPT_MAX) < EKDB_OPT_MAX);
		CHECK(strnlen(ekdb_opts.kgdboc, EKDB_OPT_MAX) < EKDB_OPT_MAX);
		if (err) {	/* fail closed */
			CHECK(ekdb_opts.bad && ekdb_opts.bad_opt[0]);
			CHECK(!ekdb_opts.ekgdboc[0] && !ekdb_opts.kgdboc[0] && !ekdb_opts.kgdbdbgp);
			if (params[i].fn == setup_kdb_cmd_enable)
				CHECK(ekdb_opts.cmd_enable == 0);
		} else {
			CHECK(!ekdb_opts.bad);
			if (params[i].fn == setup_kgdbdbgp)
				CHECK(ekdb_opts.kgdbdbgp_dev.u.dbgp.index <= 9 && ekdb_opts.kgdbdbgp_dev.u.dbgp.secs <= 3600);
		}
	}
	free(v);
	(void)name;
}

static void tokenize(const char *line, size_t len)
{
	char *buf = exact_copy(line, len), *cur = buf, *prev = buf, *name, *value;
	size_t words = 0;

	while (cmdline_next(&cur, &name, &value)) {
		size_t nl;

		CHECK(++words <= len);			/* a word per call, never more than bytes */
		CHECK(inside(cur, buf, len) && cur > prev);
		CHECK(inside(name, buf, len) && name >= prev && name < cur);
		nl = strlen(name);
		CHECK(!memchr(name, '"', nl) && !memchr(name, '=', nl));
		if (value) {
			CHECK(inside(value, buf, len) && value > name && value <= cur);
			CHECK(!strchr(value, '"'));
		}
		early_params(name, value);
		ekdb_cmdline_has_word(line, name[0] ? name : "x");
		prev = cur;
	}
	CHECK(inside(cur, buf, len) && !*cur);
	CHECK(!cmdline_next(&cur, &name, &value));	/* the end stays the end */
	free(buf);
}

static void check_result(enum ekdb_cmdline_result r, const char *out, uint32_t out_size,
			 uint32_t out_len)
{
	if (r != EKDB_CMDLINE_OK)
		return;
	CHECK(out_len < out_size && out[out_len] == 0 && strlen(out) == out_len);
	for (uint32_t i = 0; i < out_len; i++)
		CHECK(out[i] >= 0x20 && out[i] <= 0x7e);
	if (out_len)
		CHECK(out[0] != ' ' && out[out_len - 1] != ' ');
}

static void loader_extract(const uint8_t *data, size_t size)
{
	uint32_t out_size = size ? data[0] * 8u : 0, out_len = ~0u;
	char *out = malloc(out_size ? out_size : 1);
	uint8_t *raw = malloc(size ? size : 1);
	enum ekdb_cmdline_result r;

	CHECK(out && raw);
	memcpy(raw, data, size);		/* exactly the bytes: no NUL after them */
	r = ekdb_cmdline_from_options(raw, size, out, out_size, &out_len);
	CHECK(r <= EKDB_CMDLINE_TOO_LONG);
	check_result(r, out, out_size, out_len);
	if (r == EKDB_CMDLINE_OK)
		tokenize(out, out_len);
	out_len = ~0u;
	r = ekdb_cmdline_from_file(raw, size, out, out_size, &out_len);
	CHECK(r <= EKDB_CMDLINE_TOO_LONG && r != EKDB_CMDLINE_ABSENT);
	check_result(r, out, out_size, out_len);
	free(raw);
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len = strnlen((const char *)data, size);
	char *line = exact_copy((const char *)data, len);
	struct ldr_dbg_opts o;

	tokenize(line, len);
	ldr_dbg_parse_opts(line, &o);
	CHECK(o.mode <= LDR_DBG_WAIT && o.test <= LDR_DBG_TEST_FAULT);
	CHECK(strnlen(o.ekgdboc, sizeof(o.ekgdboc)) < sizeof(o.ekgdboc));
	if (o.off_reason)
		CHECK(o.mode == LDR_DBG_OFF);
	if (o.mode != LDR_DBG_OFF)	/* it runs: on a serial line the parser accepted */
		CHECK(o.port && o.baud && o.ekgdboc[0]);
	ekdb_cmdline_has_word(line, "ekdb.loader=");
	ekdb_cmdline_has_word(line, "nokaslr");
	free(line);
	loader_extract(data, size);
	return 0;
}
