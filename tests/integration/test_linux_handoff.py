# SPDX-License-Identifier: GPL-2.0
"""ekdb hands over to Linux's own debug core (issue 34, docs/linux.md "Handoff").

Booted with `ekdb.ekgdboc=ttyS0 ekdb.kgdbwait`, Linux stops in setup_arch()
at ekdb's kdb prompt.  Breakpoints planted there on functions that run after
dbg_late_init() go to Linux's kgdb/kdb at the handoff (linux/glue/handoff.c,
patch 0010's kgdb_adopt_breakpoints()): Linux's kdb stops at them and its
`bl` lists them with ekdb's numbers and enabled state; ekdb's line becomes
the kgdb I/O driver "ekdb", on which sysrq-g enters Linux's kdb, until
Linux's kgdboc takes the line over (as it replaces kgdboc_earlycon).
"""

import re

import pytest

from gdbdriver import Gdb, GdbError
from kdb_session import PROMPT, Kdb
from qemu import BOOT_TIMEOUT
from test_linux import (CONSOLE, EKDB_WAIT, INIT, LINUX_BAD, VMLINUX,  # noqa: F401
                        sysrq_l_then_nmi_button,
                        linux_kernel)

HANDOFF = r"ekdb: handoff to kgdb: (\d+) breakpoints \((\d+) kdb's\)"
LINUX_ENTRY = (r"Entering kdb \(current=0x[0-9a-f]+, pid (\d+)\) on processor (\d+) "
               r"due to ([^\r\n]+)")


