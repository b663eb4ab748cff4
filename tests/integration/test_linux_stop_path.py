# SPDX-License-Identifier: GPL-2.0
"""The Linux functions ekdb's stop path runs, watched (issue 34,
docs/linux.md "Where breakpoints may go"): what ekdb runs while a user
works at a stop is traced by QEMU (exec_trace.py), and every Linux
function seen that is not ekdb's own code, the glue's stop path
(.text..ekdb_nobp) or Linux's entry/noinstr text must be refused by ekdb
(linux/glue/nobp.c): a breakpoint there fires inside the stop.  A
function reached through a pointer (the APIC driver's IPI functions) is
found the same way, by running.  The test fails naming any new callee
that is not refused.

One boot, 2 CPUs, `nokaslr` (the trace's pcs are vmlinux's):
- kdb in setup_arch(): bt, ps, dmesg, md on a symbol and on 0, rd,
  summary, lsmod, bp/bl/bd/be/bc, cpu, `cpu 1` (not up yet), `cpu 7`;
- kdb after smp_init() with CPU 1 up and ekdb still the debugger (its
  handoff refused by breakpoint #16, as test_linux_handoff.py's
  test_table_linux_cannot_take_is_not_handed_over): the same, plus
  `cpu 1`, bt there, `cpu 0`;
- a stop's entry on 2 CPUs: from CPU 0's int3 and CPU 1's round-up NMI
  to the prompt (the kernel that ran before each CPU's entry is left out);
- gdb on the same line (its first packet switches ekdb from kdb):
  connect, bt, threads, registers, memory, a breakpoint in and out.
`go` itself is not traced apart from that entry (it runs the kernel).

Bad input tried: `md 0`, `cpu 1` before CPU 1 is up, `cpu 7`.
"""

import re

from exec_trace import ExecTrace, Vmlinux
from gdbdriver import Gdb
from kdb_session import PROMPT, Kdb
from qemu import BOOT_TIMEOUT
from test_linux import EKDB_WAIT, INIT, LINUX_BAD, VMLINUX, linux_kernel  # noqa: F401
from test_linux_early import REFUSED

STOP = (r"Entering kdb \(current=0x[0-9a-f]+, pid \d+\) on processor (\d) due to "
        r"Breakpoint @ 0x[0-9a-f]+")
# Functions that never run in this boot: breakpoints #0-#15, disabled,
# so that #16 makes the handoff to Linux's kdb (0-15) refused
FILLER = ("emergency_sync", "ksys_sync", "__x64_sys_sync", "sysrq_handle_sync",
          "free_initmem", "kthreadd", "ksys_read", "ksys_write", "cpu_startup_entry",
          "wait_for_initramfs", "async_synchronize_full", "kernel_init",
          "__handle_sysrq", "kernel_execve", "run_init_process", "try_to_run_init_process")
# After smp_init(): both CPUs up (init text, still breakable)
LATE = "driver_init"
# What driver_init() calls next, after bdi_init(): a stop soon after `go`
SOON = "devtmpfs_init"
COMMANDS = ("bt", "ps", "dmesg 20", "md start_kernel 2", "md 0 1", "rd", "summary",
            "lsmod", "bp vfs_read", "bl", "bd {n}", "be {n}", "bc {n}", "cpu", "cpu 1",
            "cpu 7")
# Seen in the trace where the glue calls Linux (the trace must see them):
# kallsyms (port.c), the printk ring (dmesg.c), a rounded-up CPU's NMI;
# get_symbol_pos and desc_read_finalized_seq run in blocks QEMU chained
# before the trace began (seen only with nochain)
MUST_SEE = {"setup_arch: bl": ("kallsyms_lookup", "get_symbol_pos"),
            "setup_arch: dmesg 20": ("kmsg_dump_get_line", "desc_read_finalized_seq"),
            f"entry at {SOON}": ("nmi_handle",)}
# Refused by name too: the glue's callees, the APIC driver's IPI (a pointer)
BY_NAME = ("kallsyms_lookup_name", "kmsg_dump_get_line", "idle_task", "vsnprintf",
           "nmi_handle", "flat_send_IPI_mask_allbutself", "fixup_exception")


def kdb_commands(t, k, where, extra=()):
    """Each command a user types at a stop, traced on its own."""
    for c in COMMANDS + tuple(extra):
        if "{n}" in c:
            c = c.format(n=re.findall(r"BP #(\d+)", k.cmd("bl"))[-1])
        with t.tracing(f"{where}: {c}"):
            out = k.cmd(c)
        if c.startswith("bp "):
            assert re.search(r"^Instruction\(i\) BP #\d+ at ", out, re.M), out   # an ordinary function


def linux_functions(vml, t, labels=None):
    """{start of a Linux function seen: (name, labels it was seen under)}."""
    seen = {}
    for label, per_cpu in t.pcs.items():
        if labels is not None and label not in labels:
            continue
        for name, pcs in vml.classify(per_cpu).get("linux", {}).items():
            start = vml.function(min(pcs))[1]
            seen.setdefault(start, (name, set()))[1].add(label)
    return seen


