"""host.py - the host side of the model's xHCI (xHCI 1.1 section 4), enough
for one USB HID boot keyboard (hidkbd.py) on a USB 2 root port beside the
Debug Capability's port: with the kbd knob only (without it the model runs
no command ring, no slots: the DbC tests see the controller they always did).

Modelled (32-byte contexts, HCCPARAMS1.CSZ 0):
  - the keyboard's PORTSC: CCS, PED, PR (a write starts a port reset that
    completes at once: PED, PRC, full speed), PLS U0, PP, the change bits
    CSC PEC PRC write-1-to-clear; writing PED 1 disables the port.  A
    change while R/S is 1 posts a Port Status Change Event; R/S 0 -> 1
    posts one for each port with a change bit set;
  - the command ring (CRCR: pointer and RCS), run on doorbell 0 while R/S
    is 1: Enable Slot, Disable Slot, Address Device (BSR honoured), Evaluate
    Context (EP0's max packet), Configure Endpoint (add/drop, DC), Reset
    Endpoint, Stop Endpoint, Set TR Dequeue Pointer, No Op; the output
    contexts at DCBAA[slot] written as a controller does (slot state,
    address, endpoint states);
  - interrupter 0's event ring (ERSTSZ, ERSTBA, ERDP; a full ring holds
    events back until ERDP moves);
  - transfer rings on a slot's doorbell: EP0 control transfers (Setup, Data,
    Status TDs: the keyboard answers or stalls, the endpoint halts), the
    interrupt IN endpoint's Normal TRBs, one report each (a TRB waits for a
    report; `key` queues them).  Link TRBs followed, Toggle Cycle honoured.
  - faults from the control socket: kbd-stall (the next report transfer
    stalls: the endpoint halts until Reset Endpoint), kbd-unplug/kbd-plug.

HCRST resets all of it (the keyboard sees a bus reset).  No DMA while bus
mastering is off.
"""

import struct

from dbc import CC_STALL, CC_SUCCESS, CC_SHORT, CC_TRB_ERROR, TRB_C, TRB_LINK, TRB_TC, \
    TRB_ISP, TRB_IOC, TRB_NORMAL, TRB_PORT, TRB_TRANSFER, flush_events
from guestmem import DmaError
import hidkbd

TRB_SETUP, TRB_DATA, TRB_STATUS = 2, 3, 4
TRB_ENABLE_SLOT, TRB_DISABLE_SLOT, TRB_ADDRESS, TRB_CONFIG_EP, TRB_EVAL = 9, 10, 11, 12, 13
TRB_RESET_EP, TRB_STOP_EP, TRB_SET_DEQ, TRB_NOOP_CMD, TRB_CMD_DONE = 14, 15, 16, 23, 33
TRB_IDT = 1 << 6
CC_TRANSACTION, CC_NO_SLOTS, CC_SLOT_NOT_ENABLED, CC_EP_NOT_ENABLED = 4, 9, 11, 12
CC_PARAMETER, CC_CTX_STATE = 17, 19
EP_DISABLED, EP_RUNNING, EP_HALTED, EP_STOPPED = 0, 1, 2, 3
SLOT_ENABLED, SLOT_DEFAULT, SLOT_ADDRESSED, SLOT_CONFIGURED = 0, 1, 2, 3
CTX = 32
SPEED_FULL = 1

P_CCS, P_PED, P_PR, P_PP = 1 << 0, 1 << 1, 1 << 4, 1 << 9
P_CSC, P_PEC, P_PRC = 1 << 17, 1 << 18, 1 << 21
P_CHANGE = 0x7F << 17
PLS_POLLING = 7


class Ring:
    """A transfer or command ring: where the controller reads next."""

    def __init__(self, deq=0, ccs=1):
        self.deq, self.ccs = deq, ccs
        self.state = EP_RUNNING


class Slot:
    def __init__(self, sid):
        self.sid = sid
        self.state = SLOT_ENABLED
        self.port = 0
        self.eps = {}                   # DCI -> Ring
        self.maxp0 = 8