def stop_in_setup_arch(bare_machine, linux_kernel, extra="", smp=None):
    bz, initrd = linux_kernel
    kw = {"smp": smp} if smp else {}
    m = bare_machine(cmdline=f"{EKDB_WAIT} {extra}".strip(), linux=bz, initrd=initrd, **kw)
    m.wait_for(PROMPT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|" + INIT)
    return m, Kdb(m)


def bl_entries(bl):
    """Linux's kdb `bl`: {number: (type, symbol, enabled)}."""
    return {int(n): (t, sym, state == "enabled")
            for t, n, sym, state in re.findall(
                r"^(Instruction\(i\)|Instruction\(Register\)|Data Write|Data Access) "
                r"BP #(\d+) at 0x[0-9a-f]+ \((\S+)\)\n\s+is (enabled|disabled)", bl, re.M)}


def linux_stop(m, k, until=LINUX_ENTRY):
    """After a `go` (typed by the caller): the next stop, which must be
    Linux's kdb (ekdb handed over: its hooks no longer take traps)."""
    e = m.wait_for(until, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD)
    m.wait_for(PROMPT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD)
    return e


def go(k):
    k.mark()
    k.type("go")
    k.enter()


def test_breakpoints_go_to_linux_kdb(bare_machine, linux_kernel):
    """Planted with ekdb's kdb in setup_arch() with a hole (#1 cleared) and
    a disabled one (#2), and kdb variables set: Linux's kdb stops at #0
    with ekdb's kdb variables and history, its `bl` lists #0, #2
    (disabled) and #3 with ekdb's numbers, `go` skips the disabled one and
    stops at #3; then the shell, sysrq-g on the same line, and kgdboc
    written at run time replaces ekdb's I/O driver."""
    m, k = stop_in_setup_arch(bare_machine, linux_kernel)
    for f in ("rest_init", "kernel_init", "free_initmem", "kernel_execve"):
        out = k.cmd(f"bp {f}")
        assert "BP #" in out, out
    k.cmd("bc 1")
    k.cmd("bd 2")
    ekdb_bl = k.cmd("bl")
    # kdb's session: a variable changed, one of the user's own, the history
    k.cmd("set MDCOUNT 2")
    k.cmd("set EKDBTEST handoff")
    go(k)
    e = linux_stop(m, k)
    out = m.output(0)
    h = re.search(HANDOFF, out)
    assert h and (h.group(1), h.group(2)) == ("3", "3"), out[-3000:]
    assert re.search(r"kdb's session \(\d+ variables, \d+ commands\)", out), out[-3000:]
    # Linux's kdb goes on with them (patch 0016): Up Up recalls the line
    # before ekdb's `go`, and the environment holds both values, once
    start = k.mark()
    k.key("\x1b[A")
    k.key("\x1b[A")
    k.enter()
    k.wait(PROMPT)
    shown = k.since(start)
    assert re.search(r"kdb> go\s.*kdb> set EKDBTEST handoff", shown, re.S), shown
    env = k.cmd("env")
    assert "MDCOUNT=2" in env.split() and "EKDBTEST=handoff" in env.split(), env
    assert env.count("MDCOUNT=") == 1, env
    assert "KGDB: Registered I/O driver ekdb" in out, out[-3000:]
    assert out.index(h.group(0)) < e.start()
    bl = k.cmd("bl")
    got = bl_entries(bl)
    assert set(got) == {0, 2, 3}, (bl, ekdb_bl)
    # said once: kdb skips the console on ekdb's line (the I/O driver's ->cons)
    assert bl.count("BP #0 at") == 1, bl
    assert got[0][1].startswith("rest_init") and got[0][2], bl
    assert got[2][1].startswith("free_initmem") and not got[2][2], bl
    assert got[3][1].startswith("kernel_execve") and got[3][2], bl
    # Linux's kdb, not ekdb's: Linux's bt marks the task's stack <TASK>
    bt = k.cmd("bt")
    assert "rest_init" in bt and "<TASK>" in bt, bt
    go(k)
    e = linux_stop(m, k)
    bt = k.cmd("bt")
    assert "kernel_execve" in bt and "free_initmem" not in bt, bt
    k.cmd("bc *")
    go(k)
    m.wait_for(INIT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + r"|Entering kdb")
    # sysrq-g: Linux's kdb on ekdb's line (kgdb I/O driver "ekdb")
    m.send(0, b"echo g > /proc/sysrq-trigger\n")
    e = linux_stop(m, k, r"sysrq: DEBUG\s+" + LINUX_ENTRY)
    # (Linux 6.1's kdb names an int3 taken in exc_int3's NMI-like entry so)
    assert "Breakpoint" not in e.group(3), e.group(0)
    assert bl_entries(k.cmd("bl")) == {}
    go(k)
    m.send(0, b"echo ekdb-$((6*7))\n")
    m.wait_for(r"ekdb-42", timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + r"|Entering kdb")
    # bad input: a kgdboc= that names no device is refused by kgdboc and
    # leaves ekdb's I/O driver in place (sysrq-g still enters kdb)
    m.send(0, b"echo ttyS9 > /sys/module/kgdboc/parameters/kgdboc\n")
    m.send(0, b"echo g > /proc/sysrq-trigger\n")
    linux_stop(m, k, r"sysrq: DEBUG\s+" + LINUX_ENTRY)
    assert "Replacing I/O driver" not in m.output(0)
    go(k)
    # kgdboc at run time replaces ekdb's I/O driver, as it replaces kgdboc_earlycon
    m.send(0, b"echo ttyS0 > /sys/module/kgdboc/parameters/kgdboc\n")
    m.wait_for(r"Replacing I/O driver ekdb with kgdboc", timeout=BOOT_TIMEOUT,
               fail_on=LINUX_BAD + r"|Entering kdb")
    m.send(0, b"echo g > /proc/sysrq-trigger\n")
    linux_stop(m, k, r"sysrq: DEBUG\s+" + LINUX_ENTRY)
    go(k)
    m.send(0, b"echo ekdb-$((6*8))\n")
    m.wait_for(r"ekdb-48", timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + r"|Entering kdb")


def test_hw_breakpoint_and_watchpoint_go_to_linux(bare_machine, linux_kernel):
    """A hardware breakpoint and a write watchpoint planted with ekdb's
    `bph` in setup_arch() go into the x86 kgdb slots at the handoff: the
    watchpoint on system_state fires in Linux's kdb when rest_init()
    writes it, Linux's `bl` lists both with ekdb's numbers, Linux's `bd`
    disables the watchpoint, and the hardware breakpoint on kernel_execve
    stops there next (patch 0012: kgdb's hardware breakpoints fire at
    all)."""
    m, k = stop_in_setup_arch(bare_machine, linux_kernel)
    out = k.cmd("bph kernel_execve")
    assert "BP #0" in out, out
    out = k.cmd("bph system_state dataw 4")
    assert "BP #1" in out, out
    go(k)
    e = linux_stop(m, k)
    out = m.output(0)
    h = re.search(HANDOFF, out)
    assert h and (h.group(1), h.group(2)) == ("2", "2"), out[-3000:]
    bl = k.cmd("bl")
    got = bl_entries(bl)
    assert got == {0: ("Instruction(Register)", "kernel_execve", True),
                   1: ("Data Write", "system_state", True)}, bl
    # rest_init()'s write (SYSTEM_SCHEDULING): the instruction after it
    bt = k.cmd("bt")
    assert re.search(r"RIP: 0010:rest_init\+", bt), (e.group(0), bt)
    # Linux's kdb disables the watchpoint (kernel_init() writes it again)
    k.cmd("bd 1")
    go(k)
    e = linux_stop(m, k)
    bt = k.cmd("bt")
    assert re.search(r"RIP: 0010:kernel_execve\+0x0/", bt), (e.group(0), bt)
    k.cmd("bc *")
    go(k)
    m.wait_for(INIT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + r"|Entering kdb")


def refused(k, target):
    """Linux's kdb `bp @target` is refused: kgdb's kprobe blocklist
    (kgdb_validate_break_address(): -EINVAL, which kdb takes for its
    KDB_NOPERM, -22), no breakpoint made."""
    out = k.cmd(f"bp {target}")
    return "BP #" not in out and "diag: -22: Permission denied" in out, out


def test_kgdb_refuses_breakpoints_in_ekdb_after_the_handoff(bare_machine, linux_kernel):
    """Linux's kgdb stop runs through ekdb after the handoff (the I/O
    driver ekdb, console ekdbfb, ekdb's code behind them): a breakpoint
    there would fire inside kgdb's own stop.  At the handoff ekdb puts
    what it refuses on the kprobe blocklist kgdb honours
    (CONFIG_KGDB_HONOUR_BLOCKLIST, linux/glue/handoff.c): Linux's kdb
    refuses `bp` on the I/O driver's read_char, the screen console's
    write, ekdb's own getc and the glue's trap hook, and still takes one
    on a kernel function (kernel_execve, which stops: the line still
    works).  At the shell (after init_kprobes()) Linux's own
    NOKPROBE_SYMBOL()s are refused too (kgdb_cpu_enter), and ekdb's stay
    refused.  Bad input tried: each refused address, twice (no entry is
    made, `bl` lists only the accepted ones)."""
    m, k = stop_in_setup_arch(bare_machine, linux_kernel)
    assert "BP #0" in k.cmd("bp rest_init")
    go(k)
    linux_stop(m, k)
    assert re.search(HANDOFF, m.output(0)), m.output(0)[-3000:]
    ekdbs = ("ekdb_kgdb_read_char", "ekdb_kgdb_write_char", "ekdb_screen_con_write",
             "ekdb_io_getc", "ekdb_linux_int3")
    for f in ekdbs + ekdbs[:1]:
        ok, out = refused(k, f)
        assert ok, (f, out)
    assert "BP #1" in k.cmd("bp kernel_execve")
    assert set(bl_entries(k.cmd("bl"))) == {0, 1}
    go(k)
    linux_stop(m, k)
    bt = k.cmd("bt")
    assert re.search(r"RIP: 0010:kernel_execve\+0x0/", bt), bt
    k.cmd("bc *")
    go(k)
    m.wait_for(INIT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + r"|Entering kdb")
    m.send(0, b"echo g > /proc/sysrq-trigger\n")
    linux_stop(m, k, r"sysrq: DEBUG\s+" + LINUX_ENTRY)
    for f in ("kgdb_cpu_enter",) + ekdbs:
        ok, out = refused(k, f)
        assert ok, (f, out)
    assert bl_entries(k.cmd("bl")) == {}
    go(k)
    m.send(0, b"echo ekdb-$((6*7))\n")
    m.wait_for(r"ekdb-42", timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + r"|Entering kdb")


def test_table_linux_cannot_take_is_not_handed_over(bare_machine, linux_kernel):
    """Bad input: ekdb's breakpoint #16 (Linux's kdb numbers 0-15).  The
    handoff is refused as a whole with a message, before anything moved:
    Linux's kgdb gets no I/O driver, ekdb keeps its breakpoints and the
    line, and its own kdb (its banner names swapper, pid 0, as Linux's)
    stops at #16 after dbg_late_init().  ekdb stays the debugger for
    good: at the shell, Linux's own NMIs (sysrq-l's backtrace) stay
    Linux's, an NMI nobody claims (QEMU's NMI button) stops in ekdb with
    the other CPU rounded up."""
    m, k = stop_in_setup_arch(bare_machine, linux_kernel, smp=2)
    never = ("emergency_sync", "ksys_sync", "__x64_sys_sync", "sysrq_handle_sync",
             "free_initmem", "kthreadd", "ksys_read", "ksys_write", "cpu_startup_entry",
             "wait_for_initramfs", "async_synchronize_full", "kernel_init",
             "__handle_sysrq", "kernel_execve", "run_init_process", "try_to_run_init_process")
    for n, f in enumerate(never):
        assert f"BP #{n} " in k.cmd(f"bp {f}")
        k.cmd(f"bd {n}")
    assert "BP #16 " in k.cmd("bp rest_init")
    go(k)
    e = m.wait_for(LINUX_ENTRY, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|" + INIT)
    m.wait_for(PROMPT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD)
    out = m.output(0)
    assert re.search(r"ekdb: handoff to kgdb refused: more breakpoints, or higher numbers, "
                     r"than Linux's kdb has \(0-15\); ekdb keeps its breakpoints and the line",
                     out), out[-3000:]
    assert "Registered I/O driver ekdb" not in out and not re.search(HANDOFF, out)
    # (the stop is ekdb's: no `ekdb` I/O driver above, and `bl` below lists
    # #16, a number Linux's kdb does not have; its banner names swapper now
    # that ekdb reads Linux's task list, as Linux's would)
    assert "pid 0" in e.group(0), e.group(0)
    bl = k.cmd("bl")
    assert re.search(r"BP #16 at 0x[0-9a-f]+ \(rest_init\)", bl), bl
    k.cmd("bc *")
    go(k)
    m.wait_for(INIT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + r"|Entering kdb")
    sysrq_l_then_nmi_button(m, k)
    k.wait(r"Entering kdb \(current=0x[0-9a-f]+, pid \d+\) on processor \d due to "
           r"NonMaskable Interrupt @ 0x[0-9a-f]{16}", timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD)
    k.wait(PROMPT)
    # the other CPU rounded up, or still on its way in ("(-)")
    assert re.search(r"Available cpus: (0-1|0, 1\(-\)|0\(-\), 1)$", k.cmd("cpu"), re.M)
    go(k)
    m.send(0, b"echo ekdb-$((6*7))\n")
    m.wait_for(r"ekdb-42", timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + r"|Entering kdb")


def test_gdb_stays_attached_through_the_handoff(bare_machine, linux_kernel, tmp_path):
    """Real gdb with vmlinux (KASLR on) attached to ekdb in setup_arch()
    on ttyS1, its plain defaults (ekdb on Linux offers what Linux's gdbstub
    offers: acks, gdb's amd64 layout, c/s, no stop reasons): a breakpoint
    before the handoff (calibrate_delay, ekdb's stub) and one after it
    (rest_init, Linux's gdbstub), registers and bt on both sides, the
    same thread (shadowCPU0, Linux's numbering from the start), no
    reconnect; a breakpoint in ekdb's I/O driver is
    refused by Linux's stub; then the boot goes on."""
    bz, initrd = linux_kernel
    m = bare_machine(cmdline=f"{CONSOLE} ekdb.ekgdboc=ttyS1 ekdb.kgdbwait", linux=bz,
                     initrd=initrd, ports=("unix", "unix"))
    m.wait_for(PROMPT, port=1, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD)
    m.release_port(1)
    g = Gdb(VMLINUX, log_path=tmp_path / "gdb.log")
    try:
        g.connect(m.socket_path(1))
        bt = g.cmd("bt")
        assert "setup_arch" in bt and "start_kernel" in bt, bt
        sides = []
        for func in ("calibrate_delay", "rest_init"):
            g.cmd(f"break {func}")
            g.cont()
            stop = g.wait_stop(timeout=BOOT_TIMEOUT)
            assert stop["frame"]["func"] == func, stop
            bt = g.cmd("bt")
            assert re.search(rf"^#0  {func} \(\)", bt, re.M) and "start_kernel" in bt, bt
            rip = g.cmd("info registers rip")
            assert re.search(rf"<{func}>$", rip.strip()), rip
            sides.append(g.cmd("info threads"))
        out = m.output(0)
        assert re.search(HANDOFF + r"[^\n]*, gdb goes on with Linux's gdbstub", out), out[-2000:]
        # the same thread on both sides: ekdb numbers threads as Linux's
        # gdbstub does (CPU 0's idle task is shadowCPU0, -2 in 32 bits)
        for side in sides:
            assert re.search(r"^\* 1 +Thread 4294967294 \(shadowCPU0\) ", side, re.M), sides
        # Linux's gdbstub refuses a breakpoint in ekdb's I/O driver, which
        # its own stop runs through (the kprobe blocklist: Z0 answers E22);
        # gdb inserting at once (always-inserted) says it cannot
        g.cmd("delete")
        g.cmd("set breakpoint always-inserted on")
        with pytest.raises(GdbError, match=r"Cannot insert breakpoint \d+\.\s+Cannot access memory"):
            g.cmd("break ekdb_kgdb_read_char")
        g.cmd("delete")
        assert "Cannot insert" not in g.cmd("break kernel_execve")
        g.cmd("delete")
        g.cmd("set breakpoint always-inserted off")
        g.cont()
        m.wait_for(INIT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + r"|Entering kdb")
    finally:
        g.close()


KGDBTS_DONE = r"Unregistered I/O driver kgdbts, debugger disabled"
FORKS = b"i=0; while [ $i -lt 150 ]; do /bin/busybox true; i=$((i+1)); done; echo forks-$i\n"


def kgdbts_run(bare_machine, linux_kernel, smp, ekdb):
    """Boot with kgdbts=V1F100 (after ekdb's handoff when @ekdb), fork
    enough for its kernel_clone test, wait for its end; its ERROR lines."""
    bz, initrd = linux_kernel
    cmd = f"{EKDB_WAIT if ekdb else CONSOLE} kgdbts=V1F100"
    m = bare_machine(cmdline=cmd, linux=bz, initrd=initrd, smp=smp)
    if ekdb:
        m.wait_for(PROMPT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|" + INIT)
        go(Kdb(m))
        m.wait_for(r"Replacing I/O driver ekdb with kgdbts", timeout=BOOT_TIMEOUT,
                   fail_on=LINUX_BAD)
    bad = r"Oops|Kernel panic|BUG:|general protection|re-enter exception"
    m.wait_for(INIT, timeout=BOOT_TIMEOUT, fail_on=bad)
    m.send(0, FORKS)
    m.wait_for(KGDBTS_DONE, timeout=BOOT_TIMEOUT, fail_on=bad)
    out = m.output(0)
    assert "kgdbts:RUN kernel_clone for 100 breakpoints" in out, out[-3000:]
    return sorted(re.findall(r"kgdbts: ERROR [^\r\n]*", out))


@pytest.mark.parametrize("smp", [1, 2])
def test_kgdbts_after_the_handoff(bare_machine, linux_kernel, smp):
    """Linux's own kgdb test suite (kgdbts=V1F100, CONFIG_KGDB_TESTS) after
    ekdb's handoff (kgdbts replaces ekdb's I/O driver) on 1 and 2 CPUs
    gives what it gives on the same kernel without ekdb, in the same run:
    no oops (on 2 CPUs the handoff registers kgdb before the other CPU
    exists: patch 0013): every test passes, as without ekdb (patch 0017:
    kgdbts's access watchpoint test had no access to watch)."""
    alone = kgdbts_run(bare_machine, linux_kernel, smp, ekdb=False)
    after = kgdbts_run(bare_machine, linux_kernel, smp, ekdb=True)
    assert after == alone, (after, alone)
    assert alone == [], alone


def test_hw_breakpoint_fires_on_cpu1_after_the_handoff(bare_machine, linux_kernel):
    """2 CPUs: a hardware breakpoint planted with ekdb's `bph` in
    setup_arch(), when CPU 1 does not exist yet, stops in Linux's kdb on
    processor 1 too (an exec there): the handoff's kgdb registers before
    smp_init(), CPU 1 gets its slot and kgdb's armed breakpoints when it
    comes up (patch 0013).  `go` past stops on CPU 0 (at most 10).  Then
    disabled there (`bd`), the system runs on with execs on both CPUs;
    enabled again at a sysrq-g stop (`be`), it stops on CPU 1 again;
    cleared there (`bc`), the system runs on.  Before patch 0019 the first
    `go` after `bd` hung the machine: the #DB handler put back the DR7 it
    had saved on entry, the breakpoint stayed armed with no owner, and
    CPU 1 took the same #DB forever (the NMI-entered CPU 0 kept it armed
    too)."""
    bz, initrd = linux_kernel
    m = bare_machine(cmdline=EKDB_WAIT, linux=bz, initrd=initrd, smp=2)
    m.wait_for(PROMPT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|" + INIT)
    k = Kdb(m)
    assert "BP #0" in k.cmd("bph do_execveat_common")
    go(k)
    cpus = []
    while "1" not in cpus:
        assert len(cpus) < 10, cpus
        if cpus:
            go(k)
        e = linux_stop(m, k)
        cpus.append(e.group(2))
        bt = k.cmd("bt")
        assert re.search(r"RIP: 0010:do_execveat_common\+0x0/", bt), (e.group(0), bt)
    assert bl_entries(k.cmd("bl")) == {0: ("Instruction(Register)", "do_execveat_common", True)}

    TRUE = "/bin/busybox true"

    def on_both_cpus(n):
        """Execs pinned to each CPU and an echo: no stop anywhere."""
        m.send(0, f"taskset -c 1 {TRUE} && taskset -c 0 {TRUE} && echo ekdb-$((6*{n}))\n".encode())
        m.wait_for(rf"ekdb-{6 * n}", timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|Entering kdb")

    assert "disabled" in k.cmd("bd 0")
    go(k)
    on_both_cpus(7)
    k.mark()
    m.send(0, b"echo g > /proc/sysrq-trigger\n")
    linux_stop(m, k, until=r"Entering kdb \(current=0x[0-9a-f]+, pid \d+\) on processor \d+")
    assert "enabled" in k.cmd("be 0")
    go(k)
    m.send(0, f"taskset -c 1 {TRUE}\n".encode())
    cpus = []
    while "1" not in cpus:
        assert len(cpus) < 10, cpus
        if cpus:
            go(k)
        cpus.append(linux_stop(m, k).group(2))
    assert "cleared" in k.cmd("bc 0")
    go(k)
    on_both_cpus(8)
