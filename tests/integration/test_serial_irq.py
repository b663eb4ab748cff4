# SPDX-License-Identifier: GPL-2.0
"""The running kernel's serial side (issue 8): the interrupt-driven 16550
driver (kernel-glue/drivers/serial8250.c) on the I/O APIC, the console
shell that reads typed input (kernel-glue/kconsole.c), Ctrl-C and gdb
packets breaking in from the receive interrupt, and bad kgdboc= values.

Exactly-once is checked with counters the driver and the shell keep (kdb
`serial`, the shell's `stat`) against the bytes the test typed, and with
what the shell echoes and prints.  The break-in is proved to come from the
interrupt: once the driver has the line, the tick no longer reads it (the
early polled transport is retired, an IRQ transport is not polled), and
the driver's ctrl-c / gdb counters only move in its interrupt handler."""

import re

import pytest

from gdb_boot import frames, value
from kdb_session import (BAD, CONSOLE, CTRL_C, ENTRY, PROMPT, Kdb, boot_kdb, clean)
from qemu import BOOT_TIMEOUT

SHELL = r"ekdb:/# "
DRIVER_UP = r"serial8250: ttyS0 at I/O 0x3f8 \(irq = 4, 115200 baud\) is a 16550A, console input"
CMD_TIMEOUT = 60


def boot_shell(machine, cmdline, **kw):
    """Boot to the console shell's first prompt on ttyS0."""
    kw.setdefault("ports", ("unix",))
    m = machine(cmdline=cmdline, **kw)
    m.wait_for(SHELL, timeout=BOOT_TIMEOUT, fail_on=BAD)
    return m


def shell(k, line, timeout=CMD_TIMEOUT):
    """Type a shell command and Enter; return (echoed line, output) as seen."""
    start = k.mark()
    k.type(line)
    k.enter()
    pm = k.wait(SHELL, timeout=timeout)
    raw = k.m.output(k.port)[start:pm.start()]
    echo, _, out = clean(raw).partition("\n")
    return echo, out.rstrip("\n")


def serial_counters(k, name="ttyS0"):
    """kdb `serial`: the driver's counters for one line, as a dict."""
    out = k.cmd("serial")
    line = next((ln for ln in out.splitlines() if ln.startswith(name + ":")), None)
    assert line, out
    return line, {key: int(v) for key, v in
                  re.findall(r"(rx|console|dropped|ctrl-c|gdb|interrupts|errors) (\d+)", line)}


def test_typed_input_exactly_once_across_ctrl_c(machine):
    """Text typed on the console line reaches the shell exactly once (echo
    and command output), a Ctrl-C typed in the middle of a line enters kdb
    at once from the receive interrupt, and after `go` the same line goes
    on where it was: no byte lost, none duplicated, none eaten by kdb."""
    m = boot_shell(machine, f"{CONSOLE} ekgdboc=ttyS0 kgdboc=ttyS0", smp=2)
    boot = m.output(0)
    assert re.search(DRIVER_UP + r", debugger line \(kgdboc\)", boot), boot
    assert "kgdb: Registered I/O driver kgdboc (ttyS0)" in boot
    assert re.search(r"irq: IRQ 4 \(GSI 4, vector 0x34, edge\) -> CPU 0: ttyS0", boot)
    k = Kdb(m)
    typed = 0

    first = "echo first-line 0123456789 ~!@#%^&*()_+{}|:<>?"
    echo, out = shell(k, first)
    typed += len(first) + 1
    assert echo == first and out == first[5:], (echo, out)

    # half a line, then Ctrl-C: kdb, from the interrupt
    k.mark()
    k.type("echo sec")
    typed += len("echo sec")
    k.m.wait_for(r"echo sec", timeout=CMD_TIMEOUT)         # echoed: the shell has it
    k.key(CTRL_C)
    e = k.wait(ENTRY, timeout=BOOT_TIMEOUT)
    assert e.group(3) == "Keyboard Entry", e.group(0)
    k.wait(PROMPT)
    line, c = serial_counters(k)
    assert "console debugger" in line, line
    assert c["ctrl-c"] == 1 and c["gdb"] == 0, line
    # every byte typed so far went to the console, the Ctrl-C to kdb
    assert c["console"] == typed and c["rx"] == typed + 1 and c["dropped"] == 0, (typed, line)
    assert c["errors"] == 0, line
    assert "ttyS0" in k.cmd("irq")
    k.go(r"go\r?\n")

    # the rest of the same line after `go`
    echo, out = shell(k, "ond-part")
    typed += len("ond-part") + 1
    assert out == "second-part", (echo, out)
    assert echo == "ond-part", echo

    # the shell's own count: every byte once (kdb's `serial`, `go` went to kdb)
    _, out = shell(k, "stat")
    typed += len("stat") + 1
    assert out == f"console input: {typed} bytes, 0 dropped", (typed, out)
    m.expect_not(r"Oops|Kernel panic|command not found")


