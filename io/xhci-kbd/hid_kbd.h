/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hid_kbd.h - USB HID boot-protocol keyboard reports (HID 1.11 appendix B)
 * to the bytes the PS/2 path gives kdb.  Pure (host-tested).
 *
 * A boot report is 8 bytes: modifiers (bit 0 LCtrl, 1 LShift, 2 LAlt,
 * 3 LGUI, 4 RCtrl, 5 RShift, 6 RAlt, 7 RGUI), a reserved byte, and up to
 * six key usages (page 7) held down.  A key is pressed when its usage is
 * in a report and was not in the previous one, released when it leaves.
 * Each press and release becomes the set-1 scan code the i8042 would have
 * sent and goes through the PS/2 decoder (io/kbd/scancode.c), so both
 * keyboards give the same bytes, Ctrl-C, Caps Lock and Alt+SysRq+key alike.
 *
 *  - ErrorRollOver (usage 0x01 in the key array: more keys than the report
 *    holds, or a phantom state): the key array is ignored (the keys stay
 *    as they were), the modifier byte is still applied (as Linux's
 *    hid-input); usages 0x02/0x03 (POST fail, undefined) are not keys.
 *  - A report shorter than 8 bytes is dropped (counted).
 *  - Typematic repeat, which a USB keyboard does not do itself: the last
 *    key pressed and still held repeats after HID_KBD_REPEAT_DELAY_US, then
 *    every HID_KBD_REPEAT_PERIOD_US (Linux's input soft repeat: 250 ms,
 *    33 ms), driven by the caller's clock (hid_kbd_repeat()).  Modifiers
 *    and lock keys do not repeat; a missed period gives one repeat, not a
 *    burst.
 *  - Caps Lock (through the PS/2 decoder), Num Lock and Scroll Lock toggle
 *    on press; hid_kbd_leds() is the LED output report's byte (bit 0 Num,
 *    1 Caps, 2 Scroll) for SET_REPORT.  Num Lock starts on; the keypad gives
 *    digits either way, as the PS/2 path does.
 */
#ifndef IO_XHCI_KBD_HID_KBD_H
#define IO_XHCI_KBD_HID_KBD_H

#include <ekdb/types.h>
#include "../kbd/scancode.h"

#define HID_REPORT_LEN		8
#define HID_KEYS		6
#define HID_KBD_OUT_MAX		(HID_KEYS * KBD_SEQ_MAX)	/* bytes one report can give */
#define HID_KBD_REPEAT_DELAY_US	250000
#define HID_KBD_REPEAT_PERIOD_US 33000

#define HID_LED_NUM		0x01
#define HID_LED_CAPS		0x02
#define HID_LED_SCROLL		0x04

struct hid_kbd {
	struct kbd_state ks;		/* the PS/2 decoder's state */
	u8 mods;			/* modifier byte of the last report */
	u8 keys[HID_KEYS];		/* key array of the last report applied */
	bool num_lock, scroll_lock;
	u8 repeat_usage;		/* the key repeating (0: none) */
	u64 repeat_at;			/* its next repeat, caller's clock (us) */
	unsigned long reports, rollover, short_reports;
};

/* No key down, Caps and Scroll Lock off, Num Lock on. */
void hid_kbd_reset(struct hid_kbd *k);

/*
 * hid_kbd_report - one report of @len bytes received at @now_us: writes at
 * most @cap bytes to @out (HID_KBD_OUT_MAX is enough for any report) and
 * returns how many.  An Alt+SysRq+key is kept for kbd_sysrq_take(&k->ks).
 */
unsigned hid_kbd_report(struct hid_kbd *k, const u8 *r, unsigned len, u64 now_us, char *out,
			unsigned cap);

/* hid_kbd_repeat - the held key's repeat if it is due at @now_us (0..KBD_SEQ_MAX bytes). */
unsigned hid_kbd_repeat(struct hid_kbd *k, u64 now_us, char *out, unsigned cap);

/* The LED output report byte for the lock states now. */
u8 hid_kbd_leds(const struct hid_kbd *k);

/* The set-1 scan code of HID usage @usage (0x1xx: E0-prefixed), 0 when it has none. */
u16 hid_usage_to_set1(u8 usage);

#endif
