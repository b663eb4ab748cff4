// SPDX-License-Identifier: GPL-2.0
/*
 * test_earlycon.c - the parsers of the UARTs that are not at 0x3f8:
 * earlycon= with Linux's syntax (io/serial/earlycon_opt.c), the
 * ACPI SPCR table as an earlycon= value (spcr.c), pciserial's
 * [force,]BB:DD.F[,baud] (serial_opt.c).  Bad values tried: unknown
 * console names and iotypes, no/zero/oversized/misaligned addresses,
 * bad baud rates and options, short/unsummed tables, non-16550 SPCR
 * interfaces, address spaces and baud codes, malformed PCI addresses.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include <ekdb/errno.h>
#include "../../io/serial/earlycon.h"
#include "../../io/serial/serial_pci.h"

static void test_earlycon_io(void **state)
{
	struct earlycon_spec ec;

	assert_int_equal(uart_parse_earlycon("uart8250,io,0x3f8,115200n8", &ec), 0);
	assert_string_equal(ec.name, "uart8250");
	assert_int_equal(ec.port.regs.iotype, UART_IO_PORT);
	assert_int_equal(ec.port.regs.reg_shift, 0);
	assert_int_equal(ec.port.regs.addr, 0x3f8);
	assert_int_equal(ec.port.baud, 115200);
	assert_string_equal(ec.options, "115200n8");

	assert_int_equal(uart_parse_earlycon("uart,io,0x2f8", &ec), 0);
	assert_string_equal(ec.name, "uart");
	assert_int_equal(ec.port.regs.addr, 0x2f8);
	assert_int_equal(ec.port.baud, 0);		/* no options: the line as it is */
	assert_string_equal(ec.options, "");
}

static void test_earlycon_mmio(void **state)
{
	struct earlycon_spec ec;

	assert_int_equal(uart_parse_earlycon("uart8250,mmio32,0xfe032000,9600", &ec), 0);
	assert_int_equal(ec.port.regs.iotype, UART_IO_MMIO32);
	assert_int_equal(ec.port.regs.reg_shift, 2);
	assert_int_equal(ec.port.regs.addr, 0xfe032000);
	assert_int_equal(ec.port.baud, 9600);

	assert_int_equal(uart_parse_earlycon("uart,mmio,0xc1000000", &ec), 0);
	assert_int_equal(ec.port.regs.iotype, UART_IO_MMIO);
	assert_int_equal(ec.port.regs.reg_shift, 0);

	/* Linux: an address with no iotype is mmio */
	assert_int_equal(uart_parse_earlycon("uart8250,0xfed00000,115200", &ec), 0);
	assert_int_equal(ec.port.regs.iotype, UART_IO_MMIO);
	assert_int_equal(ec.port.regs.addr, 0xfed00000);
}

static void test_earlycon_bad(void **state)
{
	struct earlycon_spec ec;

	assert_int_equal(uart_parse_earlycon("pl011,mmio32,0x9000000", &ec), -EKDB_ENOENT);
	assert_int_equal(uart_parse_earlycon("uart82500,io,0x3f8", &ec), -EKDB_ENOENT);
	assert_int_equal(uart_parse_earlycon("", &ec), -EKDB_EINVAL);
	assert_int_equal(uart_parse_earlycon("uart8250", &ec), -EKDB_EINVAL);
	assert_int_equal(uart_parse_earlycon("uart8250,pio,0x3f8", &ec), -EKDB_EINVAL);
	assert_int_equal(uart_parse_earlycon("uart8250,io,", &ec), -EKDB_EINVAL);
	assert_int_equal(uart_parse_earlycon("uart8250,io,3f8", &ec), -EKDB_EINVAL);
	assert_int_equal(uart_parse_earlycon("uart8250,io,0x", &ec), -EKDB_EINVAL);
	assert_int_equal(uart_parse_earlycon("uart8250,io,0x0", &ec), -EKDB_EINVAL);
	assert_int_equal(uart_parse_earlycon("uart8250,io,0x10000", &ec), -EKDB_EINVAL);
	assert_int_equal(uart_parse_earlycon("uart8250,io,0x3fg", &ec), -EKDB_EINVAL);
	assert_int_equal(uart_parse_earlycon("uart8250,mmio32,0xfe032002", &ec), -EKDB_EINVAL);
	assert_int_equal(uart_parse_earlycon("uart8250,mmio,0x10000000000000", &ec), -EKDB_EINVAL);
	assert_int_equal(uart_parse_earlycon("uart8250,io,0x3f8,12345", &ec), -EKDB_EINVAL);
	assert_int_equal(uart_parse_earlycon("uart8250,io,0x3f8,115200e7", &ec), -EKDB_EINVAL);
	assert_int_equal(uart_parse_earlycon("uart8250,io,0x3f8,", &ec), -EKDB_EINVAL);
	assert_int_equal(uart_parse_earlycon("uart8250,io,0x3f8,fast", &ec), -EKDB_EINVAL);
	assert_int_equal(uart_parse_earlycon("uart8250,io,0x3f8,1152000000000000000000000", &ec),
			 -EKDB_EINVAL);
}

