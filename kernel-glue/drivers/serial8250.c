/* SPDX-License-Identifier: GPL-2.0 */
/*
 * serial8250.c - the running kernel's 16550 driver: receive by interrupt,
 * transmit polled, and the debugger transport for its line (Linux's
 * 8250 + kgdboc, in one small file).
 *
 * The receive interrupt drains the UART and sorts each byte:
 *  - on the debugger's line (ekdb_io_wanted("ttySn")):
 *      0x03  -> ekdb_break_in(regs, EKDB_BREAK_CTRLC) at once (consumed)
 *      '$'   -> queued for the debugger's getc, ekdb_break_in(regs,
 *               EKDB_BREAK_GDB): gdb talking to a running kernel; the
 *               rest of the packet is read by the debugger (polled).
 *               When another CPU holds the debugger for a moment the
 *               break-in is kept for the next tick: until the debugger
 *               reads the queue, the bytes that follow go behind the '$'
 *               (the packet's, not the console's)
 *  - every other byte (and all bytes of a console-only line) goes to the
 *    kernel's console input (console_input_char()) when this is the
 *    console's line: nothing is eaten.  A debugger-only line (gdb on
 *    ttyS1, the console on ttyS0) has no other reader: its stray bytes
 *    (gdb's connect-time '+') are counted as dropped.
 * While the debugger is stopped (interrupts off) it polls the line through
 * the transport's getc: the queued bytes first, then the UART.
 *
 * At ekdb_register_io() the early polled transport hands over the line's
 * settings and the console bytes it read and nobody consumed
 * (import_state): they go to the console input first, in order.  The
 * line itself is not reprogrammed (no byte in the FIFO is lost).
 */
#include <kernel/kernel.h>
#include <kernel/console.h>
#include <kernel/irq.h>
#include <kernel/printk.h>
#include <ekdb/ekdb.h>
#include <ekdb/errno.h>
#include <ekdb/kdb.h>
#include <ekdb/string.h>
#include <ekdb/transport.h>
#include <asm/io.h>
#include "serial8250.h"

/* 16550 registers (offsets from the base port) */
#define UART_RBR	0	/* receive buffer (read, DLAB=0) */
#define UART_THR	0	/* transmit holding (write, DLAB=0) */
#define UART_DLL	0	/* divisor latch low (DLAB=1) */
#define UART_IER	1	/* interrupt enable (DLAB=0) */
#define UART_DLM	1	/* divisor latch high (DLAB=1) */
#define UART_IIR	2	/* interrupt identification (read) */
#define UART_LCR	3	/* line control */
#define UART_MCR	4	/* modem control */
#define UART_LSR	5	/* line status */
#define UART_SCR	7	/* scratch */

#define IER_RDI		0x01	/* received data available (and FIFO timeout) */
#define IER_RLSI	0x04	/* receiver line status (errors) */
#define IIR_NO_INT	0x01
#define UART_FCR	2	/* FIFO control (write) */
#define LCR_8N1		0x03
#define LCR_DLAB	0x80
#define FCR_ENABLE_CLEAR_TRIG1	0x07	/* FIFOs on and cleared, interrupt at 1 byte */
#define MCR_DTR_RTS	0x03
#define MCR_OUT2	0x08	/* gates the IRQ line to the PIC/I/O APIC on a PC */
#define LSR_DR		0x01
#define LSR_OE		0x02
#define LSR_ERRORS	0x1e	/* overrun, parity, framing, break */
#define LSR_THRE	0x20

#define SERIAL8250_NR_PORTS	4
#define RX_BURST		256	/* bytes one interrupt takes at most */
#define DBGQ_SIZE		64	/* bytes waiting for the debugger's getc */
#define TX_POLLS		50000000UL	/* as earlyio's uart_putc: long first wait */
#define TX_POLLS_STUCK		2000UL
#define UART_CLOCK_BASE		115200