class Host:
    def __init__(self, hc, counters, log):
        self.hc = hc
        self.c = counters
        self.log = log
        self.port = hc.nports           # the keyboard's root port: the last, USB 2
        self.kbd = hidkbd.Keyboard(log)
        self.plugged = True
        self.stall_next = False
        self.reset()

    # ------------------------------------------------------------ reset
    def reset(self):
        self.crcr = 0
        self.cmd = Ring(0, 1)
        self.slots = {}
        self.erstsz = 0
        self.erstba = 0
        self.erdp = 0
        self.ev_base = self.ev_size = self.ev_enq = 0
        self.ev_pcs = 1
        self.ev_loaded = False
        self.ev_held = []
        self.portsc = P_PP | ((P_CCS | P_CSC | SPEED_FULL << 10 | PLS_POLLING << 5)
                              if self.plugged else 0)
        self.kbd.reset()

    def running(self):
        return bool(self.hc.cmd & 1)

    def run_changed(self, was_running):
        if self.running() and not was_running and self.portsc & P_CHANGE:
            self._port_event()

    # ------------------------------------------------------------ DMA
    def _rd(self, gpa, n):
        if not (self.hc.mem is not None and self.hc.bus_master()):
            self.c["dma_refused"] += 1
            raise DmaError("bus mastering off or no guest RAM")
        return self.hc.mem.read(gpa, n)

    def _wr(self, gpa, data):
        if not (self.hc.mem is not None and self.hc.bus_master()):
            self.c["dma_refused"] += 1
            raise DmaError("bus mastering off or no guest RAM")
        self.hc.mem.write(gpa, data)

    # ------------------------------------------------------------ registers
    def portsc_read(self):
        return self.portsc

    def portsc_write(self, v):
        self.portsc &= ~(v & P_CHANGE)
        if v & P_PED and self.portsc & P_PED:          # write 1: disable the port
            self.portsc &= ~P_PED
        if v & P_PR and self.portsc & P_CCS:
            self.c["kbd_port_resets"] += 1
            self.kbd.reset()
            self.portsc = (self.portsc | P_PED | P_PRC) & ~(0xF << 5)   # U0
            self._port_event()

    def crcr_write(self, half, v):
        sh = 32 * half
        self.crcr = (self.crcr & ~(0xFFFFFFFF << sh)) | (v << sh)
        self.cmd = Ring(self.crcr & ~0x3F, self.crcr & 1)

    def rt_write(self, off, v):
        """Interrupter 0's registers (offset from the runtime base)."""
        if off in (0x28,):
            self.erstsz = v & 0xFFFF
            self.ev_loaded = False
        elif off in (0x30, 0x34):
            sh = 32 * ((off - 0x30) // 4)
            self.erstba = (self.erstba & ~(0xFFFFFFFF << sh)) | (v << sh)
            self.ev_loaded = False
        elif off in (0x38, 0x3C):
            sh = 32 * ((off - 0x38) // 4)
            self.erdp = (self.erdp & ~(0xFFFFFFFF << sh)) | ((v & ~0xF if sh == 0 else v) << sh)
            self._flush()

    def doorbell(self, slot, target):
        self.c["host_doorbells"] += 1
        if not self.running():
            return
        if slot == 0:
            self._run_commands()
        elif slot in self.slots and target in self.slots[slot].eps:
            self._run_ep(self.slots[slot], target)

    # ------------------------------------------------------------ events
    def _load_erst(self):
        if not self.erstsz:
            return False
        try:
            base, size = struct.unpack_from("<QI", self._rd(self.erstba & ~0x3F, 16))
        except DmaError as e:
            self.log(f"host ERST: {e}")
            return False
        self.ev_base, self.ev_size = base & ~0x3F, size
        self.ev_enq, self.ev_pcs, self.ev_loaded = 0, 1, True
        return True

    def _event(self, param, status, ctrl):
        self.ev_held.append(struct.pack("<QII", param, status, ctrl))
        self._flush()

    def _flush(self):
        if self.ev_loaded or self._load_erst():
            flush_events(self, self.erdp, self._wr, "host_")

    def _port_event(self):
        if self.running():
            self._event(self.port << 24, CC_SUCCESS << 24, TRB_PORT << 10)

    def _xfer_event(self, slot, dci, trb, cc, residual):
        self._event(trb, cc << 24 | residual & 0xFFFFFF,
                    TRB_TRANSFER << 10 | dci << 16 | slot.sid << 24)

    # ------------------------------------------------------------ rings
    def _fetch(self, ring):
        """The next TRB the ring gives (Link TRBs followed): (addr, param, status, ctrl) or None."""
        for _ in range(64):
            try:
                param, status, ctl = struct.unpack("<QII", self._rd(ring.deq, 16))
            except DmaError as e:
                self.log(f"host TRB fetch at {ring.deq:#x}: {e}")
                return None
            if (ctl & TRB_C) != ring.ccs:
                return None
            if (ctl >> 10) & 0x3F == TRB_LINK:
                ring.deq = param & ~0xF
                if ctl & TRB_TC:
                    ring.ccs ^= 1
                continue
            return ring.deq, param, status, ctl
        return None

    def _run_commands(self):
        for _ in range(256):
            t = self._fetch(self.cmd)
            if not t:
                return
            at, param, status, ctl = t
            self.cmd.deq += 16
            kind, sid = (ctl >> 10) & 0x3F, ctl >> 24
            try:
                cc, sid = self._command(kind, sid, param, ctl)
            except DmaError as e:
                self.log(f"host command {kind}: {e}")
                cc = CC_PARAMETER
            self.c["host_commands"] += 1
            self._event(at, cc << 24, TRB_CMD_DONE << 10 | sid << 24)

    def _out_ctx(self, sid):
        return struct.unpack("<Q", self._rd(self.hc.dcbaap + 8 * sid, 8))[0] & ~0x3F

    def _command(self, kind, sid, param, ctl):
        if kind == TRB_NOOP_CMD:
            return CC_SUCCESS, 0
        if kind == TRB_ENABLE_SLOT:
            limit = min(self.hc.config & 0xFF, 8)
            for s in range(1, limit + 1):
                if s not in self.slots:
                    self.slots[s] = Slot(s)
                    return CC_SUCCESS, s
            return CC_NO_SLOTS, 0
        slot = self.slots.get(sid)
        if not slot:
            return CC_SLOT_NOT_ENABLED, sid
        if kind == TRB_DISABLE_SLOT:
            del self.slots[sid]
            return CC_SUCCESS, sid
        dci = (ctl >> 16) & 0x1F
        if kind == TRB_ADDRESS:
            return self._address(slot, param & ~0xF, bool(ctl & (1 << 9))), sid
        if kind == TRB_EVAL:
            ictx = param & ~0xF
            add = struct.unpack("<I", self._rd(ictx + 4, 4))[0]
            if add & 2 and 1 in slot.eps:
                slot.maxp0 = struct.unpack("<I", self._rd(ictx + 2 * CTX + 4, 4))[0] >> 16
                self._write_ep_ctx(slot, 1, None)
            return CC_SUCCESS, sid
        if kind == TRB_CONFIG_EP:
            return self._configure(slot, param & ~0xF, bool(ctl & (1 << 9))), sid
        ep = slot.eps.get(dci)
        if not ep:
            return CC_EP_NOT_ENABLED, sid
        if kind == TRB_RESET_EP:
            if ep.state != EP_HALTED:
                return CC_CTX_STATE, sid
            ep.state = EP_STOPPED
        elif kind == TRB_STOP_EP:
            if ep.state != EP_RUNNING:
                return CC_CTX_STATE, sid
            ep.state = EP_STOPPED
        elif kind == TRB_SET_DEQ:
            if ep.state not in (EP_STOPPED,):
                return CC_CTX_STATE, sid
            ep.deq, ep.ccs = param & ~0xF, param & 1
        else:
            return CC_TRB_ERROR, sid
        self._write_ep_ctx(slot, dci, None)
        return CC_SUCCESS, sid

    def _address(self, slot, ictx, bsr):
        sctx = self._rd(ictx + CTX, CTX)
        port = (struct.unpack_from("<I", sctx, 4)[0] >> 16) & 0xFF
        if port != self.port or not self.portsc & P_PED:
            return CC_TRANSACTION                           # nothing answers there
        ep0 = self._rd(ictx + 2 * CTX, CTX)
        info2, deq = struct.unpack_from("<IQ", ep0, 4)
        slot.port = port
        slot.maxp0 = info2 >> 16
        slot.eps = {1: Ring(deq & ~0xF, deq & 1)}
        if not bsr:
            self.kbd.address = slot.sid
        slot.state = SLOT_DEFAULT if bsr else SLOT_ADDRESSED
        out = self._out_ctx(slot.sid)
        s = bytearray(sctx)
        dw3 = (slot.state << 27) | (0 if bsr else slot.sid)
        struct.pack_into("<I", s, 12, dw3)
        self._wr(out, bytes(s))
        self._write_ep_ctx(slot, 1, ep0)
        return CC_SUCCESS

    def _configure(self, slot, ictx, deconfigure):
        if slot.state < SLOT_ADDRESSED:
            return CC_CTX_STATE
        if deconfigure:
            slot.eps = {1: slot.eps[1]}
            slot.state = SLOT_ADDRESSED
            return CC_SUCCESS
        drop, add = struct.unpack("<II", self._rd(ictx, 8))
        for dci in range(2, 32):
            if drop & (1 << dci):
                slot.eps.pop(dci, None)
            if add & (1 << dci):
                raw = self._rd(ictx + (dci + 1) * CTX, CTX)
                deq = struct.unpack_from("<Q", raw, 8)[0]
                slot.eps[dci] = Ring(deq & ~0xF, deq & 1)
                self._write_ep_ctx(slot, dci, raw)
        slot.state = SLOT_CONFIGURED if len(slot.eps) > 1 else SLOT_ADDRESSED
        out = self._out_ctx(slot.sid)
        dw3 = struct.unpack("<I", self._rd(out + 12, 4))[0]
        self._wr(out + 12, struct.pack("<I", (dw3 & 0x07FFFFFF) | slot.state << 27))
        return CC_SUCCESS

    def _write_ep_ctx(self, slot, dci, raw):
        """The output endpoint context: the input one when given, the state and dequeue pointer."""
        out = self._out_ctx(slot.sid) + dci * CTX
        ctx = bytearray(raw if raw is not None else self._rd(out, CTX))
        ep = slot.eps[dci]
        struct.pack_into("<I", ctx, 0, (struct.unpack_from("<I", ctx, 0)[0] & ~7) | ep.state)
        struct.pack_into("<Q", ctx, 8, ep.deq | ep.ccs)
        self._wr(out, bytes(ctx))

    def _run_ep(self, slot, dci):
        ep = slot.eps[dci]
        if ep.state == EP_STOPPED:
            ep.state = EP_RUNNING                           # a doorbell restarts it
        if ep.state != EP_RUNNING or not self.portsc & P_PED or slot.port != self.port:
            return
        if dci == 1:
            self._run_control(slot, ep)
        else:
            self._run_interrupt(slot, dci, ep)

    def _halt(self, slot, dci, ep, at, cc, residual):
        ep.state = EP_HALTED
        self.c["host_stalls"] += 1
        self._write_ep_ctx(slot, dci, None)
        self._xfer_event(slot, dci, at, cc, residual)

    def _run_control(self, slot, ep):
        for _ in range(64):
            start = (ep.deq, ep.ccs)
            t = self._fetch(ep)
            if not t:
                return
            at, param, status, ctl = t
            if (ctl >> 10) & 0x3F != TRB_SETUP:
                ep.deq += 16
                self._xfer_event(slot, 1, at, CC_TRB_ERROR, 0)
                continue
            ep.deq += 16
            stages = []
            while True:                                     # Data? Status
                t = self._fetch(ep)
                if not t:
                    ep.deq, ep.ccs = start                  # the TD is not all there yet
                    return
                stages.append(t)
                ep.deq += 16
                if (t[3] >> 10) & 0x3F != TRB_DATA:
                    break
            if not self._control_td(slot, ep, struct.pack("<Q", param), stages):
                return

    def _control_td(self, slot, ep, setup, stages):
        data = [s for s in stages if (s[3] >> 10) & 0x3F == TRB_DATA]
        status = stages[-1]
        if (status[3] >> 10) & 0x3F != TRB_STATUS:
            self._xfer_event(slot, 1, status[0], CC_TRB_ERROR, 0)
            return True
        out = b""
        d = data[0] if data else None
        if d and not d[3] & (1 << 16):
            try:
                out = self._rd(d[1], d[2] & 0x1FFFF)
            except DmaError:
                self._halt(slot, 1, ep, d[0], CC_TRANSACTION, d[2] & 0x1FFFF)
                return False
        ok, answer = self.kbd.control(setup, out)
        self.c["host_control"] += 1
        if not ok:
            at = d[0] if d else status[0]
            self._halt(slot, 1, ep, at, CC_STALL, d[2] & 0x1FFFF if d else 0)
            return False
        if d and d[3] & (1 << 16):
            length = d[2] & 0x1FFFF
            answer = answer[:length]
            try:
                self._wr(d[1], answer)
            except DmaError:
                self._halt(slot, 1, ep, d[0], CC_TRANSACTION, length)
                return False
            if len(answer) < length and d[3] & (TRB_ISP | TRB_IOC):
                self._xfer_event(slot, 1, d[0], CC_SHORT, length - len(answer))
            elif d[3] & TRB_IOC:
                self._xfer_event(slot, 1, d[0], CC_SUCCESS, 0)
        if status[3] & TRB_IOC:
            self._xfer_event(slot, 1, status[0], CC_SUCCESS, 0)
        return True

    def _run_interrupt(self, slot, dci, ep):
        while self.kbd.configuration and self.kbd.reports:
            t = self._fetch(ep)
            if not t:
                return                                      # no buffer posted: the report waits
            at, param, status, ctl = t
            ep.deq += 16
            length = status & 0x1FFFF
            if (ctl >> 10) & 0x3F != TRB_NORMAL:
                self._xfer_event(slot, dci, at, CC_TRB_ERROR, length)
                continue
            if self.stall_next:
                self.stall_next = False
                self._halt(slot, dci, ep, at, CC_STALL, length)
                return                                      # the report stays queued
            report = self.kbd.next_report()[:length]
            try:
                self._wr(param, report)
            except DmaError as e:
                self.log(f"host report buffer {param:#x}: {e}")
                self.kbd.unread(report)
                self._halt(slot, dci, ep, at, CC_TRANSACTION, length)
                return
            self.c["kbd_reports"] += 1
            short = len(report) < length
            if ctl & TRB_IOC or (short and ctl & TRB_ISP):
                self._xfer_event(slot, dci, at, CC_SHORT if short else CC_SUCCESS,
                                 length - len(report))

    def _kick_interrupt(self):
        for slot in list(self.slots.values()):
            for dci in slot.eps:
                if dci != 1 and self.running():
                    self._run_ep(slot, dci)

    # ------------------------------------------------------------ control socket
    def key(self, usages, mods):
        self.kbd.key(usages, mods)
        self._kick_interrupt()

    def text(self, s):
        if not self.kbd.text(s):
            return False
        self._kick_interrupt()
        return True

    def stall(self):
        self.stall_next = True

    def unplug(self):
        if not self.plugged:
            return False
        self.plugged = False
        self.portsc = (self.portsc & ~(P_CCS | P_PED | (0xF << 10))) | P_CSC | P_PEC
        self.kbd.reset()
        self._port_event()
        return True

    def plug(self):
        if self.plugged:
            return False
        self.plugged = True
        self.kbd.reset()
        self.portsc |= P_CCS | P_CSC | SPEED_FULL << 10 | PLS_POLLING << 5
        self._port_event()
        return True

    def stats(self):
        return {"kbd_plugged": self.plugged, "kbd_portsc": self.portsc,
                "kbd_address": self.kbd.address, "kbd_configuration": self.kbd.configuration,
                "kbd_protocol": self.kbd.protocol, "kbd_idle": self.kbd.idle,
                "kbd_leds": self.kbd.leds, "kbd_set_reports": self.kbd.set_reports,
                "kbd_queued": len(self.kbd.reports), "kbd_port": self.port,
                "slots": sorted(self.slots),
                "kbd_ep_states": {f"{s.sid}.{d}": e.state for s in self.slots.values()
                                  for d, e in s.eps.items()}}
