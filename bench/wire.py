# SPDX-License-Identifier: GPL-2.0
"""What crossed the line between gdb and a stub: a byte-counting relay.

gdb's own packet log is no measure of the wire: it cuts packets at
`remote-packet-max-chars` (512 by default), shows run-length encoded
replies expanded, and leaves out acks.  So the bench's packet table comes
from here instead: gdb connects to a unix socket of ours, we connect to the
stub (a unix socket or host:port) and pass every byte on unchanged, keeping
(time, direction, bytes).  The relay costs latency, so only the bench's
packet pass goes through it; the timed figures are taken without it.

    w = Wire(target, path)          # listens on path, one gdb at a time
    ... gdb: target remote path ... BENCH-MARK lines ...
    w.close(); w.phases(marks)      # per phase: packets, bytes, kinds, rtt
"""

import os
import socket
import threading
import time

TO_STUB, FROM_STUB = "out", "in"


def _connect(target):
    if os.path.sep in target or target.endswith(".sock"):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(target)
    else:
        host, port = target.rsplit(":", 1)
        s = socket.create_connection((host or "127.0.0.1", int(port)))
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


class Wire:
    def __init__(self, target, path):
        self.target = target
        self.path = path
        self.chunks = []            # (monotonic time, direction, bytes)
        self.lock = threading.Lock()
        self.srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        if os.path.exists(path):
            os.unlink(path)
        self.srv.bind(path)
        self.srv.listen(1)
        self.closed = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _pump(self, src, dst, direction):
        while True:
            try:
                d = src.recv(65536)
            except OSError:
                d = b""
            if not d:
                break
            with self.lock:
                self.chunks.append((time.monotonic(), direction, d))
            try:
                dst.sendall(d)
            except OSError:
                break
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def _serve(self):
        while not self.closed:
            try:
                gdb, _ = self.srv.accept()
            except OSError:
                return
            try:
                stub = _connect(self.target)
            except OSError:
                gdb.close()
                continue
            a = threading.Thread(target=self._pump, args=(gdb, stub, TO_STUB), daemon=True)
            b = threading.Thread(target=self._pump, args=(stub, gdb, FROM_STUB), daemon=True)
            a.start()
            b.start()
            a.join()
            b.join()
            gdb.close()
            stub.close()

    def close(self):
        self.closed = True
        try:
            self.srv.close()
        except OSError:
            pass
        if os.path.exists(self.path):
            os.unlink(self.path)

    def dump(self, path):
        """Everything that crossed, one chunk a line: time, direction, bytes."""
        with self.lock, open(path, "w") as f:
            for t, d, data in self.chunks:
                f.write(f"{t:.6f} {d:3} {data.decode('latin-1')!r}\n")

    def between(self, t0, t1):
        with self.lock:
            return [c for c in self.chunks if t0 <= c[0] <= t1]


def packets(data):
    """Split one direction's bytes into ('pkt', payload, wire_len) and
    ('ack', b'+', 1) items; a packet's wire length counts '$', '#' and
    the checksum, its payload is as sent (run-length encoded)."""
    out, i, n = [], 0, len(data)
    while i < n:
        c = data[i:i + 1]
        if c == b"$":
            j = data.find(b"#", i + 1)
            if j < 0 or j + 3 > n:
                out.append(("partial", data[i + 1:], n - i))
                break
            out.append(("pkt", data[i + 1:j], j + 3 - i))
            i = j + 3
        elif c in (b"+", b"-"):
            out.append(("ack", c, 1))
            i += 1
        else:
            out.append(("other", c, 1))   # Ctrl-C, line noise
            i += 1
    return out


def kind(payload):
    """A short name for a request: its letter, or vCont/qXfer/q-name."""
    p = payload.decode("latin-1")
    if p.startswith("v"):
        return p.split(";")[0].split(":")[0][:8]
    if p.startswith("qXfer"):
        return "qXfer"
    if p.startswith(("q", "Q")):
        return p.split(":")[0].split(",")[0][:14]
    return p[:1]


def phase(chunks):
    """Packets, wire bytes each way (acks included), request kinds and
    the mean request->reply time of one phase's chunks."""
    res = {"packets": 0, "bytes_out": 0, "bytes_in": 0, "acks_in": 0, "kinds": {},
           "replies": 0, "rtt_sum_s": 0.0}
    stream = {TO_STUB: b"", FROM_STUB: b""}
    pending = None
    for t, d, data in chunks:
        res["bytes_out" if d == TO_STUB else "bytes_in"] += len(data)
        stream[d] += data
        items = packets(stream[d])
        done = [x for x in items if x[0] != "partial"]
        stream[d] = items[-1][1] if items and items[-1][0] == "partial" else b""
        if stream[d]:
            stream[d] = b"$" + stream[d]
        for typ, payload, _ in done:
            if typ != "pkt":
                if typ == "ack" and d == FROM_STUB:
                    res["acks_in"] += 1
                continue
            if d == TO_STUB:
                res["packets"] += 1
                k = kind(payload)
                res["kinds"][k] = res["kinds"].get(k, 0) + 1
                pending = t
            elif pending is not None:
                res["replies"] += 1
                res["rtt_sum_s"] += t - pending
                pending = None
    res["rtt_mean_ms"] = (1e3 * res["rtt_sum_s"] / res["replies"]) if res["replies"] else None
    return res
