/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_dbgp.c - the EHCI debug port's transaction state machine and
 * bring-up (io/ehci-dbgp) against a register mock with dbgp-sim's
 * fault knobs: enumeration with real status stages, per-endpoint data
 * toggles, NAK storms inside and beyond the budget, lost handshakes (the
 * repeat is acknowledged and dropped, the received duplicate dropped),
 * STALL, a device gone, a controller that never completes, reuse of a
 * device firmware set up, controller reset only when needed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "dbgp_mock.h"
#include <ekdb/errno.h>

static struct dbgp_mock mock;
static struct dbgp_dev dev;

static int setup(void **state)
{
	dbgp_mock_init(&mock);
	dbgp_mock_dev_init(&mock, &dev);
	return 0;
}

static void up(void)
{
	bool reused = true;

	assert_int_equal(dbgp_bring_up(&dev, &reused), 0);
	assert_false(reused);
}

static void write_str(const char *s)
{
	size_t n = strlen(s);

	for (size_t i = 0; i < n; i += 8) {
		unsigned len = (unsigned)(n - i < 8 ? n - i : 8);

		assert_int_equal(dbgp_bulk_write(&dev, (const u8 *)s + i, len), (int)len);
	}
}

static void test_enumeration(void **state)
{
	up();
	assert_int_equal(mock.enumerations, 1);
	assert_int_equal(mock.address, DBGP_DEVNUM);
	assert_true(mock.debug_mode);
	assert_int_equal(mock.port_resets, 1);
	assert_int_equal(dev.st.devnum, DBGP_DEVNUM);
	assert_int_equal(dev.st.ep_in, 2);
	assert_int_equal(dev.st.ep_out, 1);
	assert_int_equal(dev.st.tog_out, 0);
	assert_int_equal(dev.st.tog_in, 0);
	/* every control transfer had its status stage */
	assert_int_equal(mock.setups, mock.status_stages);
	/* the root port went to the debug port; controller running, all routed here */
	assert_false(mock.portsc[MOCK_PORT - 1] & PORT_PE);
	assert_true(mock.ctrl & DBGP_ENABLED);
	assert_true(mock.cmd & CMD_RUN);
	assert_int_equal(mock.configflag, 1);
	assert_int_equal(mock.hcresets, 0);	/* a fresh controller needs no reset */
}

static void test_out_and_in_toggles_are_separate(void **state)
{
	u8 buf[8];

	up();
	dbgp_mock_feed(&mock, "abcdefghij");
	write_str("hello");				/* OUT DATA0 */
	assert_int_equal(dbgp_bulk_read(&dev, buf, 8), 8);	/* IN DATA0 */
	assert_memory_equal(buf, "abcdefgh", 8);
	write_str(", world");				/* OUT DATA1 */
	assert_int_equal(mock.last_out_pid, USB_PID_DATA1);
	write_str("!");					/* OUT DATA0 */
	assert_int_equal(mock.last_out_pid, USB_PID_DATA0);
	assert_int_equal(dbgp_bulk_read(&dev, buf, 8), 2);	/* IN DATA1 */
	assert_memory_equal(buf, "ij", 2);
	assert_int_equal(dbgp_bulk_read(&dev, buf, 8), 0);	/* nothing: NAK, no wait */
	assert_int_equal(mock.out_len, 13);
	assert_memory_equal(mock.out, "hello, world!", 13);
	assert_int_equal(mock.dup_out, 0);
}

static void test_nak_storm_within_budget(void **state)
{
	up();
	mock.nak_out = 200;			/* 200 NAKs: well inside 100 ms */
	write_str("x");
	assert_int_equal(mock.out_len, 1);
	assert_true(dev.stats_naks >= 200);
}

static void test_nak_storm_beyond_budget(void **state)
{
	u64 t0;

	up();
	mock.nak_out = 1000000;			/* the other side never reads */
	t0 = mock.clock_us;
	assert_int_equal(dbgp_bulk_write(&dev, (const u8 *)"y", 1), -EKDB_EAGAIN);
	assert_true(mock.clock_us - t0 >= DBGP_OUT_BUDGET_US);
	assert_true(mock.clock_us - t0 < 2 * DBGP_OUT_BUDGET_US);
	assert_true(dev.out_stuck);
	t0 = mock.clock_us;			/* while stuck: short budget */
	assert_int_equal(dbgp_bulk_write(&dev, (const u8 *)"y", 1), -EKDB_EAGAIN);
	assert_true(mock.clock_us - t0 < 2 * DBGP_OUT_STUCK_US + 1000);
	mock.nak_out = 0;			/* reading again: one packet, right toggle */
	write_str("z");
	assert_false(dev.out_stuck);
	assert_int_equal(mock.out_len, 1);
	assert_memory_equal(mock.out, "z", 1);
	write_str("w");
	assert_int_equal(mock.out_len, 2);
}

