/* SPDX-License-Identifier: GPL-2.0 */
/*
 * transports.c - the table of transport kinds (include/ekdb/transport.h):
 * how a word of ekgdboc=, kgdboc= or kgdbdbgp= names a device (prefix,
 * parse), whether the device is there (probe), and its instance from the
 * early lifetime's static pools (instantiate).  param.c parses with it,
 * init.c instantiates with it, core/kgdboc.c reads kgdboc='s device words
 * with it; the running kernel's drivers make their own instances of the
 * same devices and take over (core/late/takeover.c).  Static storage only.
 */
#include "early.h"
#include <ekdb/errno.h>
#include <ekdb/string.h>
#include "../io/serial/uart16550.h"
#include "../io/serial/serial_transport.h"
#include "../io/serial/serial_pci.h"
#include "../io/kbd/kbd_transport.h"
#include "../io/ehci-dbgp/ehci_dbgp.h"
#include "../io/xhci-dbc/xhci_dbc.h"

/* ---------------------------------------------------------------- serial */

static int serial_parse(const char *word, struct ekdb_transport_cfg *cfg)
{
	struct uart_port p;
	int err = uart_parse_options(word, &p);

	if (err)
		return err;
	cfg->u.serial.addr = p.regs.addr;
	cfg->u.serial.iotype = p.regs.iotype;
	cfg->u.serial.reg_shift = p.regs.reg_shift;
	cfg->u.serial.baud = p.baud;
	return 0;
}

void early_transport_cfg_to_uart(const struct ekdb_transport_cfg *cfg, struct uart_port *p)
{
	memset(p, 0, sizeof(*p));
	p->regs.addr = cfg->u.serial.addr;
	p->regs.iotype = cfg->u.serial.iotype;
	p->regs.reg_shift = cfg->u.serial.reg_shift;
	p->baud = cfg->u.serial.baud;
}

static int serial_probe(const struct ekdb_transport_cfg *cfg)
{
	struct uart_port p;

	early_transport_cfg_to_uart(cfg, &p);
	return uart_probe(&p);
}

static struct ekdb_transport *serial_instantiate(const struct ekdb_transport_cfg *cfg, int *err)
{
	struct uart_port p;

	early_transport_cfg_to_uart(cfg, &p);
	return serial_transport_start(&p, err);
}

struct ekdb_transport *early_transport_serial_from(const struct uart_port *port, int *err)
{
	struct ekdb_transport_cfg cfg = { .ops = early_transport_kind("ttyS") };

	cfg.u.serial.addr = port->regs.addr;
	cfg.u.serial.iotype = port->regs.iotype;
	cfg.u.serial.reg_shift = port->regs.reg_shift;
	cfg.u.serial.baud = port->baud;
	return cfg.ops->instantiate(&cfg, err);
}

/* pciserial,[force,]BB:DD.F[,baud]: the 16550 of a PCI function (BAR0 read at instantiate). */
static int pciserial_parse(const char *word, struct ekdb_transport_cfg *cfg)
{
	struct uart_pci_spec spec;
	int err;

	if (strncmp(word, "pciserial,", 10))
		return -EKDB_EINVAL;
	err = uart_parse_pciserial(word + 10, &spec);
	if (err)
		return err;
	cfg->u.serial.pci = true;
	cfg->u.serial.pci_force = spec.force;
	cfg->u.serial.bus = spec.bus;
	cfg->u.serial.slot = spec.slot;
	cfg->u.serial.func = spec.func;
	cfg->u.serial.baud = spec.baud;
	return 0;
}

static int pciserial_port(const struct ekdb_transport_cfg *cfg, struct uart_port *p)
{
	struct uart_pci_spec spec = {
		.bus = cfg->u.serial.bus, .slot = cfg->u.serial.slot, .func = cfg->u.serial.func,
		.force = cfg->u.serial.pci_force, .baud = cfg->u.serial.baud,
	};

	return uart_pci_resolve(&spec, p);
}

static int pciserial_probe(const struct ekdb_transport_cfg *cfg)
{
	struct uart_port p;
	int err = pciserial_port(cfg, &p);

	return err ? err : uart_probe(&p);
}

static struct ekdb_transport *pciserial_instantiate(const struct ekdb_transport_cfg *cfg, int *err)
{
	struct uart_port p;

	*err = pciserial_port(cfg, &p);
	return *err ? NULL : serial_transport_start(&p, err);
}

/* ---------------------------------------------------------------- kbd */

static int kbd_parse(const char *word, struct ekdb_transport_cfg *cfg)
{
	return strcmp(word, "kbd") ? -EKDB_EINVAL : 0;
}

