/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uart16550.h - polled 16550 UART driver, usable from the first kernel
 * instruction: static state only, bounded waits, no interrupts.
 *
 * Must keep working (test matrix): ttyS0..ttyS3 at 0x3f8/0x2f8/0x3e8/0x2e8,
 * any base given as 0xPORT, baud rates 300..115200 (divisor 115200/baud),
 * an absent UART (scratch register test fails -> -EKDB_ENODEV).
 */
#ifndef EARLYIO_UART16550_H
#define EARLYIO_UART16550_H

#include <ekdb/types.h>

struct uart_port {
	u16 base;		/* I/O port base */
	u32 baud;
	bool present;
	bool lost_chars;	/* the last write timed out: the line is stuck */
};

#define UART_DEFAULT_BAUD 115200
#define UART_CLOCK_DIV_BASE 115200	/* 1.8432 MHz / 16 */

/* Standard PC COM port bases, indexed by ttySn. */
extern const u16 uart_std_ports[4];

/* uart_init - probe and program @port (8N1, FIFO on); 0 or -EKDB_ENODEV/-EKDB_EINVAL. */
int uart_init(struct uart_port *port);
/* uart_putc - write one byte, waiting a bounded time for the transmitter. */
void uart_putc(struct uart_port *port, u8 c);
/* uart_write - write @len bytes, "\n" becomes "\r\n" (console use). */
void uart_write(struct uart_port *port, const char *s, size_t len);
/* uart_getc - one received byte, or -1 (EKDB_NO_CHAR) when none is waiting. */
int uart_getc(struct uart_port *port);

/*
 * uart_parse_options - parse "ttyS1", "ttyS1,9600", "0x3f8", "0x3f8,115200",
 * or "" (ttyS0) into @port.  Pure; host-tested.  Returns 0 or -EKDB_EINVAL.
 */
int uart_parse_options(const char *opt, struct uart_port *port);

#endif