def write_report(vml, t, path):
    """What was seen, per command and class (ekdb's own: a count)."""
    with open(path, "w") as f:
        for label, per_cpu in t.pcs.items():
            for cls, fns in sorted(vml.classify(per_cpu).items()):
                f.write(f"{label}: {cls}: "
                        f"{len(fns) if cls == 'ekdb' else ' '.join(sorted(fns))}\n")


def not_refused_msg(missed):
    return "Linux functions the stop path runs, not refused:\n" + "\n".join(
        f"  {name} ({', '.join(sorted(labels))})" for name, labels in missed)


def test_stop_path_in_linux_is_refused(bare_machine, linux_kernel, tmp_path):
    bz, initrd = linux_kernel
    m = bare_machine(cmdline=f"{EKDB_WAIT} nokaslr", linux=bz, initrd=initrd, smp=2)
    m.wait_for(PROMPT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|" + INIT)
    k = Kdb(m)
    vml = Vmlinux()
    t = ExecTrace(m, tmp_path)
    kdb_commands(t, k, "setup_arch")
    for n, f in enumerate(FILLER):
        assert f"BP #{n} " in k.cmd(f"bp {f}")
        k.cmd(f"bd {n}")
    assert "BP #16 " in k.cmd(f"bp {LATE}")
    k.mark()
    k.type("go")
    k.enter()
    m.wait_for(STOP, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|" + INIT)
    m.wait_for(PROMPT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD)
    out = m.output(0)
    assert "handoff to kgdb refused" in out
    # room for every range nobp.c adds (core/bp.c's NOBP_EXTRA)
    assert "not refused to breakpoints (no room)" not in out, out
    kdb_commands(t, k, LATE, extra=("bt", "cpu 0"))
    # a stop's entry with CPU 1 up: CPU 0's int3, CPU 1's round-up NMI
    # (no step over a breakpoint on the way: all cleared)
    k.cmd("bc *")
    assert "BP #0 " in k.cmd(f"bp {SOON}")
    with t.tracing(f"entry at {SOON}", entries={vml.sym["asm_exc_int3"], vml.sym["asm_exc_nmi"]}):
        k.mark()
        k.type("go")
        k.enter()
        assert m.wait_for(STOP, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|" + INIT).group(1) == "0"
        m.wait_for(PROMPT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD)
    k.cmd("bc 0")
    assert set(t.pcs[f"entry at {SOON}"]) == {0, 1}, "both CPUs' entries traced"

    write_report(vml, t, tmp_path / "stop-path.txt")
    # the trace sees the stop path: ekdb's own code in every command, and
    # the Linux callees the glue is known to have
    for label, per_cpu in t.pcs.items():
        assert "ekdb" in vml.classify(per_cpu), f"{label}: no ekdb code in the trace"
    for label, names in MUST_SEE.items():
        traced = vml.classify(t.pcs[label]).get("linux", {})
        assert set(names) <= set(traced), f"{label}: {set(names) - set(traced)} not traced"

    # every Linux function seen is refused (by its address: a name may be
    # ekdb's own too, strcmp), and a few by name
    seen = linux_functions(vml, t)
    missed = []
    for start, (name, labels) in sorted(seen.items()):
        out = k.cmd(f"bp {start:#x}")
        if "the debugger cannot stop there" not in out:
            missed.append((name, labels))
            k.cmd("bc " + re.search(r"BP #(\d+)", out).group(1))
    assert not missed, not_refused_msg(missed)
    for name in BY_NAME:
        assert REFUSED.format(name) in k.cmd(f"bp {name}")

    # gdb on the line kdb is on: its first packet switches ekdb to gdb
    m.release_port(0)
    g = Gdb(VMLINUX, log_path=tmp_path / "gdb.log")
    try:
        with t.tracing("gdb"):
            g.cmd("set remote noack-packet off")
            g.connect(m.socket_path(0))
            assert SOON in g.cmd("bt")
            assert "Thread" in g.cmd("info threads")
            assert re.search(r"^rip\s+0x", g.cmd("info registers"), re.M)
            assert "0x" in g.cmd("x/4gx &jiffies_64")
            g.cmd("set breakpoint always-inserted on")
            g.cmd("break vfs_read")
            g.cmd("delete")
        write_report(vml, t, tmp_path / "stop-path.txt")
        # gdb's Z0 is refused there too (E reply), checked where kdb did not
        new = {s: v for s, v in linux_functions(vml, t, {"gdb"}).items() if s not in seen}
        refused = re.compile(r'received: "E[0-9a-f.]')   # E01, E.01.<why>
        missed = [v for s, v in sorted(new.items())
                  if not refused.search(g.cmd(f"maint packet Z0,{s:x},1"))]
        assert not missed, not_refused_msg(missed)
        assert refused.search(g.cmd(f"maint packet Z0,{vml.sym['kallsyms_lookup']:x},1"))
        assert 'received: "OK"' in g.cmd(f"maint packet Z0,{vml.sym['vfs_read']:x},1")
        assert 'received: "OK"' in g.cmd(f"maint packet z0,{vml.sym['vfs_read']:x},1")
        g.detach()
    finally:
        g.close()
    m.take_port(0)
    m.wait_for(INIT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + r"|Entering kdb")