def test_burst_of_lines_exactly_once(machine):
    """60 command lines sent in one burst (~1 KiB, far more than the UART's
    16-byte FIFO): each runs exactly once, in order, and the shell counted
    every byte.  The line stays a debugger line: no byte is taken as a
    break-in."""
    m = boot_shell(machine, f"{CONSOLE} ekgdboc=ttyS0 kgdboc=ttyS0")
    k = Kdb(m)
    start = k.mark()
    burst = "".join(f"echo line-{i:03d}\r" for i in range(60))
    m.send(0, burst.encode())
    k.wait(r"\nline-059\r?\n" + SHELL, timeout=BOOT_TIMEOUT)
    lines = clean(m.output(0)[start:]).split("\n")
    outs = [ln for ln in lines if re.fullmatch(r"line-\d{3}", ln)]
    assert outs == [f"line-{i:03d}" for i in range(60)], lines
    _, out = shell(k, "stat")
    assert out == f"console input: {len(burst) + 5} bytes, 0 dropped", out
    m.expect_not(r"Entering kdb|command not found")


def test_shell_commands_and_editing(machine):
    """help, uptime, ps (the shell is a task), dmesg (the log, without its
    level prefixes), an unknown command, Backspace and Ctrl-U, an arrow
    key's escape sequence ignored.  Without a debugger (no ekgdboc=/kgdboc=)
    Ctrl-C is plain console input: the shell prints ^C."""
    m = boot_shell(machine, CONSOLE)
    assert re.search(DRIVER_UP + r"\r?\n", m.output(0))       # no debugger line
    k = Kdb(m)
    _, out = shell(k, "help")
    assert out == ("commands: help, echo TEXT [> FILE], cat FILE, uptime, ps, dmesg, stat, "
                   "panic [TEXT]"), out
    _, out = shell(k, "uptime")
    assert re.fullmatch(r"up \d+\.\d{3} s, 1 CPUs, \d+ tasks", out), out
    _, out = shell(k, "ps")
    assert re.search(r"^\s+\d+\s+R\s+0\s+kconsole$", out, re.M), out
    assert re.search(r"^\s+\d+\s+S\s+\d+\s+kheartbeat$", out, re.M), out
    _, out = shell(k, "dmesg")
    assert "boot complete: 1 CPUs online" in out and "<6>" not in out, out[-500:]
    _, out = shell(k, "frobnicate now")
    assert out == "frobnicate: command not found (try help)", out

    # Backspace twice, an Up arrow (ignored), Ctrl-U kills, then a new line
    start = k.mark()
    k.type("echo abcX")
    k.key("\x7f")
    k.key("\x7f")
    k.key("\x1b[A")
    k.type("d")
    k.enter()
    pm = k.wait(SHELL)
    assert clean(m.output(0)[start:pm.start()]).split("\n")[1] == "abd"
    k.type("garbage")
    k.key("\x15")
    _, out = shell(k, "echo clean")
    assert out == "clean", out

    # no debugger: Ctrl-C is console input
    k.mark()
    k.key(CTRL_C)
    k.wait(r"\^C\r?\n" + SHELL)
    m.expect_not(r"Entering kdb")


def test_gdb_attaches_to_running_kernel(machine, gdb):
    """gdb on ttyS1 attaches to the running kernel without a Ctrl-C (no
    interrupt-on-connect): its first packet's '$' breaks in from the
    receive interrupt.  Then continue, Ctrl-C from gdb (0x03, the same
    path), detach; the console on ttyS0 keeps working all along."""
    m = machine(cmdline=f"{CONSOLE} ekgdboc=ttyS1 kgdboc=ttyS1", ports=("unix", "socket"))
    m.wait_for(SHELL, timeout=BOOT_TIMEOUT, fail_on=BAD)
    assert re.search(r"serial8250: ttyS1 at I/O 0x2f8 \(irq = 3, 115200 baud\) is a 16550A, "
                     r"debugger line \(kgdboc\)", m.output(0)), m.output(0)
    g = gdb()
    g.cmd("set remote noack-packet off")
    g.connect(m.socket_path(1), timeout=BOOT_TIMEOUT)
    assert frames(g.cmd("bt")), g.cmd("bt")
    port = "'serial8250.c'::ports[1]"
    assert value(g, f"{port}.name").startswith('"ttyS1'), value(g, f"{port}.name")
    gdb_breaks = int(value(g, f"{port}.gdb"))
    assert gdb_breaks >= 1
    assert int(value(g, f"{port}.ctrlc")) == 0
    assert value(g, f"{port}.console") == "false"              # ttyS1 is no console line

    g.cont()
    k = Kdb(m)
    _, out = shell(k, "echo while-gdb-waits")                 # the kernel runs
    assert out == "while-gdb-waits", out
    st = g.interrupt(timeout=BOOT_TIMEOUT)
    assert st.get("signal-name") == "SIGINT", st
    assert int(value(g, f"{port}.ctrlc")) == 1
    assert int(value(g, f"{port}.gdb")) == gdb_breaks              # no new '$' break
    g.detach()
    g.close()
    _, out = shell(k, "echo after-gdb")
    assert out == "after-gdb", out


