"""dbc.py - the xHCI Debug Capability (xHCI 1.1 section 7.6) and the USB host
at the other end of the debug cable.

Registers (offsets in the capability):
  0x00 DCID      ID 10, next 0, DCERST Max (bits 20:16)
  0x04 DCDB      doorbell: target in bits 15:8 (0: OUT ring, 1: IN ring)
  0x08 DCERSTSZ  0x10 DCERSTBA  0x18 DCERDP (bit 3 EHB, write-1-to-clear)
  0x20 DCCTRL    DCR (0, RO) LSE (1) HOT (2, RW1C) HIT (3, RW1C) DRC (4, RW1C)
                 max burst (23:16, RO) device address (30:24, RO) DCE (31)
  0x24 DCST      ER (0: event ring not empty), debug port number (31:24)
  0x28 DCPORTSC  CCS (0) PED (1) PR (4) PLS (8:5) speed (13:10)
                 CSC (17) PRC (21) PLC (22) CEC (23): change bits RW1C
  0x30 DCCP      the DbC context (info, OUT endpoint, IN endpoint: 64 bytes each)
  0x38 DCDDI1    DbC protocol (7:0), vendor id (31:16)
  0x3C DCDDI2    product id (15:0), device revision (31:16)

State machine: DC-Disabled (DCE 0) -> DC-Disconnected (DCE 1, no cable or
no link) -> DC-Enabled (connected, link up, being enumerated) ->
DC-Configured (the far host set the configuration: DCR 1, DRC set; the
endpoint contexts' TR Dequeue Pointer and DCS are loaded the first time
after DCE was set, and kept across leaving and re-entering Configured).
A port reset from the far host goes through DC-Resetting back to
Enabled and Configured (enumerated again).  Clearing DCE resets all of it.

Transfer rings are walked from the endpoint's dequeue pointer on a
doorbell while Configured and not halted: a TRB whose cycle bit differs
from the ring's consumer cycle state is not consumed; Link TRBs are
followed (Toggle Cycle flips the state); Normal TRBs move data: a buffer
across a 64 KiB boundary completes with TRB Error; other types with TRB
Error.  An OUT TRB is sent to the far host; an IN TRB waits until the far
host has bytes, then takes up to its length (fewer: Short Packet).  A
doorbell before DC-Configured is ignored.  Events (Transfer Event,
Port Status Change Event) go to the event ring described by DCERSTBA
(segment 0); a full ring (enqueue would reach DCERDP) holds them back
until software moves DCERDP.  No DMA while PCI bus mastering is off.
"""

import collections
import statistics
import struct
import threading
import time

from guestmem import DmaError

DCID, DCDB, DCERSTSZ, DCERSTBA, DCERDP = 0x00, 0x04, 0x08, 0x10, 0x18
DCCTRL, DCST, DCPORTSC, DCCP, DCDDI1, DCDDI2 = 0x20, 0x24, 0x28, 0x30, 0x38, 0x3C

CTRL_DCR, CTRL_LSE, CTRL_HOT, CTRL_HIT, CTRL_DRC = 1 << 0, 1 << 1, 1 << 2, 1 << 3, 1 << 4
CTRL_DCE = 1 << 31
P_CCS, P_PED, P_PR = 1 << 0, 1 << 1, 1 << 4
P_CSC, P_PRC, P_PLC, P_CEC = 1 << 17, 1 << 21, 1 << 22, 1 << 23
P_CHANGE = P_CSC | P_PRC | P_PLC | P_CEC
PLS_U0, PLS_DISABLED, PLS_RXDETECT = 0, 4, 5
SPEED_SS = 4
ERDP_EHB = 1 << 3

TRB_NORMAL, TRB_LINK, TRB_TRANSFER, TRB_PORT = 1, 6, 32, 34
TRB_C, TRB_TC, TRB_ISP, TRB_IOC = 1 << 0, 1 << 1, 1 << 2, 1 << 5
CC_SUCCESS, CC_DATA_BUFFER, CC_TRANSACTION, CC_TRB_ERROR = 1, 2, 4, 5
CC_STALL, CC_SHORT = 6, 13

