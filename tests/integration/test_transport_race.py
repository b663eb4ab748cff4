# SPDX-License-Identifier: GPL-2.0
"""Races between the stop path and the transports on 2 CPUs (issue 19),
shown with probe builds (probe_build.py) where a delay widens the window.

The takeover at the handoff: the IRQ-driven serial driver takes the line
from the early polled transport (core/transport.c,
dbg_transport_takeover: export the early transport's unread bytes, import
them into the driver, swap the registry entry).  The timer tick's break-in
poll runs on whichever CPU keeps time; without the registry lock it can
poll the early transport after the export and before the swap, and the
bytes it reads there are stranded (never reach the shell, nor kdb).

A gdb packet while another CPU holds the debugger for a moment (here: the
master after a session, between letting the others go and dropping the
role): the receive interrupt's break-in finds the debugger busy.  It must
be kept for the next tick, with the packet's bytes behind the '$', not
handed to the console shell ("$qSupported...: command not found").

A gdb packet whose '$' the tick's break-in poll took just before the
takeover: the early transport keeps the '$' for the stop the poll asks
for.  Unless the poll holds the registry lock until that stop is over, a
takeover on the other CPU exports the kept '$' as console input in
between, and the stop reads the packet without its '$' (gdb resends after
its timeout)."""

import re

from kdb_session import BAD, CONSOLE, ENTRY, PROMPT, Kdb, boot_kdb, clean
from probe_build import probe_esp
from qemu import BOOT_TIMEOUT
from rsp import frame

SHELL = r"ekdb:/# "
DRIVER_UP = r"serial8250: ttyS0 at I/O 0x3f8 \(irq = 4, 115200 baud\) is a 16550A, console input"
# request_irq's line: printed right before the driver registers as the debugger's line
IRQ_LINE = r"irq: IRQ 4 \(GSI 4, vector 0x[0-9a-f]+, edge\) -> CPU \d+: ttyS0"


def run_to_the_takeover(machine, probe):
    """Boot probe build @probe on 2 CPUs with kdb on ttyS0 at kgdbwait, stop
    at serial8250_init (the takeover is ahead), clear the breakpoint and
    `go`.  Returns the machine, its Kdb and the mark taken before the go."""
    m = boot_kdb(machine, cmdline=f"{CONSOLE} ekgdboc=ttyS0 kgdboc=ttyS0 kgdbwait",
                 smp=2, esp=probe_esp(probe))
    k = Kdb(m)
    assert "BP #0" in k.cmd("bp serial8250_init")
    k.go(r"go\r?\n")
    k.wait(r"Instruction\(i\) breakpoint #0 at")
    k.wait(PROMPT)
    k.cmd("bc 0")
    start = k.mark()
    k.go(r"go\r?\n")
    return m, k, start


def console_count(m):
    """The shell's `stat`: (bytes of console input, bytes dropped), its own
    five (s t a t Enter) included."""
    m.send(0, "stat\r")
    out = m.wait_for(r"console input: (\d+) bytes, (\d+) dropped", timeout=BOOT_TIMEOUT,
                     fail_on=BAD)
    return int(out.group(1)), int(out.group(2))


def assert_console_got_only(m, line):
    """Type @line at the shell, see it run, and check with `stat` that the
    console counted exactly its bytes, its Enter and stat's own: no other
    byte (a packet's, a stranded one) ever reached it."""
    m.send(0, line + "\r")
    m.wait_for(r"\n" + re.escape(line.split(" ", 1)[1]) + r"\r?\n", timeout=BOOT_TIMEOUT,
               fail_on=BAD)
    m.wait_for(SHELL, timeout=BOOT_TIMEOUT, fail_on=BAD)
    assert console_count(m) == (len(line) + 1 + 5, 0)


def test_stream_across_the_takeover_exactly_once(machine):
    """Probe build EKDB_PROBE_DELAY_TAKEOVER: the takeover dwells 2 s
    between the export and the swap, interrupts off on its CPU; the other
    CPU keeps time meanwhile (it takes the tick over after half a second)
    and its tick polls the registry.  Stopped at serial8250_init, `go`,
    then a shell line is sent once request_irq has printed (the takeover
    is next): it arrives inside the window.  The shell must run it exactly
    once, whole, and the driver count each byte once (fails when the tick
    polls the early transport inside the window: the line is stranded)."""
    m, k, start = run_to_the_takeover(machine, "TAKEOVER")
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
    assert console_count(m) == (len(line) + 1 + 5, 0)


