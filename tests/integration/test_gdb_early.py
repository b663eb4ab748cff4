"""Real gdb on the early debugger: stop in setup_arch (kgdbwait), look at
registers and memory, set breakpoints on later boot steps, breakpoints the
debugger must refuse, threads, detach and kill.

Each test boots once; several gdb checks share a boot."""

import re


from gdb_boot import (BOOT_COMPLETE, attach, boot_to_kgdbwait, cmd_or_error,
                      cont_expect_error, cont_to_stop, expect_error, frames, reg,
                      stop_func, value)
from qemu import BOOT_TIMEOUT

CANNOT_ACCESS = r"Cannot access memory at address"
# The debugger taking a trap after gdb left (a breakpoint left behind).
STOPPED_AGAIN = r"Waiting for connection from remote gdb|Entering kdb|Oops|Kernel panic"


def test_stop_in_setup_arch_registers_memory_detach(machine, gdb):
    """kgdbwait stops inside setup_arch(): backtrace, registers (general,
    control, debug, segment bases), good and bad memory, writing a global;
    then `detach` lets the boot complete."""
    m = boot_to_kgdbwait(machine)
    g = attach(machine, gdb, m)

    bt = g.cmd("bt")
    assert frames(bt)[:4] == ["kgdb_breakpoint", "ekdb_early_init", "setup_arch",
                              "start_kernel"], bt
    # issue 21: the outermost frame is _start (head.S gives it a type and a
    # size), not _text, the linker-script symbol at the same address
    assert frames(bt)[-2:] == ["x86_64_start_kernel", "_start"], bt
    assert "Could not load XML" not in "\n".join(g.transcript), g.tail()

    regs = g.cmd("info registers")
    for r in ("rax", "rip", "rsp", "eflags", "cs", "ss", "fs_base", "gs_base",
              "cr0", "cr3", "cr4", "efer", "dr7"):
        assert re.search(rf"^{r}\s+0x[0-9a-f]+", regs, re.M), f"{r} missing:\n{regs}"
    assert re.search(r"^rip\s+0x[0-9a-f]+\s+0x[0-9a-f]+ <kgdb_breakpoint\+\d+>", regs,
                     re.M), regs
    assert re.search(r"^cr3\s+0x[0-9a-f]+", g.cmd("info registers cr3"), re.M)
    cr0 = reg(g, "cr0")
    assert cr0 & 0x80000001 == 0x80000001, hex(cr0)      # PG and PE
    assert cr0 & (1 << 16), hex(cr0)                     # WP (W^X text)
    assert reg(g, "cr3") & 0xfff == 0
    assert reg(g, "cs") == 0x8
    assert value(g, "$fs_base") == "0"
    assert reg(g, "dr7") & 0xff == 0          # no hardware breakpoint armed yet
    assert reg(g, "rsp") >= 0xffffffff80000000

    # Good memory: the loader's record starts with its magic; kernel text.
    out = g.cmd("x/4gx &boot_params")
    assert re.search(r"<boot_params>:\s+0x[0-9a-f]{16}\s+0x[0-9a-f]{16}", out), out
    assert CANNOT_ACCESS not in out
    out = g.cmd("x/2gx _text")
    assert "<_start>:" in out and CANNOT_ACCESS not in out, out
    text0 = g.cmd("x/1gx _text")

    # Bad memory: NULL (no identity map after init_mem_mapping), a
    # non-canonical address, an unmapped vmalloc-area address.
    for addr in ("0x0", "0xdead000000000000", "0xffffc90000000000"):
        out = cmd_or_error(g, f"x/4gx {addr}")
        assert f"{CANNOT_ACCESS} {addr}" in out, f"x/4gx {addr}:\n{out}"
        # the session still works afterwards
        assert g.cmd("x/1gx _text") == text0
    expect_error(g, "p *(long *)0xdead000000000000", CANNOT_ACCESS)
    expect_error(g, "set var *(long *)0xffffc90000000000 = 1", CANNOT_ACCESS)
    assert frames(g.cmd("bt"))[0] == "kgdb_breakpoint"

    # Writing a kernel global.
    old = int(value(g, "console_loglevel"))
    new = 8 if old != 8 else 6
    g.cmd(f"set var console_loglevel = {new}")
    assert int(value(g, "console_loglevel")) == new
    g.cmd(f"set var console_loglevel = {old}")
    assert int(value(g, "console_loglevel")) == old

    # One CPU, one thread this early.
    threads = g.cmd("info threads")
    assert re.search(r"^\*\s+1\s+Thread 1 \(CPU#0", threads, re.M), threads

    out = g.detach()
    assert "detached" in out.lower() or "Detaching" in out, out
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)


