/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_dbgp_handoff.c - the debug device's way from the early driver to
 * the running kernel's (io/ehci-dbgp/dbgp_takeover.c, dbgp_chan.c,
 * dbgp_restart()) against the register mock: the state survives export
 * and import field by field with the unread bytes, a malformed or foreign
 * state is refused, the EHCI driver's reset keeps the device without a
 * new enumeration (and enumerates it again only when the reset took the
 * port down), output written during the reset is held and sent after it,
 * in order, and nothing touches the hardware meanwhile.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "dbgp_mock.h"
#include "host_log.h"
#include "../../io/ehci-dbgp/dbgp_chan.h"
#include <ekdb/errno.h>
#include <ekdb/transport.h>

#define BAR	0xfebf0000ULL

static struct dbgp_mock mock;
static struct dbgp_chan chan;

static int setup(void **state)
{
	bool reused = true;

	ekdb_set_port(&host_log_port);	/* the channel's log lines go to host_log */
	dbgp_mock_init(&mock);
	memset(&chan, 0, sizeof(chan));
	dbgp_mock_dev_init(&mock, &chan.dev);
	assert_int_equal(dbgp_bring_up(&chan.dev, &reused), 0);
	assert_false(reused);
	chan.ready = true;
	chan.dev.st.bus = 0;
	chan.dev.st.slot = 3;
	chan.dev.st.func = 1;
	chan.dev.st.bar_phys = BAR;
	chan.in_debugger = true;	/* getc reads at once */
	log_clear();
	return 0;
}

static void send_str(const char *s)
{
	for (; *s; s++)
		dbgp_chan_putc(&chan, (u8)*s);
	dbgp_chan_flush(&chan);
}

static void exported(struct ekdb_transport_state *st)
{
	memset(st, 0, sizeof(*st));
	dbgp_state_export(&chan.dev.st, st);
}

static void test_export_import_round_trip(void **state)
{
	struct ekdb_transport_state st;
	struct dbgp_state in;

	send_str("abc");			/* OUT toggle moves to 1 */
	dbgp_mock_feed(&mock, "xyz12345");	/* one IN packet of 8; read 3 of it */
	assert_int_equal(dbgp_chan_getc(&chan), 'x');
	assert_int_equal(dbgp_chan_getc(&chan), 'y');
	assert_int_equal(dbgp_chan_getc(&chan), 'z');
	exported(&st);
	assert_int_equal(st.kind, EKDB_TRANSPORT_DBGP);
	assert_int_equal(st.u.dbgp.pci_bdf, 3 << 3 | 1);
	assert_int_equal(st.u.dbgp.regs_phys, BAR + MOCK_DBGP);
	assert_int_equal(st.u.dbgp.devnum, 127);
	assert_int_equal(st.u.dbgp.ep_in, 2);
	assert_int_equal(st.u.dbgp.ep_out, 1);
	assert_int_equal(st.u.dbgp.toggle_out, 1);
	assert_int_equal(st.u.dbgp.toggle_in, 1);
	assert_int_equal(st.u.dbgp.port, MOCK_PORT);
	assert_int_equal(st.npending, 5);
	assert_memory_equal(st.pending, "12345", 5);

	assert_int_equal(dbgp_state_import(&st, BAR, MOCK_DBGP, MOCK_OP, &in), 0);
	assert_int_equal(in.magic, DBGP_STATE_MAGIC);
	assert_int_equal(in.slot, 3);
	assert_int_equal(in.func, 1);
	assert_int_equal(in.devnum, 127);
	assert_int_equal(in.tog_out, 1);
	assert_int_equal(in.tog_in, 1);
	assert_int_equal(in.op_off, MOCK_OP);
	assert_int_equal(in.dbgp_off, MOCK_DBGP);
	assert_int_equal(in.pending_len, 5);
	assert_int_equal(in.pending_pos, 0);

	/* a successor with the imported state goes on: no new enumeration, toggles right */
	chan.dev.st = in;
	assert_int_equal(dbgp_chan_getc(&chan), '1');
	for (int i = 0; i < 4; i++)
		dbgp_chan_getc(&chan);
	send_str("def");
	dbgp_mock_feed(&mock, "Q");
	assert_int_equal(dbgp_chan_getc(&chan), 'Q');
	assert_int_equal(mock.out_len, 6);
	assert_memory_equal(mock.out, "abcdef", 6);
	assert_int_equal(mock.enumerations, 1);
	assert_int_equal(mock.dup_out, 0);
}

