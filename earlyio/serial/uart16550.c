/* SPDX-License-Identifier: GPL-2.0 */
/* uart16550.c - polled 16550 access: init, bounded-wait putc, non-blocking getc. */
#include "uart16550.h"
#include <asm/io.h>
#include <ekdb/errno.h>
#include <ekdb/transport.h>

/* 16550 registers (offsets from the base port) */
#define UART_RBR	0	/* receive buffer (read, DLAB=0) */
#define UART_THR	0	/* transmit holding (write, DLAB=0) */
#define UART_DLL	0	/* divisor latch low (DLAB=1) */
#define UART_IER	1	/* interrupt enable (DLAB=0) */
#define UART_DLM	1	/* divisor latch high (DLAB=1) */
#define UART_FCR	2	/* FIFO control (write) */
#define UART_LCR	3	/* line control */
#define UART_MCR	4	/* modem control */
#define UART_LSR	5	/* line status */
#define UART_SCR	7	/* scratch */

#define LCR_8N1		0x03
#define LCR_DLAB	0x80
#define FCR_ENABLE	0x01
#define FCR_CLEAR	0x06	/* clear RX and TX FIFOs */
#define FCR_TRIG14	0xc0
#define MCR_DTR_RTS	0x03
#define MCR_OUT2	0x08
#define LSR_DR		0x01	/* data ready */
#define LSR_THRE	0x20	/* transmit holding register empty */

/*
 * Bound on the wait for the transmitter.  A debugger must not drop bytes
 * because the other end (or an emulator's host side) is slow for a while:
 * at 300 baud one byte takes 33 ms, and under a loaded emulator the
 * transmitter can stay busy for much longer, so the first wait is long
 * (tens of seconds of LSR reads).  Once a byte has been given up on, the
 * line is considered stuck and later bytes wait only UART_TX_POLLS_STUCK
 * until one goes through again, so a dead line cannot freeze the kernel.
 */
#define UART_TX_POLLS		50000000UL
#define UART_TX_POLLS_STUCK	2000UL

int uart_init(struct uart_port *p)
{
	u16 div;

	if (!p->baud || p->baud > UART_CLOCK_DIV_BASE)
		return -EKDB_EINVAL;
	/* Is there a UART at all?  The scratch register keeps what we write. */
	outb(p->base + UART_SCR, 0x5a);
	if (inb(p->base + UART_SCR) != 0x5a) {
		p->present = false;
		return -EKDB_ENODEV;
	}
	outb(p->base + UART_SCR, 0xa5);
	if (inb(p->base + UART_SCR) != 0xa5) {
		p->present = false;
		return -EKDB_ENODEV;
	}
	div = (u16)(UART_CLOCK_DIV_BASE / p->baud);
	outb(p->base + UART_IER, 0);			/* polled: no interrupts */
	outb(p->base + UART_LCR, LCR_DLAB);
	outb(p->base + UART_DLL, div & 0xff);
	outb(p->base + UART_DLM, div >> 8);
	outb(p->base + UART_LCR, LCR_8N1);
	outb(p->base + UART_FCR, FCR_ENABLE | FCR_CLEAR | FCR_TRIG14);
	outb(p->base + UART_MCR, MCR_DTR_RTS | MCR_OUT2);
	p->present = true;
	p->lost_chars = false;
	return 0;
}

void uart_putc(struct uart_port *p, u8 c)
{
	unsigned long polls = p->lost_chars ? UART_TX_POLLS_STUCK : UART_TX_POLLS;

	if (!p->present)
		return;
	while (!(inb(p->base + UART_LSR) & LSR_THRE)) {
		if (!--polls) {
			p->lost_chars = true;	/* stuck: give up on this byte */
			return;
		}
	}
	p->lost_chars = false;
	outb(p->base + UART_THR, c);
}

void uart_write(struct uart_port *p, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\n')
			uart_putc(p, '\r');
		uart_putc(p, (u8)s[i]);
	}
}

int uart_getc(struct uart_port *p)
{
	if (!p->present || !(inb(p->base + UART_LSR) & LSR_DR))
		return EKDB_NO_CHAR;
	return inb(p->base + UART_RBR);
}