static void test_lost_out_handshake_is_not_duplicated(void **state)
{
	up();
	write_str("ab");
	mock.lose_out_ack = 1;		/* the device takes "cd" but its ACK is lost */
	write_str("cd");
	write_str("ef");
	assert_int_equal(mock.dup_out, 1);
	assert_int_equal(mock.out_len, 6);
	assert_memory_equal(mock.out, "abcdef", 6);
}

static void test_lost_in_handshake_drops_the_repeat(void **state)
{
	u8 buf[8];
	int n, got = 0;
	char all[16];

	up();
	dbgp_mock_feed(&mock, "12345678ABC");
	mock.lose_in_ack = 1;		/* the device misses our ACK: it sends again */
	for (int i = 0; i < 5 && got < 11; i++) {
		n = dbgp_bulk_read(&dev, buf, 8);
		assert_true(n >= 0);
		memcpy(all + got, buf, (size_t)n);
		got += n;
	}
	assert_int_equal(got, 11);
	assert_memory_equal(all, "12345678ABC", 11);
	assert_int_equal(dev.stats_dups, 1);
}

static void test_stall(void **state)
{
	u8 buf[8];

	up();
	mock.stall_bulk = 1;
	assert_int_equal(dbgp_bulk_write(&dev, (const u8 *)"a", 1), -EKDB_EPIPE);
	assert_int_equal(dbgp_bulk_read(&dev, buf, 8), -EKDB_EPIPE);
	assert_int_equal(dev.st.tog_out, 0);	/* a refused packet does not toggle */
}

static void test_transient_timeouts_are_retried(void **state)
{
	u8 buf[8];

	up();
	mock.timeout = DBGP_ERR_RETRIES - 1;
	write_str("ok");
	assert_int_equal(mock.out_len, 2);
	dbgp_mock_feed(&mock, "in");		/* a read, too, is not lost to one error */
	mock.timeout = DBGP_ERR_RETRIES - 1;
	assert_int_equal(dbgp_bulk_read(&dev, buf, 8), 2);
	assert_memory_equal(buf, "in", 2);
	assert_int_equal(dbgp_bulk_read(&dev, buf, 8), 0);
}

static void test_device_gone(void **state)
{
	u8 buf[8];
	unsigned before;

	up();
	mock.gone = true;
	before = mock.txns;
	assert_int_equal(dbgp_bulk_write(&dev, (const u8 *)"a", 1), -EKDB_EIO);
	assert_int_equal(mock.txns - before, DBGP_ERR_RETRIES);
	assert_int_equal(dbgp_bulk_read(&dev, buf, 8), -EKDB_EIO);
}

static void test_controller_never_done(void **state)
{
	u64 t0;

	up();
	mock.done_never = true;
	t0 = mock.clock_us;
	assert_int_equal(dbgp_bulk_write(&dev, (const u8 *)"a", 1), -EKDB_ETIMEDOUT);
	assert_true(mock.clock_us - t0 >= DBGP_TXN_BUDGET_US);
	assert_true(mock.clock_us - t0 < DBGP_TXN_BUDGET_US + 1000);
}

static void test_reuse_firmware_setup(void **state)
{
	bool reused = false;

	/* an earlier stage left the device in debug mode at 127, port claimed */
	mock.cmd = CMD_RUN | CMD_PSE;
	mock.configflag = 1;
	mock.ctrl = DBGP_OWNER | DBGP_ENABLED | DBGP_INUSE;
	mock.address = DBGP_DEVNUM;
	mock.debug_mode = true;
	mock.tog_out = 1;			/* toggles left anywhere */
	assert_int_equal(dbgp_bring_up(&dev, &reused), 0);
	assert_true(reused);
	assert_int_equal(mock.enumerations, 0);
	assert_int_equal(mock.port_resets, 0);
	assert_int_equal(mock.hcresets, 0);
	write_str("a");
	write_str("b");
	assert_int_equal(mock.out_len, 2);	/* both toggles were put back to DATA0 */
	assert_int_equal(mock.dup_out, 0);
}

