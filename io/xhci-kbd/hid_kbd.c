/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hid_kbd.c - boot-protocol keyboard reports to kdb's bytes (hid_kbd.h):
 * report differences become set-1 make/break codes fed to the PS/2
 * decoder.  Pure.
 */
#include "hid_kbd.h"
#include <ekdb/string.h>

#define E0		0x100
#define SC_RELEASE	0x80

#define USAGE_ROLLOVER	0x01
#define USAGE_FIRST_KEY	0x04
#define USAGE_CAPS	0x39
#define USAGE_SCROLL	0x47
#define USAGE_NUMLOCK	0x53

/* Keyboard page usages 0x04..0x65 -> set 1 (US layout, as the i8042 translates). */
static const u16 set1[0x66] = {
	[0x04] = 0x1e, 0x30, 0x2e, 0x20, 0x12, 0x21, 0x22, 0x23,	/* a-h */
	[0x0c] = 0x17, 0x24, 0x25, 0x26, 0x32, 0x31, 0x18, 0x19,	/* i-p */
	[0x14] = 0x10, 0x13, 0x1f, 0x14, 0x16, 0x2f, 0x11, 0x2d,	/* q-x */
	[0x1c] = 0x15, 0x2c,						/* y z */
	[0x1e] = 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b,	/* 1-9 0 */
	[0x28] = 0x1c,		/* Enter */
	[0x29] = 0x01,		/* Esc */
	[0x2a] = 0x0e,		/* Backspace */
	[0x2b] = 0x0f,		/* Tab */
	[0x2c] = 0x39,		/* Space */
	[0x2d] = 0x0c, 0x0d, 0x1a, 0x1b, 0x2b,	/* - = [ ] \ */
	[0x32] = 0x2b,		/* non-US # (the ISO key by Enter) */
	[0x33] = 0x27, 0x28, 0x29, 0x33, 0x34, 0x35,	/* ; ' ` , . / */
	[0x39] = 0x3a,		/* Caps Lock */
	[0x3a] = 0x3b, 0x3c, 0x3d, 0x3e, 0x3f, 0x40, 0x41, 0x42, 0x43, 0x44, 0x57, 0x58, /* F1-F12 */
	[0x46] = E0 | 0x37,	/* PrintScreen (SysRq with Alt) */
	[0x47] = 0x46,		/* Scroll Lock */
	/* 0x48 Pause: E1 1D 45 E1 9D C5, no byte for kdb: none */
	[0x49] = E0 | 0x52, E0 | 0x47, E0 | 0x49,	/* Insert Home PgUp */
	[0x4c] = E0 | 0x53, E0 | 0x4f, E0 | 0x51,	/* Delete End PgDn */
	[0x4f] = E0 | 0x4d, E0 | 0x4b, E0 | 0x50, E0 | 0x48,	/* Right Left Down Up */
	[0x53] = 0x45,		/* Num Lock */
	[0x54] = E0 | 0x35, 0x37, 0x4a, 0x4e, E0 | 0x1c,	/* keypad / * - + Enter */
	[0x59] = 0x4f, 0x50, 0x51, 0x4b, 0x4c, 0x4d, 0x47, 0x48, 0x49, 0x52, 0x53, /* keypad 1-9 0 . */
	[0x64] = 0x56,		/* non-US \ (the ISO key by left Shift) */
	[0x65] = E0 | 0x5d,	/* Application */
};

/* Modifier bits 0..7 -> set 1. */
static const u16 mod_set1[8] = {
	0x1d, 0x2a, 0x38, E0 | 0x5b, E0 | 0x1d, 0x36, E0 | 0x38, E0 | 0x5c,
};

u16 hid_usage_to_set1(u8 usage)
{
	return usage < ARRAY_SIZE(set1) ? set1[usage] : 0;
}

void hid_kbd_reset(struct hid_kbd *k)
{
	memset(k, 0, sizeof(*k));
	kbd_reset(&k->ks);
	k->num_lock = true;
}

u8 hid_kbd_leds(const struct hid_kbd *k)
{
	return (u8)((k->num_lock ? HID_LED_NUM : 0) | (k->ks.caps_lock ? HID_LED_CAPS : 0) |
		    (k->scroll_lock ? HID_LED_SCROLL : 0));
}