def test_kgdboc_line_the_driver_sets_up(machine, gdb):
    """kgdboc=ttyS1,9600 alone (no early debugger): the driver programs the
    line at that rate and registers it with the debugger; gdb attaches."""
    m = machine(cmdline=f"{CONSOLE} kgdboc=ttyS1,9600", ports=("unix", "socket"))
    m.wait_for(SHELL, timeout=BOOT_TIMEOUT, fail_on=BAD)
    out = m.output(0)
    assert re.search(r"serial8250: ttyS1 at I/O 0x2f8 \(irq = 3, 9600 baud\) is a 16550A, "
                     r"debugger line \(kgdboc\)", out), out
    g = gdb()
    g.cmd("set remote noack-packet off")
    g.connect(m.socket_path(1), timeout=BOOT_TIMEOUT)
    assert frames(g.cmd("bt")), g.cmd("bt")
    g.detach()


@pytest.mark.parametrize("opt,message", [
    ("kgdboc=serial0", r"Malformed early option 'kgdboc=serial0'"),       # unknown driver
    ("kgdboc=ttyS9", r"Malformed early option 'kgdboc=ttyS9'"),           # no such port name
    ("kgdboc=ttyS0,0", r"Malformed early option 'kgdboc=ttyS0,0'"),       # baud 0
    ("kgdboc=ttyS3", r"serial8250: ttyS3: no UART at 0x2e8: the debugger cannot use ttyS3"),
])
def test_bad_kgdboc(machine, opt, message):
    """A bad kgdboc= says so clearly and the boot goes on: the console
    shell works, and a Ctrl-C is console input (no debugger on the line)."""
    m = boot_shell(machine, f"{CONSOLE} {opt}")
    out = m.output(0)
    assert re.search(message, out), out
    assert "boot complete" in out
    k = Kdb(m)
    _, got = shell(k, "echo still-here")
    assert got == "still-here", got
    k.mark()
    k.key(CTRL_C)
    k.wait(r"\^C\r?\n" + SHELL)
    m.expect_not(r"Entering kdb")


def test_shell_panic_enters_kdb(machine):
    """The shell's `panic TEXT` calls panic() from the kconsole thread; with
    kgdboc= the debugger stops there first (bt shows the shell)."""
    m = boot_shell(machine, f"{CONSOLE} kgdboc=ttyS0")
    k = Kdb(m)
    k.type("panic typed at the shell")
    k.enter()
    m.wait_for(r"Kernel panic - not syncing: typed at the shell", timeout=CMD_TIMEOUT)
    e = m.wait_for(ENTRY, timeout=CMD_TIMEOUT)           # (the panic text repeats first)
    assert "panic" in e.group(3), e.group(0)
    m.wait_for(PROMPT, timeout=CMD_TIMEOUT)
    bt = k.cmd("bt")
    assert "run_command" in bt or "kconsole" in bt, bt


