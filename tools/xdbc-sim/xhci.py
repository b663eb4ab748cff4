"""xhci.py - an xHCI host controller function (xHCI 1.1) carrying the Debug
Capability, as PCI config space plus one memory BAR (32-bit: see _init_config).

Modelled: config space (class 0x0C0330, SBRN 0x30, bus mastering gates
all DMA), the capability registers (CAPLENGTH/HCIVERSION, HCSPARAMS1-3,
HCCPARAMS1 with the extended-capability pointer xECP, DBOFF, RTSOFF), the
operational registers (USBCMD with R/S and a self-clearing HCRST, USBSTS
with HCHalted following R/S and CNR 0; HCRST resets the DbC with the rest
of the controller: DCE 0, the far host loses the device (not with the
hcrst-keeps-dbc knob), PAGESIZE, CRCR, DCBAAP, CONFIG,
the root ports' PORTSC: powered, nothing connected: the DbC owns the
port its cable is on), the runtime registers of interrupter 0 (stored), the
doorbell array (stored: the model runs no command ring and no device
slots) and the extended-capability list:

  0x500  USB Legacy Support (ID 1): HC BIOS Owned (bit 16), HC OS Owned
         (bit 24); USBLEGCTLSTS at +4 (SMI enables)
  0x510  Supported Protocol (ID 2): USB 3.0, ports 1..N
  0x520  Supported Protocol (ID 2): USB 2.0, port N+1 (with the kbd knob)
  0x540  Debug Capability (ID 10): dbc.py (absent with no_dbc)

With the kbd knob the controller has one more root port, N+1, USB 2, a
full-speed HID boot keyboard on it, and runs its host side (host.py:
command ring, slots, interrupter 0's event ring, doorbells, transfers).

A firmware xHCI driver (OVMF's XhciDxe) finds a controller with no device:
it runs it, polls the ports and halts/resets it at ExitBootServices.
"""

import struct

CFG_VENDOR, CFG_DEVICE = 0x1B36, 0x0EBE      # Red Hat/QEMU vendor id, our device id
CLASS_XHCI = 0x0C0330
BAR0_SIZE = 0x10000

CAPLENGTH = 0x40
OP = CAPLENGTH
USBCMD, USBSTS, PAGESIZE, DNCTRL = OP + 0x00, OP + 0x04, OP + 0x08, OP + 0x14
CRCR, DCBAAP, CONFIG = OP + 0x18, OP + 0x30, OP + 0x38
PORTSC0 = OP + 0x400
RTSOFF, DBOFF = 0x2000, 0x3000
XECP_LEGSUP, XECP_PROTO, XECP_PROTO2, XECP_DBC = 0x500, 0x510, 0x520, 0x540
DBC_SIZE = 0x40

CMD_RUN, CMD_HCRST = 1 << 0, 1 << 1
STS_HCH, STS_CNR = 1 << 0, 1 << 11
STS_W1C = (1 << 2) | (1 << 3) | (1 << 4) | (1 << 10)
PORT_PP = 1 << 9
PORT_W1C = 0x00FE0000
LEG_BIOS, LEG_OS = 1 << 16, 1 << 24


