/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_io_drivers.c - run-time kgdboc= (core/late/runtime.c) over the
 * running kernel's drivers, each an instance of a transport kind
 * (ekdb_register_io_driver): registration (NULL, no find, no kind, the
 * same driver twice, one past EKDB_IO_DRIVERS_MAX), the lookup by kind in
 * the order the drivers registered (a driver without the line, then one
 * with it; a line no driver has: the gap), and what a refused value
 * leaves: nothing changed.  The transport registry (core/transport.c) and
 * kgdboc's parser (core/kgdboc.c) are real; the frontends, the serial
 * kind's word parse and the printk are faked here.
 *
 * runtime.c keeps its driver table for the life of the program (the
 * kernel has no unregister): the tests run in order and build on it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "../../core/late/late.h"
#include "../../core/opts.h"
#include "../../io/serial/uart16550.h"
#include <ekdb/errno.h>
#include <ekdb/ekdb.h>
#include <ekdb/kdb.h>

/* ---- fakes: the host and the frontends ---- */
struct late_state late = { .done = true };
struct dbg_opts ekdb_opts;
static bool gdb_attached;
static char log_buf[4096];

bool ekdb_enabled(void) { return true; }
int late_start_debugger(void) { return 0; }
bool dbg_frontend_gdb_attached(void) { return gdb_attached; }
void dbg_frontend_sessions(struct gdb_session **g, struct kdb_session **k) { *g = NULL; *k = NULL; }
void dbg_frontend_set_cmd_enable(u32 v) { (void)v; }
int kdb_parse_cmd_enable_int(const char *val, int *out) { (void)val; (void)out; return -EKDB_EINVAL; }

int ekdb_printk(const char *fmt, ...)
{
	size_t n = strlen(log_buf);
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vsnprintf(log_buf + n, sizeof(log_buf) - n, fmt, ap);
	va_end(ap);
	return r;
}

/* ---- the drivers: ISA lines 0..3, PCI line 5 only (4 is a hole), the keyboard ---- */
static struct ekdb_transport tty[8], kbd = { .name = "kbd", .kind = EKDB_TRANSPORT_KBD };
static const char *const tty_names[8] = { "ttyS0", "ttyS1", "ttyS2", "ttyS3",
					  "ttyS4", "ttyS5", "ttyS6", "ttyS7" };
static unsigned finds[3];		/* calls per driver: isa, pci, kbd */
static u32 last_baud;

static struct ekdb_transport *line(int n, u32 baud)
{
	tty[n].name = tty_names[n];
	tty[n].kind = EKDB_TRANSPORT_SERIAL;
	last_baud = baud;
	return &tty[n];
}

static struct ekdb_transport *isa_find(int n, u32 baud)
{
	finds[0]++;
	return n >= 0 && n <= 3 ? line(n, baud) : NULL;
}

static struct ekdb_transport *pci_find(int n, u32 baud)
{
	finds[1]++;
	return n == 5 ? line(n, baud) : NULL;
}

static struct ekdb_transport *kbd_find(int n, u32 baud)
{
	finds[2]++;
	return &kbd;
}

static const struct ekdb_io_driver isa = { "serial8250", EKDB_TRANSPORT_SERIAL, isa_find };
static const struct ekdb_io_driver pci = { "8250_pci", EKDB_TRANSPORT_SERIAL, pci_find };
static const struct ekdb_io_driver i8042 = { "i8042", EKDB_TRANSPORT_KBD, kbd_find };

/* The registry's names, in slot order, comma-separated (a retired slot is a hole). */
static const char *registry(void)
{
	static char s[64];

	s[0] = 0;
	for (unsigned i = 0; i < 64; i++)	/* past the registry: NULL */
		if (dbg_transport_at(i))
			snprintf(s + strlen(s), sizeof(s) - strlen(s), "%s%s", s[0] ? "," : "",
				 dbg_transport_at(i)->name);
	return s;
}

static const char *config(void)
{
	static char s[64];

	ekdb_kgdboc_get(s, sizeof(s));
	return s;
}

/* Bad drivers are refused; a driver registered twice is there once. */
static void test_register_refusals(void **state)
{
	static const struct ekdb_io_driver nofind = { "nofind", EKDB_TRANSPORT_SERIAL, NULL };
	static const struct ekdb_io_driver nokind = { "nokind", 0, isa_find };

	assert_int_equal(ekdb_register_io_driver(NULL), -EKDB_EINVAL);
	assert_int_equal(ekdb_register_io_driver(&nofind), -EKDB_EINVAL);
	assert_int_equal(ekdb_register_io_driver(&nokind), -EKDB_EINVAL);
	/* no driver yet: no device */
	assert_int_equal(ekdb_kgdboc_set("ttyS1"), -EKDB_ENODEV);
	assert_int_equal(ekdb_register_io_driver(&isa), 0);
	assert_int_equal(ekdb_register_io_driver(&pci), 0);
	assert_int_equal(ekdb_register_io_driver(&isa), 0);	/* again: kept once */
	assert_int_equal(ekdb_register_io_driver(&i8042), 0);
	/* a line no driver has: each serial driver asked once, the isa one not twice */
	memset(finds, 0, sizeof(finds));
	assert_int_equal(ekdb_kgdboc_set("ttyS4"), -EKDB_ENODEV);
	assert_int_equal(finds[0], 1);
	assert_int_equal(finds[1], 1);
	assert_int_equal(finds[2], 0);
}

