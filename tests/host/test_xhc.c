/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_xhc.c - host tests of the early xHCI keyboard driver
 * (io/xhci-kbd/xhc.c, xhc_dev.c) against a mock controller with a boot
 * keyboard (xhci_mock.c): enumeration in the boot protocol, reports to
 * bytes, the LEDs, and the bad inputs: a stalled report endpoint, one that
 * keeps stalling, a stall on SET_IDLE (optional) and on SET_PROTOCOL (not),
 * an unplug in the middle of enumeration, a device gone before its port
 * reset, a short report; and a controller whose Debug Capability is in
 * use: its driver told before the halt and right after HCRST.
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

static struct xhc hc;
static struct xhc_mem hcmem __aligned(4096);
static struct xhc_dev devs[XHC_DEVS];
static struct xhc_dev_mem devmem[XHC_DEVS] __aligned(4096);
static u64 clock_us;

u64 early_now_us(void)
{
	return clock_us += 10;		/* every look at the clock takes 10 us */
}

static int setup(void **state)
{
	ekdb_set_port(&host_log_port);
	log_clear();
	assert_int_equal(xhci_mock_start(&hc, &hcmem, devs, devmem, XHC_DEVS), 0);
	return 0;
}

static int probe(void)
{
	return xhc_dev_probe(&hc, &devs[0], 1, devs, XHC_DEVS);
}

/* Let the driver see what happened; the bytes it has then. */
static const char *poll(void)
{
	static char got[64];
	unsigned n = 0;
	int c;

	xhc_events(&hc, devs, XHC_DEVS);
	xhc_dev_service(&devs[0], devs, XHC_DEVS, clock_us);
	xhc_events(&hc, devs, XHC_DEVS);
	while (n < sizeof(got) - 1 && (c = xhc_dev_getc(&devs[0])) != EKDB_NO_CHAR)
		got[n++] = (char)c;
	got[n] = 0;
	return got;
}

static bool report(u8 mods, u8 key)
{
	const u8 r[8] = { mods, 0, key };

	return xhci_mock_report(r, sizeof(r));
}

static void test_enumerate_boot_protocol_and_type(void **state)
{
	assert_int_equal(probe(), 1);
	assert_true(devs[0].active);
	assert_int_equal(mock.protocol, 0);		/* SET_PROTOCOL(boot) */
	assert_int_equal(devs[0].vendor, 0x0627);
	assert_true(log_has("USB keyboard 0627:0001 (full speed, slot 1, interface 0, endpoint 0x81)"));
	assert_string_equal(poll(), "");
	assert_int_equal(mock.leds, HID_LED_NUM);	/* Num Lock's LED sent at once */
	assert_true(report(0x02, 0x0b));		/* Shift+h */
	assert_true(report(0, 0));
	assert_true(report(0, 0x0c));			/* i */
	assert_true(report(0, 0));
	assert_string_equal(poll(), "Hi");
	/* Caps Lock: its LED follows (one SET_REPORT, sent without waiting) */
	assert_true(report(0, 0x39));
	assert_true(report(0, 0));
	assert_string_equal(poll(), "");
	poll();
	assert_int_equal(mock.leds, HID_LED_NUM | HID_LED_CAPS);
	assert_int_equal(mock.led_reports, 2);
	/* buffers go back on the ring: many more reports than XHC_INT_BUFS */
	for (unsigned i = 0; i < 3 * XHC_INT_TRBS; i++) {
		assert_true(report(0, 0x04));
		assert_true(report(0, 0));
		assert_string_equal(poll(), "A");
	}
}

static void test_short_report_gives_nothing(void **state)
{
	const u8 r[4] = { 0, 0, 0x04, 0 };

	assert_int_equal(probe(), 1);
	assert_true(xhci_mock_report(r, sizeof(r)));
	assert_string_equal(poll(), "");
	assert_int_equal(devs[0].hid.short_reports, 1);
	assert_true(report(0, 0x05));
	assert_string_equal(poll(), "b");
}

static void test_stalled_report_endpoint_recovers(void **state)
{
	assert_int_equal(probe(), 1);
	assert_true(report(0, 0x04));
	assert_string_equal(poll(), "a");
	assert_true(xhci_mock_int_stall());
	assert_false(report(0, 0));			/* halted: the device is not read */
	assert_string_equal(poll(), "");		/* Reset Endpoint, Set TR Dequeue, posted again */
	assert_int_equal(devs[0].errors, 1);
	assert_int_equal(mock.set_deqs, 1);
	assert_true(report(0, 0));
	assert_true(report(0, 0x05));
	assert_string_equal(poll(), "b");
	assert_false(devs[0].gone);
}

