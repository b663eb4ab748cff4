/* SPDX-License-Identifier: GPL-2.0 */
/* uart16550.c - polled 16550 access: init, bounded-wait putc, non-blocking getc. */
#include "uart16550.h"
#include <asm/processor.h>
#include <ekdb/port.h>
#include <ekdb/errno.h>
#include <ekdb/transport.h>

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

/*
 * Memory-mapped registers: mapped uncached where the current page tables
 * are (the loader's, the early kernel's, the final ones), again when they
 * change, as the debug port's registers are.  false: not reachable.
 */
static bool uart_mapped(struct uart_port *p)
{
	u64 gen;

	if (!uart_regs_is_mmio(&p->regs))
		return true;
	gen = arch_dbg_mm_generation();
	if (!p->regs.virt || gen != p->map_gen) {
		p->regs.virt = ekdb_map_io(p->regs.addr, uart_regs_span(&p->regs));
		p->map_gen = gen;
	}
	return p->regs.virt != NULL;
}

int uart_probe(struct uart_port *p)
{
	if (!uart_mapped(p))
		return -EKDB_EFAULT;
	return uart_regs_probe(&p->regs) ? 0 : -EKDB_ENODEV;
}

int uart_init(struct uart_port *p)
{
	if (p->baud > UART_CLOCK_DIV_BASE)
		return -EKDB_EINVAL;
	p->present = false;
	if (!uart_mapped(p))
		return -EKDB_EFAULT;
	/* Is there a UART at all?  The scratch register keeps what we write. */
	if (!uart_regs_probe(&p->regs))
		return -EKDB_ENODEV;
	if (p->baud)		/* 0: earlycon= without options keeps the line as it is */
		uart_regs_setup(&p->regs, p->baud, UART_FCR_TRIG14);
	else
		p->baud = uart_regs_read_baud(&p->regs);
	uart_out(&p->regs, UART_IER, 0);		/* polled: no interrupts */
	uart_out(&p->regs, UART_MCR, UART_MCR_DTR_RTS | UART_MCR_OUT2);
	p->present = true;
	p->lost_chars = false;
	return 0;
}

void uart_putc(struct uart_port *p, u8 c)
{
	unsigned long polls = p->lost_chars ? UART_TX_POLLS_STUCK : UART_TX_POLLS;

	if (!p->present || !uart_mapped(p))
		return;
	while (!(uart_in(&p->regs, UART_LSR) & UART_LSR_THRE)) {
		if (!--polls) {
			p->lost_chars = true;	/* stuck: give up on this byte */
			return;
		}
	}
	p->lost_chars = false;
	uart_out(&p->regs, UART_THR, c);
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
	if (!p->present || !uart_mapped(p) || !(uart_in(&p->regs, UART_LSR) & UART_LSR_DR))
		return EKDB_NO_CHAR;
	return uart_in(&p->regs, UART_RBR);
}
