"""A man in the middle for the gdb remote line: a unix-socket proxy between
gdb and the guest's serial socket that logs every byte and can damage
them on purpose (line-noise tests, packet logs for bug reports).

    proxy = WireProxy(tmp_path / "p.sock", machine.socket_path(1),
                      log_path=tmp_path / "wire.log")
    g.connect(proxy.path)                  # gdb talks through the proxy
    proxy.to_stub = Corrupter(every=3)     # damage what gdb sends from now on
    proxy.transcript()                     # "gdb> $m...#xx" / "stub> ..." lines

QEMU's unix chardev serves one client at a time; the proxy opens its own
upstream connection for each gdb that connects, and closes it when gdb
goes away, so a later gdb can connect through the same proxy.  The
upstream is a unix socket path or "host:port" (QEMU's own gdbstub).  Each
log entry keeps when it crossed (time.monotonic()), so what crossed in a
phase of a session can be counted (wire.py: `make bench`'s packet table,
test_gdb_lean.py).
"""

import os
import socket
import threading
import time


def frames(data):
    """Split a byte string into remote-protocol frames ($...#xx, +, -, ^C)
    and junk, for readable logs."""
    out, i = [], 0
    while i < len(data):
        c = data[i:i + 1]
        if c == b"$":
            j = data.find(b"#", i)
            if j < 0 or j + 3 > len(data):
                out.append(data[i:])
                break
            out.append(data[i:j + 3])
            i = j + 3
        else:
            out.append(c)
            i += 1
    return out


class Corrupter:
    """A stream filter for one direction: flips one payload byte in every
    `every`-th packet (after skipping `skip` packets), and injects `junk`
    before every `junk_every`-th packet.  Frames are tracked across chunk
    boundaries; counters say what was done."""

    def __init__(self, every=0, skip=0, junk=b"", junk_every=0, limit=None):
        self.every, self.skip, self.junk, self.junk_every = every, skip, junk, junk_every
        self.limit = limit              # stop corrupting after this many flips
        self.packets = 0                # '$' seen
        self.flipped = 0
        self.injected = 0
        self._in_payload = False
        self._flip_next = False

    def __call__(self, data):
        out = bytearray()
        for b in data:
            if b == ord("$") and not self._in_payload:
                self.packets += 1
                n = self.packets - self.skip
                if self.junk_every and n > 0 and n % self.junk_every == 0:
                    out += self.junk
                    self.injected += 1
                self._in_payload = True
                self._flip_next = (self.every and n > 0 and n % self.every == 0 and
                                   (self.limit is None or self.flipped < self.limit))
                out.append(b)
                continue
            if self._in_payload and b == ord("#"):
                self._in_payload = False
            elif self._in_payload and self._flip_next:
                # flip a bit that keeps the byte printable and not a framing char
                nb = b ^ 0x01
                if nb in b"$#}*":
                    nb = b ^ 0x02
                b = nb
                self._flip_next = False
                self.flipped += 1
            out.append(b)
        return bytes(out)


class Hold:
    """A line that stalls (flow control, a held relay): what comes is kept,
    nothing goes on, until WireProxy.release() sends all of it at once."""

    def __init__(self):
        self.held = bytearray()

    def __call__(self, data):
        self.held += data
        return b""


class DropPackets:
    """A line that loses whole packets: the next `n` frames ("$...#cs",
    tracked across chunks) vanish; everything else goes on."""

    def __init__(self, n):
        self.n = n
        self.dropped = 0
        self._in = False
        self._tail = 0                  # checksum digits still to drop

    def __call__(self, data):
        out = bytearray()
        for b in data:
            if b == ord("$") and not self._in and self.dropped < self.n:
                self._in = True
            if not self._in:
                out.append(b)
            elif b == ord("#"):
                self._tail = 2
            elif self._tail:
                self._tail -= 1
                if not self._tail:
                    self._in = False
                    self.dropped += 1
        return bytes(out)


def _connect(upstream):
    """A unix socket path, or host:port (TCP, Nagle off, as gdb's own)."""
    if os.path.sep in upstream:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(upstream)
        except OSError:
            s.close()
            raise
        return s
    host, port = upstream.rsplit(":", 1)
    s = socket.create_connection((host or "127.0.0.1", int(port)))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