static void test_import_refuses_bad_states(void **state)
{
	struct ekdb_transport_state good, st;
	struct dbgp_state in;

	exported(&good);
	memset(&in, 0x5a, sizeof(in));
#define REFUSED(err, mutate) do {						\
		st = good;							\
		mutate;								\
		assert_int_equal(dbgp_state_import(&st, BAR, MOCK_DBGP, MOCK_OP, &in), err); \
	} while (0)
	REFUSED(-EKDB_EINVAL, st.kind = EKDB_TRANSPORT_SERIAL);
	REFUSED(-EKDB_EINVAL, st.u.dbgp.devnum = 0);
	REFUSED(-EKDB_EINVAL, st.u.dbgp.devnum = 128);
	REFUSED(-EKDB_EINVAL, st.u.dbgp.ep_out = 0);
	REFUSED(-EKDB_EINVAL, st.u.dbgp.ep_in = 16);
	REFUSED(-EKDB_EINVAL, st.u.dbgp.toggle_out = 2);
	REFUSED(-EKDB_EINVAL, st.u.dbgp.toggle_in = 0xff);
	REFUSED(-EKDB_EINVAL, st.u.dbgp.port = 0);
	REFUSED(-EKDB_EINVAL, st.u.dbgp.port = 16);
	REFUSED(-EKDB_EINVAL, st.u.dbgp.pci_bdf = 0x10000);
	REFUSED(-EKDB_EINVAL, st.npending = DBGP_MAXP + 1);
	REFUSED(-EKDB_ENODEV, st.u.dbgp.regs_phys += 0x1000);	/* another controller's */
	assert_int_equal(dbgp_state_import(&good, 0, MOCK_DBGP, MOCK_OP, &in), -EKDB_ENODEV);
	assert_int_equal(dbgp_state_import(&good, BAR, MOCK_DBGP + 4, MOCK_OP, &in), -EKDB_ENODEV);
	/* nothing was written on refusal */
	for (size_t i = 0; i < sizeof(in); i++)
		assert_int_equal(((u8 *)&in)[i], 0x5a);
	assert_int_equal(dbgp_state_import(&good, BAR, MOCK_DBGP, MOCK_OP, &in), 0);
}

/* The EHCI driver's reset: stop, HCRESET (controller halted, CONFIGFLAG 0). */
static void hc_reset(void)
{
	mock.io.write(&mock.io, MOCK_OP + EHCI_USBCMD, 0);
	mock.io.write(&mock.io, MOCK_OP + EHCI_USBCMD, CMD_HCRESET);
	assert_int_equal(mock.cmd & CMD_RUN, 0);
	assert_int_equal(mock.configflag, 0);
}

static void test_reset_keeps_the_device(void **state)
{
	unsigned setups;

	send_str("before");
	assert_int_equal(chan.dev.st.tog_out, 1);
	dbgp_chan_quiesce(&chan);
	hc_reset();
	setups = mock.setups;
	assert_int_equal(dbgp_chan_resume(&chan), 0);		/* 0: not enumerated again */
	/* only GET_DESCRIPTOR(DEBUG) was asked: no halt cleared, the toggles go on */
	assert_int_equal(mock.setups, setups + 1);
	assert_int_equal(chan.dev.st.tog_out, 1);
	assert_true(mock.cmd & CMD_RUN);
	assert_int_equal(mock.configflag, 1);
	assert_int_equal(mock.enumerations, 1);
	assert_int_equal(mock.port_resets, 1);
	send_str("after");
	dbgp_mock_feed(&mock, "in");
	assert_int_equal(dbgp_chan_getc(&chan), 'i');
	assert_int_equal(mock.out_len, 11);
	assert_memory_equal(mock.out, "beforeafter", 11);
	assert_int_equal(mock.dup_out, 0);
	assert_false(chan.gone);
}

