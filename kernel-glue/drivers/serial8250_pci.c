/* SPDX-License-Identifier: GPL-2.0 */
/*
 * serial8250_pci.c - 16550s behind PCI functions: a 16550-class function
 * (0x070002, e.g. QEMU's pci-serial: BAR0 is I/O) and the memory-mapped
 * UARTs of the few devices listed below (a laptop's Intel Serial IO UART:
 * BAR0 is memory, registers 4 bytes apart, 32-bit accesses), as Linux's
 * 8250_pci and 8250_lpss find them.  Lines are named ttyS4, ttyS5 ... in
 * the order found (the 4 ISA lines come first, as in Linux).
 *
 * A line is taken when the kernel wants it: the early console's UART
 * (earlycon=, earlyprintk=pciserial), kgdboc=ttySn naming it, or the UART
 * the early debugger drives (ekgdboc=, kgdboc_earlycon): the driver takes
 * it over from the early transport (ekdb_register_io matches the device).
 * The lines are polled from the timer tick (their INTx is not routed by
 * this kernel): the debugger's break-in still comes within a tick.
 */
#include <kernel/kernel.h>
#include <kernel/pci.h>
#include <kernel/printk.h>
#include <ekdb/ekdb.h>
#include <ekdb/errno.h>
#include <ekdb/fmt.h>
#include <ekdb/string.h>
#include <ekdb/transport.h>
#include "serial8250.h"
#include "../../io/serial/serial.h"

#define PCI_SERIAL_MAX	4

/* Memory-mapped UARTs known by id (Linux: 8250_lpss's table); others by class. */
static const struct {
	u16 vendor, device;
	u8 iotype, reg_shift;
} mmio_uarts[] = {
	{ 0x8086, 0x9d27, UART_IO_MMIO32, 2 },	/* Sunrise Point-LP Serial IO UART #0 */
	{ 0x8086, 0x9d28, UART_IO_MMIO32, 2 },	/* ... UART #1 */
	{ 0x8086, 0xa0a8, UART_IO_MMIO32, 2 },	/* Tiger Lake-LP Serial IO UART #0 */
};

struct found {
	u32 bdf[PCI_SERIAL_MAX];
	struct uart_regs regs[PCI_SERIAL_MAX];
	unsigned n;
};

/* Where the function's 16550 is; false if it has none this driver knows. */
static bool pci_uart_regs(u32 bdf, u32 id, struct uart_regs *r)
{
	u32 bar = pci_read32(bdf, PCI_BAR0);
	u64 base, size;

	memset(r, 0, sizeof(*r));
	for (unsigned i = 0; i < ARRAY_SIZE(mmio_uarts); i++) {
		if (id != ((u32)mmio_uarts[i].device << 16 | mmio_uarts[i].vendor))
			continue;
		if (!pci_bar(bdf, 0, &base, &size) || size < uart_regs_span(r))
			return false;
		r->iotype = mmio_uarts[i].iotype;
		r->reg_shift = mmio_uarts[i].reg_shift;
		r->addr = base;
		return true;
	}
	if (pci_read32(bdf, PCI_CLASS_REVISION) >> 8 != PCI_CLASS_SERIAL_16550)
		return false;
	if (bar & 1) {
		r->iotype = UART_IO_PORT;
		r->addr = bar & ~3u;
	} else if (pci_bar(bdf, 0, &base, &size)) {
		r->iotype = UART_IO_MMIO;
		r->addr = base;
	}
	return r->addr != 0;
}

static bool collect(u32 bdf, u32 id, void *arg)
{
	struct found *f = arg;

	if (f->n < PCI_SERIAL_MAX && pci_uart_regs(bdf, id, &f->regs[f->n]))
		f->bdf[f->n++] = bdf;
	return false;		/* every function */
}

/* The lines found at init, in order: ttyS4 is found.regs[0] (no hotplug here). */
static struct found found;

/* Set ttyS<4 + @i> up and give it to the 8250 driver (@baud: 0 = keep the line's). */
static int take_line(unsigned i, bool console, u32 baud)
{
	struct uart_regs *r = &found.regs[i];
	char name[8], dev[32];

	ekdb_snprintf(name, sizeof(name), "ttyS%u", 4 + i);
	uart_regs_describe(r, dev, sizeof(dev));
	pci_write16(found.bdf[i], PCI_COMMAND, pci_read16(found.bdf[i], PCI_COMMAND) |
		    (r->iotype == UART_IO_PORT ? PCI_COMMAND_IO : PCI_COMMAND_MEMORY));
	if (uart_regs_is_mmio(r) && !r->virt) {
		r->virt = ioremap(r->addr, uart_regs_span(r));
		if (!r->virt) {
			pr_err("serial8250: %s: %s is not mapped: the line stays %s\n", name,
			       dev, ekdb_io_wanted_dev(dev) ? "with the early driver" : "unused");
			return -EKDB_ENODEV;
		}
	}
	return serial8250_register_port(name, r, 0, console, baud);
}

static const struct ekdb_io_driver pci_io_driver;

void serial8250_pci_init(void)
{
	ekdb_register_io_driver(&pci_io_driver);
	pci_for_each_function(collect, &found);
	for (unsigned i = 0; i < found.n; i++) {
		char name[8], dev[32];
		bool console = early_serial_console_of(&found.regs[i]) != NULL;

		ekdb_snprintf(name, sizeof(name), "ttyS%u", 4 + i);
		uart_regs_describe(&found.regs[i], dev, sizeof(dev));
		if (!console && !ekdb_io_wanted(name) && !ekdb_io_wanted_dev(dev)) {
			pr_info("serial8250: %02x:%02x.%u: %s (%s) not used\n", found.bdf[i] >> 8,
				(found.bdf[i] >> 3) & 0x1f, found.bdf[i] & 7, name, dev);
			continue;
		}
		/* kgdboc='s baud for a line nobody set up; keep the line of an early user */
		take_line(i, console, console || ekdb_io_wanted_dev(dev) ? 0 : UART_DEFAULT_BAUD);
	}
	/* kgdboc= names a PCI line beyond those found: Linux's kgdboc probe stays deferred */
	for (unsigned i = found.n; i < PCI_SERIAL_MAX; i++) {
		char name[8];

		ekdb_snprintf(name, sizeof(name), "ttyS%u", 4 + i);
		if (ekdb_io_wanted(name))
			pr_warn("kgdboc: %s: no such line yet: the debugger waits for it (Linux defers "
				"kgdboc's probe); %u PCI UART(s) found\n", name, found.n);
	}
}

/*
 * A run-time kgdboc naming ttyS4..7: the PCI line the driver left unused
 * at boot is taken now (at @baud, default 115200), as Linux's 8250_pci
 * has a tty for every line it found; a line already taken is set to
 * @baud when one is given.  NULL when there is no such line.
 */
static struct ekdb_transport *pci_find(int line, u32 baud)
{
	char name[8] = "ttyS4";
	struct ekdb_transport *t;
	unsigned i;

	if (line < 4 || line > 9)
		return NULL;
	name[4] = (char)('0' + line);
	t = serial8250_find(name);
	if (t)
		return serial8250_set_baud(t, baud) ? NULL : t;
	i = (unsigned)(line - 4);
	if (i >= found.n || take_line(i, false, baud && baud <= UART_CLOCK_DIV_BASE ?
					      baud : UART_DEFAULT_BAUD))
		return NULL;
	return serial8250_find(name);
}

static const struct ekdb_io_driver pci_io_driver = {
	.name = "8250_pci", .kind = EKDB_TRANSPORT_SERIAL, .find = pci_find,
};