def test_line_typed_just_before_the_takeover_reaches_the_shell(machine):
    """kdb on the console line (ekgdboc=ttyS0 kgdboc=ttyS0), stopped at
    serial8250_init, right before the IRQ driver takes the line from the
    early polled transport.  `go` and a shell line arrive in one burst:
    kdb takes `go`, the rest is in flight across the takeover (in the
    UART's FIFO, or read by the early transport's tick and handed over
    as pending bytes).  The shell must run that line exactly once
    (issue 19, planted bug 5: a line typed just before the serial driver
    takes the line over was lost)."""
    m = boot_kdb(machine, cmdline=f"{CONSOLE} ekgdboc=ttyS0 kgdboc=ttyS0 kgdbwait")
    k = Kdb(m)
    assert "BP #0" in k.cmd("bp serial8250_init")
    start = k.mark()
    k.type("go")
    k.enter()
    k.wait(r"Instruction\(i\) breakpoint #0 at")
    k.wait(PROMPT)
    assert "serial8250: ttyS0 at" not in k.since(start)    # not taken over yet
    k.cmd("bc 0")
    start = k.mark()
    m.send(0, "go\recho typed-in-flight\r")               # one burst, as a paste
    m.wait_for(DRIVER_UP, timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(r"\ntyped-in-flight\r?\n", timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(SHELL, timeout=BOOT_TIMEOUT, fail_on=BAD)
    seen = k.since(start)
    assert len(re.findall(r"^typed-in-flight\r?$", seen, re.M)) == 1, seen
    assert "Unknown kdb command" not in seen and "command not found" not in seen, seen


def test_stray_byte_at_a_breakpoint_in_the_interrupt_handler(machine):
    """Issue 21: `bp serial8250_rx` (the receive interrupt's per-byte step)
    and "ez" typed in one burst on the console line: the handler takes 'e'
    and stops at the breakpoint with 'z' waiting in the FIFO.  'z' was typed
    to the kernel before the stop and is not kdb's first input (kdb drops
    what waits when a stop begins, kdb_drop_stale_input()): the prompt line
    stays empty, the next command typed there is exactly what was typed.
    The breakpoint in the handler does not hang (issue 19): `bc 0`, `go`,
    the handler goes on with 'e' (the shell's), and `cho after` completes
    the shell's line."""
    m = boot_shell(machine, f"{CONSOLE} kgdboc=ttyS0")
    k = Kdb(m)
    k.mark()
    k.key(CTRL_C)
    k.wait(ENTRY, timeout=BOOT_TIMEOUT)
    k.wait(PROMPT)
    out = k.cmd("bp serial8250_rx")
    addr = re.search(r"BP #0 at (0x[0-9a-f]+)", out)
    assert addr, out
    k.go(r"go\r?\n")
    k.mark()
    m.send(0, b"ez")                              # one burst: 'z' waits in the FIFO
    e = k.wait(ENTRY, timeout=BOOT_TIMEOUT)
    assert e.group(3) == f"Breakpoint @ {addr.group(1)}", e.group(0)
    k.wait(PROMPT)
    out = k.cmd("bc 0")                          # the prompt line held nothing before it
    lines = [ln for ln in clean(m.output(0)[e.end():]).splitlines() if "kdb>" in ln]
    assert lines and re.fullmatch(r"\[\d+\]kdb> bc 0", lines[0]), lines
    assert "Unknown kdb command" not in out, out
    assert re.search(r"Breakpoint 0 at 0x[0-9a-f]+ cleared", out), out
    k.go(r"go\r?\n")
    _, out = shell(k, "cho after")               # 'e' reached the shell, 'z' nobody
    assert out == "after", out
    m.expect_not(r"Oops|Kernel panic")


def test_gdb_packet_at_a_breakpoint_in_the_interrupt_handler(machine):
    """Issue 21: gdb's packets are never dropped as stale input.  kgdboc=ttyS1
    (a debugger-only line), `bp serial8250_rx` planted from kdb there, and
    a stray byte with a packet right behind it in one burst (`x$?#3f`):
    the handler stops on 'x' with the packet waiting in the FIFO; kdb drops
    the 'x' and keeps the packet from its '$' on: the stub answers it
    (once: a scripted client, no retransmission).  Then the breakpoint goes
    (`monitor bc 0`), the client detaches and the console shell goes on."""
    from rsp import Rsp, frame
    m = boot_shell(machine, f"{CONSOLE} kgdboc=ttyS1", ports=("unix", "unix"))
    k1 = Kdb(m, port=1)
    k1.mark()
    k1.key(CTRL_C)
    k1.wait(ENTRY, timeout=BOOT_TIMEOUT)
    k1.wait(PROMPT)
    assert "BP #0" in k1.cmd("bp serial8250_rx")
    k1.go(r"go\r?\n")
    m.release_port(1)
    r = Rsp(m.socket_path(1))
    r.send_raw(b"x" + frame("?"))                # a stray byte, then a packet
    reply, _ = r.read_reply()
    assert reply.startswith("T05"), (reply, r.log[-400:])
    assert b"Entering kdb" in r.log and b"Breakpoint @" in r.log, r.log[-400:]
    out, text = r.ask("qRcmd," + "bc 0".encode().hex()), ""
    while out != "OK":                           # monitor output (O packets), then OK
        assert out.startswith("O"), out
        text += bytes.fromhex(out[1:]).decode("latin-1")
        out, _ = r.read_reply()
    assert re.search(r"Breakpoint 0 at 0x[0-9a-f]+ cleared", text), text
    r.send_raw(frame("D"))
    assert r.read_reply()[0] == "OK"
    r.close()
    k = Kdb(m)
    _, out = shell(k, "echo after-gdb")
    assert out == "after-gdb", out
    m.expect_not(r"Oops|Kernel panic")