static void test_reuse_after_firmware_stopped_the_controller(void **state)
{
	bool reused = false;

	/* claimed and in debug mode, but firmware halted (and reset) the controller */
	mock.cmd = 0;
	mock.configflag = 0;
	mock.ctrl = DBGP_OWNER | DBGP_ENABLED | DBGP_INUSE;
	mock.address = DBGP_DEVNUM;
	mock.debug_mode = true;
	assert_int_equal(dbgp_bring_up(&dev, &reused), 0);
	assert_true(reused);
	assert_true(mock.cmd & CMD_RUN);
	assert_int_equal(mock.hcresets + mock.port_resets + mock.enumerations, 0);
}

static void test_controller_stopped_under_us_runs_again(void **state)
{
	up();
	mock.cmd &= ~CMD_RUN;			/* a driver or firmware halted it */
	write_str("abc");
	assert_true(mock.cmd & CMD_RUN);
	assert_int_equal(mock.out_len, 3);
	assert_memory_equal(mock.out, "abc", 3);
}

static void test_firmware_schedules_stopped_and_used_controller_reset(void **state)
{
	/* firmware ran it and stopped it: reset before use */
	mock.configflag = 1;
	up();
	assert_int_equal(mock.hcresets, 1);
	setup(state);
	/* firmware left it running with its periodic schedule: stop that, no reset */
	mock.cmd = CMD_RUN | CMD_PSE | CMD_ASE;
	mock.configflag = 1;
	up();
	assert_int_equal(mock.hcresets, 0);
	assert_false(mock.cmd & (CMD_PSE | CMD_ASE));
	assert_true(mock.cmd & CMD_RUN);
}

static void test_no_device_and_full_speed_device(void **state)
{
	bool reused;

	mock.connected = false;
	mock.portsc[MOCK_PORT - 1] &= ~PORT_CCS;
	assert_int_equal(dbgp_bring_up(&dev, &reused), -EKDB_ENODEV);
	setup(state);
	mock.full_speed = true;			/* the port never enables: not high speed */
	assert_int_equal(dbgp_bring_up(&dev, &reused), -EKDB_EIO);
	assert_int_equal(mock.port_resets, 3);
}

static void test_device_already_at_127_after_reset(void **state)
{
	/* a device that keeps its address (not at 0): found at 127, no SET_ADDRESS */
	bool reused;

	mock.gone = false;
	assert_int_equal(dbgp_hc_start(&dev, &reused), 0);
	assert_int_equal(dbgp_port_reset(&dev), 0);
	mock.address = DBGP_DEVNUM;
	assert_int_equal(dbgp_enumerate(&dev), 0);
	assert_int_equal(mock.enumerations, 0);
	assert_true(mock.debug_mode);
}

static void test_bad_arguments(void **state)
{
	u8 big[9] = { 0 };

	up();
	assert_int_equal(dbgp_bulk_write(&dev, big, 9), -EKDB_EINVAL);
	assert_int_equal(dbgp_control_msg(&dev, DBGP_DEVNUM, 0x00, 9, 1, 0, big, 1), -EKDB_EINVAL);
	/* an unknown request is refused by the device (STALL in the status stage) */
	assert_int_equal(dbgp_control_msg(&dev, DBGP_DEVNUM, 0x00, 0x42, 0, 0, NULL, 0),
			 -EKDB_EPIPE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_enumeration, setup),
		cmocka_unit_test_setup(test_out_and_in_toggles_are_separate, setup),
		cmocka_unit_test_setup(test_nak_storm_within_budget, setup),
		cmocka_unit_test_setup(test_nak_storm_beyond_budget, setup),
		cmocka_unit_test_setup(test_lost_out_handshake_is_not_duplicated, setup),
		cmocka_unit_test_setup(test_lost_in_handshake_drops_the_repeat, setup),
		cmocka_unit_test_setup(test_stall, setup),
		cmocka_unit_test_setup(test_transient_timeouts_are_retried, setup),
		cmocka_unit_test_setup(test_device_gone, setup),
		cmocka_unit_test_setup(test_controller_never_done, setup),
		cmocka_unit_test_setup(test_reuse_firmware_setup, setup),
		cmocka_unit_test_setup(test_reuse_after_firmware_stopped_the_controller, setup),
		cmocka_unit_test_setup(test_controller_stopped_under_us_runs_again, setup),
		cmocka_unit_test_setup(test_firmware_schedules_stopped_and_used_controller_reset, setup),
		cmocka_unit_test_setup(test_no_device_and_full_speed_device, setup),
		cmocka_unit_test_setup(test_device_already_at_127_after_reset, setup),
		cmocka_unit_test_setup(test_bad_arguments, setup),
	};

	return cmocka_run_group_tests_name("dbgp", tests, NULL, NULL);
}