/* Where the bytes of one report go. */
struct sink {
	char *out;
	unsigned len, cap;
};

/* One make or break of set-1 code @code through the PS/2 decoder. */
static void feed(struct hid_kbd *k, u16 code, bool down, struct sink *s)
{
	char buf[KBD_SEQ_MAX];
	int n;

	if (!code)
		return;
	if (code & E0)
		kbd_feed(&k->ks, I8042_STR_OBF, 0xe0, buf);
	n = kbd_feed(&k->ks, I8042_STR_OBF, (u8)((code & 0x7f) | (down ? 0 : SC_RELEASE)), buf);
	for (int i = 0; i < n && s->len < s->cap; i++)
		s->out[s->len++] = buf[i];
}

static bool holds(const u8 *keys, u8 usage)
{
	for (unsigned i = 0; i < HID_KEYS; i++)
		if (keys[i] == usage)
			return true;
	return false;
}

/* @keys[@i] is also in @keys[0..@i): a usage listed twice is one key */
static bool listed_before(const u8 *keys, unsigned i)
{
	for (unsigned j = 0; j < i; j++)
		if (keys[j] == keys[i])
			return true;
	return false;
}

static bool is_key(u8 usage)
{
	return usage >= USAGE_FIRST_KEY;	/* 0 none, 1-3 error codes */
}

static void press(struct hid_kbd *k, u8 usage, u64 now_us, struct sink *s)
{
	u16 code = hid_usage_to_set1(usage);

	if (usage == USAGE_NUMLOCK)
		k->num_lock = !k->num_lock;
	else if (usage == USAGE_SCROLL)
		k->scroll_lock = !k->scroll_lock;
	feed(k, code, true, s);
	if (code && usage != USAGE_CAPS && usage != USAGE_NUMLOCK && usage != USAGE_SCROLL) {
		k->repeat_usage = usage;
		k->repeat_at = now_us + HID_KBD_REPEAT_DELAY_US;
	}
}

static void release(struct hid_kbd *k, u8 usage, struct sink *s)
{
	feed(k, hid_usage_to_set1(usage), false, s);
	if (k->repeat_usage == usage)
		k->repeat_usage = 0;
}

unsigned hid_kbd_report(struct hid_kbd *k, const u8 *r, unsigned len, u64 now_us, char *out,
			unsigned cap)
{
	struct sink s = { out, 0, cap };
	const u8 *keys = r + 2;
	bool rollover = false;
	u8 changed;

	if (len < HID_REPORT_LEN) {
		k->short_reports++;
		return 0;
	}
	k->reports++;
	changed = (u8)(k->mods ^ r[0]);
	for (unsigned b = 0; b < 8; b++)
		if (changed & (1u << b))
			feed(k, mod_set1[b], r[0] & (1u << b), &s);
	k->mods = r[0];
	for (unsigned i = 0; i < HID_KEYS; i++)
		rollover |= keys[i] == USAGE_ROLLOVER;
	if (rollover) {
		k->rollover++;		/* the keys held are not known: keep what was */
		return s.len;
	}
	for (unsigned i = 0; i < HID_KEYS; i++)
		if (is_key(k->keys[i]) && !holds(keys, k->keys[i]) && !listed_before(k->keys, i))
			release(k, k->keys[i], &s);
	for (unsigned i = 0; i < HID_KEYS; i++)
		if (is_key(keys[i]) && !holds(k->keys, keys[i]) && !listed_before(keys, i))
			press(k, keys[i], now_us, &s);
	memcpy(k->keys, keys, HID_KEYS);
	return s.len;
}

unsigned hid_kbd_repeat(struct hid_kbd *k, u64 now_us, char *out, unsigned cap)
{
	struct sink s = { out, 0, cap };

	if (!k->repeat_usage || now_us < k->repeat_at)
		return 0;
	k->repeat_at = now_us + HID_KBD_REPEAT_PERIOD_US;
	feed(k, hid_usage_to_set1(k->repeat_usage), true, &s);
	return s.len;
}
