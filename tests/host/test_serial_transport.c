// SPDX-License-Identifier: GPL-2.0
/*
 * test_serial_transport.c - the early polled 16550 transport's break-in
 * poll and handoff export (io/serial/serial_transport.c) over a
 * scripted UART: Ctrl-C, the '$' kept for getc, console bytes kept for
 * the running kernel's driver (and dropped, not blocking, when full).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include <ekdb/errno.h>
#include <ekdb/transport.h>
#include "../../io/serial/uart16550.h"
#include "../../io/serial/serial_console.h"
#include "../../io/serial/serial_transport.h"

/* ---- a scripted UART: bytes "on the wire", read by uart_getc ---- */
static const char *wire;
static size_t wire_len, wire_pos;

static void line(const char *s, size_t n)
{
	wire = s;
	wire_len = n;
	wire_pos = 0;
}

int uart_init(struct uart_port *p)
{
	p->present = true;
	return 0;
}

int uart_getc(struct uart_port *p)
{
	return wire_pos < wire_len ? (u8)wire[wire_pos++] : EKDB_NO_CHAR;
}

void uart_putc(struct uart_port *p, u8 c) {}
void uart_write(struct uart_port *p, const char *s, size_t len) {}
struct uart_port *early_serial_console_port(void) { return NULL; }
struct uart_port *early_serial_console_of(const struct uart_regs *r) { return NULL; }

static struct ekdb_transport *t;

static int setup(void **state)
{
	int err = -1;
	struct ekdb_transport_state st;

	t = serial_transport_init("ttyS1,9600", &err);
	assert_non_null(t);
	assert_int_equal(err, 0);
	line("", 0);
	t->export_state(t, &st);	/* empty what an earlier test left */
	return 0;
}

static void test_name_kind_ops(void **state)
{
	assert_string_equal(t->name, "ttyS1");
	assert_int_equal(t->kind, EKDB_TRANSPORT_SERIAL);
	assert_non_null(t->poll_break);
	assert_non_null(t->export_state);
}

static void test_ctrl_c_after_console_bytes(void **state)
{
	struct ekdb_transport_state st;

	line("ls\x03rest", 7);
	assert_int_equal(t->poll_break(t), EKDB_BREAK_CTRLC);
	/* the Ctrl-C is consumed; what follows it stays on the line for the debugger */
	assert_int_equal(t->getc(t), 'r');
	memset(&st, 0xaa, sizeof(st));
	t->export_state(t, &st);
	assert_int_equal(st.kind, EKDB_TRANSPORT_SERIAL);
	assert_int_equal(st.u.serial.base, 0x2f8);
	assert_int_equal(st.u.serial.baud, 9600);
	assert_int_equal(st.npending, 2);
	assert_memory_equal(st.pending, "ls", 2);
}

static void test_dollar_kept_for_getc(void **state)
{
	struct ekdb_transport_state st;

	line("ab$qSupported#37", 16);
	assert_int_equal(t->poll_break(t), EKDB_BREAK_GDB);
	/* a second poll (the debugger was busy) does not read past the packet start */
	assert_int_equal(t->poll_break(t), EKDB_BREAK_GDB);
	assert_int_equal(t->getc(t), '$');
	assert_int_equal(t->getc(t), 'q');
	t->export_state(t, &st);
	assert_int_equal(st.npending, 2);		/* "ab": console bytes, not gdb's */
	assert_memory_equal(st.pending, "ab", 2);
}

static void test_plain_bytes_no_break(void **state)
{
	struct ekdb_transport_state st;

	line("hello", 5);
	assert_int_equal(t->poll_break(t), EKDB_BREAK_NONE);
	assert_int_equal(t->getc(t), EKDB_NO_CHAR);	/* console bytes never reach the debugger */
	t->export_state(t, &st);
	assert_int_equal(st.npending, 5);
	assert_memory_equal(st.pending, "hello", 5);
	t->export_state(t, &st);			/* exported once: gone */
	assert_int_equal(st.npending, 0);
}

static void test_full_ring_still_sees_ctrl_c(void **state)
{
	static char buf[EKDB_HANDOFF_PENDING_MAX + 20];
	struct ekdb_transport_state st;
	int why = EKDB_BREAK_NONE;

	memset(buf, 'x', sizeof(buf));
	buf[0] = 'A';
	buf[sizeof(buf) - 1] = 0x03;
	line(buf, sizeof(buf));
	/* bounded per call: a few ticks drain it; the Ctrl-C behind a full ring is seen */
	for (int tick = 0; tick < 10 && why == EKDB_BREAK_NONE; tick++)
		why = t->poll_break(t);
	assert_int_equal(why, EKDB_BREAK_CTRLC);
	t->export_state(t, &st);
	assert_int_equal(st.npending, EKDB_HANDOFF_PENDING_MAX);
	assert_int_equal(st.pending[0], 'A');		/* oldest kept, newest dropped */
}

static void test_bounded_per_poll(void **state)
{
	static char buf[1000];

	memset(buf, 'y', sizeof(buf));
	line(buf, sizeof(buf));
	assert_int_equal(t->poll_break(t), EKDB_BREAK_NONE);
	assert_true(wire_pos > 0 && wire_pos < 100);	/* one tick reads a FIFO's worth, not all */
}

static void test_bad_options(void **state)
{
	int err = 0;

	assert_null(serial_transport_init("ttyS7", &err));
	assert_int_equal(err, -EKDB_EINVAL);
	assert_null(serial_transport_init("ttyS0,abc", &err));
	assert_int_equal(err, -EKDB_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_name_kind_ops, setup),
		cmocka_unit_test_setup(test_ctrl_c_after_console_bytes, setup),
		cmocka_unit_test_setup(test_dollar_kept_for_getc, setup),
		cmocka_unit_test_setup(test_plain_bytes_no_break, setup),
		cmocka_unit_test_setup(test_full_ring_still_sees_ctrl_c, setup),
		cmocka_unit_test_setup(test_bounded_per_poll, setup),
		cmocka_unit_test(test_bad_options),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
