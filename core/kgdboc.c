/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kgdboc.c - kgdboc=[kms][,kbd][,ttySn[,baud]] (Linux's syntax), parsed
 * into the devices the running kernel's drivers are asked to give the
 * debugger.  Pure and static: checked at early-param time (a bad value
 * turns the debugger off there) and read by the late core.
 */
#include "debug_core.h"
#include <ekdb/errno.h>
#include <ekdb/string.h>
#include "../earlyio/serial/uart16550.h"

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
			struct uart_port port;
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
			if (uart_parse_options(opt, &port))
				return -EKDB_EINVAL;
			cfg->serial = true;
			cfg->base = port.base;
			cfg->baud = port.baud;
			cfg->line = -1;
			for (unsigned i = 0; i < ARRAY_SIZE(uart_std_ports); i++)
				if (uart_std_ports[i] == port.base)
					cfg->line = (int)i;
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
