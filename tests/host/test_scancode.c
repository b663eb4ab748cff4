/* SPDX-License-Identifier: GPL-2.0 */
/* test_scancode.c - host tests of the set-1 scan code decoder (io/kbd/scancode.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <ekdb/string.h>
#include "../../io/kbd/scancode.h"

#define KBD_ST	I8042_STR_OBF
#define AUX_ST	(I8042_STR_OBF | I8042_STR_AUXDATA)

static struct kbd_state ks;
static char got[256];
static size_t got_len;

/* Feed keyboard bytes (status: plain keyboard data); collect the output. */
static const char *feed_st(u8 status, const u8 *codes, size_t n)
{
	got_len = 0;
	for (size_t i = 0; i < n; i++) {
		char out[KBD_SEQ_MAX];
		int k = kbd_feed(&ks, status, codes[i], out);

		assert_true(k >= 0 && k <= KBD_SEQ_MAX);
		memcpy(got + got_len, out, (size_t)k);
		got_len += (size_t)k;
	}
	got[got_len] = 0;
	return got;
}

#define FEED(...) feed_st(KBD_ST, (const u8[]){ __VA_ARGS__ }, \
			  sizeof((const u8[]){ __VA_ARGS__ }))

static int setup(void **state)
{
	kbd_reset(&ks);
	return 0;
}

static void test_letters_digits_releases(void **state)
{
	/* h e l l o with releases, space, 1 2 */
	assert_string_equal(FEED(0x23, 0xa3, 0x12, 0x92, 0x26, 0xa6, 0x26, 0xa6, 0x18, 0x98,
				 0x39, 0xb9, 0x02, 0x82, 0x03, 0x83), "hello 12");
}

static void test_both_shifts(void **state)
{
	assert_string_equal(FEED(0x2a, 0x1e, 0x9e, 0xaa, 0x1e), "Aa");	/* left shift */
	assert_string_equal(FEED(0x36, 0x02, 0x0c, 0x27, 0xb6, 0x02), "!_:1");	/* right shift */
	/* both down, one released: still shifted */
	assert_string_equal(FEED(0x2a, 0x36, 0xaa, 0x30, 0xb6, 0x30), "Bb");
}

static void test_caps_lock(void **state)
{
	assert_string_equal(FEED(0x3a, 0xba, 0x1e, 0x02), "A1");	/* caps: letters only */
	assert_string_equal(FEED(0x2a, 0x1e, 0x02, 0xaa), "a!");	/* shift inverts caps */
	assert_string_equal(FEED(0x3a, 0xba, 0x1e), "a");		/* off again */
	assert_true(!ks.caps_lock);
}

static void test_ctrl(void **state)
{
	assert_string_equal(FEED(0x1d, 0x2e, 0xae, 0x9d), "\x03");	/* Ctrl-C */
	assert_string_equal(FEED(0xe0, 0x1d, 0x20, 0xe0, 0x9d), "\x04");	/* right Ctrl-D */
	assert_string_equal(FEED(0x1d, 0x2a, 0x2e, 0xaa, 0x9d), "\x03");	/* Ctrl-Shift-C */
	assert_string_equal(FEED(0x1d, 0x1a, 0x9d), "\x1b");		/* Ctrl-[ */
	assert_string_equal(FEED(0x1d, 0x39, 0x03, 0x9d), "");		/* Ctrl-Space, Ctrl-2 */
	assert_string_equal(FEED(0x2e), "c");				/* ctrl released */
}

static void test_special_keys(void **state)
{
	assert_int_equal(FEED(0x0e)[0], KBD_BACKSPACE);
	assert_string_equal(FEED(0x0f), "\t");
	assert_string_equal(FEED(0x01), "\x1b");
	assert_string_equal(FEED(0x1c), "\r");
	assert_string_equal(FEED(0x3b, 0xbb, 0x45, 0xc5), "");		/* F1, Num Lock */
}

static void test_e0_keys(void **state)
{
	assert_string_equal(FEED(0xe0, 0x48, 0xe0, 0xc8), "\x1b[A");
	assert_string_equal(FEED(0xe0, 0x50), "\x1b[B");
	assert_string_equal(FEED(0xe0, 0x4d), "\x1b[C");
	assert_string_equal(FEED(0xe0, 0x4b), "\x1b[D");
	assert_string_equal(FEED(0xe0, 0x47), "\x1b[1~");		/* Home */
	assert_string_equal(FEED(0xe0, 0x4f), "\x1b[4~");		/* End */
	assert_string_equal(FEED(0xe0, 0x53), "\x1b[3~");		/* Delete */
	assert_string_equal(FEED(0xe0, 0x1c, 0xe0, 0x9c), "\r");	/* keypad Enter */
	assert_string_equal(FEED(0xe0, 0x35), "/");			/* keypad / */
	/* keypad digits without E0 are digits, not arrows */
	assert_string_equal(FEED(0x48, 0x4b), "84");
}

