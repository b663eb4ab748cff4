"""tools/xdbc-sim's DbC refuses what hardware refuses, checked on the model
alone (no QEMU: a bytearray stands for guest RAM): a TRB whose cycle bit is
not the ring's consumer cycle state is not consumed, a Normal TRB whose
buffer crosses a 64 KiB boundary completes with TRB Error, a doorbell before
DC-Configured is ignored, Link TRBs with Toggle Cycle flip the state, a full
event ring holds events until DCERDP moves, and no DMA happens while PCI
bus mastering is off."""

import os
import struct
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "xdbc-sim"))
sys.path.insert(1, os.path.join(HERE, "..", "..", "tools", "pcisim"))
import dbc  # noqa: E402
from guestmem import DmaError  # noqa: E402

RAM = 0x100000
ERST, CTX, OUT, IN, EVT, BUF = 0x1000, 0x1100, 0x2000, 0x2100, 0x3000, 0x10000 - 8


class Mem:
    def __init__(self):
        self.b = bytearray(RAM)

    def read(self, gpa, n):
        if gpa + n > RAM:
            raise DmaError("past RAM")
        return bytes(self.b[gpa:gpa + n])

    def write(self, gpa, data):
        self.b[gpa:gpa + len(data)] = data


class Hc:
    def __init__(self):
        self.mem = Mem()
        self.master = True

    def bus_master(self):
        return self.master


class Bridge:
    def __init__(self):
        self.sent = b""
        self.inbuf = b""

    def send(self, d):
        self.sent += d

    def pending(self):
        return len(self.inbuf)

    def take_upto(self, n):
        d, self.inbuf = self.inbuf[:n], self.inbuf[n:]
        return d

    def unread(self, d):
        self.inbuf = d + self.inbuf


class Knobs:
    unplugged = configure_hold = False
    configure_delay_ms = max_burst = 0
    lock = threading.RLock()


def trb(param, status, ctl):
    return struct.pack("<QII", param, status, ctl)


def make(configure=True, evt_size=16):
    hc, br = Hc(), Bridge()
    k = Knobs()
    k.configure_hold = not configure
    d = dbc.DbC(k, {n: 0 for n in COUNTERS}, br, lambda m: None, hc)
    m = hc.mem
    m.write(ERST, struct.pack("<QI", EVT, evt_size))
    m.write(CTX + 64 + 8, struct.pack("<Q", OUT | 1))   # OUT endpoint context: deq, DCS 1
    m.write(CTX + 128 + 8, struct.pack("<Q", IN | 1))
    d.write32(dbc.DCERSTSZ, 1)
    d.write64(dbc.DCERSTBA, ERST)
    d.write64(dbc.DCERDP, EVT)
    d.write64(dbc.DCCP, CTX)
    d.write32(dbc.DCCTRL, dbc.CTRL_DCE | dbc.CTRL_LSE)
    return d, m, br


COUNTERS = ("enumerations", "enumeration_failures", "enables", "disables", "port_resets",
            "doorbells", "doorbells_ignored", "trbs_out", "trbs_in", "bytes_out", "bytes_in",
            "trb_errors", "stalls", "events", "events_dropped", "events_late",
            "event_ring_full", "out_held", "dma_refused", "mmio", "out_full_trbs",
            "out_full_bytes", "out_full_ns")


def events(m, n):
    return [struct.unpack_from("<QII", m.b, EVT + 16 * i) for i in range(n)]


def test_configured_and_the_strings_read():
    d, m, br = make()
    assert d.state == "configured" and d.read32(dbc.DCCTRL) & dbc.CTRL_DCR
    # the Port Status Change Event of the connect came first
    assert (events(m, 1)[0][2] >> 10) & 0x3F == dbc.TRB_PORT


def test_wrong_cycle_bit_not_consumed():
    d, m, br = make()
    m.write(OUT, trb(0x8000, 3, dbc.TRB_NORMAL << 10 | dbc.TRB_IOC | 0))   # cycle 0 != DCS 1
    m.write(0x8000, b"abc")
    d.write32(dbc.DCDB, 0 << 8)
    assert br.sent == b"" and d.c["trbs_out"] == 0
    m.write(OUT, trb(0x8000, 3, dbc.TRB_NORMAL << 10 | dbc.TRB_IOC | 1))
    d.write32(dbc.DCDB, 0 << 8)
    assert br.sent == b"abc"
    ev = events(m, 2)[1]
    assert ev[0] == OUT and ev[1] >> 24 == dbc.CC_SUCCESS and (ev[2] >> 16) & 0x1F == 0


def test_buffer_across_64k_is_a_trb_error():
    d, m, br = make()
    m.write(OUT, trb(BUF, 16, dbc.TRB_NORMAL << 10 | dbc.TRB_IOC | 1))   # 8 bytes each side
    d.write32(dbc.DCDB, 0 << 8)
    assert br.sent == b"" and d.c["trb_errors"] == 1
    assert events(m, 2)[1][1] >> 24 == dbc.CC_TRB_ERROR


def test_doorbell_before_configure_ignored():
    d, m, br = make(configure=False)
    assert d.state == "enabled"
    m.write(OUT, trb(0x8000, 2, dbc.TRB_NORMAL << 10 | dbc.TRB_IOC | 1))
    m.write(0x8000, b"hi")
    d.write32(dbc.DCDB, 0 << 8)
    assert br.sent == b"" and d.c["doorbells_ignored"] == 1
    assert d.configure_now()
    assert br.sent == b""                    # still needs a doorbell
    d.write32(dbc.DCDB, 0 << 8)
    assert br.sent == b"hi"


def test_link_toggle_cycle():
    d, m, br = make()
    m.write(OUT, trb(OUT + 0x40, 0, dbc.TRB_LINK << 10 | dbc.TRB_TC | 1))
    m.write(OUT + 0x40, trb(0x8000, 1, dbc.TRB_NORMAL << 10 | 1))
    m.write(0x8000, b"x")
    d.write32(dbc.DCDB, 0 << 8)
    assert br.sent == b"" and d.ep[dbc.EP_OUT].ccs == 0      # cycle 1 stale after the toggle
    m.write(OUT + 0x40, trb(0x8000, 1, dbc.TRB_NORMAL << 10 | 0))
    d.write32(dbc.DCDB, 0 << 8)
    assert br.sent == b"x"


def test_short_in_transfer_and_full_event_ring():
    d, m, br = make(evt_size=4)              # 1 port event already in it
    for i in range(4):
        m.write(IN + 16 * i, trb(0x9000 + 0x400 * i, 1024, dbc.TRB_NORMAL << 10 | dbc.TRB_IOC | 1))
    br.inbuf = b"abcd"
    d.input_arrived()
    ev = events(m, 2)[1]
    assert ev[1] >> 24 == dbc.CC_SHORT and ev[1] & 0xFFFFFF == 1020
    assert m.read(0x9000, 4) == b"abcd"
    br.inbuf = b"efgh"
    d.input_arrived()
    br.inbuf = b"ijkl"
    d.input_arrived()                        # the 4th slot would meet DCERDP: held
    assert d.c["event_ring_full"] >= 1 and len(d.ev_held) == 1
    d.write64(dbc.DCERDP, EVT + 16 * 3)
    assert not d.ev_held


def test_no_dma_without_bus_mastering():
    d, m, br = make()
    d.hc.master = False
    m.write(OUT, trb(0x8000, 1, dbc.TRB_NORMAL << 10 | dbc.TRB_IOC | 1))
    d.write32(dbc.DCDB, 0 << 8)
    assert br.sent == b"" and d.c["dma_refused"] >= 1
