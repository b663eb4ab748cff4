/* SPDX-License-Identifier: GPL-2.0 */
/*
 * transport.h - a byte channel that carries the debugger (kgdb_io analogue).
 *
 * A transport is a small ops table (serial line, keyboard+screen, USB debug
 * port) registered with core/transport.c.  Several may be active at once:
 * input is polled from all of them, output goes to all of them.
 * All ops are called with interrupts off and must never block for long:
 * hardware waits are bounded.
 */
#ifndef EKDB_TRANSPORT_H
#define EKDB_TRANSPORT_H

#include <ekdb/types.h>
#include <ekdb/handoff.h>	/* EKDB_HANDOFF_PENDING_MAX */

#define EKDB_NO_CHAR	(-1)	/* getc: nothing available right now */
#define EKDB_CHAN_EOF	(-2)	/* getc: channel closed for good (host tests) */
/*
 * getc of a keyboard transport: Alt+SysRq+@k was pressed (not a byte).
 * The break-in poll enters the debugger on sysrq-g; the debugger's own
 * input ignores it.
 */
#define EKDB_CHAR_SYSRQ(k)	(0x100 | (u8)(k))

/* What kind of device carries the bytes: decides who may succeed whom. */
enum ekdb_transport_kind {
	EKDB_TRANSPORT_SERIAL = 1,	/* a 16550 line: ttySn */
	EKDB_TRANSPORT_KBD,		/* keyboard input, screen (console) output */
	EKDB_TRANSPORT_DBGP,		/* EHCI USB debug port: dbgpN */
	EKDB_TRANSPORT_XDBC,		/* xHCI Debug Capability: xdbcN */
};

/*
 * What a transport hands to its successor at the handoff (early polled
 * driver -> the running kernel's driver for the same device): the device
 * settings it needs to keep going without touching the hardware's state,
 * and the bytes it has received that nobody consumed yet (oldest first).
 * Filled by export_state() of the old one, read by import_state() of the new.
 */
struct ekdb_transport_state {
	enum ekdb_transport_kind kind;
	u8 pending[EKDB_HANDOFF_PENDING_MAX];
	unsigned npending;
	union {
		struct {
			u64 base;		/* I/O port, or physical address (memory types) */
			u32 baud;
			u8 iotype;		/* io/serial/uart_regs.h: io, mmio, mmio32 */
			u8 reg_shift;		/* registers 1 << reg_shift bytes apart */
		} serial;
		struct {
			u8 shift, ctrl, alt;	/* keys held down (bitmask left/right) */
			bool caps_lock, num_lock, scroll_lock;
			bool enter_down;	/* an Enter press whose release is still to come */
			bool e0_prefix;		/* half a two-byte scan code was read */
			bool ps2;		/* the state above is a PS/2 keyboard's */
			u8 usb;			/* USB boot keyboards read beside it */
		} kbd;
		struct {
			u32 pci_bdf;		/* bus << 8 | dev << 3 | fn */
			u64 regs_phys;		/* debug port registers */
			u8 devnum;		/* the debug device's USB address */
			u8 ep_out, ep_in;
			u8 toggle_out, toggle_in;	/* next DATA0/1 per endpoint */
			u8 port;		/* root hub port (1-based) */
			u16 poll_secs;		/* kgdbdbgp=N,secs: break-in poll period */
			bool console;		/* earlyprintk=dbgpN writes to it */
			bool keep;		/* ...with ,keep: also after the EHCI driver's reset */
		} dbgp;
		struct {
			u32 pci_bdf;		/* bus << 8 | dev << 3 | fn */
			u64 regs_phys;		/* the DbC's registers (BAR + capability offset) */
			u64 mem_phys;		/* the early driver's DMA block (rings, buffers) */
			void *mem;		/* ...where the early driver reaches it */
			u8 out_enq, out_deq, out_cycle;	/* OUT transfer ring: producer state */
			u8 in_enq, in_deq, in_cycle;	/* IN transfer ring */
			u8 evt_deq, evt_cycle;	/* event ring: consumer state */
			u8 in_head;		/* the IN buffer read next, and how far */
			u16 in_pos;
			u8 in_state[8];		/* per IN buffer: free, posted, done ... */
			u16 in_len[8];		/* ... with this many bytes */
			u8 port;		/* root port the far host is on */
			bool enabled;		/* DCE set by the early driver */
			bool configured;	/* DCR: the far host configured the device */
			bool loaded;		/* ...at least once since DCE: the controller walks the rings */
			u16 poll_secs;		/* kgdbxdbc=N,secs */
			bool console;		/* earlyprintk=xdbcN writes to it */
			bool keep;		/* ...with ,keep: also after the handoff */
		} xdbc;
	} u;
};

