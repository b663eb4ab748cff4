"""bridge.py - a debug device's far host side as a socket (unix:PATH or
tcp:PORT, TCP_NODELAY): what the target sends on the bulk OUT endpoint goes
to the connected client, what the client sends waits as bulk IN packets
(of at most @maxp bytes).  Shared by tools/dbgp-sim and tools/xdbc-sim;
@on_input (optional) is called from the reader thread when bytes arrive.

One client at a time (a newer one replaces the older one).  Output sent
while no client is connected is dropped, as QEMU's serial socket does.
send() writes to the client at once when the socket takes it without
waiting (the device's transfer is done when the bytes are on the far
host's socket, not one thread switch later); what the socket does not take
at once goes, in order, through the writer thread, so a far host that
stops reading never blocks the device model (QEMU waits on it).
"""

import os
import queue
import socket
import threading

class Bridge:
    def __init__(self, spec, counters, log, maxp=8, on_input=None):
        self.maxp = maxp
        self.on_input = on_input
        self.spec = spec
        self.counters = counters
        self.log = log
        self.client = None
        self.inbuf = bytearray()
        self.lock = threading.Lock()
        self.outq = queue.Queue()
        self.wlock = threading.Lock()
        self.queued = 0                 # chunks handed to the writer, not yet written

    def start(self):
        kind, _, rest = self.spec.partition(":")
        if kind == "unix" and rest:
            try:
                os.unlink(rest)
            except FileNotFoundError:
                pass
            srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            srv.bind(rest)
        elif kind == "tcp" and rest:
            host, _, port = rest.rpartition(":")
            if not port.isdigit():
                raise ValueError(f"bad --listen {self.spec!r}")
            srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            srv.bind((host or "127.0.0.1", int(port)))
        else:
            raise ValueError(f"bad --listen {self.spec!r}: want unix:PATH or tcp:PORT")
        srv.listen(1)
        self.srv = srv
        threading.Thread(target=self._accept, daemon=True).start()
        threading.Thread(target=self._writer, daemon=True).start()

    def _accept(self):
        while True:
            c, _ = self.srv.accept()
            if c.family == socket.AF_INET:
                c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self.lock:
                old, self.client = self.client, c
                self.counters["clients"] += 1
            if old:
                old.close()
            threading.Thread(target=self._reader, args=(c,), daemon=True).start()

    def _reader(self, c):
        while True:
            try:
                data = c.recv(4096)
            except OSError:
                data = b""
            if not data:
                break
            with self.lock:
                self.inbuf += data
            if self.on_input:
                self.on_input()
        with self.lock:
            if self.client is c:
                self.client = None

    def _writer(self):
        while True:
            data = self.outq.get()
            with self.lock:
                c = self.client
            try:
                if c is not None:
                    c.sendall(data)
            except OSError:
                pass
            with self.wlock:
                self.queued -= 1

    # called by the device model (under the simulator's lock)
    def send(self, data):
        with self.lock:
            c = self.client
        if c is None:
            return                      # no far host: dropped
        with self.wlock:
            if not self.queued:         # nothing older waiting: straight to the socket
                try:
                    n = c.send(data, socket.MSG_DONTWAIT)
                except BlockingIOError:
                    n = 0
                except OSError:
                    return
                data = data[n:]
                if not data:
                    return
            self.queued += 1
            self.outq.put(data)

    def take_packet(self):
        with self.lock:
            pkt = bytes(self.inbuf[:self.maxp])
            del self.inbuf[:self.maxp]
        return pkt

    def take_upto(self, n):
        with self.lock:
            pkt = bytes(self.inbuf[:n])
            del self.inbuf[:n]
        return pkt

    def unread(self, data):
        with self.lock:
            self.inbuf[:0] = data

    def pending(self):
        with self.lock:
            return len(self.inbuf)
