"""usbdev.py - a USB 2.0 debug device (NET20DC-like) as seen from the wire.

The device answers one transaction at a time, the way the EHCI debug port
issues them: transact(token, addr, ep, data_pid, data) returns
(handshake_or_data_pid, payload).  It keeps what a real device keeps: its
address, the control pipe's stage, one data toggle per bulk endpoint (and
acknowledges-but-drops a packet that repeats the last toggle: the host
missed our ACK and sent it again), debug mode, and the halt state.

Its "other side" (the host cable end) is two byte queues owned by the
bridge: out_sink(bytes) receives what the target sent, in_source() hands
the next up-to-8 bytes for the target (or b"" when none).
"""

PID_SETUP, PID_IN, PID_OUT = 0x2D, 0x69, 0xE1
PID_DATA0, PID_DATA1 = 0xC3, 0x4B
PID_ACK, PID_NAK, PID_STALL, PID_NYET = 0xD2, 0x5A, 0x1E, 0x96
NO_RESPONSE = None          # the device said nothing: a transaction error

DT_DEVICE, DT_CONFIG, DT_STRING, DT_DEBUG = 1, 2, 3, 10
REQ_GET_STATUS, REQ_CLEAR_FEATURE, REQ_SET_FEATURE = 0, 1, 3
REQ_SET_ADDRESS, REQ_GET_DESCRIPTOR, REQ_GET_CONFIGURATION = 5, 6, 8
REQ_SET_CONFIGURATION = 9
FEATURE_ENDPOINT_HALT, FEATURE_DEBUG_MODE = 0, 6

EP_OUT, EP_IN = 0x01, 0x82      # NET20DC's debug endpoints
MAXP = 8


def toggle_pid(t):
    return PID_DATA1 if t else PID_DATA0


