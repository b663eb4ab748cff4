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
#include <kernel/spinlock.h>
#include <ekdb/ekdb.h>
#include <ekdb/errno.h>
#include <ekdb/fmt.h>
#include <ekdb/kdb.h>
#include <ekdb/string.h>
#include <ekdb/transport.h>
#include <asm/io.h>
#include "serial8250.h"
#include "../../io/serial/serial.h"

#define SERIAL8250_NR_PORTS	6	/* the 4 ISA lines and PCI ones */
#define RX_BURST		256	/* bytes one interrupt takes at most */
#define DBGQ_SIZE		64	/* bytes waiting for the debugger's getc */
#define TX_POLLS		50000000UL	/* as io/serial's uart_putc: long first wait */
#define TX_POLLS_STUCK		2000UL

struct serial8250_port {
	char name[8];			/* "ttyS0": what kgdboc= names */
	char dev[32];			/* "io 0x3f8": the early transport of this UART has it too */
	char where[32];			/* "0x3f8", "MMIO32 0xc1000000": for people */
	struct uart_regs regs;
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

/*
 * One received byte, in interrupt context.  Not inlined: one place to stop
 * at each byte the handler took (test_serial_irq.py plants a breakpoint
 * here while more bytes wait in the FIFO).
 */
static __noinline void serial8250_rx(struct serial8250_port *p, u8 c, struct pt_regs *regs)
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

