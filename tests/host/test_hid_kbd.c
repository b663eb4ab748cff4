/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_hid_kbd.c - host tests of the USB boot-protocol keyboard decoder
 * (io/xhci-kbd/hid_kbd.c): presses and releases from report
 * differences, modifiers, locks and their LED byte, rollover (phantom)
 * reports, short reports, typematic repeat on a fake clock, Alt+SysRq.
 * Bad inputs tried: reports of 0..7 bytes, ErrorRollOver arrays, usages
 * 0x02/0x03, a usage listed twice, usages with no key (0x66..0xff).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <ekdb/string.h>
#include "../../io/xhci-kbd/hid_kbd.h"

static struct hid_kbd k;
static char got[256];
static u64 now;

#define LCTRL	0x01
#define LSHIFT	0x02
#define LALT	0x04
#define RSHIFT	0x20

/* One report: modifiers and up to six usages. */
static const char *rep(u8 mods, const u8 *keys, unsigned n)
{
	u8 r[HID_REPORT_LEN] = { mods, 0 };
	unsigned len;

	if (n)
		memcpy(r + 2, keys, n);
	len = hid_kbd_report(&k, r, sizeof(r), now, got, sizeof(got) - 1);
	assert_true(len <= HID_KBD_OUT_MAX);
	got[len] = 0;
	return got;
}

#define REP(mods, ...) rep(mods, (const u8[]){ __VA_ARGS__ }, sizeof((const u8[]){ __VA_ARGS__ }))
#define NONE(mods) rep(mods, NULL, 0)

/* Press and release each usage in turn; the bytes of all. */
static const char *type(const u8 *usages, unsigned n, u8 mods)
{
	static char all[256];
	size_t len = 0;

	for (unsigned i = 0; i < n; i++) {
		len += strlen(strcpy(all + len, rep(mods, &usages[i], 1)));
		len += strlen(strcpy(all + len, NONE(mods)));
	}
	return all;
}

static const char *repeat(void)
{
	unsigned len = hid_kbd_repeat(&k, now, got, sizeof(got) - 1);

	got[len] = 0;
	return got;
}

static int setup(void **state)
{
	hid_kbd_reset(&k);
	now = 1000;
	return 0;
}

