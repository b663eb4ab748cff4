"""ehci.py - an EHCI host controller function with a debug port (EHCI 1.0
specification, Appendix C), as PCI config space plus one memory BAR.

Only what a debug-port driver and a firmware EHCI driver touch is modelled:
config space with a capability list (PCI power management, then the debug
port capability 0x0A naming BAR0 and the registers' offset), the legacy
support capability USBLEGSUP (BIOS/OS ownership), the capability registers,
USBCMD/USBSTS (HCHalted follows RUN, HCRESET self-clears), CONFIGFLAG, the
root ports' PORTSC (connect, reset, enable, owner) and the debug port
registers.  The schedules (DMA) are not run: their enable bits only show in
the status register.
"""

import struct

# ------------------------------------------------------------ config space
CFG_VENDOR, CFG_DEVICE = 0x1B36, 0x0EBD      # Red Hat/QEMU vendor id, our device id
CLASS_EHCI = 0x0C0320
CAP_PM, CAP_DEBUG = 0x50, 0x58
EECP = 0x68                                   # USBLEGSUP in config space
BAR0_SIZE = 0x1000

# ------------------------------------------------------------ MMIO layout
CAPLENGTH = 0x20
OP = CAPLENGTH
USBCMD, USBSTS, USBINTR, FRINDEX = OP + 0x00, OP + 0x04, OP + 0x08, OP + 0x0C
CTRLDSSEG, PERIODICBASE, ASYNCBASE = OP + 0x10, OP + 0x14, OP + 0x18
CONFIGFLAG = OP + 0x40
PORTSC0 = OP + 0x44
DBGP_OFF = 0xA0                                # debug port registers in BAR0
DBGP_CTRL, DBGP_PIDS, DBGP_DATA, DBGP_ADDR = 0x00, 0x04, 0x08, 0x10

CMD_RUN, CMD_HCRESET, CMD_PSE, CMD_ASE = 1 << 0, 1 << 1, 1 << 4, 1 << 5
STS_HALT, STS_PSS, STS_ASS = 1 << 12, 1 << 14, 1 << 15
STS_W1C = 0x3F

PORT_CCS, PORT_CSC, PORT_PE, PORT_PEC = 1 << 0, 1 << 1, 1 << 2, 1 << 3
PORT_OCC, PORT_PR, PORT_PP, PORT_PO = 1 << 5, 1 << 8, 1 << 12, 1 << 13
PORT_W1C = PORT_CSC | PORT_PEC | PORT_OCC

D_OWNER, D_ENABLED, D_DONE, D_INUSE = 1 << 30, 1 << 28, 1 << 16, 1 << 10
D_ERROR, D_GO, D_WRITE = 1 << 6, 1 << 5, 1 << 4
EXC_NONE, EXC_TRANSACTION, EXC_HARDWARE = 0, 1, 2

from usbdev import PID_SETUP, PID_IN, PID_OUT, NO_RESPONSE   # noqa: E402


