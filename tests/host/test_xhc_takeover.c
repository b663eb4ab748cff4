/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_xhc_takeover.c - host tests of what the running kernel's USB
 * keyboard driver runs of io/xhci-kbd/ beside the early driver: the poll
 * set (xhc_poll.c: events, service, reading in turn, hotplug, the cleanup
 * when the debugger leaves) and the takeover of a keyboard's state
 * (usbkbd_takeover.c), against the mock controller (xhci_mock.c); a
 * stalled report endpoint recovered through the set (the late driver's
 * ops reach xhc_dev_service() that way).  The
 * "early driver" here is a second set whose controller was released, as
 * usbkbd_early_release() leaves it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <ekdb/errno.h>
#include <ekdb/port.h>
#include <ekdb/string.h>
#include <ekdb/transport.h>
#include "host_log.h"
#include "xhci_mock.h"
#include "../../io/xhci-kbd/xhc.h"
#include "../../io/xhci-kbd/usbkbd.h"

static struct xhc hc, early_hc;
static struct xhc_mem hcmem __aligned(4096);
static struct xhc_dev devs[XHC_DEVS], early_devs[XHC_DEVS];
static struct xhc_dev_mem devmem[XHC_DEVS] __aligned(4096);
static struct xhc_set set = { .hcs = &hc, .n_hcs = 1, .devs = devs, .n_devs = XHC_DEVS };
static struct xhc_set early = { .hcs = &early_hc, .n_hcs = 1, .devs = early_devs,
				.n_devs = XHC_DEVS };
static u64 clock_us;

u64 early_now_us(void)
{
	return clock_us += 10;		/* every look at the clock takes 10 us */
}

struct xhc_set *usbkbd_early_set(void)
{
	return &early;
}

/* The early driver's keyboard on port @port of PCI 00:04.0, released, with some state. */
static struct xhc_dev *early_kbd(u8 port)
{
	struct xhc_dev *od = &early_devs[1];
	char out[HID_KBD_OUT_MAX];
	const u8 held[8] = { 0x02, 0, 0x04 };		/* Left Shift and a held */
	const u8 caps[8] = { 0x02, 0, 0x04, 0x39 };

	od->hc = &early_hc;
	od->used = true;
	od->port = port;
	hid_kbd_reset(&od->hid);
	hid_kbd_report(&od->hid, caps, 8, 0, out, sizeof(out));	/* Caps Lock on */
	hid_kbd_report(&od->hid, held, 8, 0, out, sizeof(out));
	memcpy(od->q, "xy", 2);				/* decoded, not read yet */
	od->q_len = 2;
	early_hc.released = true;
	return od;
}

static int setup(void **state)
{
	ekdb_set_port(&host_log_port);
	log_clear();
	assert_int_equal(xhci_mock_start(&hc, &hcmem, devs, devmem, XHC_DEVS), 0);
	memset(&early_hc, 0, sizeof(early_hc));
	memset(early_devs, 0, sizeof(early_devs));
	set.next_dev = 0;
	hc.pci.slot = early_hc.pci.slot = 4;		/* both 00:04.0 */
	return 0;
}

static bool report(u8 mods, u8 key)
{
	const u8 r[8] = { mods, 0, key };

	return xhci_mock_report(r, sizeof(r));
}

/* What the set gives now (several polls: events, then the LED request's completion). */
static const char *poll(void)
{
	static char got[64];
	unsigned n = 0;
	int c;

	for (int i = 0; i < 4; i++)
		while (n < sizeof(got) - 1 && (c = xhc_set_getc(&set, true, clock_us)) != EKDB_NO_CHAR)
			got[n++] = (char)c;
	got[n] = 0;
	return got;
}

static struct xhc_dev *the_kbd(void)
{
	for (unsigned i = 0; i < XHC_DEVS; i++)
		if (devs[i].used && devs[i].active)
			return &devs[i];
	return NULL;
}

