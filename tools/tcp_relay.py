# SPDX-License-Identifier: GPL-2.0
"""tcp_relay.py - the TCP end of a serial line the launcher serves
(`tools/ekdb-qemu --serial tcp:PORT`), in front of a unix socket QEMU listens on.

Why not QEMU's own TCP chardev: QEMU's 16550 hands its chardev one byte per
write, and through a TCP chardev each byte costs a segment on the loopback.
Measured on an idle host (docs/bench.md, issue 13): gdb read 64 KiB in 1.20 s
and did 100 stepi in 1.27 s over QEMU's TCP chardev (with nodelay=on), 0.45 s
and 0.70 s over a unix socket, and 0.49 s and 0.66 s through this relay.

The relay behaves like QEMU's `server=on,wait=off` TCP chardev: it listens
from the start, serves one client at a time, a client that goes away frees
the line for the next one (gdb reconnects), and while nobody is connected
what the guest sends is dropped (QEMU drops it: no client on its socket).
Nagle is off on the client socket; what the guest sent while the relay was
busy goes out in one segment.
"""

import errno
import select
import socket
import threading
import time

UNIX_CONNECT_WAIT = 30.0    # s: a client may connect before QEMU made its socket


class TcpRelay:
    def __init__(self, host, port, unix_path):
        """Bind and listen now, so that a port in use fails at once (OSError)."""
        self.host, self.port, self.unix_path = host, port, unix_path
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.ls = socket.socket(family, socket.SOCK_STREAM)
        self.ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.ls.bind((host, port))
        self.ls.listen(1)
        self.stopping = False
        self.thread = None

    def describe(self):
        return f"{self.host}:{self.port} -> unix:{self.unix_path}"

    def start(self):
        self.thread = threading.Thread(target=self._serve, name=f"relay:{self.port}",
                                       daemon=True)
        self.thread.start()

    def stop(self):
        self.stopping = True
        try:
            self.ls.close()
        except OSError:
            pass

    def _connect_qemu(self, client):
        deadline = time.monotonic() + UNIX_CONNECT_WAIT
        while not self.stopping:
            u = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                u.connect(self.unix_path)
                return u
            except OSError as e:
                u.close()
                if e.errno not in (errno.ENOENT, errno.ECONNREFUSED) or \
                   time.monotonic() > deadline:
                    return None
            # QEMU is not up yet: a client that hangs up meanwhile is done
            r, _, _ = select.select([client], [], [], 0.1)
            if r and not client.recv(1, socket.MSG_PEEK):
                return None
        return None

    def _serve(self):
        while not self.stopping:
            try:
                client, _ = self.ls.accept()
            except OSError:
                return          # closed by stop()
            with client:
                client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                u = self._connect_qemu(client)
                if u is None:
                    continue
                with u:
                    self._pump(client, u)

    @staticmethod
    def _pump(client, u):
        while True:
            r, _, _ = select.select([client, u], [], [])
            for src, dst in ((client, u), (u, client)):
                if src not in r:
                    continue
                try:
                    data = src.recv(65536)
                except OSError:
                    return
                if not data:
                    return
                try:
                    dst.sendall(data)
                except OSError:
                    return
