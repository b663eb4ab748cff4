/* SPDX-License-Identifier: GPL-2.0 */
/*
 * serial.h - the 16550 UART device, public side: what a host and the
 * running kernel's serial driver (kernel-glue/drivers/serial8250*.c, the
 * loader's boot/dbg/) may use of the debugger's polled driver.  Nothing
 * else under io/serial/ is theirs (make check-layers).
 *
 *   uart_regs.h         the register map and access (port I/O, mmio, mmio32)
 *   uart16550.h         the polled line: struct uart_port, init/putc/getc,
 *                       the option parser (ttySn, 0xPORT, mmio32,...)
 *   serial_transport.h  the debugger transport on a line: made, started,
 *                       adopted (the loader's line), export/import state
 *   serial_console.h    the early consoles on a line (earlyprintk=, earlycon=)
 *   serial_pci.h        a UART behind PCI (pciserial=): find its BAR
 */
#ifndef IO_SERIAL_SERIAL_H
#define IO_SERIAL_SERIAL_H

#include "uart_regs.h"
#include "uart16550.h"
#include "serial_transport.h"
#include "serial_console.h"
#include "serial_pci.h"

#endif
