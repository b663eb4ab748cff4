"""uart.py - a memory-mapped 16550 behind a PCI function, as laptops have
them: an Intel Serial IO (LPSS) UART, 8086:9d27 (Sunrise Point-LP UART #0),
class 0x118000, a 32-bit memory BAR0 of 4 KiB (below 4 GiB, where the
early kernel reaches device memory), the 16550's registers 4 bytes
apart and read/written 32 bits wide (Linux: mmio32, regshift 2).  Served to
QEMU through x-pci-proxy-dev (tools/pcisim/mpqemu.py).

What the model does, from the 16550 data sheet: RBR/THR, IER, IIR/FCR
(FIFOs), LCR with DLAB and the divisor latch, MCR, LSR (DR, THRE, TEMT),
MSR, SCR.  Bytes written to THR go to the socket's client at once (the line
is as fast as the host); bytes from the client wait in the receive FIFO.
No interrupt is raised (the guest polls it).  Only 32-bit accesses reach
the registers (the UART sits on a 32-bit APB bus): a byte access reads 0
and writes nothing, so a driver that does not use mmio32 sees no UART.
"""

import struct

BAR0_SIZE = 0x1000
REG_SHIFT = 2
VENDOR, DEVICE, CLASS, REVISION = 0x8086, 0x9D27, 0x118000, 0x21

RBR, IER, IIR, LCR, MCR, LSR, MSR, SCR = 0, 1, 2, 3, 4, 5, 6, 7
LSR_DR, LSR_THRE, LSR_TEMT = 0x01, 0x20, 0x40
LCR_DLAB = 0x80


class Uart:
    BAR0_SIZE = BAR0_SIZE
    def __init__(self, send, take, counters, log, bar64=False):
        self.bar64 = bar64        # BAR0 a 64-bit memory BAR (BAR1 its upper half)
        self.send = send          # bytes -> the client
        self.take = take          # () -> bytes the client sent (may be empty)
        self.counters = counters
        self.log = log
        self.rx = bytearray()
        self.bar0 = 0
        self.power_on()

    # ------------------------------------------------------------ reset
    def power_on(self):
        self.ier = self.lcr = self.mcr = self.scr = 0
        self.fcr = 0
        self.dll, self.dlm = 12, 0        # 9600 baud, as after reset
        self._init_config()

    def _init_config(self):
        c = bytearray(256)
        struct.pack_into("<HH", c, 0x00, VENDOR, DEVICE)
        struct.pack_into("<I", c, 0x08, CLASS << 8 | REVISION)
        c[0x0E] = 0x00                          # header type 0, one function
        # BAR0: memory, not prefetchable, 32-bit (or 64-bit: type 2, BAR1 the upper half)
        struct.pack_into("<I", c, 0x10, 0x4 if self.bar64 else 0x0)
        struct.pack_into("<HH", c, 0x2C, VENDOR, 0x7270)   # subsystem
        c[0x3D] = 1                             # INTA#
        self.cfg = c
        self.bar0 = 0

    # ------------------------------------------------------------ config space
    def cfg_read(self, addr, size):
        if addr + size > 256:
            return (1 << (8 * size)) - 1
        return int.from_bytes(self.cfg[addr:addr + size], "little")

    def cfg_write(self, addr, val, size):
        if addr + size > 256:
            return
        c = self.cfg
        for i in range(size):
            a, b = addr + i, (val >> (8 * i)) & 0xFF
            if a in (0x04, 0x05):               # command: I/O, memory, bus master ...
                c[a] = b & (0x07 if a == 0x04 else 0x04)
            elif 0x10 <= a <= 0x13 or (self.bar64 and 0x14 <= a <= 0x17):
                c[a] = b                        # BAR0 (4 KiB aligned, flags kept), BAR1
            elif a in (0x0C, 0x0D, 0x3C):       # cache line, latency, irq line
                c[a] = b
        bar = struct.unpack_from("<I", c, 0x10)[0] & ~(BAR0_SIZE - 1) & 0xFFFFFFFF
        struct.pack_into("<I", c, 0x10, bar | (0x4 if self.bar64 else 0))
        if self.bar64:
            bar |= struct.unpack_from("<I", c, 0x14)[0] << 32
        self.bar0 = bar

    # ------------------------------------------------------------ registers
    def _fill(self):
        if len(self.rx) < 16:
            self.rx += self.take()

    def mmio_read(self, off, size):
        reg = off >> REG_SHIFT
        if size != 4 or off & ((1 << REG_SHIFT) - 1) or reg > SCR:
            return 0                             # LPSS private registers: not modelled
        dlab = self.lcr & LCR_DLAB
        if reg == RBR:
            if dlab:
                return self.dll
            self._fill()
            if not self.rx:
                return 0
            b = self.rx.pop(0)
            self.counters["bytes_in"] += 1
            return b
        if reg == IER:
            return self.dlm if dlab else self.ier
        if reg == IIR:
            return (0xC0 if self.fcr & 1 else 0) | 0x01   # FIFOs on?, no interrupt pending
        if reg == LCR:
            return self.lcr
        if reg == MCR:
            return self.mcr
        if reg == LSR:
            self._fill()
            return LSR_THRE | LSR_TEMT | (LSR_DR if self.rx else 0)
        if reg == MSR:
            return 0xB0                           # CTS, DSR, DCD
        return self.scr

    def mmio_write(self, off, val, size):
        reg = off >> REG_SHIFT
        if size != 4 or off & ((1 << REG_SHIFT) - 1) or reg > SCR:
            return
        val &= 0xFF
        dlab = self.lcr & LCR_DLAB
        if reg == RBR:
            if dlab:
                self.dll = val
            else:
                self.counters["bytes_out"] += 1
                self.send(bytes([val]))
        elif reg == IER:
            if dlab:
                self.dlm = val
            else:
                self.ier = val & 0x0F
        elif reg == IIR:
            self.fcr = val
            if val & 0x02:
                self.rx.clear()                   # clear the receive FIFO
        elif reg == LCR:
            self.lcr = val
        elif reg == MCR:
            self.mcr = val & 0x1F
        elif reg == SCR:
            self.scr = val
