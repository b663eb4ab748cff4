# SPDX-License-Identifier: GPL-2.0
"""tools/xdbc-sim's host side and keyboard (--kbd: host.py, hidkbd.py),
checked on the model alone (no QEMU: a bytearray stands for guest RAM),
driven through the xHCI's registers as a driver drives it: the keyboard's
USB 2 port and its reset, Enable Slot, Address Device, a control transfer
answered and one stalled (the endpoint halts until Reset Endpoint and Set
TR Dequeue Pointer), Configure Endpoint, reports on the interrupt
endpoint only into posted TRBs with the ring's cycle bit, a stall knob, an
unplug, a full event ring held back until ERDP moves, no DMA while bus
mastering is off, and HCRST forgetting slots.  Without --kbd the
controller keeps its old shape (no extra port, no command ring)."""

import os
import struct
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "xdbc-sim"))
sys.path.insert(1, os.path.join(HERE, "..", "..", "tools", "pcisim"))
import hidkbd  # noqa: E402
import xhci  # noqa: E402
from test_xdbc_model import Mem  # noqa: E402 (guest RAM: a bytearray)

DCBAA, ERST, CMD, EVT, ICTX, OCTX, EP0, INTR, BUF, REP = (
    0x1000, 0x1100, 0x2000, 0x3000, 0x4000, 0x5000, 0x6000, 0x6400, 0x7000, 0x8000)
OP, RT, DB = xhci.OP, xhci.RTSOFF, xhci.DBOFF
PORT = 5                                    # --ports 4, the keyboard's is the 5th


class Knobs:
    ports = 4
    has_dbc = True
    bios_owned = bios_stuck = unplugged = configure_hold = hcrst_keeps_dbc = False
    configure_delay_ms = max_burst = 0
    lock = threading.RLock()

    def __init__(self, kbd):
        self.kbd = kbd


class NoDbc:
    def power_on(self):
        pass

    def hc_reset(self):
        pass


class Counters(dict):
    def __missing__(self, k):
        return 0


class Driver:
    """A minimal driver: rings of 16 TRBs, events read in order."""

    def __init__(self, kbd=True):
        self.c = Counters()
        self.hc = xhci.Xhci(Knobs(kbd), self.c, NoDbc(), lambda m: None)
        self.hc.mem = self.m = Mem()
        self.hc.cfg_write(0x04, 0x06, 2)                 # memory, bus master
        self.cmd_enq = self.ep0_enq = self.int_enq = 0
        self.ev_deq = 0
        self.ev_cycle = 1
        self.ev_size = 16

    def wr(self, off, v):
        self.hc.mmio_write(off, v, 4)

    def rd(self, off):
        return self.hc.mmio_read(off, 4)

    def start(self, evt_size=16):
        self.ev_size = evt_size
        self.m.write(ERST, struct.pack("<QI", EVT, evt_size))
        self.wr(OP + 0x38, 8)                             # CONFIG: MaxSlotsEn
        self.wr(OP + 0x30, DCBAA)
        self.wr(OP + 0x18, CMD | 1)
        self.wr(RT + 0x28, 1)
        self.wr(RT + 0x38, EVT)
        self.wr(RT + 0x30, ERST)
        self.wr(OP, 1)                                    # R/S

    def push(self, base, idx, param, status, ctl):
        self.m.write(base + 16 * idx, struct.pack("<QII", param, status, ctl | 1))

    def events(self):
        out = []
        while True:
            p, s, c = struct.unpack_from("<QII", self.m.b, EVT + 16 * self.ev_deq)
            if (c & 1) != self.ev_cycle:
                return out
            out.append((p, s >> 24, (c >> 10) & 0x3F, c >> 24, (c >> 16) & 0x1F, s & 0xFFFFFF))
            self.ev_deq += 1
            if self.ev_deq == self.ev_size:
                self.ev_deq, self.ev_cycle = 0, self.ev_cycle ^ 1
            self.wr(RT + 0x38, EVT + 16 * self.ev_deq)

    def command(self, param, ctl):
        self.push(CMD, self.cmd_enq, param, 0, ctl)
        self.cmd_enq += 1
        self.wr(DB, 0)
        ev = [e for e in self.events() if e[2] == 33]
        assert len(ev) == 1 and ev[0][0] == CMD + 16 * (self.cmd_enq - 1), ev
        return ev[0][1], ev[0][3]

    def control(self, slot, setup, length, buf=BUF, out=False):
        self.push(EP0, self.ep0_enq, struct.unpack("<Q", setup)[0], 8,
                  2 << 10 | 1 << 6 | (0 if not length else (2 if out else 3) << 16))
        n = 1
        if length:
            self.push(EP0, self.ep0_enq + 1, buf, length, 3 << 10 | (0 if out else 1 << 16))
            n = 2
        self.push(EP0, self.ep0_enq + n, 0, 0, 4 << 10 | 1 << 5 | (1 << 16 if out or not length
                                                                    else 0))
        self.ep0_enq += n + 1
        self.wr(DB + 4 * slot, 1)
        return [e for e in self.events() if e[2] == 32]

    def enumerate(self):
        sc = self.rd(OP + 0x400 + 0x10 * (PORT - 1))
        assert sc & 1 and not sc & 2, hex(sc)                # connected, not enabled: USB 2
        self.wr(OP + 0x400 + 0x10 * (PORT - 1), (sc & 0x0E01C3E1) | 1 << 4)   # PR
        sc = self.rd(OP + 0x400 + 0x10 * (PORT - 1))
        assert sc & 2 and sc & (1 << 21) and (sc >> 10) & 0xF == 1, hex(sc)  # enabled, full speed
        cc, slot = self.command(0, 9 << 10)
        assert cc == 1 and slot == 1
        self.m.write(DCBAA + 8 * slot, struct.pack("<Q", OCTX))
        ictx = bytearray(32 * 34)
        struct.pack_into("<II", ictx, 0, 0, 3)
        struct.pack_into("<II", ictx, 32, 1 << 27 | 1 << 20, PORT << 16)
        struct.pack_into("<IIQ", ictx, 64, 0, 3 << 1 | 4 << 3 | 8 << 16, EP0 | 1)
        self.m.write(ICTX, bytes(ictx))
        cc, _ = self.command(ICTX, 11 << 10 | slot << 24)
        assert cc == 1
        return slot

    def configure(self, slot):
        ictx = bytearray(32 * 34)
        struct.pack_into("<II", ictx, 0, 0, 1 | 1 << 3)
        struct.pack_into("<IIQ", ictx, 32 * 4, 0, 3 << 1 | 7 << 3 | 8 << 16, INTR | 1)
        self.m.write(ICTX, bytes(ictx))
        assert self.command(ICTX, 12 << 10 | slot << 24)[0] == 1

    def post(self, n):
        for i in range(n):
            self.push(INTR, self.int_enq, REP + 64 * self.int_enq, 8, 1 << 10 | 1 << 5 | 1 << 2)
            self.int_enq += 1
        self.wr(DB + 4, 3)
        return [e for e in self.events() if e[2] == 32]