static struct ekdb_transport *kbd_instantiate(const struct ekdb_transport_cfg *cfg, int *err)
{
	return kbd_screen_transport(err);
}

/* ---------------------------------------------------------------- dbgp */

/*
 * "dbgpN[,secs]" and "xdbcN[,secs]": kgdbdbgp= and kgdbxdbc= are these words
 * without their 4-letter prefix (the table matched it), one grammar for both
 * USB debug devices (cfg->u.dbgp: the Nth EHCI debug port or xHCI controller).
 */
static int usb_debug_parse(const char *word, struct ekdb_transport_cfg *cfg)
{
	unsigned index, secs;
	int err = dbgp_parse_kgdbdbgp(word + 4, &index, &secs);

	if (err)
		return err;
	cfg->u.dbgp.index = (u8)index;
	cfg->u.dbgp.secs = (u16)secs;
	return 0;
}

static struct ekdb_transport *dbgp_instantiate(const struct ekdb_transport_cfg *cfg, int *err)
{
	return dbgp_transport_init(cfg->u.dbgp.index, cfg->u.dbgp.secs, err);
}

/* ---------------------------------------------------------------- xdbc */

static struct ekdb_transport *xdbc_instantiate(const struct ekdb_transport_cfg *cfg, int *err)
{
	return xdbc_transport_init(cfg->u.dbgp.index, cfg->u.dbgp.secs, err);
}

/* ---------------------------------------------------------------- the table */

static const struct ekdb_transport_kind_ops kinds[] = {
	{ "ttyS", EKDB_TRANSPORT_SERIAL, serial_parse, serial_probe, serial_instantiate },
	{ "0x", EKDB_TRANSPORT_SERIAL, serial_parse, serial_probe, serial_instantiate },
	{ "pciserial", EKDB_TRANSPORT_SERIAL, pciserial_parse, pciserial_probe,
	  pciserial_instantiate },
	{ "kbd", EKDB_TRANSPORT_KBD, kbd_parse, NULL, kbd_instantiate },
	{ "dbgp", EKDB_TRANSPORT_DBGP, usb_debug_parse, NULL, dbgp_instantiate },
	{ "xdbc", EKDB_TRANSPORT_XDBC, usb_debug_parse, NULL, xdbc_instantiate },
};

const struct ekdb_transport_kind_ops *early_transport_kind(const char *word)
{
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		if (!strncmp(word, kinds[i].prefix, strlen(kinds[i].prefix)))
			return &kinds[i];
	return NULL;
}

const struct ekdb_transport_kind_ops *early_transport_kind_of(enum ekdb_transport_kind kind)
{
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		if (kinds[i].kind == kind)
			return &kinds[i];
	return NULL;
}

int early_transport_parse(const char *word, struct ekdb_transport_cfg *cfg)
{
	const struct ekdb_transport_kind_ops *k = word ? early_transport_kind(word) : NULL;
	int err;

	memset(cfg, 0, sizeof(*cfg));
	if (!k)
		return -EKDB_ENOSYS;
	err = k->parse(word, cfg);
	if (!err)
		cfg->ops = k;
	return err;
}

/*
 * ekgdboc=: one device ("ttyS1,115200", "0x2f8"), or the keyboard and
 * screen with a serial line beside them ("kbd", "kbd,ttyS0,115200").
 */
int early_ekgdboc_parse(const char *v, struct ekdb_transport_cfg *cfgs, unsigned *n)
{
	int err;

	*n = 0;
	if (!v || !*v)
		return -EKDB_EINVAL;
	if (!strncmp(v, "kbd", 3) && v[3] == ',') {
		char word[4] = "kbd";

		err = early_transport_parse(word, &cfgs[0]);
		if (!err)
			err = early_transport_parse(v + 4, &cfgs[1]);
		if (!err && cfgs[1].ops->kind != EKDB_TRANSPORT_SERIAL)
			err = -EKDB_EINVAL;	/* kbd,<a serial line> only */
		*n = err ? 0 : 2;
		return err == -EKDB_ENOSYS ? -EKDB_EINVAL : err;
	}
	err = early_transport_parse(v, &cfgs[0]);
	if (!err && (cfgs[0].ops->kind == EKDB_TRANSPORT_DBGP ||
		     cfgs[0].ops->kind == EKDB_TRANSPORT_XDBC))
		err = -EKDB_ENOSYS;	/* the USB debug devices are kgdbdbgp='s and kgdbxdbc='s */
	*n = err ? 0 : 1;
	return err;
}