static void test_fake_shift_around_e0(void **state)
{
	/* PrtSc: E0 2A E0 37 ... E0 B7 E0 AA: no shift state left behind */
	FEED(0xe0, 0x2a, 0xe0, 0x37, 0xe0, 0xb7, 0xe0, 0xaa);
	assert_false(ks.lshift);
	assert_string_equal(FEED(0x1e), "a");
	/* a real shift held while the fake one comes and goes stays held */
	assert_string_equal(FEED(0x2a, 0xe0, 0xaa, 0xe0, 0x48, 0x1e), "\x1b[AA");
}

static void test_pause_sequence_dropped(void **state)
{
	assert_string_equal(FEED(0xe1, 0x1d, 0x45, 0xe1, 0x9d, 0xc5, 0x1e), "a");
}

static void test_enter_release_tracked(void **state)
{
	FEED(0x1c);
	assert_true(ks.enter_down);
	FEED(0x1e, 0x9e);
	assert_true(ks.enter_down);
	FEED(0x9c);
	assert_false(ks.enter_down);
	FEED(0xe0, 0x1c);
	assert_true(ks.enter_down);
	FEED(0xe0, 0x9c);
	assert_false(ks.enter_down);
}

static void test_mouse_bytes_ignored(void **state)
{
	/* a mouse packet whose bytes look like 'a', E0 and shift make */
	assert_string_equal(feed_st(AUX_ST, (const u8[]){ 0x1e, 0xe0, 0x2a, 0x08 }, 4), "");
	assert_false(ks.e0);
	assert_false(ks.lshift);
	assert_string_equal(FEED(0x1e), "a");
	/* interleaved: keyboard E0, mouse byte, keyboard 48 -> still Up */
	kbd_feed(&ks, KBD_ST, 0xe0, got);
	kbd_feed(&ks, AUX_ST, 0x48, got);
	assert_string_equal(FEED(0x48), "\x1b[A");
}

/* Alt+SysRq+key: no bytes, the key is the pending sysrq command (taken once). */
static void test_sysrq(void **state)
{
	/* Alt down, SysRq (0x54 with Alt), g, releases */
	assert_string_equal(FEED(0x38, 0x54, 0x22, 0xa2, 0xd4, 0xb8), "");
	assert_int_equal(kbd_sysrq_take(&ks), 'g');
	assert_int_equal(kbd_sysrq_take(&ks), 0);
	/* E0 37 (PrtSc) with Alt held is SysRq too; shift does not change the key */
	assert_string_equal(FEED(0x38, 0xe0, 0x37, 0x2a, 0x14, 0x94, 0xaa, 0xe0, 0xb7, 0xb8), "");
	assert_int_equal(kbd_sysrq_take(&ks), 't');
	/* SysRq released: g is typing again (Alt+g gives g) */
	assert_string_equal(FEED(0x38, 0x54, 0xd4, 0x22, 0xa2, 0xb8), "g");
	assert_int_equal(kbd_sysrq_take(&ks), 0);
	/* PrtSc without Alt is not SysRq, and g after it is typing */
	assert_string_equal(FEED(0xe0, 0x2a, 0xe0, 0x37, 0x22, 0xa2, 0xe0, 0xb7, 0xe0, 0xaa), "g");
	assert_int_equal(kbd_sysrq_take(&ks), 0);
	/* plain g: typing */
	assert_string_equal(FEED(0x22, 0xa2), "g");
	assert_int_equal(kbd_sysrq_take(&ks), 0);
}

static void test_controller_noise_ignored(void **state)
{
	assert_string_equal(FEED(0xfa, 0xfe, 0x00, 0xff, 0x1e), "a");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_letters_digits_releases, setup),
		cmocka_unit_test_setup(test_both_shifts, setup),
		cmocka_unit_test_setup(test_caps_lock, setup),
		cmocka_unit_test_setup(test_ctrl, setup),
		cmocka_unit_test_setup(test_special_keys, setup),
		cmocka_unit_test_setup(test_e0_keys, setup),
		cmocka_unit_test_setup(test_fake_shift_around_e0, setup),
		cmocka_unit_test_setup(test_pause_sequence_dropped, setup),
		cmocka_unit_test_setup(test_enter_release_tracked, setup),
		cmocka_unit_test_setup(test_mouse_bytes_ignored, setup),
		cmocka_unit_test_setup(test_controller_noise_ignored, setup),
		cmocka_unit_test_setup(test_sysrq, setup),
	};

	return cmocka_run_group_tests_name("scancode", tests, NULL, NULL);
}
