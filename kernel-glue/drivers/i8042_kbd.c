/* SPDX-License-Identifier: GPL-2.0 */
/*
 * i8042_kbd.c - the running kernel's PS/2 keyboard driver: IRQ 1 through
 * the I/O APIC, scan code set 1 decoded by the same decoder the early
 * reader uses (io/kbd/scancode.c), the bytes typed fed to the
 * kernel's console input, Linux's magic SysRq (Alt+SysRq+<key>, g enters
 * the debugger), and the keyboard LEDs following Caps/Num/Scroll Lock.
 *
 * It is also the debugger's "kbd" transport (kgdboc=kbd, or the successor
 * of ekgdboc=kbd's early polled reader):
 *  - import_state: the early reader's decoder state (keys held, locks, an
 *    Enter whose release is still to come, half a two-byte code) and the
 *    bytes of a key it decoded and the debugger did not read;
 *  - getc, while the debugger runs (interrupts off): the controller is
 *    polled with the same decoder state, so whatever kdb sees pressed or
 *    released is known to the kernel afterwards (nothing sticks) and the
 *    keys typed to kdb never reach the console input;
 *  - putc: the screen (vga_screen_write: the early console, or the kms
 *    console once it took the screen over);
 *  - post_exception (Linux's kdb_kbd_cleanup_state): the release of the
 *    Enter that ended the session is absorbed and a SysRq still held when
 *    the debugger was entered is forgotten.
 */
#include "../../io/kbd/kbd.h"
#include "../../io/vga/vga.h"
#include "i8042_kbd.h"
#include "xhci_kbd.h"
#include <kernel/kernel.h>
#include <kernel/console.h>
#include <kernel/irq.h>
#include <kernel/printk.h>
#include <kernel/sysrq.h>
#include <asm/io.h>
#include <asm/processor.h>
#include <ekdb/ekdb.h>
#include <ekdb/errno.h>
#include <ekdb/kdb.h>
#include <ekdb/transport.h>

#define SC_SYSRQ		0x54	/* Alt+PrintScreen in set 1 */
#define SC_PRTSC		0x37	/* E0 37: PrintScreen */
#define SC_NUMLOCK		0x45
#define SC_SCROLLLOCK		0x46
#define SC_RELEASE		0x80
#define KBD_CMD_SET_LEDS	0xed
#define LED_SCROLL		0x01
#define LED_NUM			0x02
#define LED_CAPS		0x04
#define IRQ_BURST		32	/* bytes one interrupt takes at most */
#define ENTER_RELEASE_POLLS	2000000UL
#define DBGQ_SIZE		(EKDB_HANDOFF_PENDING_MAX + KBD_SEQ_MAX)

static struct {
	struct kbd_state ks;		/* shared by the IRQ path and the debugger's getc */
	bool num_lock, scroll_lock;
	bool sysrq_down;		/* SysRq held with Alt: the next key is a sysrq key */
	u8 leds;			/* what the keyboard shows */
	bool present, debugger, irq_on;
	volatile bool paused;		/* i8042_kbd_pause(): someone else reads the controller */
	char dbgq[DBGQ_SIZE];		/* decoded bytes for the debugger's getc */
	unsigned dbgq_head, dbgq_tail;
	u64 interrupts, bytes, to_console, sysrq, dropped_leds;
	struct ekdb_transport transport;
} kbd;

/* ---------------------------------------------------------------- decoding */

static __ekdb_nobp void update_leds(void)
{
	u8 leds = (u8)((kbd.ks.caps_lock ? LED_CAPS : 0) | (kbd.num_lock ? LED_NUM : 0) |
		       (kbd.scroll_lock ? LED_SCROLL : 0));

	if (leds == kbd.leds)
		return;
	/* The keyboard's ACKs (0xFA) come back as data; the decoder drops them. */
	if (i8042_kbd_write(KBD_CMD_SET_LEDS) && i8042_kbd_write(leds))
		kbd.leds = leds;
	else
		kbd.dropped_leds++;
}

/*
 * One byte from the controller: the decoder's bytes in @out (returned
 * count), with the lock keys and SysRq looked at first.  *@sysrq_key gets
 * the character of a key pressed while Alt+SysRq is held (then nothing
 * is returned: Linux does not type sysrq keys either).
 */
static __ekdb_nobp int decode(u8 status, u8 data, char *out, char *sysrq_key)
{
	bool e0 = kbd.ks.e0, release = data & SC_RELEASE, alt;
	u8 code = data & (u8)~SC_RELEASE;
	bool caps = kbd.ks.caps_lock;
	int n;

	*sysrq_key = 0;
	if (status & I8042_STR_AUXDATA)
		return 0;
	if (!kbd.ks.e1_skip && data != 0xe0 && data != 0xe1 && data != 0xfa) {
		alt = kbd.ks.lalt || kbd.ks.ralt;
		if ((code == SC_SYSRQ && !e0) || (code == SC_PRTSC && e0)) {
			kbd.sysrq_down = !release && alt;
			kbd.ks.e0 = false;
			return 0;
		}
		if (!release && !e0 && code == SC_NUMLOCK)
			kbd.num_lock = !kbd.num_lock;
		if (!release && !e0 && code == SC_SCROLLLOCK)
			kbd.scroll_lock = !kbd.scroll_lock;
	}
	n = kbd_feed(&kbd.ks, status, data, out);
	if (caps != kbd.ks.caps_lock || (!release && (code == SC_NUMLOCK || code == SC_SCROLLLOCK)))
		update_leds();
	if (kbd.sysrq_down && n == 1 && (kbd.ks.lalt || kbd.ks.ralt)) {
		*sysrq_key = out[0];
		return 0;
	}
	if (!(kbd.ks.lalt || kbd.ks.ralt))
		kbd.sysrq_down = false;		/* Alt let go: SysRq alone means nothing */
	return n;
}

