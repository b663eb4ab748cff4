/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ekdb.h - what the kernel calls to host the debugger (with <ekdb/port.h>,
 * all a host sees of it: docs/porting.md).
 *
 *  ekdb_start()        the one way the debugger starts (struct ekdb_start:
 *                      what the host decided); ekdb_early_init() builds one
 *                      from the command line.  ekdb_handoff_export() and
 *                      ekdb_shutdown() end a host's lifetime.
 *  ekdb_trap_breakpoint/_debug/_nmi()  for a kernel that owns its IDT.
 *
 *  ekdb_handoff_takeover() in x86_64_start_kernel(), right after the GDT
 *                      and IDT: the loader's debugger state (if any) is
 *                      taken over; the kernel's jump window is refused.
 *  ekdb_early_init()   in setup_arch(), right after parse_early_param():
 *                      brings up the transport named by ekgdboc=, takes
 *                      the debug vectors (#DB, #BP), stops if kgdbwait.
 *  ekdb_handle_die()   from the oops path before printing: the debugger
 *                      stops there first when it is enabled.
 *  ekdb_poll_break()   from a periodic tick: a Ctrl-C on a polled
 *                      transport, or one kept by ekdb_break_in() while
 *                      the debugger was busy, breaks into the debugger.
 *  ekdb_cpu_online()   on the AP as it comes up: it becomes a thread and
 *                      loads the armed hardware breakpoints.
 *  ekdb_set_roundup_fn() from SMP bring-up: how to send the round-up NMI.
 *  ekdb_late_init()    after mm_init(): the handoff to the full core.
 *  ekdb_register_io()  a running kernel's driver takes over a transport.
 *  ekdb_break_in()     a driver's IRQ saw Ctrl-C, a gdb packet or sysrq-g.
 *  kgdb_breakpoint()   stop right here (kgdbwait, sysrq-g).
 */
#ifndef EKDB_EKDB_H
#define EKDB_EKDB_H

#include <ekdb/types.h>

EKDB_API_BEGIN

/*
 * __ekdb_nobp - kernel code no breakpoint may be planted in (the linker
 * puts it inside __ekdb_text_start..__ekdb_text_end, like Linux's
 * NOKPROBE_SYMBOL / noinstr): every kernel function the stop path can run
 * (which CPU am I, the round-up NMI, the display hooks, the drivers'
 * transport ops, the stopped ops of <ekdb/port.h>, and all they call, in a
 * stop, as it leaves, in the tick's break-in poll and in kgdbcon packets: the
 * set tests/integration/test_stop_trace.py records), and code that runs where
 * the debugger cannot take a trap (an AP before its IDT is loaded).  A
 * breakpoint there is refused (gdb E01, kdb message).
 */
#define __ekdb_nobp	__section(".text.ekdb_nobp")

struct pt_regs;
struct gdb_session;
struct kdb_session;
struct ekdb_transport;
struct ekdb_handoff;

/*
 * The debugger's lifetimes (docs/handoff.md): the UEFI loader's, the early
 * kernel's (static storage, setup_arch()) and the full one (allocated
 * storage, after ekdb_late_init(); the kernel's drivers take the
 * transports over inside it).  A breakpoint remembers the lifetime that
 * planted it (the gdb helpers show it).
 */
enum ekdb_lifetime { EKDB_LIFE_LOADER = 1, EKDB_LIFE_EARLY = 2, EKDB_LIFE_FULL = 3 };

/*
 * struct ekdb_sessions - where the gdb and kdb sessions live (the host's
 * static storage before an allocator exists).  gdb_in/gdb_out:
 * gdb_bufsize bytes each (gdb's PacketSize).  kdb_hist: a larger history
 * ring for a session that moves in (NULL: the session's own).
 */
struct ekdb_sessions {
	struct gdb_session *gdb;
	struct kdb_session *kdb;
	char *gdb_in, *gdb_out;
	size_t gdb_bufsize;
	char (*kdb_hist)[256];		/* KDB_LINE_MAX (<ekdb/kdb.h>) */
	unsigned kdb_hist_cap;
};

/*
 * struct ekdb_start - what a host decides when it starts the debugger
 * itself (the UEFI loader, a kernel's own early code, the ekdbts
 * self-test): ekdb_start() takes it.  A kernel that lets the debugger
 * read its command line calls ekdb_early_init() instead, which builds one
 * from ekgdboc=, kgdbdbgp=, kgdbxdbc=, kdb.cmd_enable= and calls it.
 *
 * @sessions:	the session storage (must stay valid until moved).
 * @io:		the transports, in order (the first answers a waiting gdb's
 *		NAK); unused entries NULL.  Made by the drivers' constructors
 *		(io/: serial_transport_init(), ...).
 * @cmd_enable:	kdb.cmd_enable's mask (Linux's KDB_ENABLE_*; 1: all).
 * @lifetime:	the lifetime breakpoints are planted in (0: early).
 * @code_addr:	where software breakpoints may go, for a lifetime whose
 *		code is not the kernel's _text.._etext (the loader); NULL:
 *		the kernel's text.
 * @libraries, @libraries_svr4: the images gdb should load symbols for,
 *		as qXfer:libraries:read / libraries-svr4 documents; NULL: none.
 * @gdb_owns_line: gdb, not kdb, reads the line from the first stop (a
 *		host whose peer is known to be gdb: ekdbts).
 */
#define EKDB_START_IO	4
struct ekdb_start {
	const struct ekdb_sessions *sessions;
	struct ekdb_transport *io[EKDB_START_IO];
	u32 cmd_enable;
	enum ekdb_lifetime lifetime;
	bool (*code_addr)(u64 addr);
	const char *(*libraries)(size_t *len);
	const char *(*libraries_svr4)(size_t *len);
	bool gdb_owns_line;
};

/*
 * ekdb_start - the one way the debugger starts: the sessions set up in
 * @s->sessions, the transports registered, the debug vectors taken
 * (arch_dbg_traps_init).  From here a breakpoint, a watchpoint or
 * kgdb_breakpoint() stops in the debugger.  0, or -errno with nothing left
 * registered: -EKDB_EBUSY (started already), -EKDB_EINVAL (no sessions,
 * no transport), -EKDB_ENOMEM (sessions could not be set up), or a
 * transport's refusal.
 */
int ekdb_start(const struct ekdb_start *s);

/*
 * ekdb_shutdown - the host goes back to someone who does not know the
 * debugger (the loader returns to the firmware): every breakpoint out of
 * the text and the debug registers, the debugger off.  The host gives its
 * vectors back itself.
 */
void ekdb_shutdown(void);

/*
 * ekdb_handoff_export - the last act before a host jumps to its successor
 * (the loader to the kernel): the breakpoints, the line and the sessions
 * into @rec (<ekdb/handoff.h>) for the successor's ekdb_handoff_takeover().
 * The hardware slots are disarmed here; software breakpoints stay in the
 * text for the successor.  0, or -errno with every breakpoint taken out
 * (nothing is left planted for a successor that cannot take it over).
 * The debugger is off afterwards either way.
 */
int ekdb_handoff_export(struct ekdb_handoff *rec);
/*
 * ekdb_handoff_lend - ekdb_handoff_export() for a successor debugger in the
 * same kernel that borrows ekdb's transports (ekdb_io_getc(),
 * ekdb_io_write(), ekdb_io_write_screen()) instead of driving a 16550
 * itself (Linux's kgdb I/O module): any transport will do (a keyboard and
 * screen, a USB debug port); @rec's line names the 16550 where it is one,
 * EKDB_HANDOFF_LINE_NONE otherwise.
 */
int ekdb_handoff_lend(struct ekdb_handoff *rec);
/*
 * ekdb_handoff_describe - what ekdb_handoff_export() would hand over,
 * changing nothing: the breakpoint table and the sessions into @rec (magic
 * 0, no line), for a successor that must see it can take all of it before
 * the debugger lets go (Linux's kgdb: kdb has fewer breakpoint numbers).
 * 0 or -errno as ekdb_handoff_export().
 */
int ekdb_handoff_describe(struct ekdb_handoff *rec);

/*
 * Addresses no breakpoint may go to, as the host learns them (run-time
 * addresses, [start, end)):
 * ekdb_set_jump_window - code that runs before the kernel has its debug
 *   vectors (refused with -EKDB_EJUMPWIN);
 * ekdb_set_nobp_range - another image's debugger code (the loader: the
 *   kernel's __ekdb_text_start..__ekdb_text_end), refused like the
 *   debugger's own (-EKDB_EPERM).
 */
void ekdb_set_jump_window(u64 start, u64 end);
void ekdb_set_nobp_range(u64 start, u64 end);
/*
 * ekdb_add_nobp_range - more of the host's code refused like that range
 * (-EKDB_EPERM, for breakpoints and for writes): its own stop path, code
 * a CPU runs before it can take a trap (Linux: a secondary CPU before its
 * IDT, where an int3 is a triple fault; Linux functions its stop path
 * calls).  Up to 96; safe while another CPU is stopped in the debugger
 * (it sees a range whole or not at all): 0, -EKDB_EINVAL (an empty
 * range), -EKDB_ENOSPC (full).
 */
int ekdb_add_nobp_range(u64 start, u64 end);
/*
 * ekdb_text_range - where the debugger's own code is, [*start, *end), for
 * a debugger ekdb hands over to whose stop runs through it (a borrowed
 * transport, a console): it must refuse breakpoints there too (Linux:
 * kgdb's kprobe blocklist, linux/glue/handoff.c).
 */
void ekdb_text_range(u64 *start, u64 *end);

/*
 * ekdb_io_write - raw bytes on every transport that is a line (not a
 * console): a host's last words (an unhandled exception in the loader) or
 * a NAK before a stop ("-": a gdb waiting since before the stop sends its
 * packet again now).
 */
void ekdb_io_write(const char *s, size_t len);
/*
 * ekdb_io_write_screen - text on the debugger's screen consoles only (the
 * framebuffer ekdb draws kdb on): for a successor debugger that goes on
 * showing its kdb there after ekdb_handoff_export() (Linux's kdb, through
 * a console of the glue's).  The number of screens (0: ekdb has none;
 * @len 0 only asks).
 */
int ekdb_io_write_screen(const char *s, size_t len);
/*
 * ekdb_set_gdb_plain - offer gdb only what the host's own gdbstub offers,
 * for a host whose debug core takes a gdb session over at the handoff
 * (Linux's kgdb): acks on (no QStartNoAckMode), gdb's built-in amd64
 * register layout (no target.xml; the 'g' packet's 24 registers are
 * Linux's), no swbreak+/hwbreak+ (gdb backs the pc up over an int3 itself,
 * as it must with Linux's stub).  A gdb attached early then goes on with
 * the successor as it was.  Call before the debugger starts.
 */
void ekdb_set_gdb_plain(bool on);
/*
 * ekdb_io_getc - one raw byte from the debugger's transports (polled), or
 * -1 when none is waiting: with ekdb_io_write(), the line for a successor
 * debugger that borrows it after ekdb_handoff_export() (Linux's kgdb I/O
 * module until kgdboc takes the line).  Interrupts off.
 */
int ekdb_io_getc(void);
/*
 * ekdb_io_kbd_state - what ekdb's keyboard transport (ekgdboc=kbd) has
 * decoded, for a successor that reads the keyboard itself from now on
 * (Linux's kdb_keyboard, once kgdboc=kbd replaces the kgdb I/O module
 * that borrowed ekdb's transports): which keyboards ekdb reads and the
 * PS/2 decoder's state.  A key decoded and not yet read is dropped.  0,
 * or -EKDB_ENODEV: ekdb has no keyboard transport.  Call when no stop
 * reads through ekdb's transports.
 */
struct ekdb_kbd_state {
	bool ps2;		/* a PS/2 keyboard: the state below is its */
	unsigned int usb;	/* USB boot keyboards ekdb reads (0: none) */
	u8 shift, ctrl, alt;	/* held down: bit 0 the left key, bit 1 the right */
	bool caps_lock;
	bool enter_down;	/* an Enter pressed whose release ekdb has not seen */
};
int ekdb_io_kbd_state(struct ekdb_kbd_state *ks);
/*
 * ekdb_io_stop_begin, ekdb_io_stop_end - around a successor's stop that
 * borrows the transports (Linux: kgdb_io's pre_exception/post_exception),
 * what ekdb does around its own: a USB debug port polls its device at
 * every ekdb_io_getc() only in between (otherwise only every poll_secs,
 * for a break-in), and sends what is queued at the end.
 */
void ekdb_io_stop_begin(void);
void ekdb_io_stop_end(void);

/*
 * ekdb_mem_read - the debugger's fault-safe read of @len bytes at @addr
 * (a bad address is an error, never a crash): for a host's port members
 * that read memory on the debugger's behalf.  The count read or -errno.
 */
long ekdb_mem_read(u64 addr, void *buf, size_t len);

/*
 * The kernel's services (tasks, the log, consoles, physical memory,
 * allocation ...) are the porting interface: struct ekdb_port_ops,
 * ekdb_set_port() in <ekdb/port.h>.
 */
/*
 * ekdb_set_text_offset - how far the kernel runs from its link address
 * (KASLR; the loader's bootinfo kaslr_offset): gdb gets it from qOffsets
 * and relocates the ELF's symbols by it.  Call before the first stop.
 */
void ekdb_set_text_offset(u64 offset);
/*
 * ekdb_set_text_base - where the image's first loaded segment (its text,
 * at _text) runs: qOffsets then says "TextSeg=", which moves every
 * segment, .rodata included (Text=/Data=/Bss= move only those three).
 */
void ekdb_set_text_base(u64 base);

/*
 * ekdb_handoff_takeover - the kernel's first debug step (early/handoff.c):
 * @bootinfo_phys is the loader's record (identity-mapped).  With a handed-over
 * debugger state its breakpoints, line and session go on from here; a bad
 * one is refused (ekdb_early_init() says why; the debugger stays off).
 * Context: the kernel's GDT and IDT loaded, nothing else; no printk.
 */
void ekdb_handoff_takeover(u64 bootinfo_phys);
/* ekdb_handoff_taken - the loader's session was taken over. */
bool ekdb_handoff_taken(void);

void ekdb_early_init(void);

/*
 * ekdb_param - run the debugger's own parameter @name (the EARLY_PARAM
 * table: ekgdboc, kgdbwait, kgdbdbgp, kgdbxdbc, kgdboc, kdb.cmd_enable,
 * earlyprintk, ...) with @value (NULL: a bare flag), for a host that parses
 * its command line itself and spells the debugger's parameters its own way
 * (Linux: ekdb.ekgdboc=ttyS0 runs "ekgdboc").  Call before
 * ekdb_early_init().  0; -EKDB_ENOENT: no such parameter; else the
 * handler's refusal, logged with the syntax it takes (the boot goes on,
 * the debugger stays off).
 */
int ekdb_param(const char *name, const char *value);

/*
 * ekdb_late_init - the handoff (Linux's dbg_late_init): call once the
 * allocators work (after mm_init()), before other CPUs start.  The full
 * debug core takes over the early debugger's breakpoints (they stay
 * installed), sessions and transports; kgdboc= is parsed; the early
 * static storage is released.  Logs one "ekdb: handoff: ..." line.
 */
void ekdb_late_init(void);

/*
 * ekdb_register_io - a running kernel's driver offers @t as a debugger
 * transport (Linux's kgdb_register_io_module).  When the debugger is
 * using an early transport with the same name (ttyS0, kbd, dbgp0), @t
 * takes it over: the early one's state (line settings, unread bytes,
 * keyboard modifiers, USB device state) goes to @t->import_state and the
 * early one is retired, with no moment in which neither is there.  When
 * kgdboc= names @t it is added.  Otherwise -EKDB_ENODEV: the debugger
 * does not want this device (the driver keeps it for itself).
 * Call with interrupts on, from process context, after ekdb_late_init().
 */
int ekdb_register_io(struct ekdb_transport *t);
/* ekdb_unregister_io - the driver goes away; 0 or -EKDB_ENOENT. */
int ekdb_unregister_io(struct ekdb_transport *t);
/* ekdb_io_wanted - does kgdboc=/ekgdboc= name the device @name ("ttyS0", "kbd", "kms")? */
bool ekdb_io_wanted(const char *name);
/*
 * ekdb_io_wanted_dev - does an early transport drive the device @dev
 * ("io 0xc000", "mmio32 0xc1000000": struct ekdb_transport's dev)?  Its
 * driver then takes it over whatever name it gives the line.
 */
bool ekdb_io_wanted_dev(const char *dev);

/*
 * The debugger's parameters in the running system (Linux's
 * /sys/module/kgdboc/parameters/kgdboc and /sys/module/kdb/parameters/
 * cmd_enable), from process context.
 *
 * ekdb_register_io_driver - a driver that can give a run-time kgdboc the
 *   device it names (struct ekdb_io_driver, <ekdb/transport.h>: its kind
 *   and find()); drivers of one kind are asked in the order they
 *   registered.  0, -EKDB_EINVAL (no find, no kind), -EKDB_ENOSPC (table
 *   full: EKDB_IO_DRIVERS_MAX).
 * ekdb_set_display_fn - how the kernel gives (@on) or takes back the
 *   display driver's debugger hooks (struct ekdb_display_ops) when a
 *   run-time kgdboc names kms or stops naming it: 0, or -EKDB_ENODEV when
 *   there is no such display.
 * ekdb_kgdboc_get - the value in force ("" when unconfigured) into @buf.
 * ekdb_kgdboc_set - configure, switch ("ttyS1") or unconfigure ("", "\n")
 *   the debugger's I/O as Linux's param_set_kgdboc_var: 0, -EKDB_ENOSPC
 *   (too long), -EKDB_EBUSY (gdb connected), -EKDB_ENODEV (bad value or no
 *   such device), -EKDB_ENOMEM.  An error changes nothing.
 * ekdb_io_registered - the debugger is on and has I/O (Linux: dbg_io_ops).
 * ekdb_cmd_enable_get/set - kdb's command mask as an int (kstrtoint
 *   syntax): 0, -EKDB_EINVAL or -EKDB_ERANGE, nothing changed on error.
 */
#define EKDB_IO_DRIVERS_MAX 4
struct ekdb_io_driver;
int ekdb_register_io_driver(const struct ekdb_io_driver *drv);
void ekdb_set_display_fn(int (*fn)(bool on));
size_t ekdb_kgdboc_get(char *buf, size_t len);
int ekdb_kgdboc_set(const char *val);
bool ekdb_io_registered(void);
int ekdb_cmd_enable_get(void);
int ekdb_cmd_enable_set(const char *val);

/*
 * ekdb_break_in - from a driver's interrupt handler (@regs: the
 * interrupted context): enter the debugger now because input asked for
 * it (enum ekdb_break_reason in <ekdb/transport.h>).  Returns true when the
 * request is taken: the debugger ran (it has returned: the kernel goes on),
 * or, while another CPU holds the debugger for a moment, it is kept and the
 * next ekdb_poll_break() stops (nothing lost; for EKDB_BREAK_GDB the driver
 * keeps the '$' and the bytes behind it for the transport's getc).  False
 * when the debugger is off (the driver gives its '$' back to the console).
 */
bool ekdb_break_in(struct pt_regs *regs, int reason);

/*
 * Display hooks (the kms debugger hooks, Linux 2.6.34's
 * fb_debug_enter/leave): whoever owns the display registers them so the
 * debugger can show itself on a screen the driver owns and give it back
 * unchanged.  Called with the machine stopped, interrupts off, possibly
 * from NMI or from inside the driver's own code: no sleeping locks, no
 * allocation, bounded waits.
 */
struct ekdb_display_ops {
	const char *name;			/* "kms" */
	void (*enter)(void);			/* show the debug console (save what was there) */
	void (*leave)(void);			/* put back exactly what was shown */
};
int ekdb_register_display(const struct ekdb_display_ops *ops);
void ekdb_unregister_display(const struct ekdb_display_ops *ops);
bool ekdb_enabled(void);
bool ekdb_handle_die(const char *what, struct pt_regs *regs);
bool ekdb_poll_break(struct pt_regs *regs);
/*
 * ekdb_cpu_in_debugger - does CPU @cpu run the debugger's code right now
 * (Linux's in_dbg_master(), widened)?  It holds the debugger (stopped or
 * leaving), is parked by a round-up, is taking a debug trap, polls for a
 * break-in from the tick (ekdb_poll_break), or sends a kgdbcon packet.
 * Kernel code called then is the debugger's own path: it must be
 * __ekdb_nobp (the stop-path recorder, kernel-glue/stoptrace.c, uses this).
 */
bool ekdb_cpu_in_debugger(unsigned cpu);
/* ekdb_panic - from panic(), before it stops the machine: the debugger sees it first. */
void ekdb_panic(const char *msg);
void ekdb_cpu_online(unsigned cpu);
void ekdb_set_cpu_id_fn(unsigned (*fn)(void));
/* ekdb_set_roundup_fn - how to NMI every other CPU (the debugger stops them all). */
void ekdb_set_roundup_fn(bool (*fn)(void));
/*
 * ekdb_nmi_is_roundup - for a kernel whose NMI handlers are a chain
 * (Linux's NMI_LOCAL): is the NMI this CPU takes now the debugger's
 * round-up?  Only then does that handler call ekdb_trap_nmi(); an NMI no
 * handler claimed may go to ekdb_trap_nmi() from the end of the chain
 * (Linux's NMI_UNKNOWN: it stops in the debugger).  __ekdb_nobp context.
 */
bool ekdb_nmi_is_roundup(void);

/*
 * The trap entry, for a kernel that owns its IDT (Linux: do_int3(),
 * exc_debug(), the NMI handler chain): call these first from its #BP, #DB
 * and NMI handlers with the trapped frame (struct pt_regs of
 * arch/x86/include/asm/regs.h: a host with another layout converts in and
 * back); true: the debugger's trap, handled (resume at the frame, which
 * it may have changed); false: the kernel's own.  A kernel that lets
 * arch/x86/idt.c build its IDT (x86_idt_init(), as the reference kernel
 * does) gets them routed without calling these.  Context: the trap's,
 * interrupts off; __ekdb_nobp code (breakpoints there are refused).
 */
bool ekdb_trap_breakpoint(struct pt_regs *regs);
bool ekdb_trap_debug(struct pt_regs *regs);
bool ekdb_trap_nmi(struct pt_regs *regs);
/*
 * ekdb_trap_fault - from the kernel's own fault fixup (Linux:
 * fixup_exception(), early and late #PF, #GP): a fault inside one of the
 * debugger's fault-safe accessors (a bad address in md, bt, a gdb 'm')
 * is the debugger's: true, the frame now resumes at its fixup (only rip
 * changes).  False: not the debugger's.  arch/x86/idt.c's own fault path
 * does this itself.
 */
bool ekdb_trap_fault(struct pt_regs *regs);

EKDB_API_END

/*
 * kgdb_breakpoint - stop right here (kgdbwait, sysrq-g).  Linux's name, so
 * it stays outside the public names above: a kernel with a kgdb of its
 * own (Linux) keeps its kgdb_breakpoint and does not see this one.
 */
void kgdb_breakpoint(void);

#endif
