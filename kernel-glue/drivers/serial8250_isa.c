/* SPDX-License-Identifier: GPL-2.0 */
/*
 * serial8250_isa.c - the PC's ISA serial ports: ttyS0..3 at their fixed
 * I/O bases and IRQs (COM1/COM3 on IRQ 4, COM2/COM4 on IRQ 3).
 *
 * The interrupt-driven driver takes a port when the kernel wants it: the
 * line of the serial console (earlyprintk=serial,ttySn: its input goes to
 * the console shell) and the lines the debugger uses (ekgdboc=, kgdboc=:
 * ekdb_io_wanted()).  Other ports stay untouched, so polled users
 * (test_linerate=) keep them.  A line nobody has set up yet (kgdboc=
 * naming a line neither the console nor ekgdboc= uses) is programmed at
 * kgdboc='s baud rate (default 115200), 8N1.
 */
#include <kernel/kernel.h>
#include <kernel/irq.h>
#include <kernel/printk.h>
#include <ekdb/ekdb.h>
#include <ekdb/string.h>
#include <ekdb/transport.h>
#include "serial8250.h"
#include "../../io/serial/serial.h"

static const struct ekdb_io_driver isa_io_driver;

static const unsigned int isa_serial_irq[4] = { IRQ_COM1, IRQ_COM2, IRQ_COM1, IRQ_COM2 };

/* Where @param's value names ttyS<line> ("kgdboc=kbd,ttyS1,9600"): the "ttySn", or NULL. */
static const char *option_line(const char *param, unsigned int line)
{
	const char *v = cmdline_get(param);

	for (const char *p = v; p && *p; p++)
		if ((p == v || p[-1] == ',') && !strncmp(p, "ttyS", 4) &&
		    p[4] == (char)('0' + line) && (!p[5] || p[5] == ','))
			return p;
	return NULL;
}

/* The baud rate kgdboc= gives ttyS<line>, or the default. */
static u32 kgdboc_baud(unsigned int line)
{
	const char *p = option_line("kgdboc", line);
	u32 baud = 0;

	if (p && p[5] == ',')
		for (p += 6; *p >= '0' && *p <= '9' && baud < UART_CLOCK_DIV_BASE; p++)
			baud = baud * 10 + (u32)(*p - '0');
	return baud && baud <= UART_CLOCK_DIV_BASE ? baud : UART_DEFAULT_BAUD;
}

void serial8250_init(void)
{

	for (unsigned int i = 0; i < ARRAY_SIZE(uart_std_ports); i++) {
		struct uart_regs r = { .iotype = UART_IO_PORT, .addr = uart_std_ports[i] };
		bool is_console = early_serial_console_of(&r) != NULL;
		char name[8] = "ttyS0";
		u32 setup_baud = 0;

		name[4] = (char)('0' + i);
		if (!is_console && !ekdb_io_wanted(name))
			continue;
		if (!is_console && !option_line("ekgdboc", i))
			setup_baud = kgdboc_baud(i);	/* nobody programmed this line */
		serial8250_register_port(name, &r, isa_serial_irq[i], is_console, setup_baud);
	}
	ekdb_register_io_driver(&isa_io_driver);
	serial8250_pci_init();
}

/*
 * A run-time kgdboc naming ttyS0..3: the registered port (set to @baud
 * when one is given), or the ISA port taken now (programmed at @baud, or
 * 115200 when 0).  NULL: not an ISA
 * line, or no UART there.
 */
static struct ekdb_transport *isa_find(int line, u32 baud)
{
	char name[8] = "ttyS0";
	struct ekdb_transport *t;
	struct uart_regs r;

	if (line < 0 || line >= (int)ARRAY_SIZE(uart_std_ports))
		return NULL;
	name[4] = (char)('0' + line);
	t = serial8250_find(name);
	if (t)
		return serial8250_set_baud(t, baud) ? NULL : t;
	r = (struct uart_regs){ .iotype = UART_IO_PORT, .addr = uart_std_ports[line] };
	if (serial8250_register_port(name, &r, isa_serial_irq[line], false,
				     baud && baud <= UART_CLOCK_DIV_BASE ? baud : UART_DEFAULT_BAUD))
		return NULL;
	return serial8250_find(name);
}

static const struct ekdb_io_driver isa_io_driver = {
	.name = "serial8250", .kind = EKDB_TRANSPORT_SERIAL, .find = isa_find,
};