static void test_every_character_key(void **state)
{
	static const u8 u[] = {
		0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10,
		0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d,
		0x1e, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27,
		0x2c, 0x2d, 0x2e, 0x2f, 0x30, 0x31, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38,
	};

	assert_string_equal(type(u, sizeof(u), 0),
			    "abcdefghijklmnopqrstuvwxyz1234567890 -=[]\\;'`,./");
	assert_string_equal(type(u, sizeof(u), LSHIFT),
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ!@#$%^&*() _+{}|:\"~<>?");
	/* the keypad (digits, as the PS/2 path), the ISO keys */
	assert_string_equal(type((const u8[]){ 0x54, 0x55, 0x56, 0x57, 0x59, 0x5a, 0x5b, 0x5c, 0x5d,
					       0x5e, 0x5f, 0x60, 0x61, 0x62, 0x63, 0x32, 0x64 }, 17, 0),
			    "/*-+1234567890.\\\\");
}

static void test_editing_keys_give_the_ps2_bytes(void **state)
{
	assert_string_equal(type((const u8[]){ 0x28, 0x58, 0x2b, 0x29 }, 4, 0), "\r\r\t\x1b");
	assert_int_equal(type((const u8[]){ 0x2a }, 1, 0)[0], KBD_BACKSPACE);
	assert_string_equal(type((const u8[]){ 0x52, 0x51, 0x4f, 0x50 }, 4, 0),
			    "\x1b[A\x1b[B\x1b[C\x1b[D");
	assert_string_equal(type((const u8[]){ 0x4a, 0x4d, 0x4c, 0x49, 0x4b, 0x4e }, 6, 0),
			    "\x1b[1~\x1b[4~\x1b[3~\x1b[2~\x1b[5~\x1b[6~");
	/* F-keys, Pause, Application, GUI: nothing */
	assert_string_equal(type((const u8[]){ 0x3a, 0x45, 0x48, 0x65 }, 4, 0), "");
	assert_string_equal(type((const u8[]){ 0x04 }, 1, 0x08 | 0x80), "a");
}

static void test_press_is_a_new_usage_release_leaves(void **state)
{
	assert_string_equal(REP(0, 0x0b), "h");
	assert_string_equal(REP(0, 0x0b, 0x08), "e");		/* h still held: not again */
	assert_string_equal(REP(0, 0x08), "");			/* h released */
	assert_string_equal(REP(0, 0x0f, 0x08), "l");		/* e held, order changed */
	assert_string_equal(REP(0, 0x08, 0x0f), "");
	assert_string_equal(NONE(0), "");
	assert_string_equal(REP(0, 0x0f), "l");
	assert_string_equal(REP(0, 0x12, 0x0f), "o");
	/* six at once, in report order */
	assert_string_equal(REP(0, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09), "abcdef");
	assert_int_equal(k.reports, 9);
}

static void test_usage_listed_twice_is_one_press(void **state)
{
	assert_string_equal(REP(0, 0x04, 0x04), "a");
	assert_string_equal(REP(0, 0x04), "");
	assert_string_equal(NONE(0), "");
	assert_string_equal(REP(0, 0x02, 0x03, 0x05), "b");	/* POST fail, undefined: not keys */
	assert_string_equal(REP(0, 0x66, 0xe0, 0xff, 0x05), "");	/* usages with no key */
}

static void test_modifiers(void **state)
{
	assert_string_equal(REP(LSHIFT, 0x04), "A");		/* shift in the same report */
	assert_string_equal(NONE(LSHIFT), "");
	assert_string_equal(REP(RSHIFT, 0x1e), "!");
	assert_string_equal(REP(LSHIFT | RSHIFT, 0x1e), "");	/* left too: nothing typed */
	assert_string_equal(NONE(LSHIFT), "");
	assert_string_equal(REP(LSHIFT, 0x05), "B");		/* right released, left held */
	assert_string_equal(REP(0, 0x05, 0x06), "c");		/* shift released */
	assert_string_equal(NONE(0), "");
	assert_string_equal(REP(LCTRL, 0x06), "\x03");		/* Ctrl-C */
	assert_string_equal(REP(0x10, 0x07), "\x04");		/* right Ctrl-D */
	assert_string_equal(NONE(0), "");
	assert_true(!k.ks.lctrl && !k.ks.rctrl && !k.ks.lshift && !k.ks.rshift);
}

static void test_locks_and_leds(void **state)
{
	assert_int_equal(hid_kbd_leds(&k), HID_LED_NUM);	/* Num Lock starts on */
	assert_string_equal(REP(0, 0x39), "");			/* Caps Lock */
	assert_int_equal(hid_kbd_leds(&k), HID_LED_NUM | HID_LED_CAPS);
	assert_string_equal(REP(0, 0x39, 0x04), "A");		/* held: no second toggle */
	assert_string_equal(NONE(0), "");
	assert_string_equal(REP(LSHIFT, 0x04), "a");		/* shift inverts caps */
	assert_string_equal(REP(0, 0x53), "");			/* Num Lock off */
	assert_int_equal(hid_kbd_leds(&k), HID_LED_CAPS);
	assert_string_equal(REP(0, 0x47), "");			/* Scroll Lock on */
	assert_int_equal(hid_kbd_leds(&k), HID_LED_CAPS | HID_LED_SCROLL);
	assert_string_equal(REP(0, 0x59), "1");			/* keypad: digits either way */
	assert_string_equal(REP(0, 0x39), "");			/* Caps off again */
	assert_string_equal(REP(0, 0x53), "");			/* Num on */
	assert_int_equal(hid_kbd_leds(&k), HID_LED_NUM | HID_LED_SCROLL);
}

static void test_rollover_keeps_the_keys(void **state)
{
	assert_string_equal(REP(0, 0x04, 0x05), "ab");
	/* phantom state: the array is all ErrorRollOver; a and b are still held */
	assert_string_equal(REP(LSHIFT, 1, 1, 1, 1, 1, 1), "");
	assert_int_equal(k.rollover, 1);
	assert_true(k.ks.lshift);				/* the modifier byte counts */
	assert_string_equal(REP(LSHIFT, 0x04, 0x05, 0x06), "C");	/* only c is new */
	assert_string_equal(REP(0, 0x04, 1, 0x06), "");		/* one 0x01 is rollover too */
	assert_true(!k.ks.lshift);
	assert_string_equal(NONE(0), "");			/* a b c released */
	assert_string_equal(REP(0, 0x04), "a");
}

static void test_short_reports_are_dropped(void **state)
{
	const u8 r[HID_REPORT_LEN] = { LSHIFT, 0, 0x04 };

	for (unsigned len = 0; len < HID_REPORT_LEN; len++)
		assert_int_equal(hid_kbd_report(&k, r, len, now, got, sizeof(got)), 0);
	assert_int_equal(k.short_reports, HID_REPORT_LEN);
	assert_int_equal(k.reports, 0);
	assert_true(!k.ks.lshift);
	assert_string_equal(REP(0, 0x04), "a");			/* nothing of them was kept */
}

static void test_repeat_on_the_callers_clock(void **state)
{
	assert_string_equal(REP(0, 0x04), "a");
	now += HID_KBD_REPEAT_DELAY_US - 1;
	assert_string_equal(repeat(), "");
	now += 1;
	assert_string_equal(repeat(), "a");
	now += HID_KBD_REPEAT_PERIOD_US - 1;
	assert_string_equal(repeat(), "");
	now += 1;
	assert_string_equal(repeat(), "a");
	now += 10 * HID_KBD_REPEAT_PERIOD_US;			/* polled late: one, not ten */
	assert_string_equal(repeat(), "a");
	assert_string_equal(repeat(), "");
	/* a second key takes the repeat over; releasing the first leaves it */
	assert_string_equal(REP(LSHIFT, 0x04, 0x05), "B");
	now += HID_KBD_REPEAT_DELAY_US;
	assert_string_equal(repeat(), "B");			/* with the modifier held now */
	assert_string_equal(REP(0, 0x05), "");
	now += HID_KBD_REPEAT_PERIOD_US;
	assert_string_equal(repeat(), "b");
	assert_string_equal(NONE(0), "");
	now += HID_KBD_REPEAT_DELAY_US;
	assert_string_equal(repeat(), "");			/* released: no repeat */
}

static void test_modifiers_and_locks_do_not_repeat(void **state)
{
	assert_string_equal(REP(0, 0x52), "\x1b[A");		/* Up repeats */
	now += HID_KBD_REPEAT_DELAY_US;
	assert_string_equal(repeat(), "\x1b[A");
	assert_string_equal(REP(LSHIFT, 0x52), "");		/* a modifier does not take it over */
	now += HID_KBD_REPEAT_PERIOD_US;
	assert_string_equal(repeat(), "\x1b[A");
	assert_string_equal(NONE(0), "");
	assert_string_equal(REP(0, 0x39), "");			/* Caps Lock held */
	now += 10 * HID_KBD_REPEAT_DELAY_US;
	assert_string_equal(repeat(), "");
	assert_true(k.ks.caps_lock);
	assert_string_equal(REP(0, 0x28), "\r");		/* Enter repeats and is held */
	assert_true(k.ks.enter_down);
	now += HID_KBD_REPEAT_DELAY_US;
	assert_string_equal(repeat(), "\r");
	assert_string_equal(NONE(0), "");
	assert_true(!k.ks.enter_down);
}

static void test_alt_sysrq_g(void **state)
{
	assert_string_equal(REP(LALT, 0x46), "");		/* Alt+PrtSc: SysRq */
	assert_string_equal(REP(LALT, 0x46, 0x0a), "");		/* g: a sysrq key, not typed */
	assert_int_equal(kbd_sysrq_take(&k.ks), 'g');
	assert_int_equal(kbd_sysrq_take(&k.ks), 0);
	assert_string_equal(NONE(0), "");
	assert_string_equal(REP(0, 0x0a), "g");			/* without Alt+SysRq: typed */
	assert_int_equal(kbd_sysrq_take(&k.ks), 0);
	assert_string_equal(REP(0, 0x46), "");			/* PrtSc alone: nothing */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_every_character_key, setup),
		cmocka_unit_test_setup(test_editing_keys_give_the_ps2_bytes, setup),
		cmocka_unit_test_setup(test_press_is_a_new_usage_release_leaves, setup),
		cmocka_unit_test_setup(test_usage_listed_twice_is_one_press, setup),
		cmocka_unit_test_setup(test_modifiers, setup),
		cmocka_unit_test_setup(test_locks_and_leds, setup),
		cmocka_unit_test_setup(test_rollover_keeps_the_keys, setup),
		cmocka_unit_test_setup(test_short_reports_are_dropped, setup),
		cmocka_unit_test_setup(test_repeat_on_the_callers_clock, setup),
		cmocka_unit_test_setup(test_modifiers_and_locks_do_not_repeat, setup),
		cmocka_unit_test_setup(test_alt_sysrq_g, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
