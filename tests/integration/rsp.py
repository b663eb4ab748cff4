"""A scripted GDB remote-protocol client for tests that need exact packets
(an order gdb never uses, such as lldb's, or requests gdb would not send):
frames, acks, no-ack mode, raw bytes.  Real gdb stays the default client
of the tests; this one is for the wire edges."""

import re
import socket
import time

from qemu import SCALE
from wire import expand_rle

TIMEOUT = 60 * SCALE


def frame(payload):
    if isinstance(payload, str):
        payload = payload.encode("latin-1")
    return b"$" + payload + b"#%02x" % (sum(payload) % 256)


class Rsp:
    def __init__(self, path, timeout=TIMEOUT):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.timeout = timeout
        self.buf = b""
        self.log = b""          # every byte received, for assertion messages
        self.no_ack = False

    def close(self):
        self.sock.close()

    def send_raw(self, data):
        self.sock.sendall(data)

    def _fill(self, deadline, what):
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"timeout waiting for {what}; received so far: "
                                 f"{self.log[-600:]!r}")
        self.sock.settimeout(left)
        try:
            d = self.sock.recv(65536)
        except socket.timeout:
            d = b""
        if not d and time.monotonic() >= deadline:
            raise AssertionError(f"timeout waiting for {what}; received so far: "
                                 f"{self.log[-600:]!r}")
        self.buf += d
        self.log += d

    def read_reply(self, timeout=None):
        """Next '$...#xx' frame: (payload, run-length encoding expanded;
        bytes seen before it, e.g. acks)."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            m = re.search(rb"\$([^#$]*)#([0-9a-f]{2})", self.buf)
            if m:
                before = self.buf[:m.start()]
                self.buf = self.buf[m.end():]
                payload = m.group(1)
                assert int(m.group(2), 16) == sum(payload) % 256, f"bad checksum: {m.group(0)!r}"
                if not self.no_ack:
                    self.send_raw(b"+")
                # as gdb reads it: "c*N" is c and N - 29 more copies
                return expand_rle(payload).decode("latin-1"), before
            self._fill(deadline, "a reply")

    def ask(self, payload, timeout=None):
        """Send one packet, return the reply payload (checks the ack)."""
        self.send_raw(frame(payload))
        reply, before = self.read_reply(timeout)
        if not self.no_ack:
            assert before.endswith(b"+"), f"{payload!r} not acked: {before!r}"
        return reply

    def mem(self, addr, n):
        r = self.ask(f"m{addr:x},{n:x}")
        assert not r.startswith("E"), f"m{addr:x},{n:x}: {r}"
        return bytes.fromhex(r)

    def u64(self, addr):
        return int.from_bytes(self.mem(addr, 8), "little")
