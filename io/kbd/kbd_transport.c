/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbd_transport.c - struct ekdb_transport over the PS/2 keyboard and the
 * screen (kgdboc=kbd's early form).
 *
 * getc: the bytes of one decoded key are queued and handed out one by
 * one; before polling the keyboards, whatever was written is drawn (the
 * debugger is waiting for input, so its output is complete).  The
 * keyboards: the PS/2 one when there is a controller, and every USB boot
 * keyboard on the xHCI root ports (io/xhci-kbd/usbkbd.c): "kbd" is
 * every keyboard the machine has.
 * putc: into the screen's cell grid only; drawn at getc, flush and
 * post_exception, so a page of kdb output costs one redraw, not one
 * scroll per line.
 * post_exception: the release of the Enter that ended the session
 * ("go\r") is absorbed so the kernel's keyboard driver never sees a
 * lone release (Linux kdb's kdb_kbd_cleanup_state()).
 * export_state: the decoder's state for the running kernel's driver, or
 * for Linux's kdb_keyboard (ekdb_io_kbd_state()).
 */
#include "kbd_transport.h"
#include "i8042.h"
#include "scancode.h"
#include "../vga/vga_console.h"
#include "../xhci-kbd/usbkbd.h"
#include <ekdb/log.h>
#include <ekdb/errno.h>

#define ENTER_RELEASE_POLLS	2000000UL	/* ~ a second or two of port reads */

static struct kbd_state kstate;
static char queue[KBD_SEQ_MAX];
static u8 queue_len, queue_pos;
static bool kbd_ready;
static bool have_ps2, have_usb;
static bool stopped;		/* the debugger waits for input (pre/post_exception) */

static int kbd_t_getc(struct ekdb_transport *t)
{
	u8 status, data;

	if (queue_pos < queue_len)
		return (u8)queue[queue_pos++];
	vga_screen_sync_try();		/* also polled from the timer tick: never wait */
	for (unsigned i = 0; have_ps2 && i < 4 && i8042_read(&status, &data); i++) {
		int n = kbd_feed(&kstate, status, data, queue);
		char sysrq = kbd_sysrq_take(&kstate);

		if (sysrq)
			return EKDB_CHAR_SYSRQ(sysrq);	/* sysrq-g breaks in */
		if (n > 0) {
			queue_len = (u8)n;
			queue_pos = 1;
			return (u8)queue[0];
		}
	}
	return have_usb ? usbkbd_early_getc(stopped) : EKDB_NO_CHAR;
}

/* The screen side, shared with the running kernel's keyboard driver. */
void kbd_screen_putc(struct ekdb_transport *t, u8 c)
{
	char ch = (char)c;

	vga_screen_write(&ch, 1);
}

void kbd_screen_flush(struct ekdb_transport *t)
{
	vga_screen_sync();
}

void kbd_screen_pre(struct ekdb_transport *t)
{
	vga_screen_cursor(true);
	vga_screen_sync();
}

static void kbd_t_pre(struct ekdb_transport *t)
{
	stopped = true;
	kbd_screen_pre(t);
}

static void kbd_t_post(struct ekdb_transport *t)
{
	vga_screen_sync();
	if (have_ps2)
		kbd_absorb_enter_release(ENTER_RELEASE_POLLS);
	queue_len = queue_pos = 0;
	stopped = false;
}

/*
 * For the running kernel's keyboard driver (kernel-glue/drivers/i8042_kbd.c):
 * the keys held, the lock states, an Enter whose release is still to come,
 * half a two-byte scan code, and the bytes of a key already decoded and
 * not yet read by the debugger.
 */
static void kbd_t_export(struct ekdb_transport *t, struct ekdb_transport_state *st)
{
	st->kind = EKDB_TRANSPORT_KBD;
	st->u.kbd.shift = (u8)(kstate.lshift | kstate.rshift << 1);
	st->u.kbd.ctrl = (u8)(kstate.lctrl | kstate.rctrl << 1);
	st->u.kbd.alt = (u8)(kstate.lalt | kstate.ralt << 1);
	st->u.kbd.caps_lock = kstate.caps_lock;
	st->u.kbd.enter_down = kstate.enter_down;
	st->u.kbd.e0_prefix = kstate.e0;
	st->u.kbd.ps2 = have_ps2;
	st->u.kbd.usb = (u8)MIN(usbkbd_early_count(), 255u);
	st->npending = 0;
	while (queue_pos < queue_len && st->npending < EKDB_HANDOFF_PENDING_MAX)
		st->pending[st->npending++] = (u8)queue[queue_pos++];
}

static struct ekdb_transport kbd_transport = {
	.name = "kbd",
	.kind = EKDB_TRANSPORT_KBD,
	.export_state = kbd_t_export,
	.getc = kbd_t_getc,
	.putc = kbd_screen_putc,
	.flush = kbd_screen_flush,
	.pre_exception = kbd_t_pre,
	.post_exception = kbd_t_post,
	.is_console = true,
};

void kbd_absorb_enter_release(unsigned long loops)
{
	char out[KBD_SEQ_MAX];
	u8 status, data;

	for (unsigned long i = 0; i < loops && kstate.enter_down; i++)
		if (i8042_read(&status, &data))
			kbd_feed(&kstate, status, data, out);
	kstate.enter_down = false;
}

struct ekdb_transport *kbd_screen_transport(int *err)
{
	unsigned usb;
	u8 config;

	if (kbd_ready)
		return &kbd_transport;
	*err = i8042_init(&config);
	have_ps2 = !*err;
	usb = usbkbd_early_init();
	have_usb = usb > 0;
	if (!have_ps2 && !have_usb) {
		pr_err("kgdb: ekgdboc=kbd: no keyboard: no PS/2 keyboard controller (port 0x64 reads 0xff) "
		       "and no USB keyboard: keyboard transport disabled\n");
		*err = -EKDB_ENODEV;
		return NULL;
	}
	*err = 0;
	kbd_reset(&kstate);
	kbd_ready = true;
	if (vga_screen_init())
		pr_warn("kgdb: ekgdboc=kbd: no screen to draw on (no framebuffer): "
			"keyboard input only\n");
	if (have_ps2)
		pr_info("kgdb: ekgdboc=kbd: i8042 keyboard (config 0x%02x), %s\n", config,
			vga_screen_ready() ? "output on the screen" : "no output side (no screen)");
	if (have_usb)
		pr_info("kgdb: ekgdboc=kbd: %u USB keyboard%s%s, %s\n", usb, usb == 1 ? "" : "s",
			have_ps2 ? " beside it" : "",
			vga_screen_ready() ? "output on the screen" : "no output side (no screen)");
	return &kbd_transport;
}