/* An SPCR (revision 2, 80 bytes) with a checksum that makes it sum to 0. */
static void spcr(u8 *t, u8 iface, u8 space, u8 access, u64 addr, u8 baud)
{
	u8 sum = 0;

	memset(t, 0, 80);
	memcpy(t, "SPCR", 4);
	t[4] = 80;
	t[8] = 2;
	t[36] = iface;
	t[40] = space;
	t[41] = 8;
	t[43] = access;
	for (int i = 0; i < 8; i++)
		t[44 + i] = (u8)(addr >> (8 * i));
	t[58] = baud;
	for (int i = 0; i < 80; i++)
		sum = (u8)(sum + t[i]);
	t[9] = (u8)-sum;
}

static void test_spcr(void **state)
{
	u8 t[80];
	char buf[64];

	spcr(t, 0, 1, 1, 0x3f8, 7);
	assert_int_equal(spcr_to_earlycon(t, 80, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "uart,io,0x3f8,115200");
	spcr(t, 0x12, 0, 3, 0xc1011000, 3);
	assert_int_equal(spcr_to_earlycon(t, 80, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "uart,mmio32,0xc1011000,9600");
	spcr(t, 1, 0, 1, 0xfe000000, 0);			/* baud "as is" */
	assert_int_equal(spcr_to_earlycon(t, 80, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "uart,mmio,0xfe000000");

	spcr(t, 3, 0, 3, 0x9000000, 7);				/* a PL011 */
	assert_int_equal(spcr_to_earlycon(t, 80, buf, sizeof(buf)), -EKDB_ENOSYS);
	spcr(t, 0, 2, 1, 0x3f8, 7);				/* PCI config space */
	assert_int_equal(spcr_to_earlycon(t, 80, buf, sizeof(buf)), -EKDB_ENOSYS);
	spcr(t, 0, 1, 1, 0x3f8, 5);				/* no baud rate code 5 */
	assert_int_equal(spcr_to_earlycon(t, 80, buf, sizeof(buf)), -EKDB_ENOSYS);
	spcr(t, 0, 1, 1, 0x3f8, 7);
	t[58] = 6;						/* checksum now wrong */
	assert_int_equal(spcr_to_earlycon(t, 80, buf, sizeof(buf)), -EKDB_EINVAL);
	spcr(t, 0, 1, 1, 0x3f8, 7);
	assert_int_equal(spcr_to_earlycon(t, 79, buf, sizeof(buf)), -EKDB_EINVAL);
	t[0] = 'X';
	assert_int_equal(spcr_to_earlycon(t, 80, buf, sizeof(buf)), -EKDB_EINVAL);
	assert_int_equal(spcr_to_earlycon(NULL, 80, buf, sizeof(buf)), -EKDB_EINVAL);
}

static void test_pciserial(void **state)
{
	struct uart_pci_spec s;

	assert_int_equal(uart_parse_pciserial("00:02.0", &s), 0);
	assert_int_equal(s.bus, 0);
	assert_int_equal(s.slot, 2);
	assert_int_equal(s.func, 0);
	assert_false(s.force);
	assert_int_equal(s.baud, 115200);
	assert_int_equal(uart_parse_pciserial("force,1a:1f.7,9600", &s), 0);
	assert_true(s.force);
	assert_int_equal(s.bus, 0x1a);
	assert_int_equal(s.slot, 0x1f);
	assert_int_equal(s.func, 7);
	assert_int_equal(s.baud, 9600);

	assert_int_equal(uart_parse_pciserial("", &s), -EKDB_EINVAL);
	assert_int_equal(uart_parse_pciserial("00:02", &s), -EKDB_EINVAL);
	assert_int_equal(uart_parse_pciserial("00:20.0", &s), -EKDB_EINVAL);	/* slot > 31 */
	assert_int_equal(uart_parse_pciserial("00:02.8", &s), -EKDB_EINVAL);	/* function > 7 */
	assert_int_equal(uart_parse_pciserial("100:02.0", &s), -EKDB_EINVAL);	/* bus > 255 */
	assert_int_equal(uart_parse_pciserial("00:02.0,12345", &s), -EKDB_EINVAL);
	assert_int_equal(uart_parse_pciserial("00:02.0x", &s), -EKDB_EINVAL);
	assert_int_equal(uart_parse_pciserial("force", &s), -EKDB_EINVAL);
	assert_int_equal(uart_parse_pciserial("forced,00:02.0", &s), -EKDB_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_earlycon_io),
		cmocka_unit_test(test_earlycon_mmio),
		cmocka_unit_test(test_earlycon_bad),
		cmocka_unit_test(test_spcr),
		cmocka_unit_test(test_pciserial),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