static bool dbgq_put(char c)
{
	if (kbd.dbgq_head - kbd.dbgq_tail >= DBGQ_SIZE)
		return false;
	kbd.dbgq[kbd.dbgq_head++ % DBGQ_SIZE] = c;
	return true;
}

static int dbgq_get(void)
{
	if (kbd.dbgq_tail == kbd.dbgq_head)
		return EKDB_NO_CHAR;
	return (u8)kbd.dbgq[kbd.dbgq_tail++ % DBGQ_SIZE];
}

/* ---------------------------------------------------------------- interrupt */

static bool kbd_interrupt(unsigned int irq, void *dev, struct pt_regs *regs)
{
	u8 status, data;
	bool any = false;

	if (kbd.paused)
		return false;
	kbd.interrupts++;
	for (unsigned i = 0; i < IRQ_BURST && i8042_read(&status, &data); i++) {
		char out[KBD_SEQ_MAX], key;
		int n = decode(status, data, out, &key);

		any = true;
		kbd.bytes++;
		if (key) {
			kbd.sysrq++;
			handle_sysrq(key, regs);
			continue;
		}
		for (int j = 0; j < n; j++) {
			kbd.to_console++;
			console_input_char(out[j]);
		}
	}
	return any;
}

/* ---------------------------------------------------------------- transport */

static __ekdb_nobp int kbd_t_getc(struct ekdb_transport *t)
{
	u8 status, data;
	int c = dbgq_get();

	if (c != EKDB_NO_CHAR)
		return c;
	vga_screen_sync_try();		/* the debugger waits for input: its output is complete */
	for (unsigned i = 0; i < 4 && i8042_read(&status, &data); i++) {
		char out[KBD_SEQ_MAX], key;
		int n = decode(status, data, out, &key);

		if (key)		/* Alt+SysRq+<key> typed to kdb: the key itself */
			out[n++] = key;
		for (int j = 1; j < n; j++)
			dbgq_put(out[j]);
		if (n > 0)
			return (u8)out[0];
	}
	return xhci_kbd_dbg_getc();	/* kbd is every keyboard: the USB ones too */
}

/* Linux's kdb_kbd_cleanup_state(): nothing typed to kdb leaks out, nothing sticks. */
static __ekdb_nobp void kbd_t_post(struct ekdb_transport *t)
{
	char out[KBD_SEQ_MAX], key;
	u8 status, data;

	vga_screen_sync();
	for (unsigned long i = 0; i < ENTER_RELEASE_POLLS && kbd.ks.enter_down; i++)
		if (i8042_read(&status, &data))
			decode(status, data, out, &key);
	kbd.ks.enter_down = false;
	kbd.sysrq_down = false;
	kbd.dbgq_head = kbd.dbgq_tail = 0;
	xhci_kbd_dbg_post();
}

static __ekdb_nobp int kbd_t_import(struct ekdb_transport *t, const struct ekdb_transport_state *st)
{
	if (st->kind != EKDB_TRANSPORT_KBD)
		return -EKDB_EINVAL;
	kbd.ks.lshift = st->u.kbd.shift & 1;
	kbd.ks.rshift = st->u.kbd.shift & 2;
	kbd.ks.lctrl = st->u.kbd.ctrl & 1;
	kbd.ks.rctrl = st->u.kbd.ctrl & 2;
	kbd.ks.lalt = st->u.kbd.alt & 1;
	kbd.ks.ralt = st->u.kbd.alt & 2;
	kbd.ks.caps_lock = st->u.kbd.caps_lock;
	kbd.num_lock = st->u.kbd.num_lock;
	kbd.scroll_lock = st->u.kbd.scroll_lock;
	kbd.ks.enter_down = st->u.kbd.enter_down;
	kbd.ks.e0 = st->u.kbd.e0_prefix;
	for (unsigned i = 0; i < st->npending && i < EKDB_HANDOFF_PENDING_MAX; i++)
		dbgq_put((char)st->pending[i]);
	kbd.leds = 0xff;		/* unknown: set them from the imported locks */
	update_leds();
	return 0;
}

/* kgdboc names the keyboard at run time: sysrq-g and typed keys are the debugger's. */
static __ekdb_nobp void kbd_t_init(struct ekdb_transport *t)
{
	kbd.debugger = true;
}

static __ekdb_nobp void kbd_t_deinit(struct ekdb_transport *t)
{
	kbd.debugger = false;
}