struct ekdb_transport {
	const char *name;			/* "ttyS0", "kbd", "dbgp0": what kgdboc= names */
	/*
	 * dev - the device, when its name does not say it ("io 0xc000",
	 * "mmio32 0xc1000000"): an early transport and the running kernel's
	 * driver of one UART meet by it when their names differ.  May be NULL.
	 */
	const char *dev;
	enum ekdb_transport_kind kind;
	/** getc - one byte, EKDB_CHAR_SYSRQ(key), or EKDB_NO_CHAR when none is waiting (polled, bounded). */
	int (*getc)(struct ekdb_transport *t);
	/** putc - queue one byte (may spin for a bounded time). */
	void (*putc)(struct ekdb_transport *t, u8 c);
	/** write - queue @n bytes, as @n putc calls would; may be NULL (putc is used). */
	void (*write)(struct ekdb_transport *t, const u8 *buf, size_t n);
	/** flush - push queued output to the wire; may be NULL. */
	void (*flush)(struct ekdb_transport *t);
	/** pre_exception / post_exception - called on debugger entry/exit; may be NULL. */
	void (*pre_exception)(struct ekdb_transport *t);
	void (*post_exception)(struct ekdb_transport *t);
	/**
	 * poll_break - for transports without an interrupt of their own: called
	 * from the timer tick while the kernel runs.  Reads what the device has
	 * (bounded) and returns an EKDB_BREAK_* reason when that input asks for
	 * the debugger (Ctrl-C, the start of a gdb packet, sysrq-g), else
	 * EKDB_BREAK_NONE.  Bytes that belong to the debugger (a gdb packet)
	 * stay queued for getc.  May be NULL (the driver has an IRQ and calls
	 * ekdb_break_in() itself).
	 */
	int (*poll_break)(struct ekdb_transport *t);
	/** export_state - fill @st for a successor; may be NULL (nothing to hand over). */
	void (*export_state)(struct ekdb_transport *t, struct ekdb_transport_state *st);
	/** import_state - take over from a predecessor of the same device; 0 or -errno. */
	int (*import_state)(struct ekdb_transport *t, const struct ekdb_transport_state *st);
	/**
	 * init - the debugger starts using @t at run time (kgdboc written in
	 * the running system, no predecessor): the driver routes its break-in
	 * input to the debugger from now; may be NULL.  Interrupts off.
	 */
	void (*init)(struct ekdb_transport *t);
	/** deinit - the debugger no longer uses @t (after a successor took over); may be NULL. */
	void (*deinit)(struct ekdb_transport *t);
	bool is_console;			/* output-only side (screen) wants kdb text, not gdb packets */
	/*
	 * scripted: the peer answers in lock-step and never leaves a backlog
	 * (the ekdbts self-test): the stub must not read ahead of a request
	 * for one (gdbstub/packet.c rx_backlog), a read there is a real wait.
	 */
	bool scripted;
	/*
	 * quiet_polls - how many getc calls in a row that find nothing make a
	 * pause (tens of ms) after which no more of a burst is on its way; 0:
	 * EKDB_QUIET_POLLS, right for a port read in microseconds.  A device
	 * whose read is a bus transaction (the USB debug port) says fewer.
	 */
	unsigned long quiet_polls;
	int irq;				/* the driver's interrupt line; 0: polled */
	void *priv;
};

/*
 * A kind of transport, as the command line names it: the word's prefix,
 * a pure parse of the word into a configuration, a probe of the device,
 * and instantiate (an instance from the lifetime's storage: a static pool
 * early).  One table of kinds (early/transports.c) serves ekgdboc=,
 * kgdboc_earlycon, kgdbdbgp= and the device words of kgdboc=.
 */
struct ekdb_transport_cfg;