class DebugDevice:
    def __init__(self, knobs, counters, out_sink, in_source):
        self.k = knobs
        self.c = counters
        self.out_sink = out_sink
        self.in_source = in_source
        self.bus_reset()
        self.debug_mode = False
        self.configuration = 0

    # ---------------------------------------------------------------- state
    def bus_reset(self):
        """USB reset on the port: back to the default state, address 0."""
        self.address = 0
        self.pending_address = None
        self.debug_mode = False
        self.configuration = 0
        self.ctl = None             # control transfer in progress
        self.tog_out = 0            # next expected toggle on the bulk OUT endpoint
        self.tog_in = 0             # toggle of the next packet we send on bulk IN
        self.in_packet = None       # packet sent but not yet acknowledged
        self.halted = set()

    def preenumerated(self):
        """As if firmware had already put us in debug mode at address 127."""
        self.address = 127
        self.debug_mode = True

    # ---------------------------------------------------------------- wire
    def transact(self, token, addr, ep, send_pid, data):
        if addr != self.address:
            return NO_RESPONSE, b""
        if ep == 0:
            return self._control(token, send_pid, data)
        if token == PID_OUT and ep == (EP_OUT & 0xF):
            return self._bulk_out(send_pid, data)
        if token == PID_IN and ep == (EP_IN & 0xF):
            return self._bulk_in()
        return PID_STALL, b""

    def _bulk_ok(self, ep):
        if ep in self.halted:
            return False
        # a NET20DC moves data once the host put it in debug mode (or configured it)
        return self.debug_mode or self.configuration

    def _bulk_out(self, send_pid, data):
        if not self._bulk_ok(EP_OUT):
            return PID_STALL, b""
        if send_pid not in (PID_DATA0, PID_DATA1):
            return NO_RESPONSE, b""
        if self.k.take("nak_out"):
            self.c["naks"] += 1
            return PID_NAK, b""
        if send_pid != toggle_pid(self.tog_out):
            # a repeat of the packet we acknowledged: ACK again, do not deliver
            self.c["dup_out"] += 1
            return PID_ACK, b""
        self.out_sink(bytes(data))
        self.c["bytes_out"] += len(data)
        self.tog_out ^= 1
        if self.k.take("lose_out_ack"):
            return NO_RESPONSE, b""     # we took it; the host never saw our ACK
        return PID_ACK, b""

    def _bulk_in(self):
        if not self._bulk_ok(EP_IN):
            return PID_STALL, b""
        if self.k.take("nak_in"):
            self.c["naks"] += 1
            return PID_NAK, b""
        if self.in_packet is None:
            pkt = self.in_source()
            if not pkt:
                return PID_NAK, b""
            self.in_packet = pkt
        pid = toggle_pid(self.tog_in)
        pkt = self.in_packet
        if self.k.take("lose_in_ack"):
            self.c["dup_in"] += 1       # the host's ACK got lost: we will send it again
            return pid, pkt
        self.in_packet = None
        self.tog_in ^= 1
        self.c["bytes_in"] += len(pkt)
        return pid, pkt

    # ---------------------------------------------------------------- ep0
    def _control(self, token, send_pid, data):
        if token == PID_SETUP:
            if len(data) != 8 or send_pid != PID_DATA0:
                return NO_RESPONSE, b""
            return self._setup(bytes(data))
        ctl = self.ctl
        if ctl is None:
            return PID_STALL, b""
        if ctl["stall"]:
            return PID_STALL, b""
        if ctl["dir_in"] and token == PID_IN and ctl["data"] is not None:
            pos, data, want = ctl["pos"], ctl["data"], ctl["wlength"]
            chunk = data[pos:pos + MAXP]
            ctl["pos"] = pos + len(chunk)
            if len(chunk) < MAXP or ctl["pos"] >= want:
                ctl["data"] = None      # short packet or wLength reached: data stage over
            pid = toggle_pid(ctl["toggle"])
            ctl["toggle"] ^= 1
            return pid, chunk
        # status stage: the direction opposite to the data stage, DATA1, no data
        status_token = PID_OUT if ctl["dir_in"] else PID_IN
        if token != status_token:
            return PID_STALL, b""
        self.ctl = None
        ctl["done"]()
        if token == PID_IN:
            return PID_DATA1, b""
        if len(data) or send_pid != PID_DATA1:
            return PID_STALL, b""
        return PID_ACK, b""

    def _setup(self, s):
        bm, req = s[0], s[1]
        value = s[2] | s[3] << 8
        index = s[4] | s[5] << 8
        length = s[6] | s[7] << 8
        ctl = {"dir_in": bool(bm & 0x80), "data": None, "pos": 0, "wlength": length,
               "toggle": 1, "stall": False, "done": lambda: None}
        self.ctl = ctl
        if bm == 0x80 and req == REQ_GET_DESCRIPTOR:
            d = self._descriptor(value >> 8, value & 0xFF)
            if d is None:
                ctl["stall"] = True
            else:
                ctl["data"] = d[:length] if length else None
        elif bm == 0x00 and req == REQ_SET_ADDRESS and value < 128 and not length:
            def set_address():
                self.address = value
                if value:
                    self.c["enumerations"] += 1
            ctl["done"] = set_address
        elif bm == 0x00 and req == REQ_SET_FEATURE and value == FEATURE_DEBUG_MODE:
            def debug_mode():
                self.debug_mode = True
                self.tog_out = self.tog_in = 0
                self.in_packet = None
                self.c["debug_mode"] += 1
            ctl["done"] = debug_mode
        elif bm == 0x00 and req == REQ_SET_CONFIGURATION and value <= 1:
            def configure():
                self.configuration = value
                self.tog_out = self.tog_in = 0
            ctl["done"] = configure
        elif bm == 0x80 and req == REQ_GET_CONFIGURATION:
            ctl["data"] = bytes([self.configuration])[:length]
        elif bm == 0x80 and req == REQ_GET_STATUS:
            ctl["data"] = b"\x00\x00"[:length]
        elif bm == 0x02 and req in (REQ_CLEAR_FEATURE, REQ_SET_FEATURE) \
                and value == FEATURE_ENDPOINT_HALT and (index & 0x7F) in (1, 2):
            ep = EP_IN if index & 0x80 else EP_OUT
            def halt():
                if req == REQ_SET_FEATURE:
                    self.halted.add(ep)
                    return
                self.halted.discard(ep)
                if ep == EP_IN:
                    self.tog_in = 0
                    self.in_packet = None
                else:
                    self.tog_out = 0
            ctl["done"] = halt
        else:
            ctl["stall"] = True
        # a SETUP is always acknowledged; errors show in the later stages
        return PID_ACK, b""

    def _descriptor(self, kind, idx):
        if kind == DT_DEVICE:
            return bytes([18, DT_DEVICE, 0x00, 0x02, 0xFF, 0x00, 0x00, MAXP,
                          0x25, 0x05, 0x7A, 0x12, 0x00, 0x01, 0, 0, 0, 1])
        if kind == DT_DEBUG:
            return bytes([4, DT_DEBUG, EP_IN, EP_OUT])
        if kind == DT_CONFIG:
            intf = bytes([9, 4, 0, 0, 2, 0xFF, 0, 0, 0])
            ep1 = bytes([7, 5, EP_OUT, 2, MAXP, 0, 0])
            ep2 = bytes([7, 5, EP_IN, 2, MAXP, 0, 0])
            total = 9 + len(intf) + len(ep1) + len(ep2)
            return bytes([9, DT_CONFIG, total & 0xFF, total >> 8, 1, 1, 0, 0x80, 50]) \
                + intf + ep1 + ep2
        return None
