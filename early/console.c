/* SPDX-License-Identifier: GPL-2.0 */
/*
 * console.c - earlyprintk=: bring up the early consoles named on the
 * command line, with Linux's syntax:
 *   earlyprintk=serial[,ttySn|0xPORT][,baud]   earlyprintk=ttySn[,baud]
 *   earlyprintk=vga | efi                      earlyprintk=dbgp[N][,keep]
 * ",keep" at the end is accepted (our early consoles are never dropped;
 * the debug port records it for its late driver).
 * Static storage only.
 */
#include <kernel/printk.h>
#include <ekdb/cmdline.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>
#include "../earlyio/serial/serial_console.h"
#include "../earlyio/vga/vga_console.h"
#include "../earlyio/ehci-dbgp/ehci_dbgp.h"

static bool keep_given;

static int early_dbgp_init(const char *opt)
{
	return early_dbgp_console_init(opt, keep_given);
}

struct early_console_kind {
	const char *prefix;
	bool strip_prefix;	/* pass what follows "prefix," (serial) or the whole word (ttyS0) */
	int (*init)(const char *opt);
};

static const struct early_console_kind early_console_kinds[] = {
	{ "serial", true, early_serial_console_init },
	{ "ttyS", false, early_serial_console_init },
	{ "vga", true, early_vga_console_init },
	{ "efi", true, early_vga_console_init },
	{ "dbgp", false, early_dbgp_init },
};

static int setup_early_printk(const char *value)
{
	char opt[64];
	size_t n;

	if (!value || !*value)
		return -EKDB_EINVAL;
	if (strlcpy(opt, value, sizeof(opt)) >= sizeof(opt))
		return -EKDB_E2BIG;
	n = strlen(opt);
	keep_given = n >= 5 && !strcmp(opt + n - 5, ",keep");
	if (keep_given)
		opt[n - 5] = 0;
	for (size_t i = 0; i < ARRAY_SIZE(early_console_kinds); i++) {
		const struct early_console_kind *k = &early_console_kinds[i];
		size_t plen = strlen(k->prefix);

		if (strncmp(opt, k->prefix, plen))
			continue;
		if (!k->strip_prefix)
			return k->init(opt);
		if (opt[plen] == 0)
			return k->init("");
		if (opt[plen] == ',')
			return k->init(opt + plen + 1);
	}
	return -EKDB_EINVAL;
}
EARLY_PARAM("earlyprintk", setup_early_printk,
	    "serial[,ttySn|0xPORT][,baud] | ttySn[,baud] | vga | efi | dbgp[N][,keep]");
