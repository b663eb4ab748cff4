# SPDX-License-Identifier: GPL-2.0
"""Shared helpers for `make bench`: booting through the integration-test
Machine (tests/integration/qemu.py), the line-rate pattern, small stats."""

import os
import socket
import statistics
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests", "integration"))

from qemu import Machine, MachineError  # noqa: E402  (harness, owned by tests/)

BASE_CMDLINE = "earlyprintk=serial,ttyS0,115200"


def pattern(n):
    """The bytes kernel-glue/linetest.c sends and expects (linerate_pattern)."""
    return bytes(((i * 7) + (i >> 8) + (i >> 16)) & 0xff for i in range(n))


def connect_unix(path, timeout=60):
    deadline = time.monotonic() + timeout
    while True:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(path)
            return s
        except (FileNotFoundError, ConnectionRefusedError):
            s.close()
            if time.monotonic() > deadline:
                raise MachineError(f"cannot connect to {path}")
            time.sleep(0.02)


def free_tcp_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def median(xs):
    return statistics.median(xs) if xs else None


def log(msg):
    print(f"bench: {msg}", file=sys.stderr, flush=True)
