/* SPDX-License-Identifier: GPL-2.0 */
/*
 * console.c - earlyprintk=: bring up the early consoles named on the
 * command line, with Linux's syntax:
 *   earlyprintk=serial[,ttySn|0xPORT][,baud]   earlyprintk=ttySn[,baud]
 *   earlyprintk=vga | efi                      earlyprintk=dbgp[N][,keep]
 *   earlyprintk=xdbc[N][,keep]
 *   earlyprintk=pciserial[,force],BB:DD.F[,baud]   (a PCI function's 16550)
 * and earlycon= (Linux's drivers/tty/serial/earlycon.c syntax):
 *   earlycon=uart8250|uart,io|mmio|mmio32,0xADDR[,options]
 *   earlycon                 the console the ACPI SPCR table describes
 * ",keep" at the end is accepted (our early consoles are never dropped;
 * the debug port records it for its late driver).
 * Static storage only.
 */
#include <ekdb/log.h>
#include <ekdb/port.h>
#include <ekdb/cmdline.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>
#include "../io/serial/serial_console.h"
#include "../io/serial/serial_pci.h"
#include "../io/serial/earlycon.h"
#include "early.h"
#include "../io/vga/vga_console.h"
#include "../io/ehci-dbgp/ehci_dbgp.h"
#include "../io/xhci-dbc/xhci_dbc.h"

static bool keep_given;

static int early_dbgp_init(const char *opt)
{
	return early_dbgp_console_init(opt, keep_given);
}

static int early_xdbc_init(const char *opt)
{
	return early_xdbc_console_init(opt, keep_given);
}

/* pciserial[,force],BB:DD.F[,baud]: Linux's x86 form for a PCI function's 16550. */
static int early_pciserial_init(const char *opt)
{
	struct uart_pci_spec spec;
	struct uart_port port;
	int err = uart_parse_pciserial(opt, &spec);

	if (err)
		return err;
	err = uart_pci_resolve(&spec, &port);
	if (err) {
		pr_err("earlyprintk: pciserial %02x:%02x.%u: %s\n", spec.bus, spec.slot, spec.func,
		       err == -EKDB_ENODEV && !spec.force ?
		       "no 16550-class function there (a UART of another class needs ,force)" :
		       ekdb_strerror(err));
		return err;
	}
	return early_serial_console_start(&port, EARLY_SERIAL_PRINTK);
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
	{ "xdbc", false, early_xdbc_init },
	{ "pciserial", true, early_pciserial_init },
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
	    "serial[,ttySn|0xPORT][,baud] | ttySn[,baud] | vga | efi | dbgp[N][,keep] | "
	    "pciserial[,force],BB:DD.F[,baud] | xdbc[N][,keep]");

/* ---------------------------------------------------------------- earlycon= */

static struct earlycon_spec earlycon;	/* the one set up, for kgdboc_earlycon */
static bool earlycon_up;

static int start_earlycon(const char *value)
{
	struct earlycon_spec ec;
	int err = uart_parse_earlycon(value, &ec);

	if (err)
		return err;
	if (earlycon_up) {
		pr_warn("earlycon=%s ignored: earlycon %s is already set up\n", value, earlycon.name);
		return 0;
	}
	err = early_serial_console_start(&ec.port, EARLY_SERIAL_EARLYCON);
	if (err == -EKDB_EFAULT) {
		pr_err("earlycon: %s at %s 0x%llx: the address is not mapped (not device memory this kernel reaches)\n",
		       ec.name, uart_iotype_str(ec.port.regs.iotype),
		       (unsigned long long)ec.port.regs.addr);
		return err;
	}
	if (err == -EKDB_ENODEV) {
		pr_err("earlycon: %s at %s 0x%llx: no 16550 answers there\n", ec.name,
		       uart_iotype_str(ec.port.regs.iotype), (unsigned long long)ec.port.regs.addr);
		return err;
	}
	if (err)
		return err;
	earlycon = ec;
	earlycon_up = true;
	/* Linux: "earlycon: uart8250 at I/O port 0x3f8 (options '115200n8')" */
	pr_info("earlycon: %s%s at %s 0x%llx (options '%s')\n", ec.name,
		strcmp(ec.name, "uart") ? "" : "0", uart_iotype_str(ec.port.regs.iotype),
		(unsigned long long)ec.port.regs.addr, ec.options);
	return 0;
}

/* Bare earlycon: the console the ACPI SPCR table describes, as Linux's acpi_parse_spcr. */
static int earlycon_from_spcr(void)
{
	char opts[64];
	const void *spcr;
	u32 len;
	int err;

	spcr = ekdb_acpi_table("SPCR", &len);	/* the host's firmware tables (<ekdb/port.h>) */
	if (!spcr) {
		pr_err("earlycon: no ACPI SPCR table: no console to take (give earlycon=uart8250,io,0x3f8)\n");
		return -EKDB_ENODEV;
	}
	err = spcr_to_earlycon(spcr, len, opts, sizeof(opts));
	if (err) {
		pr_err("ACPI: SPCR: %s\n", err == -EKDB_ENOSYS ?
		       "a console this kernel has no early driver for (not a 16550, or its baud rate)" :
		       "malformed table");
		return err;
	}
	pr_info("ACPI: SPCR: console: %s\n", opts);
	return start_earlycon(opts);
}

static int setup_earlycon(const char *value)
{
	if (!value)
		return earlycon_from_spcr();
	return start_earlycon(value);
}
EARLY_PARAM("earlycon", setup_earlycon,
	    "uart8250|uart,io|mmio|mmio32,0xADDR[,baud] (bare: the ACPI SPCR console)");

const struct uart_port *early_earlycon_port(const char **name)
{
	if (!earlycon_up)
		return NULL;
	*name = earlycon.name;
	return early_serial_console_of(&earlycon.port.regs);
}