def test_gdb_packet_while_another_cpu_holds_the_debugger(machine):
    """Probe build EKDB_PROBE_DELAY_RELEASE: the master holds the role 2 s
    after it let the others go.  kdb on the console line (ttyS0, whose
    interrupt goes to CPU 0), a stop on CPU 1 (ksoftirqd_ap_work runs on
    the APs only), `go`, then gdb's first packet at once: it reaches CPU 0's
    receive interrupt while CPU 1 still holds the debugger.  The stub must
    answer it (qSupported's PacketSize) and detach on gdb's D; the shell
    must never see the packet (fails when the '$' is given back to the
    console: no reply, and "command not found")."""
    esp = probe_esp("RELEASE")
    m = boot_kdb(machine, cmdline=f"{CONSOLE} ekgdboc=ttyS0 kgdboc=ttyS0 kgdbwait",
                 smp=2, esp=esp)
    k = Kdb(m)
    assert "BP #0" in k.cmd("bp ksoftirqd_ap_work")
    e = k.go(ENTRY)
    assert e.group(2) == "1", e.group(0)                    # the master is CPU 1
    k.wait(PROMPT)
    k.cmd("bc 0")
    start = k.mark()
    k.go(r"go\r?\n")
    m.send(0, frame("qSupported:multiprocess+;swbreak+"))
    m.wait_for(r"\$PacketSize=[0-9a-f]+[^#$]*#[0-9a-f]{2}", timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.send(0, b"+" + frame("D"))
    m.wait_for(r"\$OK#9a", timeout=BOOT_TIMEOUT, fail_on=BAD)
    # (no '+' for the OK: after a detach it would be console input, as in Linux)
    m.send(0, "echo after-the-packet\r")              # the shell (prompt shown before the stop)
    m.wait_for(r"\nafter-the-packet\r?\n", timeout=BOOT_TIMEOUT, fail_on=BAD)
    seen = k.since(start)
    assert "command not found" not in seen and "qSupported" not in clean(seen).split(
        "PacketSize")[-1], seen


PROBE_POLL = r"ekdb probe: the break-in poll read a gdb packet's '\$'"
STOP_REPLY = r"\$T[0-9a-f]{2}[^#$]*#[0-9a-f]{2}"


def test_gdb_packet_read_by_the_poll_across_the_takeover(machine):
    """Probe build EKDB_PROBE_DELAY_POLL: the takeover dwells 2 s with
    interrupts off before it takes the registry lock, so the other CPU
    keeps time (it takes the tick over if it did not have it); its poll
    reads the '$' of gdb's `?`, says so, and dwells 4 s before it asks for
    the stop.  The packet is written once, after
    request_irq's line (the takeover is next), and never resent: the stub
    must answer it, the takeover come after the session, and the console
    never see a byte of it (the shell's count: only what was typed after).
    Fails when the poll lets the registry go before its stop: the takeover
    exports the kept '$' to the console, the stop reads '?#3f' only and
    nothing answers."""
    m, k, start = run_to_the_takeover(machine, "POLL")
    m.wait_for(IRQ_LINE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.send(0, frame("?"))                               # once: no resend below
    m.wait_for(PROBE_POLL, timeout=BOOT_TIMEOUT, fail_on=BAD)
    reply = m.wait_for(STOP_REPLY, timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.send(0, b"+" + frame("D"))
    m.wait_for(r"\$OK#9a", timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(DRIVER_UP, timeout=BOOT_TIMEOUT, fail_on=BAD)
    seen = clean(k.since(start))
    # the race was met: the early poll took the '$' before the driver had the line
    assert seen.index("ekdb probe: the break-in poll") < seen.index("serial8250: ttyS0 at"), seen
    # ...and the session it asked for came before the takeover, not after
    assert seen.index(reply.group(0)) < seen.index("serial8250: ttyS0 at"), seen
    # no byte of the packet (its '$' above all) reached the console
    assert_console_got_only(m, "echo after-the-packet")
    assert "command not found" not in clean(k.since(start)), k.since(start)


PROBE_DEFER = r"ekdb probe: the break-in poll read a gdb packet's '\$': deferred"


def test_gdb_packet_kept_for_a_deferred_stop_across_the_takeover(machine):
    """Probe build EKDB_PROBE_DELAY_DEFER: the takeover says so and dwells
    2 s with interrupts off before it takes the registry lock; the packet is
    written then.  Meanwhile the other
    CPU's poll reads the '$' of gdb's `?` and, the first time, leaves what
    the break-in leaves when another CPU holds the debugger (the stop
    pending for the next tick, the '$' kept in the early transport), lets
    the registry go and dwells 3 s: the takeover runs before that stop.
    The packet is written once and never resent: the stub must answer it
    after the takeover, and the console never see a byte of it.  Fails
    when the running kernel's driver gives the kept '$' to the console
    (its import before the fix): the stop reads '?#3f' without it, nothing
    answers, and the shell gets the packet."""
    m, k, start = run_to_the_takeover(machine, "DEFER")
    m.wait_for(r"ekdb probe: the takeover dwells", timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.send(0, frame("?"))                               # once: no resend below
    m.wait_for(PROBE_DEFER, timeout=BOOT_TIMEOUT, fail_on=BAD)
    reply = m.wait_for(STOP_REPLY, timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.send(0, b"+" + frame("D"))
    m.wait_for(r"\$OK#9a", timeout=BOOT_TIMEOUT, fail_on=BAD)
    # the window was met: the '$' read by the early poll, then the takeover
    # (the stop can come no sooner: the takeover's CPU has interrupts off,
    # the poll's dwells, and says at its end whether the line changed hands)
    m.wait_for(r"ekdb probe: (taken over|no takeover) before the stop", timeout=BOOT_TIMEOUT,
               fail_on=BAD)
    seen = clean(k.since(start))
    assert "ekdb probe: taken over before the stop" in seen, seen
    assert seen.index("kgdb: Registered I/O driver kgdboc (ttyS0)") < seen.index(reply.group(0)), seen
    # no byte of the packet ('$', '?', '#3f') reached the console
    assert_console_got_only(m, "echo after-the-packet")
    assert "command not found" not in clean(k.since(start)), k.since(start)