def usb_setup(rtype, req, value, index, length):
    return struct.pack("<BBHHH", rtype, req, value, index, length)


def configured():
    d = Driver()
    d.start()
    slot = d.enumerate()
    assert d.control(slot, usb_setup(0x00, 9, 1, 0, 0), 0)[-1][1] == 1     # SET_CONFIGURATION
    d.configure(slot)
    return d, slot


def test_without_the_knob_the_controller_is_unchanged():
    d = Driver(kbd=False)
    assert d.rd(0x04) >> 24 == 4 and d.hc.host is None
    d.start()
    d.wr(DB, 0)                                          # no command ring: nothing happens
    assert d.events() == [] and d.c["host_commands"] == 0


def test_enumeration_descriptors_and_a_stall():
    d = Driver()
    assert d.rd(0x04) >> 24 == 5                        # 5 root ports
    d.start()
    assert [e[2] for e in d.events()] == [34]           # the connect: a Port Status Change Event
    slot = d.enumerate()
    ev = d.control(slot, usb_setup(0x80, 6, 0x100, 0, 18), 18)
    assert ev[-1][1] == 1 and d.m.read(BUF, 18) == hidkbd.DEVICE_DESC
    out_slot = struct.unpack_from("<I", d.m.b, OCTX + 12)[0]
    assert out_slot >> 27 == 2 and out_slot & 0xFF == slot   # Addressed, its address
    ev = d.control(slot, usb_setup(0x80, 6, 0x200, 0, 255), 255)
    assert ev[-1][0] == EP0 + 16 * (d.ep0_enq - 1)          # short: the Status TRB's event
    assert d.m.read(BUF, len(hidkbd.CONFIG_DESC)) == hidkbd.CONFIG_DESC
    # an unknown request stalls and halts EP0: nothing more runs until it is reset
    ev = d.control(slot, usb_setup(0xC0, 0x55, 0, 0, 4), 4)
    assert ev == [(EP0 + 16 * (d.ep0_enq - 2), 6, 32, slot, 1, 4)], ev
    assert struct.unpack_from("<I", d.m.b, OCTX + 32)[0] & 7 == 2       # Halted
    assert d.control(slot, usb_setup(0x80, 6, 0x100, 0, 18), 18) == []
    assert d.command(0, 16 << 10 | slot << 24 | 1 << 16)[0] == 19      # Set TR Deq: halted
    assert d.command(0, 14 << 10 | slot << 24 | 1 << 16)[0] == 1       # Reset Endpoint
    assert d.command(EP0 + 16 * d.ep0_enq | 1, 16 << 10 | slot << 24 | 1 << 16)[0] == 1
    ev = d.control(slot, usb_setup(0x21, 9, 0x200, 0, 1), 1, out=True, buf=BUF + 0x100)
    assert ev[-1][1] == 1                               # SET_REPORT ran: the LEDs (0 here)
    assert d.c["host_stalls"] == 1


