# SPDX-License-Identifier: GPL-2.0
"""Races between the stop path and the transports on 2 CPUs (issue 19),
shown with probe builds (probe_build.py) where a delay widens the window.

The takeover at the handoff: the IRQ-driven serial driver takes the line
from the early polled transport (core/transport.c,
dbg_transport_takeover: export the early transport's unread bytes, import
them into the driver, swap the registry entry).  The timer tick's break-in
poll runs on whichever CPU keeps time; without the registry lock it can
poll the early transport after the export and before the swap, and the
bytes it reads there are stranded (never reach the shell, nor kdb)."""

import re

from kdb_session import BAD, CONSOLE, PROMPT, Kdb, boot_kdb, clean
from probe_build import probe_esp
from qemu import BOOT_TIMEOUT

SHELL = r"ekdb:/# "
DRIVER_UP = r"serial8250: ttyS0 at I/O 0x3f8 \(irq = 4, 115200 baud\) is a 16550A, console input"
# request_irq's line: printed right before the driver registers as the debugger's line
IRQ_LINE = r"irq: IRQ 4 \(GSI 4, vector 0x[0-9a-f]+, edge\) -> CPU \d+: ttyS0"


def test_stream_across_the_takeover_exactly_once(machine):
    """Probe build EKDB_PROBE_DELAY_TAKEOVER: the takeover dwells 2 s
    between the export and the swap, interrupts off on its CPU; the other
    CPU keeps time meanwhile (it takes the tick over after half a second)
    and its tick polls the registry.  Stopped at serial8250_init, `go`,
    then a shell line is sent once request_irq has printed (the takeover
    is next): it arrives inside the window.  The shell must run it exactly
    once, whole, and the driver count each byte once (fails when the tick
    polls the early transport inside the window: the line is stranded)."""
    esp = probe_esp("TAKEOVER")
    m = boot_kdb(machine, cmdline=f"{CONSOLE} ekgdboc=ttyS0 kgdboc=ttyS0 kgdbwait",
                 smp=2, esp=esp)
    k = Kdb(m)
    assert "BP #0" in k.cmd("bp serial8250_init")
    k.go(r"go\r?\n")
    k.wait(r"Instruction\(i\) breakpoint #0 at")
    k.wait(PROMPT)
    k.cmd("bc 0")
    start = k.mark()
    k.go(r"go\r?\n")
    m.wait_for(IRQ_LINE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    line = "echo across-the-takeover-0123456789"
    m.send(0, line + "\r")
    m.wait_for(DRIVER_UP, timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(r"\nacross-the-takeover-0123456789\r?\n", timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(SHELL, timeout=BOOT_TIMEOUT, fail_on=BAD)
    seen = clean(k.since(start))
    assert len(re.findall(r"^across-the-takeover-0123456789$", seen, re.M)) == 1, seen
    assert "command not found" not in seen and "Entering kdb" not in seen, seen
    # the shell counted each byte once: the line and its Enter, nothing else typed
    k.mark()
    m.send(0, "stat\r")
    out = m.wait_for(r"console input: (\d+) bytes, (\d+) dropped", timeout=BOOT_TIMEOUT,
                     fail_on=BAD)
    assert (int(out.group(1)), int(out.group(2))) == (len(line) + 1 + 5, 0), out.group(0)
