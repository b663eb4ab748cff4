/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uart_regs.h - one description of a 16550's registers, shared by the
 * early polled driver (io/serial/uart16550.c) and the running
 * kernel's driver (kernel-glue/drivers/serial8250.c): where the registers
 * are (an I/O port, or physical memory reached 8 or 32 bits wide with the
 * register number shifted left by reg_shift, Linux's UPIO_PORT / UPIO_MEM /
 * UPIO_MEM32 and regshift), the register numbers and bits, and the one
 * accessor pair both drivers use.
 */
#ifndef IO_UART_REGS_H
#define IO_UART_REGS_H

#include <ekdb/types.h>
#include <asm/io.h>

enum uart_iotype {
	UART_IO_PORT = 0,	/* x86 port I/O, one byte a register (ISA, PCI I/O BAR) */
	UART_IO_MMIO,		/* memory, 8-bit accesses (Linux's mmio) */
	UART_IO_MMIO32,		/* memory, 32-bit accesses, registers 4 bytes apart (mmio32) */
};

struct uart_regs {
	u8 iotype;		/* enum uart_iotype */
	u8 reg_shift;		/* register n is at addr + (n << reg_shift) */
	u64 addr;		/* I/O port, or physical address of register 0 */
	volatile u8 *virt;	/* memory types: where addr is mapped (set by the driver) */
};

/* 16550 registers (numbers, before reg_shift) */
#define UART_RBR	0	/* receive buffer (read, DLAB=0) */
#define UART_THR	0	/* transmit holding (write, DLAB=0) */
#define UART_DLL	0	/* divisor latch low (DLAB=1) */
#define UART_IER	1	/* interrupt enable (DLAB=0) */
#define UART_DLM	1	/* divisor latch high (DLAB=1) */
#define UART_IIR	2	/* interrupt identification (read) */
#define UART_FCR	2	/* FIFO control (write) */
#define UART_LCR	3	/* line control */
#define UART_MCR	4	/* modem control */
#define UART_LSR	5	/* line status */
#define UART_SCR	7	/* scratch */

#define UART_IER_RDI	0x01	/* received data available (and FIFO timeout) */
#define UART_IER_RLSI	0x04	/* receiver line status (errors) */
#define UART_IIR_NO_INT	0x01
#define UART_LCR_8N1	0x03
#define UART_LCR_DLAB	0x80
#define UART_FCR_ENABLE	0x01
#define UART_FCR_CLEAR	0x06	/* clear RX and TX FIFOs */
#define UART_FCR_TRIG1	0x00
#define UART_FCR_TRIG14	0xc0
#define UART_MCR_DTR_RTS 0x03
#define UART_MCR_OUT2	0x08	/* gates the IRQ line to the PIC/I/O APIC on a PC */
#define UART_LSR_DR	0x01	/* data ready */
#define UART_LSR_OE	0x02
#define UART_LSR_ERRORS	0x1e	/* overrun, parity, framing, break */
#define UART_LSR_THRE	0x20	/* transmit holding register empty */

#define UART_CLOCK_DIV_BASE 115200	/* 1.8432 MHz / 16 */

/* How many bytes of address space the registers span (for mapping). */
static inline u64 uart_regs_span(const struct uart_regs *r)
{
	return 8ULL << r->reg_shift;
}

static inline bool uart_regs_is_mmio(const struct uart_regs *r)
{
	return r->iotype != UART_IO_PORT;
}

static inline u8 uart_in(const struct uart_regs *r, unsigned reg)
{
	switch (r->iotype) {
	case UART_IO_MMIO32:
		return (u8)*(volatile u32 *)(r->virt + (reg << r->reg_shift));
	case UART_IO_MMIO:
		return r->virt[reg << r->reg_shift];
	default:
		return inb((u16)(r->addr + (reg << r->reg_shift)));
	}
}

static inline void uart_out(const struct uart_regs *r, unsigned reg, u8 v)
{
	switch (r->iotype) {
	case UART_IO_MMIO32:
		*(volatile u32 *)(r->virt + (reg << r->reg_shift)) = v;
		break;
	case UART_IO_MMIO:
		r->virt[reg << r->reg_shift] = v;
		break;
	default:
		outb((u16)(r->addr + (reg << r->reg_shift)), v);
	}
}

/* Same device? (the handoff's test: the early and the late driver of one UART) */
static inline bool uart_regs_same(const struct uart_regs *a, const struct uart_regs *b)
{
	return a->iotype == b->iotype && a->addr == b->addr && a->reg_shift == b->reg_shift;
}

/* The 16550 answers: its scratch register keeps what is written (restored after). */
static inline bool uart_regs_probe(const struct uart_regs *r)
{
	u8 old = uart_in(r, UART_SCR);
	bool ok;

	uart_out(r, UART_SCR, 0x5a);
	ok = uart_in(r, UART_SCR) == 0x5a;
	uart_out(r, UART_SCR, 0xa5);
	ok = ok && uart_in(r, UART_SCR) == 0xa5;
	uart_out(r, UART_SCR, old);
	return ok;
}

/* Program @baud, 8N1, interrupts off, FIFOs on and cleared with trigger @fcr_trig. */
static inline void uart_regs_setup(const struct uart_regs *r, u32 baud, u8 fcr_trig)
{
	u16 div = (u16)(UART_CLOCK_DIV_BASE / baud);

	uart_out(r, UART_IER, 0);
	uart_out(r, UART_LCR, UART_LCR_DLAB);
	uart_out(r, UART_DLL, div & 0xff);
	uart_out(r, UART_DLM, div >> 8);
	uart_out(r, UART_LCR, UART_LCR_8N1);
	uart_out(r, UART_FCR, UART_FCR_ENABLE | UART_FCR_CLEAR | fcr_trig);
}

/* The baud rate the line runs at now (whoever programmed it); 0 if unknown. */
static inline u32 uart_regs_read_baud(const struct uart_regs *r)
{
	u8 lcr = uart_in(r, UART_LCR);
	u16 div;

	uart_out(r, UART_LCR, lcr | UART_LCR_DLAB);
	div = (u16)(uart_in(r, UART_DLL) | uart_in(r, UART_DLM) << 8);
	uart_out(r, UART_LCR, lcr);
	return div ? UART_CLOCK_DIV_BASE / div : 0;
}

#endif