struct serial8250_port {
	char name[8];			/* "ttyS0": what kgdboc= names */
	u16 base;
	unsigned int irq;
	u32 baud;
	bool debugger;			/* the debugger uses this line */
	bool console;			/* the console's line: other bytes are typed input */
	bool tx_stuck;
	struct ekdb_transport transport;
	u8 dbgq[DBGQ_SIZE];		/* '$' (and imported bytes) for getc */
	volatile unsigned int dbgq_head, dbgq_tail;
	/* counters (kdb `serial`, the console shell's `stat`) */
	u64 rx, to_console, dropped, ctrlc, gdb, errors, overruns, interrupts;
};

static struct serial8250_port ports[SERIAL8250_NR_PORTS];
static unsigned int nr_ports;

static bool dbgq_put(struct serial8250_port *p, u8 c)
{
	if (p->dbgq_head - p->dbgq_tail >= DBGQ_SIZE)
		return false;
	p->dbgq[p->dbgq_head % DBGQ_SIZE] = c;
	WRITE_ONCE(p->dbgq_head, p->dbgq_head + 1);
	return true;
}

static int dbgq_get(struct serial8250_port *p)
{
	int c;

	if (p->dbgq_tail == READ_ONCE(p->dbgq_head))
		return EKDB_NO_CHAR;
	c = p->dbgq[p->dbgq_tail % DBGQ_SIZE];
	WRITE_ONCE(p->dbgq_tail, p->dbgq_tail + 1);
	return c;
}

static void to_console(struct serial8250_port *p, u8 c)
{
	if (!p->console) {
		p->dropped++;
		return;
	}
	p->to_console++;
	console_input_char((char)c);
}

/* One received byte, in interrupt context. */
static void serial8250_rx(struct serial8250_port *p, u8 c, struct pt_regs *regs)
{
	p->rx++;
	if (p->debugger && c != 0x03 && p->dbgq_tail != READ_ONCE(p->dbgq_head) &&
	    dbgq_put(p, c))
		return;		/* behind a '$' the debugger has not read yet: the packet's */
	if (p->debugger && c == 0x03) {
		p->ctrlc++;
		if (ekdb_break_in(regs, EKDB_BREAK_CTRLC))
			return;
	} else if (p->debugger && c == '$') {
		p->gdb++;
		if (dbgq_put(p, c)) {
			if (ekdb_break_in(regs, EKDB_BREAK_GDB))
				return;
			/* nobody came: the '$' was the last byte queued; take it back */
			WRITE_ONCE(p->dbgq_head, p->dbgq_head - 1);
		}
	}
	to_console(p, c);
}

static bool serial8250_interrupt(unsigned int irq, void *dev, struct pt_regs *regs)
{
	struct serial8250_port *p = dev;
	u8 lsr;

	if (inb(p->base + UART_IIR) & IIR_NO_INT)
		return false;		/* the other port on this IRQ */
	p->interrupts++;
	for (unsigned int n = 0; n < RX_BURST; n++) {
		lsr = inb(p->base + UART_LSR);
		if (lsr & LSR_ERRORS) {
			p->errors++;
			if (lsr & LSR_OE)
				p->overruns++;
		}
		if (!(lsr & LSR_DR))
			break;
		serial8250_rx(p, inb(p->base + UART_RBR), regs);
	}
	/*
	 * Bytes still waiting after a full burst: the line stays asserted and an
	 * edge-triggered input would never see a new edge.  Dropping and
	 * restoring IER makes the UART lower and raise it again.
	 */
	if (inb(p->base + UART_LSR) & LSR_DR) {
		outb(p->base + UART_IER, 0);
		outb(p->base + UART_IER, IER_RDI | IER_RLSI);
	}
	return true;
}

/* ---------------------------------------------------------------- transport */

static __ekdb_nobp int serial8250_getc(struct ekdb_transport *t)
{
	struct serial8250_port *p = t->priv;
	int c = dbgq_get(p);

	if (c != EKDB_NO_CHAR)
		return c;
	if (!(inb(p->base + UART_LSR) & LSR_DR))
		return EKDB_NO_CHAR;
	return inb(p->base + UART_RBR);
}