/* ---------------------------------------------------------------- kdb */

static int kdb_kbd(struct kdb_session *s, int argc, const char **argv)
{
	if (argc)
		return kdb_printf(s, "usage: kbd\n"), 0;
	if (!kbd.present)
		return kdb_printf(s, "no PS/2 keyboard driver\n"), 0;
	kdb_printf(s, "kbd: i8042 irq %d%s: interrupts %llu, bytes %llu, console %llu, sysrq %llu; "
		   "shift %d ctrl %d alt %d caps %d num %d scroll %d leds 0x%x\n",
		   kbd.irq_on ? IRQ_KEYBOARD : -1, kbd.debugger ? " debugger" : "",
		   (unsigned long long)kbd.interrupts, (unsigned long long)kbd.bytes,
		   (unsigned long long)kbd.to_console, (unsigned long long)kbd.sysrq,
		   kbd.ks.lshift || kbd.ks.rshift, kbd.ks.lctrl || kbd.ks.rctrl,
		   kbd.ks.lalt || kbd.ks.ralt, kbd.ks.caps_lock, kbd.num_lock, kbd.scroll_lock,
		   kbd.leds);
	return 0;
}

static const struct kdb_cmd kbd_cmd = {
	.name = "kbd",
	.fn = kdb_kbd,
	.usage = "",
	.help = "Show the PS/2 keyboard driver's state",
	.flags = KDB_ENABLE_INSPECT,
};

/* ---------------------------------------------------------------- setup */

/* What waits in the controller (no edge will announce it again): typed. */
static void drain_to_console(void)
{
	u64 flags = local_irq_save();
	u8 status, data;

	while (i8042_read(&status, &data)) {
		char out[KBD_SEQ_MAX], key;
		int n = decode(status, data, out, &key);

		for (int j = 0; j < n; j++)
			console_input_char(out[j]);
	}
	local_irq_restore(flags);
}

bool i8042_kbd_present(void)
{
	return kbd.present;
}

void i8042_kbd_pause(bool pause)
{
	if (!kbd.present)
		return;
	kbd.paused = pause;
	if (!pause)
		drain_to_console();
}

/**
 * i8042_kbd_init - after irq_init(): take the keyboard (and the debugger's
 * "kbd" transport when kgdboc=/ekgdboc= name it).  No controller: a
 * message, and the boot goes on.
 */
static const struct ekdb_io_driver kbd_io_driver;

void i8042_kbd_init(void)
{
	bool wanted = ekdb_io_wanted("kbd");
	u8 config;
	int err;

	ekdb_register_io_driver(&kbd_io_driver);
	if (i8042_init(&config)) {
		if (wanted)
			pr_info("kbd: kgdboc=kbd: no PS/2 keyboard controller (port 0x64 reads 0xff): "
				"USB keyboards only\n");
		else
			pr_info("kbd: no PS/2 keyboard controller\n");
		return;
	}
	kbd.present = true;
	kbd.transport = (struct ekdb_transport){
		.name = "kbd",
		.kind = EKDB_TRANSPORT_KBD,
		.getc = kbd_t_getc,
		.putc = kbd_screen_putc,
		.flush = kbd_screen_flush,
		.pre_exception = kbd_screen_pre,
		.post_exception = kbd_t_post,
		.import_state = kbd_t_import,
		.init = kbd_t_init,
		.deinit = kbd_t_deinit,
		.is_console = true,
		.irq = IRQ_KEYBOARD,
	};
	/*
	 * The controller's interrupt on first (the I/O APIC line is still
	 * masked, so no handler steals the configuration byte from us), then
	 * the handler; then whatever arrived meanwhile is taken here: an edge
	 * that came while the line was masked is not delivered again, and
	 * a full output buffer would keep the keyboard silent.
	 */
	err = i8042_kbd_irq(true) ? 0 : -EKDB_EIO;
	/* After the configuration byte was read: the LED command of the import
	 * makes the keyboard answer with ACKs, which must not be taken for it. */
	if (wanted) {
		int io_err = ekdb_register_io(&kbd.transport);

		kbd.debugger = !io_err;
		if (io_err)
			pr_err("kbd: the debugger did not take the keyboard (%d)\n", io_err);
	}
	if (!err)
		err = request_irq(IRQ_KEYBOARD, kbd_interrupt, "i8042", &kbd);
	drain_to_console();
	kbd.irq_on = !err;
	kdb_register(&kbd_cmd);
	pr_info("kbd: i8042 keyboard (config 0x%02x), %s%s\n", config,
		kbd.irq_on ? "irq 1" : "no interrupt: polled by the debugger only",
		kbd.debugger ? ", kgdboc kbd" : "");
}

/* A run-time kgdboc=kbd: the keyboard's transport, or NULL (no controller). */
static struct ekdb_transport *kbd_find(int line, u32 baud)
{
	return kbd.present ? &kbd.transport : NULL;
}

static const struct ekdb_io_driver kbd_io_driver = {
	.name = "i8042", .kind = EKDB_TRANSPORT_KBD, .find = kbd_find,
};
