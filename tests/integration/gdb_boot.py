"""Shared steps of the real-gdb tests: boot to kgdbwait, attach gdb, small
assertions on gdb output.  See docs/debugging-early-boot.md."""

import re
import time

from gdbdriver import GdbError
from qemu import BOOT_TIMEOUT

CONSOLE = "earlyprintk=serial,ttyS0,115200"
KGDBWAIT = f"{CONSOLE} ekgdboc=ttyS1 kgdbwait"
WAITING = r"kgdb: Waiting for connection from remote gdb"
BOOT_COMPLETE = r"boot complete: \d+ CPUs online"
STOP_TIMEOUT = 120      # generous: TCG, 2 cores shared by parallel tests


def boot_to_kgdbwait(machine, smp=1, cmdline=KGDBWAIT, **kw):
    """Boot with the debugger waiting in setup_arch; ttyS0 captured, ttyS1
    left free for gdb.  Returns the Machine once the stub waits."""
    m = machine(cmdline=cmdline, smp=smp, ports=("unix", "socket"), **kw)
    m.wait_for(WAITING, timeout=BOOT_TIMEOUT)
    return m


# Keep acks on (gdb NAKs a damaged reply, the stub sends it again), as kgdb
# users do on serial lines.  Needed because bytes of long replies are
# sometimes lost on the line (see test_gdb_noise.py::
# test_default_noack_connects_intact, which covers gdb's default).
ACKS_ON = ("set remote noack-packet off",)


def attach(machine, gdb, m, target=None, pre=ACKS_ON):
    """Start gdb on build/kernel.elf, run `pre` commands, target remote."""
    g = gdb()
    for c in pre:
        g.cmd(c)
    g.connect(target or m.socket_path(1))
    return g


def frames(bt):
    """Function names of a `bt` output, innermost first."""
    return re.findall(r"^#\d+\s+(?:0x[0-9a-f]+ in )?(\w+) \(", bt, re.M)


def expect_error(g, cli, *patterns, timeout=None):
    """Run a CLI command that must fail; return gdb's error message and
    check that every regex in patterns is in it."""
    try:
        out = g.cmd(cli, timeout=timeout)
    except GdbError as e:
        msg = str(e)
    else:
        raise AssertionError(f"{cli!r} should have failed, got:\n{out}")
    for p in patterns:
        assert re.search(p, msg), f"{cli!r}: /{p}/ not in:\n{msg}"
    return msg


def _resume_outcome(g, timeout):
    """After a resume command answered ^running: wait for either the stop
    (*stopped) or gdb's late ^error (a breakpoint it could not insert).
    Returns ("stopped", results) or ("error", message)."""
    from gdbdriver import _RECORD, parse_results
    for n, (kind, cls, res) in enumerate(g.async_records):
        if kind == "*" and cls == "stopped":
            del g.async_records[:n + 1]
            return "stopped", res
    deadline = time.monotonic() + timeout
    text = []
    while True:
        line = g._next_line(deadline, "the target to stop (or gdb to give up)")
        m = _RECORD.match(line)
        if not m:
            continue
        kind, rest = m.group(2), m.group(3)
        if kind in "&~":
            text.append(rest)
        elif kind == "*" and rest.startswith("stopped"):
            return "stopped", parse_results(rest.partition(",")[2])
        elif kind == "^" and rest.startswith("error"):
            text.append(rest)
            return "error", "\n".join(text).replace("\\n", "\n")


def cont_expect_error(g, *patterns, timeout=STOP_TIMEOUT):
    """`continue` that gdb must refuse (e.g. a breakpoint it cannot insert).
    In async MI gdb first answers ^running, then reports the failed
    insertion as a second ^error for the same command; return its text."""
    try:
        g.cont(timeout=timeout)
    except GdbError as e:
        msg = str(e)
    else:
        what, msg = _resume_outcome(g, timeout)
        if what != "error":
            raise AssertionError(f"continue should have failed, target stopped: "
                                 f"{msg}\n{g.tail()}")
    for p in patterns:
        assert re.search(p, msg), f"continue: /{p}/ not in:\n{msg}"
    return msg


def cont_to_stop(g, timeout=STOP_TIMEOUT):
    """continue; return the *stopped record (GdbError if gdb could not
    resume, e.g. a breakpoint insertion was refused)."""
    g.cont()
    what, res = _resume_outcome(g, timeout)
    if what == "error":
        raise GdbError(f"continue failed: {res}\n{g.tail()}")
    return res


def stop_func(stop):
    return stop.get("frame", {}).get("func")


def reg(g, name):
    """Integer value of $name."""
    out = g.cmd(f"p/x ${name}")
    m = re.search(r"= (0x[0-9a-f]+)", out)
    assert m, f"p/x ${name}: {out!r}"
    return int(m.group(1), 16)


def value(g, expr):
    out = g.cmd(f"p {expr}")
    m = re.search(r"^\$\d+ = (.*)$", out, re.M)
    assert m, f"p {expr}: {out!r}"
    return m.group(1).strip()


def cmd_or_error(g, cli):
    """Console output of a command, or gdb's error text if it failed."""
    try:
        return g.cmd(cli)
    except GdbError as e:
        return str(e)


def hexes(s):
    """The bytes of gdb's x/Nxb output, as "0x.." strings."""
    return re.findall(r"\t(0x[0-9a-f]{2})", s)


def early_tour(g, dump):
    """gdb at kgdbwait in setup_arch, on any line: the backtrace, the
    registers, memory (boot_params, @dump bytes of _text, an unmapped
    address refused), one stepi, then a software and a hardware breakpoint
    and a watchpoint on later boot steps, each hit once, deleted.  Returns
    the bytes of _text read (hexes)."""
    assert frames(g.cmd("bt"))[:3] == ["kgdb_breakpoint", "ekdb_early_init", "setup_arch"]
    regs = g.cmd("info registers")
    for r in ("rax", "rip", "rsp", "eflags", "cr0", "cr3", "dr7"):
        assert re.search(rf"^{r}\s+0x[0-9a-f]+", regs, re.M), f"{r} missing:\n{regs}"
    assert reg(g, "rsp") >= 0xffffffff80000000
    out = g.cmd("x/4gx &boot_params")
    assert re.search(r"<boot_params>:\s+0x[0-9a-f]{16}\s+0x[0-9a-f]{16}", out), out
    text = hexes(g.cmd(f"x/{dump}xb _text"))
    out = cmd_or_error(g, "x/4gx 0xdead000000000000")
    assert "Cannot access memory at address 0xdead000000000000" in out, out

    pc0 = reg(g, "rip")
    g.cmd("stepi")
    assert reg(g, "rip") != pc0

    g.cmd("break print_memory_map")
    g.cmd("hbreak acpi_boot_table_init")
    st = cont_to_stop(g)
    assert st.get("reason") == "breakpoint-hit" and stop_func(st) == "print_memory_map", st
    st = cont_to_stop(g)
    assert st.get("reason") == "breakpoint-hit" and stop_func(st) == "acpi_boot_table_init", st
    out = g.cmd("watch kmalloc_ready")
    assert "atchpoint" in out, out
    st = cont_to_stop(g)
    assert st.get("reason") == "watchpoint-trigger", st
    g.cmd("delete")
    return text