static void test_endpoint_that_keeps_stalling_is_given_up(void **state)
{
	assert_int_equal(probe(), 1);
	for (unsigned i = 0; i <= 8; i++) {
		assert_true(xhci_mock_int_stall());
		poll();
	}
	assert_true(devs[0].gone);
	assert_true(log_has("the keyboard's endpoint keeps failing: not read any more"));
	assert_false(report(0, 0x04));
	assert_string_equal(poll(), "");
}

static void test_stall_on_set_idle_is_fine(void **state)
{
	mock.stall_req = 0x0a;
	assert_int_equal(probe(), 1);
	assert_true(devs[0].active);
	assert_true(report(0, 0x06));
	assert_string_equal(poll(), "c");
}

static void test_stall_on_set_protocol_refuses_the_device(void **state)
{
	mock.stall_req = 0x0b;
	assert_int_equal(probe(), -EKDB_EPIPE);
	assert_false(devs[0].used);
	assert_int_equal(mock.disabled_slots, 1);	/* its slot given back */
	assert_true(log_has("the device does not answer"));
}

static void test_unplug_in_the_middle_of_enumeration(void **state)
{
	for (int at = 1; at <= 6; at++) {		/* at each control request in turn */
		setup(state);
		mock.unplug_at = at;
		assert_int_not_equal(probe(), 0);
		assert_false(devs[0].used);
		assert_int_equal(mock.disabled_slots, 1);
		assert_true(log_has("port 1: the device does not answer"));
	}
}

static void test_gone_before_the_port_reset(void **state)
{
	xhci_mock_unplug();
	assert_int_equal(probe(), -EKDB_ENODEV);
	assert_false(devs[0].used);
	assert_int_equal(mock.requests, 0);
}

/* The DbC driver's side of the reset (xhc.h: dbc_prep, dbc_startup). */
static int prep_calls, startup_calls, prep_ret;
static u32 bdf_seen, cmd_at_prep, cmd_at_startup, sts_at_startup;

static int dbc_prep(u32 bdf)
{
	prep_calls++;
	bdf_seen = bdf;
	cmd_at_prep = xhc_rd(&hc, hc.op + XHCI_USBCMD);
	return prep_ret;
}

static int dbc_startup(u32 bdf)
{
	startup_calls++;
	cmd_at_startup = xhc_rd(&hc, hc.op + XHCI_USBCMD);
	sts_at_startup = xhc_rd(&hc, hc.op + XHCI_USBSTS);
	return 0;
}

static void test_dbc_driver_told_around_the_reset(void **state)
{
	u64 scratch = 0;
	unsigned left = 0;

	prep_calls = startup_calls = 0;
	prep_ret = 1;
	hc.dbc_prep = dbc_prep;
	hc.dbc_startup = dbc_startup;
	hc.pci.slot = 4;
	hc.pci.func = 1;
	assert_true(xhc_rd(&hc, hc.op + XHCI_USBCMD) & CMD_RUN);	/* running (setup) */
	assert_int_equal(xhc_start(&hc, &scratch, &left), 0);
	assert_int_equal(prep_calls, 1);
	assert_int_equal(startup_calls, 1);
	assert_int_equal(bdf_seen, 4u << 3 | 1);
	assert_true(cmd_at_prep & CMD_RUN);		/* told before the halt */
	assert_int_equal(cmd_at_startup, 0);		/* after HCRST, before the run */
	assert_true(sts_at_startup & STS_HCH);
	assert_true(xhc_rd(&hc, hc.op + XHCI_USBCMD) & CMD_RUN);
	assert_false(log_has("is not ekdb's"));
	/* the DbC driver has no DbC there (prep 0): nothing to tell after,
	 * and the DbC someone else enabled goes off with the reset: said */
	prep_ret = 0;
	assert_int_equal(xhc_start(&hc, &scratch, &left), 0);
	assert_int_equal(prep_calls, 2);
	assert_int_equal(startup_calls, 1);
	assert_true(log_has("its Debug Capability is not ekdb's: the reset for the keyboards "
			    "turns it off"));
	/* the controller runs its keyboard as before */
	assert_int_equal(probe(), 1);
	assert_true(report(0, 0x05));
	assert_string_equal(poll(), "b");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_enumerate_boot_protocol_and_type, setup),
		cmocka_unit_test_setup(test_short_report_gives_nothing, setup),
		cmocka_unit_test_setup(test_stalled_report_endpoint_recovers, setup),
		cmocka_unit_test_setup(test_endpoint_that_keeps_stalling_is_given_up, setup),
		cmocka_unit_test_setup(test_stall_on_set_idle_is_fine, setup),
		cmocka_unit_test_setup(test_stall_on_set_protocol_refuses_the_device, setup),
		cmocka_unit_test_setup(test_unplug_in_the_middle_of_enumeration, setup),
		cmocka_unit_test_setup(test_gone_before_the_port_reset, setup),
		cmocka_unit_test_setup(test_dbc_driver_told_around_the_reset, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
