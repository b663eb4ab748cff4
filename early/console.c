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
#include <ekdb/log.h>
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

/* early consoles set up so far, by kind (one bit per init function) */
static unsigned kinds_done;

static unsigned kind_bit(const struct early_console_kind *k)
{
	unsigned bit = 0;

	for (size_t i = 0; i < ARRAY_SIZE(early_console_kinds); i++)
		if (early_console_kinds[i].init == k->init) {
			bit = 1u << i;
			break;
		}
	return bit;
}

/*
 * One early console of each kind.  A second word of a kind already set up
 * (earlyprintk=serial,ttyS0 earlyprintk=serial,ttyS7) is ignored with a
 * message, as Linux ignores a second earlyprintk=: the first keeps the boot
 * log.  Different kinds (serial and vga) go together.
 */
static int start_kind(const struct early_console_kind *k, const char *opt, const char *value)
{
	unsigned bit = kind_bit(k);
	int r;

	if (kinds_done & bit) {
		pr_warn("earlyprintk=%s ignored: an early %s console is already set up "
			"(the first earlyprintk= of a kind keeps the boot log)\n", value, k->prefix);
		return 0;
	}
	r = k->init(opt);
	if (!r)
		kinds_done |= bit;
	return r;
}

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
			return start_kind(k, opt, value);
		if (opt[plen] == 0)
			return start_kind(k, "", value);
		if (opt[plen] == ',')
			return start_kind(k, opt + plen + 1, value);
	}
	return -EKDB_EINVAL;
}
EARLY_PARAM("earlyprintk", setup_early_printk,
	    "serial[,ttySn|0xPORT][,baud] | ttySn[,baud] | vga | efi | dbgp[N][,keep]");