def test_reports_only_into_posted_trbs():
    d, slot = configured()
    d.hc.host.key([0x05], 0)                            # 'b': pressed, released: 2 reports
    assert d.post(0) == [] and d.c["kbd_reports"] == 0  # nothing posted: the reports wait
    ev = d.post(1)
    assert len(ev) == 1 and ev[0][1] == 1 and d.m.read(REP, 8) == bytes([0, 0, 5, 0, 0, 0, 0, 0])
    d.m.write(INTR + 16 * d.int_enq, struct.pack("<QII", REP + 0x200, 8, 1 << 10 | 1 << 5 | 0))
    d.wr(DB + 4, 3)                                     # the wrong cycle bit: not consumed
    assert d.events() == [] and len(d.hc.host.kbd.reports) == 1
    ev = d.post(1)
    assert len(ev) == 1 and d.m.read(REP + 64, 8) == bytes(8)


def test_stall_knob_unplug_and_hcrst():
    d, slot = configured()
    d.hc.host.stall()
    d.hc.host.key([0x17], 0)
    ev = d.post(1)
    assert ev[0][1] == 6 and ev[0][4] == 3              # stalled, the report kept
    assert d.post(1) == []                              # halted: not run
    assert d.command(0, 14 << 10 | slot << 24 | 3 << 16)[0] == 1
    assert d.command(INTR + 16 * d.int_enq | 1, 16 << 10 | slot << 24 | 3 << 16)[0] == 1
    ev = d.post(1)
    assert len(ev) == 1 and ev[0][1] == 1 and d.m.b[REP + 64 * (d.int_enq - 1) + 2] == 0x17
    assert d.hc.host.unplug()
    ev = d.events()
    assert [e[2] for e in ev] == [34]
    sc = d.rd(OP + 0x400 + 0x10 * (PORT - 1))
    assert not sc & 3 and sc & (1 << 17), hex(sc)       # gone, disabled, CSC
    assert d.command(0, 10 << 10 | slot << 24)[0] == 1  # Disable Slot
    d.wr(OP, 0)
    d.wr(OP, 2)                                         # HCRST: slots and rings forgotten
    assert d.hc.host.slots == {} and d.hc.host.ev_held == []


def test_full_event_ring_and_bus_mastering():
    d = Driver()
    d.start(evt_size=4)
    d.events()                                          # the connect event; ERDP moved
    for _ in range(5):
        d.push(CMD, d.cmd_enq, 0, 0, 23 << 10)          # No Op
        d.cmd_enq += 1
    d.wr(DB, 0)
    assert d.c["host_event_ring_full"] >= 1 and len(d.hc.host.ev_held) == 2
    ev = d.events()                                     # ERDP moves: the held ones follow
    assert [e[0] for e in ev] == [CMD + 16 * i for i in range(5)] and not d.hc.host.ev_held
    d.hc.cfg_write(0x04, 0x02, 2)                       # bus mastering off
    d.push(CMD, d.cmd_enq, 0, 0, 23 << 10)
    d.wr(DB, 0)
    assert d.c["dma_refused"] >= 1 and d.c["host_commands"] == 5


def test_control_socket_keys():
    assert hidkbd.parse_key(["sysrq+g", "alt"]) == ([0x46, 0x0A], 0x04)
    assert hidkbd.parse_key(["enter"]) == ([0x28], 0)
    for bad in (["nosuchkey"], ["a", "hyper"], ["0x1ff"], ["a+b+c+d+e+f+g"], []):
        try:
            hidkbd.parse_key(bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad} accepted")
    k = hidkbd.Keyboard(lambda m: None)
    assert not k.text("caf\u00e9") and not k.reports  # no key for it: nothing queued
    assert k.text("A")
    assert [r[0] for r in k.reports] == [2, 2, 2, 0]   # Shift held around the key