class Ehci:
    BAR0_SIZE = BAR0_SIZE

    def __init__(self, knobs, counters, device, log):
        self.k = knobs
        self.c = counters
        self.dev = device
        self.log = log
        self.nports = knobs.ports
        self.dbg_port = knobs.debug_port if knobs.has_debug_port else 0
        self.connected = True           # the debug device is on the debug port
        self.power_on()

    # ------------------------------------------------------------ reset
    def power_on(self):
        """Power-on / PCI reset: config space, controller, device."""
        self.cfg = bytearray(256)
        self.bar0 = 0
        self._init_config()
        self.dev.bus_reset()
        self.legsup = (1 << 16) if self.k.bios_owned else 0      # HC BIOS owned
        self.legctl = 0
        self.dbg_ctrl = 0
        self.dbg_pids = 0
        self.dbg_data = bytearray(8)
        self.dbg_addr = 0
        self.hc_reset(counted=False)
        if self.k.preenumerated:
            # firmware (or an earlier stage) left the debug port set up
            self.cmd |= CMD_RUN
            self.configflag = 1
            self.dbg_ctrl = D_OWNER | D_ENABLED | D_INUSE
            self.dev.preenumerated()
            self._route_ports()

    def hc_reset(self, counted=True):
        self.cmd = 0x00080000           # interrupt threshold 8 micro-frames
        self.sts = STS_HALT
        self.intr = 0
        self.frindex = 0
        self.periodic = self.async_ = self.ctrldsseg = 0
        self.configflag = 0
        self.portsc = [PORT_PP | PORT_PO for _ in range(self.nports)]
        self.c["hcresets"] += counted
        if self.k.hcreset_drops_port and self.dbg_ctrl & D_ENABLED:
            # some chipsets' HCRESET takes the debug port down with it
            self.dbg_ctrl &= ~(D_ENABLED | D_OWNER)
            self.dev.bus_reset()
        self._route_ports()

    def _route_ports(self):
        for i in range(self.nports):
            p = self.portsc[i] & ~(PORT_CCS | PORT_PO)
            if self.configflag == 0:
                p |= PORT_PO            # companion controllers own every port
                p &= ~PORT_PE
            if i + 1 == self.debug_port_number() and self.connected:
                p |= PORT_CCS
            self.portsc[i] = p

    def debug_port_number(self):
        # the device hangs on the debug port (or on port 1 when there is none)
        return self.dbg_port or 1

    # ------------------------------------------------------------ config
    def _init_config(self):
        c = self.cfg
        struct.pack_into("<HH", c, 0x00, CFG_VENDOR, CFG_DEVICE)
        struct.pack_into("<H", c, 0x06, 0x0010 if self.k.has_debug_port else 0)  # cap list
        struct.pack_into("<I", c, 0x08, CLASS_EHCI << 8 | 0x01)
        c[0x0E] = 0x00
        struct.pack_into("<I", c, 0x10, 0)  # BAR0: 32-bit memory, non-prefetchable
        struct.pack_into("<HH", c, 0x2C, CFG_VENDOR, CFG_DEVICE)
        c[0x3D] = 1                         # INTA#
        if self.k.has_debug_port:
            c[0x34] = CAP_PM
            c[CAP_PM:CAP_PM + 4] = bytes([0x01, CAP_DEBUG, 0xC2, 0xC9])
            # debug port capability: BAR number (1 = BAR0) in 15:13, offset in 12:0
            c[CAP_DEBUG:CAP_DEBUG + 2] = bytes([0x0A, 0x00])
            struct.pack_into("<H", c, CAP_DEBUG + 2, (1 << 13) | DBGP_OFF)
        c[0x60] = 0x20                      # SBRN: USB 2.0
        c[0x61] = 0x20                      # FLADJ

    def cfg_read(self, addr, size):
        if addr + size > 256:
            return 0xFFFFFFFF
        struct.pack_into("<II", self.cfg, EECP, 0x01 | self.legsup, self.legctl)
        return int.from_bytes(self.cfg[addr:addr + size], "little")

    def cfg_write(self, addr, val, size):
        if addr + size > 256:
            return
        old = bytearray(self.cfg)
        for i in range(size):
            self._cfg_write_byte(addr + i, (val >> (8 * i)) & 0xFF, old)

    def _cfg_write_byte(self, a, b, old):
        c = self.cfg
        if a in (0x04, 0x05):                   # command: memory, bus master, ...
            c[a] = b & (0x46 if a == 0x04 else 0x05)
        elif a == 0x07:                         # status: write-1-to-clear errors
            c[a] &= ~(b & 0xF9)
        elif 0x10 <= a < 0x14:                  # BAR0: size-aligned base
            c[a] = b
            bar = struct.unpack_from("<I", c, 0x10)[0] & ~(BAR0_SIZE - 1) & 0xFFFFFFFF
            struct.pack_into("<I", c, 0x10, bar)
            self.bar0 = bar
        elif a in (0x0C, 0x0D, 0x3C, 0x61):     # cache line, latency, irq line, FLADJ
            c[a] = b
        elif a == CAP_PM + 4:                   # PMCSR power state
            c[a] = b & 0x3
        elif EECP <= a < EECP + 4:
            if a == EECP + 3:                   # HC OS owned semaphore
                if b & 1:
                    self.legsup |= 1 << 24
                    if not self.k.bios_stuck:
                        self.legsup &= ~(1 << 16)   # the SMI handler lets go
                else:
                    self.legsup &= ~(1 << 24)
            elif a == EECP + 2:                 # HC BIOS owned (firmware side)
                self.legsup = (self.legsup & ~(1 << 16)) | ((b & 1) << 16)
        elif EECP + 4 <= a < EECP + 8:
            sh = 8 * (a - EECP - 4)
            self.legctl = (self.legctl & ~(0xFF << sh)) | (b << sh)

    # ------------------------------------------------------------ MMIO
    def mmio_read(self, off, size):
        if size == 8:
            return self.mmio_read(off, 4) | self.mmio_read(off + 4, 4) << 32
        base = off & ~3
        v = self._read32(base)
        sh = 8 * (off - base)
        return (v >> sh) & ((1 << (8 * size)) - 1)

    def mmio_write(self, off, val, size):
        if size == 8:
            self.mmio_write(off, val & 0xFFFFFFFF, 4)
            self.mmio_write(off + 4, val >> 32, 4)
            return
        base = off & ~3
        if base >= DBGP_OFF + DBGP_DATA and base < DBGP_OFF + DBGP_DATA + 8:
            i = off - DBGP_OFF - DBGP_DATA
            self.dbg_data[i:i + size] = val.to_bytes(size, "little")
            return
        if size != 4:
            # sub-dword writes to dword registers: merge into the current value
            cur = self._read32(base)
            sh = 8 * (off - base)
            mask = ((1 << (8 * size)) - 1) << sh
            cur &= ~self._w1c_bits(base)        # do not clear what was not written
            val = (cur & ~mask) | ((val << sh) & mask)
        self._write32(base, val & 0xFFFFFFFF)

    def _w1c_bits(self, a):
        if a == USBSTS:
            return STS_W1C
        if a == DBGP_OFF + DBGP_CTRL:
            return D_DONE | D_GO
        if PORTSC0 <= a < PORTSC0 + 4 * self.nports:
            return PORT_W1C
        return 0

    def _read32(self, a):
        if a < CAPLENGTH:
            if a == 0x00:
                return CAPLENGTH | 0x0100 << 16
            if a == 0x04:                       # HCSPARAMS
                return self.nports | (self.dbg_port << 20)
            if a == 0x08:                       # HCCPARAMS: EECP, programmable list
                return 0x2 | (EECP << 8)
            return 0
        if a == USBCMD:
            return self.cmd
        if a == USBSTS:
            s = self.sts
            if self.cmd & CMD_RUN:
                s &= ~STS_HALT
                s = (s & ~(STS_PSS | STS_ASS)) | (STS_PSS if self.cmd & CMD_PSE else 0) \
                    | (STS_ASS if self.cmd & CMD_ASE else 0)
            else:
                s = (s | STS_HALT) & ~(STS_PSS | STS_ASS)
            self.sts = s
            return s
        if a == USBINTR:
            return self.intr
        if a == FRINDEX:
            if self.cmd & CMD_RUN:
                self.frindex = (self.frindex + 8) & 0x3FFF
            return self.frindex
        if a == CTRLDSSEG:
            return self.ctrldsseg
        if a == PERIODICBASE:
            return self.periodic
        if a == ASYNCBASE:
            return self.async_
        if a == CONFIGFLAG:
            return self.configflag
        if PORTSC0 <= a < PORTSC0 + 4 * self.nports:
            return self.portsc[(a - PORTSC0) // 4]
        if self.dbg_port and DBGP_OFF <= a < DBGP_OFF + 0x14:
            r = a - DBGP_OFF
            if r == DBGP_CTRL:
                self.c["ctrl_reads"] += 1
                return self.dbg_ctrl
            if r == DBGP_PIDS:
                return self.dbg_pids
            if r in (DBGP_DATA, DBGP_DATA + 4):
                i = r - DBGP_DATA
                return int.from_bytes(self.dbg_data[i:i + 4], "little")
            if r == DBGP_ADDR:
                return self.dbg_addr
        return 0

    def _write32(self, a, v):
        if a == USBCMD:
            self._write_cmd(v)
        elif a == USBSTS:
            self.sts &= ~(v & STS_W1C)
        elif a == USBINTR:
            self.intr = v & 0x3F
        elif a == FRINDEX:
            if not self.cmd & CMD_RUN:
                self.frindex = v & 0x3FFF
        elif a == CTRLDSSEG:
            self.ctrldsseg = v
        elif a == PERIODICBASE:
            self.periodic = v & ~0xFFF
        elif a == ASYNCBASE:
            self.async_ = v & ~0x1F
        elif a == CONFIGFLAG:
            was = self.configflag
            self.configflag = v & 1
            if was != self.configflag:
                self._route_ports()
        elif PORTSC0 <= a < PORTSC0 + 4 * self.nports:
            self._write_portsc((a - PORTSC0) // 4, v)
        elif self.dbg_port and DBGP_OFF <= a < DBGP_OFF + 0x14:
            r = a - DBGP_OFF
            if r == DBGP_CTRL:
                self._write_dbg_ctrl(v)
            elif r == DBGP_PIDS:
                self.dbg_pids = (self.dbg_pids & 0xFF0000) | (v & 0xFFFF)
            elif r in (DBGP_DATA, DBGP_DATA + 4):
                i = r - DBGP_DATA
                self.dbg_data[i:i + 4] = v.to_bytes(4, "little")
            elif r == DBGP_ADDR:
                self.dbg_addr = v & 0x7F0F

    def _write_cmd(self, v):
        if v & CMD_HCRESET:
            if self.cmd & CMD_RUN and not self.sts & STS_HALT:
                self.log("HCRESET while running (the spec says: halt first)")
            self.hc_reset()                     # self-clearing: done at once
            return
        self.cmd = v & ~CMD_HCRESET & 0x00FF0B7F

    def _write_portsc(self, i, v):
        p = self.portsc[i]
        p &= ~(v & PORT_W1C)
        if self.configflag:                     # PO is writable only when CF=1
            p = (p & ~PORT_PO) | (v & PORT_PO)
        if not v & PORT_PE:
            p &= ~PORT_PE                       # software may disable, never enable
        dbg = i + 1 == self.debug_port_number()
        if v & PORT_PR and not p & PORT_PR:
            p = (p | PORT_PR) & ~PORT_PE        # reset starts: port disabled
            if dbg and self.connected:
                self.dev.bus_reset()
                self.c["port_resets"] += 1
        elif not v & PORT_PR and p & PORT_PR:
            # the write that ends the reset: a high-speed device leaves it enabled
            p &= ~PORT_PR
            if dbg and self.connected and not p & PORT_PO:
                p |= PORT_PE
        self.portsc[i] = p

    # ------------------------------------------------------------ debug port
    def _write_dbg_ctrl(self, v):
        c = self.dbg_ctrl
        if v & D_DONE:
            c &= ~D_DONE                        # write 1 to clear
        c = (c & ~(D_OWNER | D_INUSE | D_WRITE | 0xF)) | (v & (D_OWNER | D_INUSE | D_WRITE | 0xF))
        if v & D_ENABLED:
            if not c & D_ENABLED and self.connected and self._port_ready():
                c |= D_ENABLED
        else:
            c &= ~D_ENABLED
        self.dbg_ctrl = c
        if v & D_GO:
            self._go()

    def _port_ready(self):
        p = self.portsc[self.debug_port_number() - 1]
        return bool(p & PORT_PE) or bool(self.dbg_ctrl & D_ENABLED)

    def _go(self):
        c = self.dbg_ctrl & ~(D_ERROR | (7 << 7) | D_DONE)
        self.c["transactions"] += 1
        if not (c & D_OWNER and c & D_ENABLED) or not self.cmd & CMD_RUN:
            # the debug port needs its port enabled and the controller running
            c |= D_ERROR | EXC_HARDWARE << 7
            self.dbg_ctrl = c | D_DONE
            return
        token = self.dbg_pids & 0xFF
        send_pid = (self.dbg_pids >> 8) & 0xFF
        dev, ep = (self.dbg_addr >> 8) & 0x7F, self.dbg_addr & 0xF
        length = c & 0xF
        out = bool(c & D_WRITE)
        if length > 8 or (token in (PID_OUT, PID_SETUP)) != out:
            c |= D_ERROR | EXC_HARDWARE << 7
            self.dbg_ctrl = c | D_DONE
            return
        if self.k.take("timeout"):
            pid, data = NO_RESPONSE, b""
        elif not self.connected:
            pid, data = NO_RESPONSE, b""
        else:
            pid, data = self.dev.transact(token, dev, ep, send_pid,
                                          bytes(self.dbg_data[:length]) if out else b"")
        if pid is NO_RESPONSE:
            self.c["timeouts"] += 1
            c |= D_ERROR | EXC_TRANSACTION << 7
            self.dbg_pids &= 0xFFFF
        else:
            self.dbg_pids = (self.dbg_pids & 0xFFFF) | pid << 16
            if not out:
                c = (c & ~0xF) | len(data)
                self.dbg_data[:len(data)] = data
        self.dbg_ctrl = c | D_DONE

    # ------------------------------------------------------------ plug
    def unplug(self):
        self.connected = False
        n = self.debug_port_number() - 1
        self.portsc[n] = (self.portsc[n] & ~(PORT_CCS | PORT_PE)) | PORT_CSC | PORT_PEC
        self.dbg_ctrl &= ~D_ENABLED
        self.dev.bus_reset()

    def plug(self):
        self.connected = True
        n = self.debug_port_number() - 1
        self.portsc[n] |= PORT_CCS | PORT_CSC
        self._route_ports()