static __ekdb_nobp void serial8250_putc(struct ekdb_transport *t, u8 c)
{
	struct serial8250_port *p = t->priv;
	unsigned long polls = p->tx_stuck ? TX_POLLS_STUCK : TX_POLLS;

	while (!(inb(p->base + UART_LSR) & LSR_THRE)) {
		if (!--polls) {
			p->tx_stuck = true;	/* a dead line must not freeze the kernel */
			return;
		}
	}
	p->tx_stuck = false;
	outb(p->base + UART_THR, c);
}

/* For a successor: the line and the bytes queued for the debugger. */
static __ekdb_nobp void serial8250_export_state(struct ekdb_transport *t, struct ekdb_transport_state *st)
{
	struct serial8250_port *p = t->priv;
	int c;

	st->kind = EKDB_TRANSPORT_SERIAL;
	st->u.serial.base = p->base;
	st->u.serial.baud = p->baud;
	st->npending = 0;
	while (st->npending < EKDB_HANDOFF_PENDING_MAX && (c = dbgq_get(p)) != EKDB_NO_CHAR)
		st->pending[st->npending++] = (u8)c;
}

/*
 * From the early polled transport of the same line: its pending bytes are
 * console input that arrived before this driver (a kept '$' whose
 * debugger entry never happened included); they go to the console first.
 */
static __ekdb_nobp int serial8250_import_state(struct ekdb_transport *t, const struct ekdb_transport_state *st)
{
	struct serial8250_port *p = t->priv;

	if (st->kind != EKDB_TRANSPORT_SERIAL || st->u.serial.base != p->base)
		return -EKDB_EINVAL;
	if (st->u.serial.baud)
		p->baud = st->u.serial.baud;
	for (unsigned int i = 0; i < st->npending && i < EKDB_HANDOFF_PENDING_MAX; i++)
		to_console(p, st->pending[i]);
	return 0;
}

/* kgdboc names this line at run time: its Ctrl-C and '$' are the debugger's from now. */
static __ekdb_nobp void serial8250_debug_init(struct ekdb_transport *t)
{
	struct serial8250_port *p = t->priv;

	p->dbgq_tail = p->dbgq_head;	/* nothing stale for the debugger's getc */
	p->debugger = true;
}

static __ekdb_nobp void serial8250_deinit(struct ekdb_transport *t)
{
	struct serial8250_port *p = t->priv;

	p->debugger = false;	/* the line stays a console line */
}

/* ---------------------------------------------------------------- setup */

static bool uart_present(u16 base)
{
	u8 old = inb(base + UART_SCR);
	bool ok;

	outb(base + UART_SCR, 0x5a);
	ok = inb(base + UART_SCR) == 0x5a;
	outb(base + UART_SCR, 0xa5);
	ok = ok && inb(base + UART_SCR) == 0xa5;
	outb(base + UART_SCR, old);
	return ok;
}

/* The baud rate the line runs at now (whoever programmed it). */
static u32 uart_read_baud(u16 base)
{
	u8 lcr = inb(base + UART_LCR);
	u16 div;

	outb(base + UART_LCR, lcr | LCR_DLAB);
	div = (u16)(inb(base + UART_DLL) | inb(base + UART_DLM) << 8);
	outb(base + UART_LCR, lcr);
	return div ? UART_CLOCK_BASE / div : 0;
}

/* ---------------------------------------------------------------- kdb */

static int kdb_serial(struct kdb_session *s, int argc, const char **argv)
{
	if (argc)
		return kdb_printf(s, "usage: serial\n"), 0;
	if (!nr_ports)
		return kdb_printf(s, "no interrupt-driven serial port\n"), 0;
	for (unsigned int i = 0; i < nr_ports; i++) {
		const struct serial8250_port *p = &ports[i];

		kdb_printf(s, "%s: 0x%x irq %u %u baud%s%s: rx %llu, console %llu, dropped %llu, "
			   "ctrl-c %llu, gdb %llu, interrupts %llu, errors %llu (overruns %llu)\n",
			   p->name, p->base, p->irq, p->baud, p->console ? " console" : "",
			   p->debugger ? " debugger" : "",
			   (unsigned long long)p->rx, (unsigned long long)p->to_console,
			   (unsigned long long)p->dropped,
			   (unsigned long long)p->ctrlc, (unsigned long long)p->gdb,
			   (unsigned long long)p->interrupts, (unsigned long long)p->errors,
			   (unsigned long long)p->overruns);
	}
	return 0;
}

