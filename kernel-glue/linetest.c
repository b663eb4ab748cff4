/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linetest.c - test_linerate=<port>,<bytes>: the raw line rate of a polled
 * 16550, both directions, for `make bench` (bench/linerate.py is the host
 * side; docs/bench.md describes the method).
 *
 * On <port> (anything uart_parse_options() takes: ttyS1, 0x2f8, ...), at
 * the default 115200 divisor, FIFO on, polled:
 *   guest -> host:  "\nEKDB-LINERATE-TX <bytes>\n", then <bytes> bytes of
 *                   linerate_pattern(0..bytes-1), then "\nEKDB-LINERATE-TXEND\n"
 *   host -> guest:  "EKDB-LINERATE-RX-READY\n"; the host then sends <bytes>
 *                   bytes of the same pattern; the guest reads and checks
 *                   them and answers "EKDB-LINERATE-RXEND <errors> <crc32>\n"
 * and on the console: "linerate: tx N bytes ok" and
 * "linerate: rx N bytes ok crc=xxxxxxxx" (or "... N errors").
 * Static storage only (1 KiB CRC table), no timer needed.
 */
#include <kernel/kernel.h>
#include <kernel/printk.h>
#include <ekdb/string.h>
#include "../io/serial/serial.h"

void serial_linetest(void);

#define LINERATE_MAX		(64u << 20)
/* give up on a silent host after this many empty polls (seconds under TCG) */
#define LINERATE_IDLE_POLLS	200000000u

static u32 crc_table[256];

static u8 linerate_pattern(u32 i)
{
	return (u8)(i * 7u + (i >> 8) + (i >> 16));
}

static void crc_init(void)
{
	for (u32 n = 0; n < 256; n++) {
		u32 c = n;

		for (int k = 0; k < 8; k++)
			c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[n] = c;
	}
}

static void put_str(struct uart_port *p, const char *s)
{
	while (*s)
		uart_putc(p, (u8)*s++);
}

static void put_dec(struct uart_port *p, u32 v)
{
	char buf[12];
	int n = 0;

	do {
		buf[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		uart_putc(p, (u8)buf[--n]);
}

static void put_hex32(struct uart_port *p, u32 v)
{
	for (int sh = 28; sh >= 0; sh -= 4)
		uart_putc(p, (u8)"0123456789abcdef"[(v >> sh) & 0xf]);
}

static u32 parse_u32(const char *s, bool *ok)
{
	u32 v = 0;

	*ok = *s != '\0';
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (LINERATE_MAX / 10)) {
			*ok = false;
			return 0;
		}
		v = v * 10 + (u32)(*s - '0');
	}
	return v;
}

/**
 * serial_linetest - run test_linerate=<port>,<bytes> if it was given.
 * Called once near the end of boot; returns when both directions are done.
 */
void serial_linetest(void)
{
	const char *arg = cmdline_get("test_linerate");
	static struct uart_port port;
	char name[32];
	const char *comma;
	u32 n, errors = 0, crc = 0xffffffffu, got = 0;
	unsigned idle = 0;
	bool ok;
	size_t len;

	if (!arg)
		return;
	comma = strchr(arg, ',');
	len = comma ? (size_t)(comma - arg) : 0;
	n = comma ? parse_u32(comma + 1, &ok) : 0;
	if (!comma || len >= sizeof(name) || !ok || !n || n > LINERATE_MAX) {
		pr_err("linerate: bad test_linerate=%s (want <port>,<bytes>)\n", arg);
		return;
	}
	memcpy(name, arg, len);
	name[len] = '\0';
	if (uart_parse_options(name, &port) || uart_init(&port)) {
		pr_err("linerate: no UART %s\n", name);
		return;
	}
	crc_init();

	/* guest -> host */
	pr_info("linerate: tx %u bytes on %s\n", n, name);
	put_str(&port, "\nEKDB-LINERATE-TX ");
	put_dec(&port, n);
	uart_putc(&port, '\n');
	for (u32 i = 0; i < n; i++)
		uart_putc(&port, linerate_pattern(i));
	put_str(&port, "\nEKDB-LINERATE-TXEND\n");
	if (port.lost_chars)
		pr_err("linerate: tx %u bytes FAILED (transmitter stuck)\n", n);
	else
		pr_info("linerate: tx %u bytes ok\n", n);

	/* host -> guest */
	put_str(&port, "EKDB-LINERATE-RX-READY\n");
	while (got < n) {
		int c = uart_getc(&port);

		if (c < 0) {
			if (++idle >= LINERATE_IDLE_POLLS)
				break;
			continue;
		}
		idle = 0;
		if ((u8)c != linerate_pattern(got))
			errors++;
		crc = crc_table[(crc ^ (u8)c) & 0xff] ^ (crc >> 8);
		got++;
	}
	crc ^= 0xffffffffu;
	put_str(&port, "EKDB-LINERATE-RXEND ");
	put_dec(&port, got);
	uart_putc(&port, ' ');
	put_dec(&port, errors);
	uart_putc(&port, ' ');
	put_hex32(&port, crc);
	uart_putc(&port, '\n');
	if (got == n && !errors)
		pr_info("linerate: rx %u bytes ok crc=%08x\n", n, crc);
	else
		pr_err("linerate: rx FAILED: %u of %u bytes, %u errors, crc=%08x\n",
		       got, n, errors, crc);
}