static void test_reset_that_drops_the_port_enumerates_again(void **state)
{
	mock.hcreset_drops_port = true;
	send_str("before");
	dbgp_chan_quiesce(&chan);
	hc_reset();
	assert_int_equal(mock.address, 0);
	assert_int_equal(dbgp_chan_resume(&chan), 1);		/* 1: enumerated again */
	assert_int_equal(mock.enumerations, 2);
	assert_int_equal(chan.dev.st.tog_out, 0);
	send_str("after");
	assert_int_equal(mock.out_len, 11);
	assert_memory_equal(mock.out, "beforeafter", 11);
}

static void test_output_held_while_quiesced(void **state)
{
	unsigned txns;
	char big[DBGP_HELD_MAX + 100];

	dbgp_chan_quiesce(&chan);
	chan.in_debugger = false;
	txns = mock.txns;
	send_str("during the reset\n");
	dbgp_chan_console_write(&chan, "log line\n", 9);
	chan.poll_secs = 1;
	chan.poll_at = 0;
	assert_int_equal(dbgp_chan_getc(&chan), EKDB_NO_CHAR);	/* no input meanwhile */
	assert_int_equal(mock.txns, txns);			/* the hardware untouched */
	assert_int_equal(mock.out_len, 0);
	hc_reset();
	assert_int_equal(dbgp_chan_resume(&chan), 0);
	assert_int_equal(mock.out_len, 17 + 10);
	assert_memory_equal(mock.out, "during the reset\nlog line\r\n", 27);
	assert_int_equal(chan.held_len, 0);

	/* more than the hold buffer: the rest is counted as dropped */
	dbgp_chan_quiesce(&chan);
	memset(big, 'h', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	send_str(big);
	assert_int_equal(chan.held_len, DBGP_HELD_MAX);
	assert_int_equal(chan.held_dropped, sizeof(big) - 1 - DBGP_HELD_MAX);
	assert_int_equal(dbgp_chan_resume(&chan), 0);
	assert_int_equal(mock.out_len, 27 + DBGP_HELD_MAX);
}

static void test_debugger_may_use_the_port_while_quiesced(void **state)
{
	dbgp_chan_quiesce(&chan);
	hc_reset();
	dbgp_chan_pre(&chan);			/* a breakpoint inside the EHCI driver */
	dbgp_mock_feed(&mock, "$");
	assert_int_equal(dbgp_chan_getc(&chan), '$');	/* the halted controller was run again */
	send_str("+");
	assert_int_equal(mock.out_len, 1);
	dbgp_chan_post(&chan);
	assert_int_equal(dbgp_chan_resume(&chan), 0);
	assert_int_equal(mock.enumerations, 1);
}

static void test_resume_without_device(void **state)
{
	dbgp_chan_quiesce(&chan);
	hc_reset();
	mock.connected = false;
	mock.gone = true;
	mock.portsc[MOCK_PORT - 1] &= ~PORT_CCS;
	assert_true(dbgp_chan_resume(&chan) < 0);
	assert_true(chan.gone);
	dbgp_chan_flush(&chan);
	assert_true(log_has("dbgp: debug device not answering"));
	/* output is dropped, never piled up past one packet */
	for (const char *p = "0123456789"; *p; p++)
		dbgp_chan_putc(&chan, (u8)*p);
	assert_int_equal(chan.outlen, 2);
	assert_int_equal(chan.held_len, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_export_import_round_trip, setup),
		cmocka_unit_test_setup(test_import_refuses_bad_states, setup),
		cmocka_unit_test_setup(test_reset_keeps_the_device, setup),
		cmocka_unit_test_setup(test_reset_that_drops_the_port_enumerates_again, setup),
		cmocka_unit_test_setup(test_output_held_while_quiesced, setup),
		cmocka_unit_test_setup(test_debugger_may_use_the_port_while_quiesced, setup),
		cmocka_unit_test_setup(test_resume_without_device, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