class Xhci:
    BAR0_SIZE = BAR0_SIZE

    def __init__(self, knobs, counters, dbc, log):
        self.k = knobs
        self.c = counters
        self.dbc = dbc
        self.log = log
        self.nports = knobs.ports + (1 if knobs.kbd else 0)
        self.mem = None
        self.host = None
        if knobs.kbd:
            import host             # noqa: E402 (only with the keyboard)
            self.host = host.Host(self, counters, log)
        self.power_on()

    # ------------------------------------------------------------ reset
    def power_on(self):
        self.cfg = bytearray(256)
        self.bar0 = 0
        self._init_config()
        self.legsup = LEG_BIOS if self.k.bios_owned else 0
        self.legctl = 0
        self.hc_reset(counted=False)
        self.dbc.power_on()

    def hc_reset(self, counted=True):
        self.cmd = 0
        self.sts = STS_HCH
        self.dnctrl = self.crcr = self.dcbaap = self.config = 0
        self.portsc = [PORT_PP for _ in range(self.nports)]
        self.rt = {}
        self.c["hcresets"] += counted
        if self.host:
            self.host.reset()
        if counted and not self.k.hcrst_keeps_dbc:
            self.dbc.hc_reset()         # HCRST resets the Debug Capability too

    # ------------------------------------------------------------ DMA
    def set_sysmem(self, mem):
        if self.mem is None or self.mem.describe() != mem.describe():
            self.log(f"guest RAM: {mem.describe()}")
        self.mem = mem

    def bus_master(self):
        return bool(self.cfg[0x04] & 0x04)

    # ------------------------------------------------------------ config
    def _init_config(self):
        c = self.cfg
        struct.pack_into("<HH", c, 0x00, CFG_VENDOR, CFG_DEVICE)
        struct.pack_into("<H", c, 0x06, 0x0010)             # capability list
        struct.pack_into("<I", c, 0x08, CLASS_XHCI << 8 | 0x01)
        # BAR0: 32-bit memory.  The xHCI specification's MBAR is 64-bit;
        # QEMU's x-pci-proxy-dev probes each BAR dword on its own and cannot
        # register a 64-bit one, so the model offers a 32-bit BAR (drivers
        # read the type bits and take both)
        struct.pack_into("<I", c, 0x10, 0x0)
        struct.pack_into("<HH", c, 0x2C, CFG_VENDOR, CFG_DEVICE)
        c[0x34] = 0x50
        c[0x50:0x54] = bytes([0x01, 0x00, 0xC3, 0xC9])      # power management, last
        c[0x3D] = 1                                          # INTA#
        c[0x60] = 0x30                                       # SBRN: USB 3.0
        c[0x61] = 0x20                                       # FLADJ

    def cfg_read(self, addr, size):
        if addr + size > 256:
            return 0xFFFFFFFF
        return int.from_bytes(self.cfg[addr:addr + size], "little")

    def cfg_write(self, addr, val, size):
        if addr + size > 256:
            return
        for i in range(size):
            self._cfg_write_byte(addr + i, (val >> (8 * i)) & 0xFF)

    def _cfg_write_byte(self, a, b):
        c = self.cfg
        if a in (0x04, 0x05):                   # command: memory, bus master, ...
            c[a] = b & (0x46 if a == 0x04 else 0x05)
        elif a == 0x07:                         # status: write-1-to-clear errors
            c[a] &= ~(b & 0xF9)
        elif 0x10 <= a < 0x14:                  # BAR0: size-aligned base
            c[a] = b
            lo = struct.unpack_from("<I", c, 0x10)[0] & ~(BAR0_SIZE - 1) & 0xFFFFFFFF
            struct.pack_into("<I", c, 0x10, lo)
            self.bar0 = lo
        elif a in (0x0C, 0x0D, 0x3C, 0x61):
            c[a] = b
        elif a == 0x54:                         # PMCSR power state
            c[a] = b & 0x3

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
            if self.k.has_dbc and XECP_DBC <= off < XECP_DBC + DBC_SIZE:
                self.dbc.write64(off - XECP_DBC, val)
                return
            self.mmio_write(off, val & 0xFFFFFFFF, 4)
            self.mmio_write(off + 4, val >> 32, 4)
            return
        base = off & ~3
        if size != 4:
            cur = self._read32(base) & ~self._w1c_bits(base)
            sh = 8 * (off - base)
            mask = ((1 << (8 * size)) - 1) << sh
            val = (cur & ~mask) | ((val << sh) & mask)
        self._write32(base, val & 0xFFFFFFFF)

    def _w1c_bits(self, a):
        if a == USBSTS:
            return STS_W1C
        if PORTSC0 <= a < PORTSC0 + 0x10 * self.nports and a % 0x10 == 0:
            return PORT_W1C
        if self.k.has_dbc and XECP_DBC <= a < XECP_DBC + DBC_SIZE:
            return self.dbc.w1c_bits(a - XECP_DBC)
        return 0

    def _read32(self, a):
        if a < CAPLENGTH:
            return {
                0x00: CAPLENGTH | 0x0110 << 16,                  # HCIVERSION 1.1
                0x04: 8 | 1 << 8 | self.nports << 24,             # slots, interrupters, ports
                0x08: 0xF << 4,                                   # HCSPARAMS2: ERST max 2^15
                0x0C: 0,
                0x10: 0x1 | (XECP_LEGSUP // 4) << 16,             # HCCPARAMS1: AC64, xECP
                0x14: DBOFF,
                0x18: RTSOFF,
            }.get(a, 0)
        if a == USBCMD:
            return self.cmd
        if a == USBSTS:
            return (self.sts & ~STS_HCH) | (0 if self.cmd & CMD_RUN else STS_HCH)
        if a == PAGESIZE:
            return 1                                              # 4 KiB
        if a == DNCTRL:
            return self.dnctrl
        if a in (CRCR, CRCR + 4):
            return 0                                              # reads as 0 (CRR: idle)
        if a == DCBAAP:
            return self.dcbaap & 0xFFFFFFFF
        if a == DCBAAP + 4:
            return self.dcbaap >> 32
        if a == CONFIG:
            return self.config
        if PORTSC0 <= a < PORTSC0 + 0x10 * self.nports:
            i, r = divmod(a - PORTSC0, 0x10)
            if self.host and i + 1 == self.host.port:
                return self.host.portsc_read() if r == 0 else 0
            return self.portsc[i] if r == 0 else 0
        if RTSOFF <= a < RTSOFF + 0x40:
            return self.rt.get(a, 0)
        if a == XECP_LEGSUP:
            return 0x01 | (XECP_PROTO - XECP_LEGSUP) // 4 << 8 | self.legsup
        if a == XECP_LEGSUP + 4:
            return self.legctl
        if a == XECP_PROTO:
            nxt = XECP_PROTO2 if self.host else XECP_DBC if self.k.has_dbc else XECP_PROTO
            return 0x02 | (nxt - XECP_PROTO) // 4 << 8 | 0x0300 << 16    # USB 3.0
        if a in (XECP_PROTO + 4, XECP_PROTO2 + 4):
            return int.from_bytes(b"USB ", "little")
        if a == XECP_PROTO + 8:
            return 1 | self.k.ports << 8                          # ports 1..N
        if self.host and a == XECP_PROTO2:
            nxt = (XECP_DBC - XECP_PROTO2) // 4 if self.k.has_dbc else 0
            return 0x02 | nxt << 8 | 0x0200 << 16                # USB 2.0
        if self.host and a == XECP_PROTO2 + 8:
            return self.host.port | 1 << 8                       # the keyboard's port
        if self.k.has_dbc and XECP_DBC <= a < XECP_DBC + DBC_SIZE:
            return self.dbc.read32(a - XECP_DBC)
        return 0

    def _write32(self, a, v):
        if a == USBCMD:
            if v & CMD_HCRST:
                self.hc_reset()
                return
            was = self.cmd & CMD_RUN
            self.cmd = v & 0x3F0F
            if self.host:
                self.host.run_changed(was)
        elif a == USBSTS:
            self.sts &= ~(v & STS_W1C)
        elif a == DNCTRL:
            self.dnctrl = v & 0xFFFF
        elif a in (DCBAAP, DCBAAP + 4):
            sh = 32 * (a - DCBAAP) // 4
            self.dcbaap = (self.dcbaap & ~(0xFFFFFFFF << sh)) | (v << sh)
        elif a == CONFIG:
            self.config = v & 0x3FF
        elif self.host and a in (CRCR, CRCR + 4):
            self.host.crcr_write((a - CRCR) // 4, v)
        elif PORTSC0 <= a < PORTSC0 + 0x10 * self.nports and (a - PORTSC0) % 0x10 == 0:
            i = (a - PORTSC0) // 0x10
            if self.host and i + 1 == self.host.port:
                self.host.portsc_write(v)
            else:
                self.portsc[i] &= ~(v & PORT_W1C)
        elif RTSOFF <= a < RTSOFF + 0x40:
            self.rt[a] = v
            if self.host:
                self.host.rt_write(a - RTSOFF, v)
        elif self.host and DBOFF <= a < DBOFF + 4 * 9:
            self.host.doorbell((a - DBOFF) // 4, v & 0xFF)
        elif a == XECP_LEGSUP:
            # software sets OS Owned; the firmware's SMI handler answers by
            # letting go.  Firmware that never lets go (bios_stuck) keeps BIOS
            # Owned until software, having asked before, clears it itself
            asked = self.legsup & LEG_OS
            self.legsup = v & (LEG_BIOS | LEG_OS)
            if self.legsup & LEG_OS and not self.k.bios_stuck:
                self.legsup &= ~LEG_BIOS
            elif self.k.bios_stuck and not asked:
                self.legsup |= LEG_BIOS
            self.c["legsup_writes"] += 1
        elif a == XECP_LEGSUP + 4:
            self.legctl = v & 0xE01F
        elif self.k.has_dbc and XECP_DBC <= a < XECP_DBC + DBC_SIZE:
            self.dbc.write32(a - XECP_DBC, v)