static void test_takeover_carries_the_early_state(void **state)
{
	struct xhc_dev *od = early_kbd(1), *nd;

	assert_int_equal(xhc_set_probe_ports(&set, &hc), 1);
	nd = the_kbd();
	assert_non_null(nd);
	assert_true(usbkbd_early_take(nd));
	assert_false(od->used);				/* forgotten: never taken twice */
	assert_false(usbkbd_early_take(nd));
	assert_true(nd->hid.ks.caps_lock && nd->hid.ks.lshift);
	assert_string_equal(poll(), "xy");		/* the bytes not read come first */
	assert_int_equal(mock.leds, HID_LED_NUM | HID_LED_CAPS);	/* sent again */
	/* Shift and a still held, as the keyboard reports them after the reset: not pressed again */
	assert_true(report(0x02, 0x04));
	assert_string_equal(poll(), "");
	assert_true(report(0, 0));
	assert_true(report(0, 0x05));			/* b with Caps Lock on */
	assert_true(report(0, 0));
	assert_string_equal(poll(), "B");
}

static void test_no_takeover_from_another_port(void **state)
{
	struct xhc_dev *od = early_kbd(2), *nd;

	assert_int_equal(xhc_set_probe_ports(&set, &hc), 1);
	nd = the_kbd();
	assert_false(usbkbd_early_take(nd));
	assert_true(od->used);
	assert_false(nd->hid.ks.caps_lock);
	assert_string_equal(poll(), "");
	assert_int_equal(mock.leds, HID_LED_NUM);
	early_hc.released = false;			/* nor from a controller still the early one's */
	od->port = 1;
	assert_false(usbkbd_early_take(nd));
}

static void test_hotplug_through_the_set(void **state)
{
	assert_int_equal(xhc_set_probe_ports(&set, &hc), 1);
	assert_int_equal(xhc_set_count(&set), 1);
	xhci_mock_unplug();
	hc.port_changed = 1;				/* its Port Status Change Event */
	assert_true(xhc_set_port_changed(&set));
	assert_string_equal(poll(), "");
	assert_true(log_has("kbd: xHCI mock port 1: USB keyboard unplugged"));
	assert_int_equal(xhc_set_count(&set), 0);
	assert_int_equal(mock.disabled_slots, 1);
	xhci_mock_plug();
	hc.port_changed = 1;
	assert_string_equal(poll(), "");
	assert_int_equal(xhc_set_count(&set), 1);
	assert_true(report(0, 0x06));
	assert_true(report(0, 0));
	assert_string_equal(poll(), "c");
}

static void test_flush_when_the_debugger_leaves(void **state)
{
	assert_int_equal(xhc_set_probe_ports(&set, &hc), 1);
	assert_true(report(0, 0x28));			/* Enter (the "go" key), held */
	assert_true(report(0, 0x28 + 1));		/* Esc over it: two bytes queued, one read */
	assert_int_equal(xhc_set_getc(&set, false, clock_us), '\r');
	xhc_set_flush_input(&set);
	clock_us += HID_KBD_REPEAT_DELAY_US * 2;	/* no repeat of the held key either */
	assert_string_equal(poll(), "");
}

/* The late driver's ops reach the endpoint recovery through the set (xhc_dev_service). */
static void test_stall_recovered_through_the_set(void **state)
{
	assert_int_equal(xhc_set_probe_ports(&set, &hc), 1);
	assert_true(xhci_mock_int_stall());
	assert_string_equal(poll(), "");
	assert_int_equal(mock.reset_eps, 1);
	assert_int_equal(mock.set_deqs, 1);
	assert_true(report(0, 0x07));			/* d */
	assert_true(report(0, 0));
	assert_string_equal(poll(), "d");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_takeover_carries_the_early_state, setup),
		cmocka_unit_test_setup(test_no_takeover_from_another_port, setup),
		cmocka_unit_test_setup(test_hotplug_through_the_set, setup),
		cmocka_unit_test_setup(test_flush_when_the_debugger_leaves, setup),
		cmocka_unit_test_setup(test_stall_recovered_through_the_set, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