class WireProxy:
    def __init__(self, path, upstream, log_path=None):
        self.path = str(path)
        self.upstream = upstream
        self.to_stub = None             # callable(bytes) -> bytes, or None
        self.to_gdb = None
        self.log = []                   # (direction, bytes) in arrival order
        self.times = []                 # time.monotonic() of each log entry
        self._lock = threading.Lock()
        self._log_file = open(log_path, "a") if log_path else None
        self.connections = 0
        self._srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        if os.path.exists(self.path):
            os.unlink(self.path)
        self._srv.bind(self.path)
        self._srv.listen(4)
        self._closing = False
        self._socks = []
        self._dst = {}                  # "to_stub"/"to_gdb" -> the socket bytes go to
        threading.Thread(target=self._accept, daemon=True).start()

    def _note(self, direction, data):
        with self._lock:
            self.log.append((direction, data))
            self.times.append(time.monotonic())
            if self._log_file:
                for f in frames(data):
                    self._log_file.write(f"{direction}> {f.decode('latin-1')!r}\n")
                self._log_file.flush()

    def _accept(self):
        while not self._closing:
            try:
                client, _ = self._srv.accept()
            except OSError:
                return
            try:
                up = _connect(self.upstream)
            except OSError:
                client.close()
                continue
            self.connections += 1
            self._socks += [client, up]
            self._dst = {"to_stub": up, "to_gdb": client}
            threading.Thread(target=self._pump, args=(client, up, "gdb", "to_stub"),
                             daemon=True).start()
            threading.Thread(target=self._pump, args=(up, client, "stub", "to_gdb"),
                             daemon=True).start()

    def _pump(self, src, dst, name, filt):
        while True:
            try:
                data = src.recv(65536)
            except OSError:
                data = b""
            if not data:
                break
            self._note(name, data)
            f = getattr(self, filt)
            if f:
                data = f(data)
                if data != self.log[-1][1]:
                    self._note(name + "*", data)    # what really went on the wire
            try:
                dst.sendall(data)
            except OSError:
                break
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def release(self, filt):
        """Stop filtering one direction ("to_stub"/"to_gdb") and send what
        its Hold kept, all at once."""
        hold, data = getattr(self, filt), b""
        setattr(self, filt, None)
        if isinstance(hold, Hold):
            data = bytes(hold.held)
        if data:
            self._note(("gdb" if filt == "to_stub" else "stub") + "*", data)
            self._dst[filt].sendall(data)
        return data

    def transcript(self, direction=None):
        """The log as text lines 'gdb> frame' / 'stub> frame'."""
        with self._lock:
            items = list(self.log)
        lines = []
        for d, data in items:
            if direction and d != direction:
                continue
            for f in frames(data):
                lines.append(f"{d}> {f.decode('latin-1')}")
        return lines

    def between(self, t0, t1):
        """Log entries that crossed in [t0, t1]: (time, direction, bytes),
        direction "gdb" or "stub" (what went on: after any filter)."""
        with self._lock:
            items = list(zip(self.times, self.log))
        out = []
        for i, (t, (d, data)) in enumerate(items):
            if not t0 <= t <= t1 or d.endswith("*"):
                continue
            nxt = items[i + 1][1] if i + 1 < len(items) else None
            if nxt and nxt[0] == d + "*":
                data = nxt[1]           # a filter changed it: what went on
            out.append((t, d, data))
        return out

    def dump(self, path):
        """Every entry, one a line: time, direction, bytes."""
        with self._lock, open(path, "w") as f:
            for t, (d, data) in zip(self.times, self.log):
                f.write(f"{t:.6f} {d:5} {data.decode('latin-1')!r}\n")

    def received(self, direction):
        """All bytes seen from one side ("gdb" or "stub"), before filtering."""
        with self._lock:
            return b"".join(d for k, d in self.log if k == direction)

    def close(self):
        self._closing = True
        try:
            self._srv.close()
        except OSError:
            pass
        for s in self._socks:
            try:
                s.close()
            except OSError:
                pass
        try:
            os.unlink(self.path)
        except OSError:
            pass
        if self._log_file:
            self._log_file.close()
            self._log_file = None