static const struct kdb_cmd serial_cmd = {
	.name = "serial",
	.fn = kdb_serial,
	.usage = "",
	.help = "Show the interrupt-driven serial ports and their counters",
	.flags = KDB_ENABLE_INSPECT,
};

static void uart_setup(u16 base, u32 baud)
{
	u16 div = (u16)(UART_CLOCK_BASE / baud);

	outb(base + UART_IER, 0);
	outb(base + UART_LCR, LCR_DLAB);
	outb(base + UART_DLL, div & 0xff);
	outb(base + UART_DLM, div >> 8);
	outb(base + UART_LCR, LCR_8N1);
	outb(base + UART_FCR, FCR_ENABLE_CLEAR_TRIG1);
}

int serial8250_register_port(const char *name, u16 base, unsigned int irq, bool console,
			     u32 setup_baud)
{
	struct serial8250_port *p;
	int err;

	if (nr_ports == SERIAL8250_NR_PORTS)
		return -EKDB_ENOSPC;
	if (!uart_present(base)) {
		if (ekdb_io_wanted(name))
			pr_err("serial8250: %s: no UART at 0x%x: the debugger cannot use %s\n",
			       name, base, name);
		else
			pr_info("serial8250: %s: no UART at 0x%x\n", name, base);
		return -EKDB_ENODEV;
	}
	p = &ports[nr_ports];
	memset(p, 0, sizeof(*p));
	strlcpy(p->name, name, sizeof(p->name));
	p->base = base;
	p->irq = irq;
	p->console = console;
	if (setup_baud && setup_baud <= UART_CLOCK_BASE)
		uart_setup(base, setup_baud);
	p->baud = uart_read_baud(base);
	p->transport = (struct ekdb_transport){
		.name = p->name,
		.kind = EKDB_TRANSPORT_SERIAL,
		.getc = serial8250_getc,
		.putc = serial8250_putc,
		.export_state = serial8250_export_state,
		.import_state = serial8250_import_state,
		.init = serial8250_debug_init,
		.deinit = serial8250_deinit,
		.irq = (int)irq,
		.priv = p,
	};
	outb(base + UART_IER, 0);
	err = request_irq(irq, serial8250_interrupt, p->name, p);
	if (err) {
		pr_err("serial8250: %s: IRQ %u: error %d: the line stays polled\n", name, irq, err);
		return err;
	}
	if (!nr_ports++)
		kdb_register(&serial_cmd);
	/* the debugger's line: take it over from the early transport (no poll from now) */
	if (ekdb_io_wanted(p->name)) {
		err = ekdb_register_io(&p->transport);
		if (err)
			pr_err("serial8250: %s: the debugger did not take the line (error %d)\n",
			       name, err);
		else
			p->debugger = true;
	}
	outb(base + UART_MCR, inb(base + UART_MCR) | MCR_DTR_RTS | MCR_OUT2);
	outb(base + UART_IER, IER_RDI | IER_RLSI);	/* bytes already waiting interrupt now */
	pr_info("serial8250: %s at I/O 0x%x (irq = %u, %u baud) is a 16550A%s%s\n",
		p->name, base, irq, p->baud, p->console ? ", console input" : "",
		p->debugger ? ", debugger line (kgdboc)" : "");
	return 0;
}


struct ekdb_transport *serial8250_find(const char *name)
{
	for (unsigned int i = 0; i < nr_ports; i++)
		if (!strcmp(ports[i].name, name))
			return &ports[i].transport;
	return NULL;
}