EP_OUT, EP_IN = 0, 1                  # endpoint IDs (xHCI 7.6.3.2) = doorbell targets
MAXP = 1024
DBC_PORT = 2                          # the root port the cable is on
LATE_MS = 200                         # a late event comes at most this much later
STATES = ("disabled", "disconnected", "enabled", "resetting", "configured")


class Endpoint:
    def __init__(self, epid):
        self.epid = epid
        self.deq = 0                  # TR dequeue pointer (physical)
        self.ccs = 1                  # consumer cycle state
        self.loaded = False           # context read since DCE was set
        self.halted = False
        self.stall_next = False       # fault: the next TRB stalls


class DbC:
    def __init__(self, knobs, counters, bridge, log, owner=None):
        self.k = knobs
        self.c = counters
        self.bridge = bridge
        self.log = log
        self.hc = owner               # set by the Xhci (guest memory, bus master)
        self.connected = not knobs.unplugged
        self.configure_hold = knobs.configure_hold
        self.timer = None
        self.full_ns = collections.deque(maxlen=4096)   # per full OUT TRB, the latest
        self.power_on()

    def full_ns_median(self):
        """The model's typical cost of a full OUT TRB (a preempted one, on a
        loaded host, does not make it look slower than it is)."""
        return int(statistics.median(self.full_ns)) if self.full_ns else 0

    # ------------------------------------------------------------ reset
    def power_on(self):
        self.ctrl = 0
        self.erstsz = 0
        self.erstba = 0
        self.erdp = 0
        self.dccp = 0
        self.ddi1 = self.ddi2 = 0
        self._disable()

    def hc_reset(self):
        """HCRST (USBCMD bit 1) resets the whole xHC, the Debug Capability with
        it: its registers go back to their initial values (DCE 0: DC-Disabled,
        the port back to the xHC), so the far host sees the debug device go;
        software enables it again (Linux's early driver calls this an
        external reset)."""
        if self.state != "disabled":
            self.c["dbc_resets"] += 1
            self.log("HCRST: the DbC is reset (DC-Disabled): the far host loses the device")
        self.power_on()

    def _disable(self):
        if self.timer:
            self.timer.cancel()
            self.timer = None
        self.state = "disabled"
        self.portsc = 0
        self.ctrl &= CTRL_LSE
        self.ep = [Endpoint(EP_OUT), Endpoint(EP_IN)]
        self.ev_base = self.ev_size = self.ev_enq = 0
        self.ev_pcs = 1
        self.ev_held = []             # events waiting for room in the event ring
        self.ev_late = []             # fault: events posted after the next one
        self.drop_events = [0, 0]     # fault: per endpoint (OUT, IN), transfer events lost
        self.late_events = 0
        self.out_hold = False         # fault: the far host stops taking OUT data
        self.strings = None

    # ------------------------------------------------------------ registers
    def w1c_bits(self, r):
        if r == DCCTRL:
            return CTRL_DRC | CTRL_HIT | CTRL_HOT
        if r == DCPORTSC:
            return P_CHANGE
        if r == DCERDP:
            return ERDP_EHB
        return 0

    def read32(self, r):
        self.c["mmio"] += 1
        if r == DCID:
            return 10 | 0 << 8 | 4 << 16            # ERST max 2^4 entries
        if r == DCERSTSZ:
            return self.erstsz
        if r in (DCERSTBA, DCERSTBA + 4):
            return (self.erstba >> (8 * (r - DCERSTBA))) & 0xFFFFFFFF
        if r in (DCERDP, DCERDP + 4):
            return (self.erdp >> (8 * (r - DCERDP))) & 0xFFFFFFFF
        if r == DCCTRL:
            v = self.ctrl | (self.k.max_burst << 16)
            if self.state == "configured":
                v |= CTRL_DCR | (1 << 24)           # device address 1
            v |= (CTRL_HOT if self.ep[EP_OUT].halted else 0) | \
                 (CTRL_HIT if self.ep[EP_IN].halted else 0)
            return v
        if r == DCST:
            v = DBC_PORT << 24 if self.state != "disabled" else 0
            return v | (1 if self._events_pending() else 0)
        if r == DCPORTSC:
            return self._portsc()
        if r in (DCCP, DCCP + 4):
            return (self.dccp >> (8 * (r - DCCP))) & 0xFFFFFFFF
        if r == DCDDI1:
            return self.ddi1
        if r == DCDDI2:
            return self.ddi2
        return 0

    def _portsc(self):
        v = self.portsc
        if self.state == "disabled":
            return 0
        if self.connected:
            v |= P_CCS | SPEED_SS << 10
        if self.state in ("enabled", "configured"):
            v |= P_PED | PLS_U0 << 5
        elif self.state == "resetting":
            v |= P_PR
        else:
            v |= PLS_RXDETECT << 5
        return v

    def write64(self, r, v):
        if r in (DCERSTBA, DCERDP, DCCP):
            self._set64(r, v)
        else:
            self.write32(r, v & 0xFFFFFFFF)
            self.write32(r + 4, v >> 32)

    def _set64(self, r, v):
        self.c["mmio"] += 1
        if r == DCERSTBA:
            self.erstba = v & ~0x3F
            if self.state != "disabled":
                self._load_erst()
        elif r == DCERDP:
            self.erdp = v & ~0xF
            self._flush_held()
        elif r == DCCP:
            self.dccp = v & ~0xF

    def write32(self, r, v):
        if r in (DCERSTBA, DCERSTBA + 4, DCERDP, DCERDP + 4, DCCP, DCCP + 4):
            base = r & ~7
            cur = {DCERSTBA: self.erstba, DCERDP: self.erdp, DCCP: self.dccp}[base]
            sh = 32 * ((r - base) // 4)
            self._set64(base, (cur & ~(0xFFFFFFFF << sh)) | (v << sh))
            return
        self.c["mmio"] += 1
        if r == DCDB:
            self._doorbell((v >> 8) & 0xFF)
        elif r == DCERSTSZ:
            self.erstsz = v & 0xFFFF
        elif r == DCCTRL:
            self._write_ctrl(v)
        elif r == DCPORTSC:
            self.portsc &= ~(v & P_CHANGE)
        elif r == DCDDI1:
            self.ddi1 = v
        elif r == DCDDI2:
            self.ddi2 = v

    def _write_ctrl(self, v):
        # DRC is write-1-to-clear; HIT/HOT show the endpoints' halts, which
        # the far host clears (CLEAR_FEATURE(ENDPOINT_HALT)), not software
        self.ctrl &= ~(v & CTRL_DRC)
        self.ctrl = (self.ctrl & ~CTRL_LSE) | (v & CTRL_LSE)
        was = bool(self.ctrl & CTRL_DCE)
        if v & CTRL_DCE and not was:
            self.ctrl |= CTRL_DCE
            self.c["enables"] += 1
            self.state = "disconnected"
            self._load_erst()
            if self.connected:
                self._connect()
        elif not v & CTRL_DCE and was:
            self.ctrl &= ~CTRL_DCE
            self.c["disables"] += 1
            self._disable()

    # ------------------------------------------------------------ the far host
    def _connect(self):
        """Cable in (or DCE set with the cable in): the link trains, the far
        host resets the port and enumerates the debug device."""
        self.portsc |= P_CSC
        self._port_event()
        self._enumerate()

    def _enumerate(self):
        self.state = "enabled"
        if self.configure_hold:
            return                                  # configured by 'configure'
        if self.k.configure_delay_ms:
            self.timer = threading.Timer(self.k.configure_delay_ms / 1000.0,
                                         self._delayed_configure)
            self.timer.daemon = True
            self.timer.start()
            return
        self._configure()

    def _delayed_configure(self):
        with self.k.lock:
            self.timer = None
            if self.state == "enabled":
                self._configure()

    def _configure(self):
        """SET_CONFIGURATION from the far host: DC-Configured."""
        if not self._read_strings():
            self.log("DbC context unreadable: the far host cannot enumerate the device")
            self.c["enumeration_failures"] += 1
            return
        for ep in self.ep:
            if not ep.loaded:
                try:
                    raw = self._dma_read(self.dccp + 64 * (1 + ep.epid), 16)
                except DmaError as e:
                    self.log(f"endpoint context: {e}")
                    return
                deq = struct.unpack_from("<Q", raw, 8)[0]
                ep.deq, ep.ccs, ep.loaded = deq & ~0xF, deq & 1, True
        self.state = "configured"
        self.ctrl |= CTRL_DRC
        self.c["enumerations"] += 1
        self.log(f"configured by the far host: {self.strings}")
        self._run_ring(self.ep[EP_IN])              # an IN TRB the host already polls

    def _unconfigure(self):
        if self.state == "configured":
            self.ctrl |= CTRL_DRC
        if self.timer:
            self.timer.cancel()
            self.timer = None

    def unplug(self):
        if not self.connected:
            return False
        self.connected = False
        if self.state != "disabled":
            self._unconfigure()
            self.state = "disconnected"
            self.portsc |= P_CSC
            self._port_event()
        return True

    def plug(self):
        if self.connected:
            return False
        self.connected = True
        if self.state != "disabled":
            self._connect()
        return True

    def port_reset(self):
        """The far host resets the port: DC-Resetting, then enumerated again."""
        if self.state not in ("enabled", "configured"):
            return False
        self._unconfigure()
        self.state = "resetting"
        self.c["port_resets"] += 1
        self.state = "enabled"
        self.portsc |= P_PRC
        self._port_event()
        self._enumerate()
        return True

    def configure_now(self):
        self.configure_hold = False
        if self.state == "enabled":
            if self.timer:
                self.timer.cancel()
                self.timer = None
            self._configure()
            return True
        return False

    def stall(self, epid):
        self.ep[epid].stall_next = True

    def clear_halt(self):
        """CLEAR_FEATURE(ENDPOINT_HALT) from the far host on both endpoints."""
        n = 0
        for ep in self.ep:
            n += ep.halted
            ep.halted = ep.stall_next = False
        for ep in self.ep:
            self._run_ring(ep)
        return n

    def release_out(self):
        self.out_hold = False
        self._run_ring(self.ep[EP_OUT])

    def input_arrived(self):
        """The far host has bytes for the IN endpoint."""
        self._run_ring(self.ep[EP_IN])

    def _read_strings(self):
        try:
            info = self._dma_read(self.dccp, 48)
        except DmaError:
            return False
        ptrs = struct.unpack_from("<4Q", info, 0)
        lens = struct.unpack_from("<I", info, 32)[0]
        out = []
        for i, p in enumerate(ptrs):
            n = (lens >> (8 * i)) & 0xFF
            if not n:
                out.append("")
                continue
            try:
                d = self._dma_read(p, n)
            except DmaError:
                return False
            if i == 0:
                out.append(d[2:n].hex())
            else:
                out.append(d[2:n].decode("utf-16-le", "replace"))
        self.strings = {"langids": out[0], "manufacturer": out[1], "product": out[2],
                        "serial": out[3], "vendor": f"{self.ddi1 >> 16:04x}",
                        "product_id": f"{self.ddi2 & 0xFFFF:04x}",
                        "protocol": self.ddi1 & 0xFF}
        return True

    # ------------------------------------------------------------ DMA
    def _dma_ok(self):
        return self.hc is not None and self.hc.mem is not None and self.hc.bus_master()

    def _watched(self, gpa, n):
        w = getattr(self, "watch", None)
        if w and gpa < w[0] + w[1] and w[0] < gpa + n:
            self.c["watched_dma"] += 1
            self.watch_last = gpa

    def _dma_read(self, gpa, n):
        if not self._dma_ok():
            self.c["dma_refused"] += 1
            raise DmaError("bus mastering off or no guest RAM")
        self._watched(gpa, n)
        return self.hc.mem.read(gpa, n)

    def _dma_write(self, gpa, data):
        if not self._dma_ok():
            self.c["dma_refused"] += 1
            raise DmaError("bus mastering off or no guest RAM")
        self._watched(gpa, len(data))
        self.hc.mem.write(gpa, data)

    # ------------------------------------------------------------ transfer rings
    def _doorbell(self, target):
        self.c["doorbells"] += 1
        if target not in (EP_OUT, EP_IN) or self.state != "configured":
            self.c["doorbells_ignored"] += 1
            return
        self._run_ring(self.ep[target])

    def _run_ring(self, ep):
        if self.state != "configured" or ep.halted or not ep.loaded:
            return
        for _ in range(4096):                       # a ring of Link TRBs only: stop
            t0 = time.perf_counter()
            try:
                trb = self._dma_read(ep.deq, 16)
            except DmaError as e:
                self.log(f"endpoint {ep.epid}: TRB fetch at {ep.deq:#x}: {e}")
                return
            param, status, ctl = struct.unpack("<QII", trb)
            if (ctl & TRB_C) != ep.ccs:
                return                              # not ours yet: not consumed
            kind = (ctl >> 10) & 0x3F
            at = ep.deq
            if kind == TRB_LINK:
                ep.deq = param & ~0xF
                if ctl & TRB_TC:
                    ep.ccs ^= 1
                continue
            if kind != TRB_NORMAL:
                self.c["trb_errors"] += 1
                ep.deq += 16
                self._transfer_event(ep, at, CC_TRB_ERROR, 0, True)
                continue
            length = status & 0x1FFFF
            if length and (param >> 16) != ((param + length - 1) >> 16):
                self.c["trb_errors"] += 1          # a buffer across a 64 KiB boundary
                ep.deq += 16
                self._transfer_event(ep, at, CC_TRB_ERROR, length, True)
                continue
            if ep.stall_next:
                ep.stall_next = False
                ep.halted = True
                self.c["stalls"] += 1
                ep.deq += 16
                self._transfer_event(ep, at, CC_STALL, length, True)
                return
            if ep.epid == EP_OUT:
                if self.out_hold:
                    self.c["out_held"] += 1
                    return                          # the far host NAKs: TRB stays
                try:
                    data = self._dma_read(param, length) if length else b""
                except DmaError as e:
                    self.log(f"OUT buffer {param:#x}+{length}: {e}")
                    ep.deq += 16
                    self._transfer_event(ep, at, CC_DATA_BUFFER, length, True)
                    continue
                self.bridge.send(bytes(data))
                self.c["trbs_out"] += 1
                self.c["bytes_out"] += length
                ep.deq += 16
                self._transfer_event(ep, at, CC_SUCCESS, 0, ctl & TRB_IOC)
                # the model's own cost of a bulk OUT TRB, from its fetch to its
                # event (DMA, bytes written to the far host's socket): full
                # ones only, so the per-TRB overhead of short ones does not
                # lower the raw rate bench/run.py derives from it
                if length >= MAXP:
                    ns = int((time.perf_counter() - t0) * 1e9)
                    self.c["out_full_trbs"] += 1
                    self.c["out_full_bytes"] += length
                    self.c["out_full_ns"] += ns
                    self.full_ns.append(ns)
            else:
                if not self.bridge.pending():
                    return                          # the far host has nothing: TRB waits
                data = b""
                while len(data) < length:
                    pkt = self.bridge.take_upto(min(MAXP, length - len(data)))
                    data += pkt
                    if len(pkt) < MAXP:
                        break                       # a short packet ends the transfer
                try:
                    self._dma_write(param, data)
                except DmaError as e:
                    self.log(f"IN buffer {param:#x}+{length}: {e}")
                    self.bridge.unread(data)
                    return
                self.c["trbs_in"] += 1
                self.c["bytes_in"] += len(data)
                ep.deq += 16
                short = len(data) < length
                self._transfer_event(ep, at, CC_SHORT if short else CC_SUCCESS,
                                     length - len(data),
                                     ctl & TRB_IOC or (short and ctl & TRB_ISP))
        self.log(f"endpoint {ep.epid}: 4096 TRBs in one go: ring of links?")

    # ------------------------------------------------------------ events
    def _load_erst(self):
        if not self.erstsz:
            return
        try:
            base, size = struct.unpack_from("<QI", self._dma_read(self.erstba, 16))
        except DmaError as e:
            self.log(f"ERST: {e}")
            return
        self.ev_base, self.ev_size = base & ~0x3F, size
        self.ev_enq, self.ev_pcs = 0, 1

    def _transfer_event(self, ep, trb, cc, residual, wanted):
        if not wanted and cc in (CC_SUCCESS, CC_SHORT):
            return
        if self.drop_events[ep.epid] > 0:
            self.drop_events[ep.epid] -= 1
            self.c["events_dropped"] += 1
            return
        self._event(struct.pack("<QII", trb, cc << 24 | residual & 0xFFFFFF,
                                TRB_TRANSFER << 10 | ep.epid << 16))

    def _port_event(self):
        if self.ctrl & CTRL_LSE:
            self._event(struct.pack("<QII", DBC_PORT << 24, CC_SUCCESS << 24, TRB_PORT << 10))

    def _event(self, ev):
        if self.late_events > 0:
            # held back: posted after the next event, or LATE_MS later if none comes
            self.late_events -= 1
            self.c["events_late"] += 1
            self.ev_late.append(ev)
            t = threading.Timer(LATE_MS / 1000.0, self._late_due)
            t.daemon = True
            t.start()
            return
        self.ev_held.append(ev)
        self.ev_held.extend(self.ev_late)           # held back ones come after this one
        self.ev_late = []
        self._flush_held()

    def _late_due(self):
        with self.k.lock:
            if self.ev_late:
                self.ev_held.extend(self.ev_late)
                self.ev_late = []
                self._flush_held()

    def _events_pending(self):
        if not self.ev_size:
            return False
        deq = (self.erdp - self.ev_base) // 16
        return deq != self.ev_enq or bool(self.ev_held)

    def _flush_held(self):
        flush_events(self, self.erdp, self._dma_write, "")


def flush_events(o, erdp, write, prefix):
    """Write @o's held events (o.ev_held) into its event ring (o.ev_base,
    o.ev_size TRBs, producer index o.ev_enq, cycle o.ev_pcs) while the ring
    has room before the consumer's dequeue pointer @erdp; a full ring keeps
    them (counted as PREFIX + "event_ring_full").  The DbC's and the host
    side's (host.py) event rings."""
    while o.ev_held and o.ev_size:
        deq = ((erdp & ~0xF) - o.ev_base) // 16
        if (o.ev_enq + 1) % o.ev_size == deq:
            o.c[prefix + "event_ring_full"] += 1
            return                              # full: wait for the dequeue pointer to move
        ev = bytearray(o.ev_held[0])
        ev[12] = (ev[12] & ~1) | o.ev_pcs
        try:
            write(o.ev_base + 16 * o.ev_enq, bytes(ev))
        except DmaError as e:
            o.log(f"event ring: {e}")
            return
        o.ev_held.pop(0)
        o.c[prefix + "events"] += 1
        o.ev_enq += 1
        if o.ev_enq == o.ev_size:
            o.ev_enq = 0
            o.ev_pcs ^= 1
