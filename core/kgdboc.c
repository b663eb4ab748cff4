/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kgdboc.c - kgdboc=[kms][,kbd][,ttySn[,baud]] (Linux's syntax), parsed
 * into the devices the running kernel's drivers are asked to give the
 * debugger (a serial line's word by the 16550's own option parser,
 * io/serial).  Pure and static: checked at early-param time (a bad value
 * turns the debugger off there) and read by the late core.
 */
#include "debug_core.h"
#include <ekdb/errno.h>
#include <ekdb/string.h>
#include "../io/serial/uart16550.h"

static bool word_is(const char *w, size_t n, const char *lit)
{
	return strlen(lit) == n && !strncmp(w, lit, n);
}

static size_t word_len(const char *w)
{
	const char *c = strchr(w, ',');

	return c ? (size_t)(c - w) : strlen(w);
}

static bool is_digits(const char *w, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (w[i] < '0' || w[i] > '9')
			return false;
	return true;
}

/*
 * One serial line: ttyS0..3 or 0xPORT by the transport kind table's
 * serial parse; ttyS4..7 is a PCI line, numbered by its driver as it
 * finds it (no fixed base).  A baud rate may follow.
 */
static int parse_serial_word(const char *opt, struct kgdboc_cfg *cfg)
{
	struct uart_port port;
	struct uart_regs regs = { 0 };

	cfg->serial = true;
	cfg->baud_given = strchr(opt, ',') != NULL;
	if (!strncmp(opt, "ttyS", 4) && opt[4] >= '4' && opt[4] <= '7' &&
	    (!opt[5] || opt[5] == ',')) {
		cfg->line = opt[4] - '0';
		cfg->baud = UART_DEFAULT_BAUD;
		return opt[5] ? uart_parse_baud(opt + 6, &cfg->baud) : 0;
	}
	/* ttyS0..3 and 0xPORT: the 16550's own option parser (io/serial) */
	if ((strncmp(opt, "ttyS", 4) && strncmp(opt, "0x", 2)) || uart_parse_options(opt, &port))
		return -EKDB_EINVAL;
	regs.addr = port.regs.addr;
	cfg->base = (u16)port.regs.addr;
	cfg->baud = port.baud;
	cfg->line = uart_std_line(&regs);
	return 0;
}

int kgdboc_parse(const char *v, struct kgdboc_cfg *cfg)
{
	const char *p = v;

	memset(cfg, 0, sizeof(*cfg));
	if (!v || !*v)
		return -EKDB_EINVAL;
	while (*p) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);

		if (word_is(p, n, "kms") && !cfg->kms) {
			cfg->kms = true;
		} else if (word_is(p, n, "kbd") && !cfg->kbd) {
			cfg->kbd = true;
		} else if ((!strncmp(p, "ttyS", 4) || !strncmp(p, "0x", 2)) && !cfg->serial) {
			char opt[24];
			size_t m = n;
			const char *next = comma;

			/* a baud rate may follow the line: ttyS0,115200 */
			if (comma && is_digits(comma + 1, word_len(comma + 1))) {
				m = n + 1 + word_len(comma + 1);
				next = strchr(comma + 1, ',');
			}
			if (m >= sizeof(opt))
				return -EKDB_EINVAL;
			memcpy(opt, p, m);
			opt[m] = 0;
			if (parse_serial_word(opt, cfg))
				return -EKDB_EINVAL;
			comma = next;
		} else {
			return -EKDB_EINVAL;	/* unknown driver, or named twice */
		}
		if (!comma)
			break;
		p = comma + 1;
		if (!*p)
			return -EKDB_EINVAL;	/* trailing comma */
	}
	return 0;
}

/* Does @cfg name the device @name ("kms", "kbd", "ttyS1")? */
bool kgdboc_names(const struct kgdboc_cfg *cfg, const char *name)
{
	if (!strcmp(name, "kms"))
		return cfg->kms;
	if (!strcmp(name, "kbd"))
		return cfg->kbd;
	return cfg->serial && cfg->line >= 0 && !strncmp(name, "ttyS", 4) &&
	       name[4] == (char)('0' + cfg->line) && !name[5];
}
