# SPDX-License-Identifier: GPL-2.0
"""The Linux functions ekdb's stop path runs, watched (issue 34,
docs/linux.md "Where breakpoints may go"): each kdb command a user types
while ekdb is stopped in Linux runs under QEMU's execution trace
(exec_trace.py), and every Linux function seen in the trace that is not
ekdb's own code, the glue's stop path (.text..ekdb_nobp) or Linux's
entry/noinstr text must be refused by kdb's `bp` (linux/glue/nobp.c):
a breakpoint there would fire inside the stop.  A function reached
through a pointer (the APIC's IPI) is found the same way: by running.

One boot, 2 CPUs, `nokaslr` (the trace's pcs are vmlinux's): kdb in
setup_arch() (bt, ps, dmesg, md on a symbol, bp/bl/bd/be/bc, cpu and
`cpu 1` (not up yet: bad input), rd, lsmod, summary), then a stop after
smp_init() with CPU 1 up and ekdb still the debugger (its handoff
refused, as test_linux_handoff.py's test_table_linux_cannot_take_is_not_handed_over
does: breakpoint #16): the same commands, `cpu 1` switching to the other
CPU and `bt` there.  `go` is not traced (it runs the kernel).

Bad input tried: `cpu 1` before CPU 1 is up, `cpu 7`, `md 0`.
"""

import re

import pytest

from exec_trace import ExecTrace, Vmlinux
from kdb_session import PROMPT, Kdb
from qemu import BOOT_TIMEOUT
from test_linux import EKDB_WAIT, INIT, LINUX_BAD, linux_kernel  # noqa: F401
from test_linux_early import REFUSED

ENTRY16 = (r"Entering kdb \(current=0x[0-9a-f]+, pid \d+\) on processor (\d) due to "
           r"Breakpoint @ 0x[0-9a-f]+")
# Functions that never run in this boot: breakpoints #0-#15, disabled,
# so that #16 makes the handoff to Linux's kdb (0-15) refused
FILLER = ("emergency_sync", "ksys_sync", "__x64_sys_sync", "sysrq_handle_sync",
          "free_initmem", "kthreadd", "ksys_read", "ksys_write", "cpu_startup_entry",
          "wait_for_initramfs", "async_synchronize_full", "kernel_init",
          "__handle_sysrq", "kernel_execve", "run_init_process", "try_to_run_init_process")
# After smp_init(): both CPUs up (init text, so still breakable)
LATE = "driver_init"
# What driver_init() calls right after bdi_init(): a stop soon after `go`
SOON = "devtmpfs_init"


def commands(k, later):
    """What a user types at a stop: {label: command}; run by the caller."""
    cmds = ["bt", "ps", "dmesg 20", "md start_kernel 2", "md 0 1", "rd", "summary",
            "lsmod", "bp vfs_read", "bl", "bd 0" if not later else "bd 17", "be 0" if not later
            else "be 17", "bc 0" if not later else "bc 17", "cpu", "cpu 1", "cpu 7"]
    if later:
        cmds += ["bt", "cpu 0"]
    return cmds


def trace_commands(t, k, cmds, where):
    for c in cmds:
        with t.tracing(f"{where}: {c}"):
            k.cmd(c)


def assert_refused(k, vml, t):
    """Every Linux function of the trace is refused by kdb's `bp`."""
    seen = {}
    for label, per_cpu in t.pcs.items():
        for name, pcs in vml.classify(per_cpu).get("linux", {}).items():
            seen.setdefault(name, {})[label] = pcs
    not_refused = []
    for name in sorted(seen):
        addr = min(pc for pcs in seen[name].values() for pc in pcs)
        start = vml.function(addr)[1]
        out = k.cmd(f"bp {start:#x}")
        if "the debugger cannot stop there" not in out:
            not_refused.append((name, sorted(seen[name]), out))
            m = re.search(r"BP #(\d+)", out)
            if m:
                k.cmd(f"bc {m.group(1)}")
    assert not not_refused, "Linux functions the stop path runs, not refused:\n" + "\n".join(
        f"  {n}: {', '.join(lbl)}" for n, lbl, _ in not_refused)
    return seen


def test_stop_path_in_linux_is_refused(bare_machine, linux_kernel, tmp_path):
    bz, initrd = linux_kernel
    m = bare_machine(cmdline=f"{EKDB_WAIT} nokaslr", linux=bz, initrd=initrd, smp=2)
    m.wait_for(PROMPT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|" + INIT)
    k = Kdb(m)
    vml = Vmlinux()
    t = ExecTrace(m, tmp_path)
    trace_commands(t, k, commands(k, False), "setup_arch")
    for n, f in enumerate(FILLER):
        assert f"BP #{n} " in k.cmd(f"bp {f}")
        k.cmd(f"bd {n}")
    assert "BP #16 " in k.cmd(f"bp {LATE}")
    k.mark()
    k.type("go")
    k.enter()
    m.wait_for(ENTRY16, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|" + INIT)
    m.wait_for(PROMPT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD)
    assert "handoff to kgdb refused" in m.output(0)
    trace_commands(t, k, commands(k, True), LATE)
    # the entry of a stop with CPU 1 up: from the int3 (CPU 0) and the
    # round-up's NMI (CPU 1) to the prompt (what ran before each CPU's
    # entry, the kernel, is left out; no step over a breakpoint: cleared)
    k.cmd("bc *")
    assert "BP #0 " in k.cmd(f"bp {SOON}")
    with t.tracing(f"entry at {SOON}", entries={vml.sym["asm_exc_int3"], vml.sym["asm_exc_nmi"]}):
        k.mark()
        k.type("go")
        k.enter()
        e = m.wait_for(ENTRY16, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|" + INIT)
        m.wait_for(PROMPT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD)
    assert set(t.pcs[f"entry at {SOON}"]) == {0, 1}, "both CPUs' entries traced"
    with open(tmp_path / "stop-path.txt", "w") as f:     # what was seen, per command
        for label, per_cpu in t.pcs.items():
            for cls, fns in sorted(vml.classify(per_cpu).items()):
                f.write(f"{label}: {cls}: {' '.join(sorted(fns)) if cls != 'ekdb' else len(fns)}\n")
    assert_refused(k, vml, t)