	if (uart_in(&p->regs, UART_IIR) & UART_IIR_NO_INT)
		return false;		/* the other port on this IRQ */
	p->interrupts++;
	for (unsigned int n = 0; n < RX_BURST; n++) {
		lsr = uart_in(&p->regs, UART_LSR);
		if (lsr & UART_LSR_ERRORS) {
			p->errors++;
			if (lsr & UART_LSR_OE)
				p->overruns++;
		}
		if (!(lsr & UART_LSR_DR))
			break;
		serial8250_rx(p, uart_in(&p->regs, UART_RBR), regs);
	}
	/*
	 * Bytes still waiting after a full burst: the line stays asserted and an
	 * edge-triggered input would never see a new edge.  Dropping and
	 * restoring IER makes the UART lower and raise it again.
	 */
	if (uart_in(&p->regs, UART_LSR) & UART_LSR_DR) {
		uart_out(&p->regs, UART_IER, 0);
		uart_out(&p->regs, UART_IER, UART_IER_RDI | UART_IER_RLSI);
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
	if (!(uart_in(&p->regs, UART_LSR) & UART_LSR_DR))
		return EKDB_NO_CHAR;
	return uart_in(&p->regs, UART_RBR);
}

static __ekdb_nobp void serial8250_putc(struct ekdb_transport *t, u8 c)
{
	struct serial8250_port *p = t->priv;
	unsigned long polls = p->tx_stuck ? TX_POLLS_STUCK : TX_POLLS;

	while (!(uart_in(&p->regs, UART_LSR) & UART_LSR_THRE)) {
		if (!--polls) {
			p->tx_stuck = true;	/* a dead line must not freeze the kernel */
			return;
		}
	}
	p->tx_stuck = false;
	uart_out(&p->regs, UART_THR, c);
}

/* For a successor: the line and the bytes queued for the debugger. */
static __ekdb_nobp void serial8250_export_state(struct ekdb_transport *t, struct ekdb_transport_state *st)
{
	struct serial8250_port *p = t->priv;
	int c;

	st->kind = EKDB_TRANSPORT_SERIAL;
	st->u.serial.base = p->regs.addr;
	st->u.serial.iotype = p->regs.iotype;
	st->u.serial.reg_shift = p->regs.reg_shift;
	st->u.serial.baud = p->baud;
	st->npending = 0;
	while (st->npending < EKDB_HANDOFF_PENDING_MAX && (c = dbgq_get(p)) != EKDB_NO_CHAR)
		st->pending[st->npending++] = (u8)c;
}

/*
 * From the early polled transport of the same line: its pending bytes are
 * console input that arrived before this driver; they go to the console
 * first.  A '$' last is a gdb packet's, which the early break-in poll kept
 * for a stop it could not make yet (another CPU held the debugger: the
 * stop is pending for the next tick): it goes to the debugger's queue, and
 * the rest of the packet, which the interrupt reads next, queues behind it.
 */
static __ekdb_nobp int serial8250_import_state(struct ekdb_transport *t, const struct ekdb_transport_state *st)
{
	struct serial8250_port *p = t->priv;
	struct uart_regs r = { .iotype = st->u.serial.iotype, .reg_shift = st->u.serial.reg_shift,
			       .addr = st->u.serial.base };
	unsigned int n = MIN(st->npending, (unsigned int)EKDB_HANDOFF_PENDING_MAX);
	bool dollar = n && st->pending[n - 1] == '$';

	if (st->kind != EKDB_TRANSPORT_SERIAL || !uart_regs_same(&r, &p->regs))
		return -EKDB_EINVAL;
	if (st->u.serial.baud)
		p->baud = st->u.serial.baud;
	for (unsigned int i = 0; i + dollar < n; i++)
		to_console(p, st->pending[i]);
	if (dollar && !dbgq_put(p, '$'))
		to_console(p, '$');
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

/*
 * A line without an interrupt (a memory-mapped UART whose IRQ this
 * kernel does not route): the timer tick reads it.  Ctrl-C and a gdb
 * packet's '$' ask for the debugger, as the interrupt does; other bytes
 * go to the console input.
 */
static __ekdb_nobp int serial8250_poll_break(struct ekdb_transport *t)
{
	struct serial8250_port *p = t->priv;

	for (unsigned int n = 0; n < RX_BURST; n++) {
		u8 c;

		if (!(uart_in(&p->regs, UART_LSR) & UART_LSR_DR))
			break;
		c = uart_in(&p->regs, UART_RBR);
		p->rx++;
		if (p->debugger && c == 0x03) {
			p->ctrlc++;
			return EKDB_BREAK_CTRLC;
		}
		if (p->debugger && c == '$' && dbgq_put(p, c)) {
			p->gdb++;
			return EKDB_BREAK_GDB;
		}
		to_console(p, c);
	}
	return EKDB_BREAK_NONE;
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

		kdb_printf(s, "%s: %s irq %u %u baud%s%s: rx %llu, console %llu, dropped %llu, "
			   "ctrl-c %llu, gdb %llu, interrupts %llu, errors %llu (overruns %llu)\n",
			   p->name, p->where, p->irq, p->baud, p->console ? " console" : "",
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

/* The debugger wants this line: by its name (kgdboc=ttyS4), or as the device an early transport drives. */
static bool debugger_wants(const struct serial8250_port *p)
{
	return ekdb_io_wanted(p->name) || ekdb_io_wanted_dev(p->dev);
}

/* "0x3f8" for a port (Linux's words), "MMIO32 0xc1000000" for memory. */
static void uart_where(const struct uart_regs *r, char *buf, size_t len)
{
	ekdb_snprintf(buf, len, "%s0x%llx", r->iotype == UART_IO_MMIO32 ? "MMIO32 " :
		      r->iotype == UART_IO_MMIO ? "MMIO " : "", (unsigned long long)r->addr);
}

static const char *const iotype_words[] = {
	[UART_IO_PORT] = "I/O", [UART_IO_MMIO] = "MMIO", [UART_IO_MMIO32] = "MMIO32",
};

int serial8250_register_port(const char *name, const struct uart_regs *regs, unsigned int irq,
			     bool console, u32 setup_baud)
{
	struct serial8250_port *p;
	char dev[32], where[32];
	bool wanted;
	int err;

	if (nr_ports == SERIAL8250_NR_PORTS)
		return -EKDB_ENOSPC;
	if (regs->iotype > UART_IO_MMIO32 || (uart_regs_is_mmio(regs) && !regs->virt))
		return -EKDB_EINVAL;
	uart_regs_describe(regs, dev, sizeof(dev));
	uart_where(regs, where, sizeof(where));
	wanted = ekdb_io_wanted(name) || ekdb_io_wanted_dev(dev);
	if (!uart_regs_probe(regs)) {
		if (wanted)
			pr_err("serial8250: %s: no UART at %s: the debugger cannot use %s\n",
			       name, where, name);
		else
			pr_info("serial8250: %s: no UART at %s\n", name, where);
		return -EKDB_ENODEV;
	}
	p = &ports[nr_ports];
	memset(p, 0, sizeof(*p));
	strlcpy(p->name, name, sizeof(p->name));
	strlcpy(p->dev, dev, sizeof(p->dev));
	strlcpy(p->where, where, sizeof(p->where));
	p->regs = *regs;
	p->irq = irq;
	p->console = console;
	if (setup_baud && setup_baud <= UART_CLOCK_DIV_BASE)
		uart_regs_setup(regs, setup_baud, UART_FCR_TRIG1);
	p->baud = uart_regs_read_baud(regs);
	p->transport = (struct ekdb_transport){
		.name = p->name,
		.dev = p->dev,
		.kind = EKDB_TRANSPORT_SERIAL,
		.getc = serial8250_getc,
		.putc = serial8250_putc,
		.poll_break = irq ? NULL : serial8250_poll_break,
		.export_state = serial8250_export_state,
		.import_state = serial8250_import_state,
		.init = serial8250_debug_init,
		.deinit = serial8250_deinit,
		.irq = (int)irq,
		.priv = p,
	};
	uart_out(regs, UART_IER, 0);
	if (irq) {
		err = request_irq(irq, serial8250_interrupt, p->name, p);
		if (err) {
			pr_err("serial8250: %s: IRQ %u: error %d: the line stays polled\n", name, irq, err);
			return err;
		}
	}
	if (!nr_ports++)
		kdb_register(&serial_cmd);
	/* the debugger's line: take it over from the early transport (no poll from now) */
	if (debugger_wants(p)) {
		err = ekdb_register_io(&p->transport);
		if (err)
			pr_err("serial8250: %s: the debugger did not take the line (error %d)\n",
			       name, err);
		else
			p->debugger = true;
	}
	uart_out(regs, UART_MCR, uart_in(regs, UART_MCR) | UART_MCR_DTR_RTS | UART_MCR_OUT2);
	if (irq)
		uart_out(regs, UART_IER, UART_IER_RDI | UART_IER_RLSI);	/* bytes already waiting interrupt now */
	if (irq)
		pr_info("serial8250: %s at %s 0x%llx (irq = %u, %u baud) is a 16550A%s%s\n",
			p->name, iotype_words[regs->iotype], (unsigned long long)regs->addr, irq,
			p->baud, p->console ? ", console input" : "",
			p->debugger ? ", debugger line (kgdboc)" : "");
	else
		pr_info("serial8250: %s at %s 0x%llx (polled, %u baud) is a 16550A%s%s\n",
			p->name, iotype_words[regs->iotype], (unsigned long long)regs->addr,
			p->baud, p->console ? ", console input" : "",
			p->debugger ? ", debugger line (kgdboc)" : "");
	return 0;
}

/*
 * kgdboc=ttySn,baud naming a port already registered: program @baud, as
 * Linux's uart_poll_init sets the options when kgdboc= gives them (and
 * keeps the line as it is when it does not: @baud 0).  Nothing is
 * reprogrammed (no FIFO byte lost) when the line already runs at @baud.
 * The tick's poll and the port's interrupt must not read the divisor
 * latch as data: interrupts are off on this CPU meanwhile, the port's IER
 * comes back as it was.
 */
int serial8250_set_baud(struct ekdb_transport *t, u32 baud)
{
	static DEFINE_SPINLOCK(setup_lock);
	struct serial8250_port *p = t->priv;
	unsigned long flags;
	u32 old;
	u8 ier;

	if (!baud)
		return 0;
	if (baud > UART_CLOCK_DIV_BASE)
		return -EKDB_EINVAL;
	spin_lock_irqsave(&setup_lock, flags);
	old = uart_regs_read_baud(&p->regs);
	if (old != baud) {
		ier = uart_in(&p->regs, UART_IER);
		uart_regs_setup(&p->regs, baud, UART_FCR_TRIG1);
		uart_out(&p->regs, UART_IER, ier);
	}
	p->baud = uart_regs_read_baud(&p->regs);
	spin_unlock_irqrestore(&setup_lock, flags);
	if (old != p->baud)
		pr_info("serial8250: %s at %s: %u baud (was %u)\n", p->name, p->where, p->baud, old);
	return 0;
}

struct ekdb_transport *serial8250_find(const char *name)
{
	for (unsigned int i = 0; i < nr_ports; i++)
		if (!strcmp(ports[i].name, name))
			return &ports[i].transport;
	return NULL;
}

unsigned int serial8250_nr_ports(void)
{
	return nr_ports;
}
