/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uart16550.h - polled 16550 UART driver, usable from the first kernel
 * instruction: static state only, bounded waits, no interrupts.
 *
 * Must keep working (test matrix): ttyS0..ttyS3 at 0x3f8/0x2f8/0x3e8/0x2e8,
 * any base given as 0xPORT, baud rates 300..115200 (divisor 115200/baud),
 * an absent UART (scratch register test fails -> -EKDB_ENODEV), and UARTs
 * that are not at a PC port: a PCI function's I/O BAR, memory-mapped
 * registers 1 or 4 bytes apart (uart_regs.h).
 */
#ifndef IO_UART16550_H
#define IO_UART16550_H

#include <ekdb/types.h>
#include "uart_regs.h"

struct uart_port {
	struct uart_regs regs;	/* where the registers are */
	u32 baud;		/* 0: keep the line as it is (earlycon= without options) */
	bool present;
	bool lost_chars;	/* the last write timed out: the line is stuck */
	u64 map_gen;		/* memory types: arch_dbg_mm_generation() when regs.virt was mapped */
};

#define UART_DEFAULT_BAUD 115200


/* Standard PC COM port bases, indexed by ttySn. */
extern const u16 uart_std_ports[4];

/* The ttySn index of a PC port at @r, or -1. */
int uart_std_line(const struct uart_regs *r);

/* uart_probe - does a 16550 answer at @port (memory mapped first)? 0, -EKDB_ENODEV, -EKDB_EFAULT. */
int uart_probe(struct uart_port *port);
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

/*
 * uart_parse_baud - "115200", "115200n8": the rate (50..115200, an exact
 * enough divisor).  Pure.  0 or -EKDB_EINVAL.
 */
int uart_parse_baud(const char *s, u32 *baud);

#endif
