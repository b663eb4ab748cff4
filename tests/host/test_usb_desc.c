/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_usb_desc.c - host tests of the configuration descriptor search for
 * a HID boot keyboard and of the interrupt interval conversion
 * (io/xhci-kbd/usb_desc.c).  Bad inputs tried: a descriptor of
 * length 0 and 1 inside the configuration, one running past the end, a
 * device descriptor where a configuration belongs, a cut-short read, a
 * keyboard interface whose only endpoint is OUT or bulk, a zero max packet.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>
#include "../../io/xhci-kbd/usb_desc.h"

#define CONFIG(total, nif, value)	9, 2, (total), 0, (nif), (value), 0, 0xa0, 50
#define IFACE(n, alt, cls, sub, proto)	9, 4, (n), (alt), 1, (cls), (sub), (proto), 0
#define HID_DESC			9, 0x21, 0x11, 0x01, 0, 1, 0x22, 63, 0
#define EP(addr, attr, maxp, ival)	7, 5, (addr), (attr), (maxp), 0, (ival)

/* QEMU's usb-kbd (hw/usb/dev-hid.c) */
static const u8 qemu_kbd[] = { CONFIG(34, 1, 1), IFACE(0, 0, 3, 1, 1), HID_DESC, EP(0x81, 3, 8, 7) };
/* a mouse, then a keyboard in interface 1 of configuration 2 */
static const u8 composite[] = {
	CONFIG(59, 2, 2), IFACE(0, 0, 3, 1, 2), HID_DESC, EP(0x81, 3, 4, 10),
	IFACE(1, 0, 3, 1, 1), HID_DESC, EP(0x82, 3, 8, 10),
};

static void test_qemu_keyboard(void **state)
{
	struct usb_boot_kbd k;

	assert_int_equal(usb_find_boot_kbd(qemu_kbd, sizeof(qemu_kbd), &k), 0);
	assert_int_equal(k.config, 1);
	assert_int_equal(k.iface, 0);
	assert_int_equal(k.ep_addr, 0x81);
	assert_int_equal(k.maxp, 8);
	assert_int_equal(k.interval, 7);
}

static void test_keyboard_after_a_mouse(void **state)
{
	struct usb_boot_kbd k;

	assert_int_equal(usb_find_boot_kbd(composite, sizeof(composite), &k), 0);
	assert_int_equal(k.config, 2);
	assert_int_equal(k.iface, 1);
	assert_int_equal(k.ep_addr, 0x82);
	assert_int_equal(k.n_ifaces, 2);
	/* the read cut short before the keyboard's endpoint: not found, not an error */
	assert_int_equal(usb_find_boot_kbd(composite, sizeof(composite) - 3, &k), -EKDB_ENOENT);
}

static void test_not_a_keyboard(void **state)
{
	static const u8 tablet[] = { CONFIG(34, 1, 1), IFACE(0, 0, 3, 0, 0), HID_DESC, EP(0x81, 3, 8, 10) };
	static const u8 out_only[] = { CONFIG(34, 1, 1), IFACE(0, 0, 3, 1, 1), HID_DESC, EP(0x01, 3, 8, 10) };
	static const u8 bulk[] = { CONFIG(34, 1, 1), IFACE(0, 0, 3, 1, 1), HID_DESC, EP(0x81, 2, 8, 10) };
	static const u8 zero_maxp[] = { CONFIG(34, 1, 1), IFACE(0, 0, 3, 1, 1), HID_DESC, EP(0x81, 3, 0, 10) };
	struct usb_boot_kbd k;

	assert_int_equal(usb_find_boot_kbd(tablet, sizeof(tablet), &k), -EKDB_ENOENT);
	assert_int_equal(k.n_ifaces, 1);
	assert_int_equal(usb_find_boot_kbd(out_only, sizeof(out_only), &k), -EKDB_ENOENT);
	assert_int_equal(usb_find_boot_kbd(bulk, sizeof(bulk), &k), -EKDB_ENOENT);
	assert_int_equal(usb_find_boot_kbd(zero_maxp, sizeof(zero_maxp), &k), -EKDB_ENOENT);
}

static void test_malformed(void **state)
{
	u8 zero_len[sizeof(qemu_kbd)], one_len[sizeof(qemu_kbd)];
	static const u8 device[18] = { 18, 1, 0, 2 };
	static const u8 past_end[] = { CONFIG(20, 1, 1), 200, 4, 0, 0, 1, 3, 1, 1, 0, 0, 0 };
	struct usb_boot_kbd k;

	memcpy(zero_len, qemu_kbd, sizeof(qemu_kbd));
	zero_len[18] = 0;			/* the HID descriptor's length */
	assert_int_equal(usb_find_boot_kbd(zero_len, sizeof(zero_len), &k), -EKDB_EINVAL);
	memcpy(one_len, qemu_kbd, sizeof(qemu_kbd));
	one_len[18] = 1;
	assert_int_equal(usb_find_boot_kbd(one_len, sizeof(one_len), &k), -EKDB_EINVAL);
	assert_int_equal(usb_find_boot_kbd(device, sizeof(device), &k), -EKDB_EINVAL);
	assert_int_equal(usb_find_boot_kbd(qemu_kbd, 8, &k), -EKDB_EINVAL);
	assert_int_equal(usb_find_boot_kbd(past_end, sizeof(past_end), &k), -EKDB_ENOENT);
}

static void test_intervals(void **state)
{
	/* full/low speed: bInterval ms -> the largest 2^n x 125 us not above it, 3..10 */
	assert_int_equal(usb_xhci_interval(1, 1), 3);		/* 1 ms */
	assert_int_equal(usb_xhci_interval(7, 1), 5);		/* 7 ms -> 4 ms */
	assert_int_equal(usb_xhci_interval(8, 2), 6);		/* 8 ms */
	assert_int_equal(usb_xhci_interval(10, 1), 6);
	assert_int_equal(usb_xhci_interval(255, 1), 10);	/* 128 ms at most */
	assert_int_equal(usb_xhci_interval(0, 1), 3);
	/* high/super speed: 2^(bInterval-1) microframes */
	assert_int_equal(usb_xhci_interval(7, 3), 6);
	assert_int_equal(usb_xhci_interval(1, 4), 0);
	assert_int_equal(usb_xhci_interval(16, 3), 15);
	assert_int_equal(usb_xhci_interval(200, 3), 15);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qemu_keyboard),
		cmocka_unit_test(test_keyboard_after_a_mouse),
		cmocka_unit_test(test_not_a_keyboard),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_intervals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
