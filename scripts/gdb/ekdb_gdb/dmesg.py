# SPDX-License-Identifier: GPL-2.0
"""lx-dmesg: the kernel log (kernel-glue/printk.c's ring buffer).

The ring log_buf[] holds records "<L>[seconds.micros] text\\n"; log_head
counts every byte ever written, so the text kept is the last
min(log_head, sizeof(log_buf)) bytes, oldest at log_head % size.  Printed
as Linux's lx-dmesg prints: "[%12.6f] text", the level dropped."""

import re

import gdb

from ekdb_gdb import utils

_RECORD = re.compile(r"^<(\d)>\[\s*(\d+)\.(\d{6})\] ?(.*)$")


def log_text():
    """The stored log as a str (only the bytes in use are read)."""
    buf = utils.var("log_buf", "kernel-glue/printk.c")
    head = int(utils.var("log_head", "kernel-glue/printk.c"))
    size = buf.type.sizeof
    avail = min(head, size)
    base = int(buf.address)
    start = (head - avail) % size
    first = min(avail, size - start)
    data = utils.read(base + start, first, "the log buffer (log_buf)")
    data += utils.read(base, avail - first, "the log buffer (log_buf)")
    text = data.decode("utf-8", errors="replace")
    if head > size:                 # wrapped: the first line is cut
        text = text.partition("\n")[2]
    return text


def format_line(line):
    m = _RECORD.match(line)
    if not m:
        return line
    t = int(m.group(2)) + int(m.group(3)) / 1e6
    return f"[{t:12.6f}] {m.group(4)}"


class LxDmesg(gdb.Command):
    """Print the kernel log (kernel-glue/printk.c: log_buf, log_head).

Usage: lx-dmesg
Each line as Linux's lx-dmesg prints it: "[    0.123456] text".  Works
from the first printk on (at kgdbwait too): the log is static storage."""

    def __init__(self):
        super().__init__("lx-dmesg", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        utils.no_args("lx-dmesg", arg)
        utils.need_target("lx-dmesg")
        text = log_text()
        if not text:
            gdb.write("lx-dmesg: the kernel log is empty (nothing printed yet)\n")
            return
        out = [format_line(ln) for ln in text.split("\n")]
        if out and out[-1] == "":
            out.pop()
        gdb.write("\n".join(out) + "\n")


LxDmesg()