def test_breakpoints_on_later_boot_steps(machine, gdb):
    """`break` on a later setup_arch step and on mm_init (read-only text),
    `hbreak trap_init`; each stops with the right backtrace; while stopped,
    memory shows the original instruction, not int3.  Then breakpoints on
    the debugger's own code are refused and the session survives; after
    `delete` the boot completes."""
    m = boot_to_kgdbwait(machine)
    g = attach(machine, gdb, m)

    want_insn = g.cmd("x/i mm_init")
    out = g.cmd("break print_memory_map")
    assert re.search(r"Breakpoint 1 at 0x[0-9a-f]+: file kernel-glue/setup_arch.c", out), out
    g.cmd("break acpi_boot_table_init")
    g.cmd("break mm_init")
    g.cmd("hbreak trap_init")

    st = cont_to_stop(g)
    assert st.get("reason") == "breakpoint-hit" and st.get("bkptno") == "1", st
    assert stop_func(st) == "print_memory_map", st
    assert frames(g.cmd("bt"))[:3] == ["print_memory_map", "setup_arch", "start_kernel"]
    # While stopped the breakpoints are out of memory: text reads back as is.
    assert g.cmd("x/i mm_init") == want_insn
    assert "int3" not in g.cmd("x/2i $pc")

    st = cont_to_stop(g)
    assert stop_func(st) == "acpi_boot_table_init", st
    assert frames(g.cmd("bt"))[:3] == ["acpi_boot_table_init", "setup_arch", "start_kernel"]

    st = cont_to_stop(g)
    assert st.get("reason") == "breakpoint-hit" and stop_func(st) == "trap_init", st
    assert st.get("bkptno") == "4", st
    assert frames(g.cmd("bt"))[:2] == ["trap_init", "start_kernel"]

    st = cont_to_stop(g)
    assert stop_func(st) == "mm_init", st
    assert frames(g.cmd("bt"))[:2] == ["mm_init", "start_kernel"]
    assert want_insn.split(":", 1)[1] in g.cmd("x/i $pc")     # the original push
    assert re.search(r"^1\s+breakpoint\s+keep\s+y.*print_memory_map.*\n\s+breakpoint "
                     r"already hit 1 time", g.cmd("info breakpoints"), re.M | re.S)

    # The debugger's own code: the stub refuses to patch itself (E01..);
    # gdb reports it when it inserts the breakpoints, on resume.
    g.cmd("delete")
    for cmd in ("break gdb_session_run", "break dbg_bp_set", "hbreak kgdb_breakpoint"):
        g.cmd(cmd)
        cont_expect_error(g, r"Cannot insert (hardware )?breakpoint|Could not insert "
                             r"hardware breakpoint|Remote failure reply")
        g.cmd("delete")
        # still stopped, still talking
        assert frames(g.cmd("bt"))[0] == "mm_init"
        assert "mm_init" in g.cmd("x/i $pc")
    m.expect_not(BOOT_COMPLETE)

    g.cont()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)


def test_threads_smp4_and_kill(machine, gdb):
    """--smp 4 at kgdbwait: the APs are not started this early; the stub
    lists one thread per CPU it knows (only the boot CPU now).  `kill`
    with a breakpoint, a hardware breakpoint and a watchpoint inserted ends
    gdb's session, takes them out, and the kernel boots on."""
    m = boot_to_kgdbwait(machine, smp=4)
    g = attach(machine, gdb, m)
    threads = g.cmd("info threads")
    rows = re.findall(r"^[* ]\s+(\d+)\s+Thread (\d+) \(([^)]*)\)", threads, re.M)
    assert rows, threads
    assert rows[0][0] == "1" and "CPU#0" in rows[0][2] and "stopped" in rows[0][2], threads
    # Thread ids are CPU number + 1; none of the APs is running yet.
    for _, tid, desc in rows[1:]:
        assert f"CPU#{int(tid) - 1}" in desc and "running" not in desc, threads
    assert g.cmd("thread 1").startswith("[Switching to thread 1")
    assert frames(g.cmd("bt"))[0] == "kgdb_breakpoint"

    # always-inserted: gdb hands the breakpoints to the stub now (Z0, Z1,
    # Z2, each answered OK; the stub plants them when the CPU resumes), not
    # only on the next resume, so `kill` has something to take out.
    g.cmd("set breakpoint always-inserted on")
    g.cmd("set debug remote 1")
    for cli, z in (("break print_memory_map", "Z0"), ("hbreak mm_init", "Z1"),
                   ("watch kmalloc_ready", "Z2")):
        out = g.cmd(cli)
        assert re.search(rf"Sending packet: \${z},[0-9a-f]+,\d+#[0-9a-f]{{2}}"
                         r".*?Packet received: OK", out, re.S), out
    g.cmd("set debug remote 0")
    out = g.kill_target()
    assert re.search(r"\[Inferior 1 \(Remote target\) killed\]", out), out
    # The int3 and the debug registers are gone: the boot runs through
    # print_memory_map, mm_init and the kmalloc_ready write without a stop.
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=STOPPED_AGAIN)
    assert re.search(r"boot complete: \d+ CPUs online", m.output(0))