/* The first driver of the kind that has the line wins, in registration order. */
static void test_lookup_by_kind(void **state)
{
	log_buf[0] = 0;
	assert_int_equal(ekdb_kgdboc_set("ttyS1"), 0);
	assert_string_equal(registry(), "ttyS1");
	assert_non_null(strstr(log_buf, "kgdb: Registered I/O driver kgdboc (ttyS1)"));
	/* the isa driver has no line 5: the pci one, behind it, does; the baud reaches it */
	memset(finds, 0, sizeof(finds));
	assert_int_equal(ekdb_kgdboc_set("ttyS5,9600"), 0);
	assert_int_equal(finds[0], 1);
	assert_int_equal(finds[1], 1);
	assert_int_equal(last_baud, 9600);
	assert_string_equal(registry(), "ttyS5");
	assert_string_equal(config(), "ttyS5,9600");
	/* the keyboard kind, then a serial line: both */
	assert_int_equal(ekdb_kgdboc_set("kbd,ttyS2\n"), 0);	/* as echo writes it */
	assert_string_equal(registry(), "kbd,ttyS2");
	assert_string_equal(config(), "kbd,ttyS2");
}

/* Refused values change nothing: the registry and the shown value stay. */
static void test_refused_values_change_nothing(void **state)
{
	static const char *const bad[] = {
		"ttyS4",		/* the hole: no driver has it */
		"ttyS9", "ttyS", "ttyS1,", "kbd,kbd", "serial", ",ttyS1",
		"kms",			/* no input named */
		"0x1234",		/* not a standard port: no line number */
		"kbd,ttyS1,115200,ttyS2",
		"0123456789012345678901234567890123456789",	/* 40: too long */
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r = ekdb_kgdboc_set(bad[i]);

		assert_true(r == -EKDB_ENODEV || r == -EKDB_ENOSPC);
		assert_string_equal(registry(), "kbd,ttyS2");
		assert_string_equal(config(), "kbd,ttyS2");
	}
	assert_int_equal(ekdb_kgdboc_set("0123456789012345678901234567890123456789"), -EKDB_ENOSPC);
	gdb_attached = true;
	assert_int_equal(ekdb_kgdboc_set("ttyS1"), -EKDB_EBUSY);
	gdb_attached = false;
	assert_string_equal(registry(), "kbd,ttyS2");
}

/* An early transport of the same line is taken over, not doubled; "" unconfigures. */
static void test_takeover_and_unconfigure(void **state)
{
	static struct ekdb_transport early = { .name = "ttyS3", .kind = EKDB_TRANSPORT_SERIAL };

	assert_int_equal(ekdb_kgdboc_set(""), 0);
	assert_string_equal(registry(), "");
	assert_int_equal(dbg_transport_register(&early), 0);
	assert_int_equal(ekdb_kgdboc_set("ttyS3"), 0);
	assert_string_equal(registry(), "ttyS3");
	assert_ptr_equal(dbg_transport_at(0), &tty[3]);
	log_buf[0] = 0;
	assert_int_equal(ekdb_kgdboc_set(""), 0);
	assert_string_equal(registry(), "");
	assert_non_null(strstr(log_buf, "kgdb: Unregistered I/O driver kgdboc, debugger disabled"));
	assert_string_equal(config(), "");
}

/* One past EKDB_IO_DRIVERS_MAX is refused with a message; the others still serve. */
static void test_table_full(void **state)
{
	static struct ekdb_io_driver extra[EKDB_IO_DRIVERS_MAX];
	unsigned i;

	/* three are in: fill the rest, then one more */
	for (i = 0; i < EKDB_IO_DRIVERS_MAX - 3; i++) {
		extra[i] = (struct ekdb_io_driver){ "extra", EKDB_TRANSPORT_SERIAL, pci_find };
		assert_int_equal(ekdb_register_io_driver(&extra[i]), 0);
	}
	extra[i] = (struct ekdb_io_driver){ "one-too-many", EKDB_TRANSPORT_SERIAL, pci_find };
	log_buf[0] = 0;
	assert_int_equal(ekdb_register_io_driver(&extra[i]), -EKDB_ENOSPC);
	assert_non_null(strstr(log_buf, "kgdboc: no room for the one-too-many driver"));
	/* already in: still 0, not ENOSPC */
	assert_int_equal(ekdb_register_io_driver(&i8042), 0);
	assert_int_equal(ekdb_kgdboc_set("kbd"), 0);
	assert_string_equal(registry(), "kbd");
	assert_int_equal(ekdb_kgdboc_set("ttyS0"), 0);
	assert_string_equal(registry(), "ttyS0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_register_refusals),
		cmocka_unit_test(test_lookup_by_kind),
		cmocka_unit_test(test_refused_values_change_nothing),
		cmocka_unit_test(test_takeover_and_unconfigure),
		cmocka_unit_test(test_table_full),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