struct ekdb_transport_kind_ops {
	const char *prefix;			/* "ttyS", "0x", "kbd", "dbgp" */
	enum ekdb_transport_kind kind;
	/** parse - the word (prefix included) into @cfg; pure; 0 or -errno. */
	int (*parse)(const char *word, struct ekdb_transport_cfg *cfg);
	/** probe - is the device there (touches the hardware); 0 or -EKDB_ENODEV. */
	int (*probe)(const struct ekdb_transport_cfg *cfg);
	/** instantiate - the instance for @cfg's device; NULL with *@err set. */
	struct ekdb_transport *(*instantiate)(const struct ekdb_transport_cfg *cfg, int *err);
};

/*
 * A driver of the running kernel as a maker of instances of one kind: a
 * driver that can give the debugger one of its devices on demand (a
 * run-time kgdboc=) registers one of these with ekdb_register_io_driver()
 * (<ekdb/ekdb.h>).  The early lifetime makes its instances from the kind
 * table above; the running kernel's come from these.
 * find - the driver's instance of line @line (ttyS@line; -1 for a kind with
 *   one device, the keyboard), set up now at @baud (0: the default) if
 *   nobody had it; a line already open is set to @baud when it is not 0
 *   (Linux's uart_poll_init: kgdboc='s options are applied, none keep the
 *   line); NULL when the line is not this driver's or not there.  Process
 *   context.
 */
struct ekdb_io_driver {
	const char *name;		/* "serial8250", "8250_pci", "i8042": for messages */
	enum ekdb_transport_kind kind;
	struct ekdb_transport *(*find)(int line, u32 baud);
};

struct ekdb_transport_cfg {
	const struct ekdb_transport_kind_ops *ops;
	union {
		struct {
			u64 addr;		/* I/O port or physical address */
			u32 baud;		/* 0: keep the line as it is */
			u8 iotype, reg_shift;	/* io/serial/uart_regs.h */
			bool pci, pci_force;	/* pciserial: addr is found from BAR0 */
			u8 bus, slot, func;	/* ... of this PCI function */
		} serial;
		struct {
			u8 index;		/* the Nth EHCI debug port (dbgp) or xHCI controller (xdbc) */
			u16 secs;		/* break-in poll period while running; 0: none */
		} dbgp;
	} u;
};

/* The kind whose prefix starts @word, or NULL (early/transports.c). */
const struct ekdb_transport_kind_ops *early_transport_kind(const char *word);
/* One device word ("ttyS1,9600", "kbd", "dbgp0,5"): 0, -EKDB_ENOSYS (no such kind), -EKDB_EINVAL. */
int early_transport_parse(const char *word, struct ekdb_transport_cfg *cfg);

/* Reasons a driver asks for the debugger (poll_break, ekdb_break_in). */
enum ekdb_break_reason {
	EKDB_BREAK_NONE = 0,
	EKDB_BREAK_CTRLC,		/* 0x03 on the line: gdb's interrupt, kdb's Ctrl-C */
	EKDB_BREAK_GDB,			/* a gdb packet arrived while the kernel ran */
	EKDB_BREAK_SYSRQ,		/* sysrq-g ("Keyboard Entry") */
};

/*
 * A simple polled channel (what gdbstub and kdb consume): the core builds
 * one over all registered transports; host tests build one over a script.
 */
/* Empty polls of a register-read device that make a pause (struct ekdb_transport). */
#define EKDB_QUIET_POLLS	20000UL

struct ekdb_chan {
	int (*getc)(void *arg);			/* byte, EKDB_NO_CHAR, or EKDB_CHAN_EOF */
	void (*putc)(void *arg, u8 c);
	void (*write)(void *arg, const u8 *buf, size_t n);	/* may be NULL: putc each byte */
	void (*flush)(void *arg);		/* may be NULL */
	/* empty getc calls in a row that make a pause; NULL: EKDB_QUIET_POLLS */
	unsigned long (*quiet_polls)(void *arg);
	/*
	 * A live line: input already waiting when a stop begins was typed
	 * before it (kdb drops it, up to a '$': kdb_drop_stale_input()).
	 * false for scripted channels (host tests), whose input is all there.
	 */
	bool drop_stale;
	void *arg;
};

#endif
