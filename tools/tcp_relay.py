# SPDX-License-Identifier: GPL-2.0
"""tcp_relay.py - the launcher's side of a serial line served on TCP
(`tools/ekdb-qemu --serial tcp:PORT`).

QEMU serves the line on a unix socket; the relay, tools/tcp-relay/tcp_relay.c
(built by `make` into build/tools/tcp-relay), accepts gdb on the TCP port and
copies both ways.  Why not QEMU's own TCP chardev: QEMU's 16550 hands its
chardev one byte per write, and through a TCP chardev each byte costs a
segment on the loopback (idle host: 64 KiB read in 1.20 s over QEMU's TCP
chardev with nodelay=on, 0.45 s over a unix socket).  Why in C: a relay in
Python, which wakes once per byte the guest sends, added 1-2 ms to every gdb
packet (docs/bench.md, issue 13).

This class binds and listens in the launcher, so that a port in use is an
error before QEMU starts, and hands the listening socket to the relay.
"""

import os
import socket
import subprocess

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RELAY = os.path.join(REPO, "build", "tools", "tcp-relay")


class RelayMissing(Exception):
    pass


class TcpRelay:
    def __init__(self, host, port, unix_path, relay=RELAY):
        """Bind and listen now: a port in use fails at once (OSError)."""
        if not os.access(relay, os.X_OK):
            raise RelayMissing(f"{relay} is not built (run make)")
        self.host, self.port, self.unix_path, self.relay = host, port, unix_path, relay
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.ls = socket.socket(family, socket.SOCK_STREAM)
        self.ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self.ls.bind((host, port))
            self.ls.listen(1)
        except OSError:
            self.ls.close()
            raise
        self.proc = None

    def describe(self):
        return f"{self.host}:{self.port} -> unix:{self.unix_path}"

    def start(self):
        fd = self.ls.fileno()
        self.proc = subprocess.Popen([self.relay, str(fd), self.unix_path],
                                     pass_fds=(fd,), stdin=subprocess.DEVNULL)
        self.ls.close()     # the relay has it now

    def stop(self):
        if self.proc is None:
            self.ls.close()
            return
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=3)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
