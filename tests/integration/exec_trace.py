# SPDX-License-Identifier: GPL-2.0
"""Which Linux functions ekdb runs while it is stopped, seen by QEMU
(issue 34): QEMU's execution trace (`-d exec`, one line per translation
block run, with its guest pc), turned on through QMP only while ekdb
serves a command, mapped to the functions of build/linux/vmlinux.

    t = ExecTrace(m, tmp_path)           # m: a Machine booted with nokaslr
    with t.tracing("bt"):                # the trace of one command
        k.cmd("bt")
    t.pcs["bt"]                          # {cpu: set of pcs}
    others = Vmlinux().classify(t.pcs["bt"])["linux"]   # name -> pcs

The trace is HMP `logfile <file>` + `log exec,nochain` (QEMU 7.2 puts
nochain into each new block's lookup flags: no block chained to another
skips the log), then `log none` (which closes the file).  Each command gets
its own file, read (unique pcs per CPU) and deleted at once (kept with
EKDB_KEEP_TRACE=1 in the environment): a stop that waits for a key runs
ekdb's poll loop, which logs fast.

The kernel must run at its link address (`nokaslr`): pcs are looked up in
vmlinux's symbol table as linked.  Classes (Vmlinux.classify):
  ekdb   ekdb.o's text (__ekdb_text_start.._end, local symbols in vmlinux)
  nobp   the glue's stop path, .text..ekdb_nobp (__ekdb_nobp_text_start.._end)
  entry  Linux's entry and noinstr text (already refused by ekdb)
  linux  any other function of vmlinux: what the stop path calls in Linux
  other  a pc outside vmlinux's text (firmware, user space)
"""

import bisect
import contextlib
import os
import re
import subprocess

from test_linux import VMLINUX

# QEMU 7.2's exec line: "Trace <cpu>: <host ptr> [<cs_base>/<pc>/<flags>/<cflags>] <sym>"
TRACE_LINE = re.compile(rb"^Trace (\d+): 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/", re.M)

RANGES = {
    "ekdb": ("__ekdb_text_start", "__ekdb_text_end"),
    "nobp": ("__ekdb_nobp_text_start", "__ekdb_nobp_text_end"),
    "entry": ("__entry_text_start", "__entry_text_end"),
    "noinstr": ("__noinstr_text_start", "__noinstr_text_end"),
}


class ExecTrace:
    """QEMU's exec trace of a Machine, on and off by QMP."""

    def __init__(self, m, tmp_path):
        self.m, self.dir = m, str(tmp_path)
        self.pcs = {}           # label -> {cpu: set(pc)}
        self.n = 0

    def hmp(self, line):
        out = self.m.qmp().execute("human-monitor-command", {"command-line": line})
        assert not out.strip(), f"HMP {line!r}: {out}"

    @contextlib.contextmanager
    def tracing(self, label, entries=None):
        """Trace what runs inside the with block under @label; with
        @entries (pcs: the exception entries a stop comes through), each
        CPU's pcs from the first of them on only (the kernel that ran
        before it is left out)."""
        path = os.path.join(self.dir, f"exec-{self.n}.log")
        self.n += 1
        self.hmp(f"logfile {path}")
        self.hmp("log exec,nochain")
        try:
            yield
        finally:
            self.hmp("log none")
            self.pcs.setdefault(label, {})
            for cpu, pcs in read_trace(path, entries).items():
                self.pcs[label].setdefault(cpu, set()).update(pcs)
            if not os.environ.get("EKDB_KEEP_TRACE"):
                os.unlink(path)


def read_trace(path, entries=None):
    """{cpu: set of pcs} of a QEMU exec log (with @entries: each CPU's
    from the first pc in @entries on)."""
    per_cpu = {}
    with open(path, "rb") as f:
        data = f.read()
    if entries is None:
        for cpu, pc in set(TRACE_LINE.findall(data)):
            per_cpu.setdefault(int(cpu), set()).add(int(pc, 16))
    else:
        for cpu, pc in TRACE_LINE.findall(data):
            cpu, pc = int(cpu), int(pc, 16)
            if cpu in per_cpu:
                per_cpu[cpu].add(pc)
            elif pc in entries:
                per_cpu[cpu] = {pc}
    assert per_cpu, f"{path}: no exec trace lines (QEMU's -d exec format changed?)"
    return per_cpu


class Vmlinux:
    """vmlinux's functions, sorted by address, for pc -> function."""

    def __init__(self, path=VMLINUX):
        out = subprocess.run(["nm", "-n", "-S", path], capture_output=True, text=True,
                             check=True).stdout
        self.addr, self.name, self.end, self.sym = [], [], [], {}
        for ln in out.splitlines():
            f = ln.split()
            if len(f) == 4 and f[2] in "tTwW":
                a, size = int(f[0], 16), int(f[1], 16)
                self.addr.append(a)
                self.name.append(f[3])
                self.end.append(a + size)
            if len(f) >= 3:
                self.sym.setdefault(f[-1], int(f[0], 16))
        self.ranges = {k: (self.sym[s], self.sym[e]) for k, (s, e) in RANGES.items()}
        self.text = (self.sym["_stext"], self.sym["_etext"])
        self.inittext = (self.sym["_sinittext"], self.sym["_einittext"])

    def function(self, pc):
        """The function holding @pc (name, start), or None."""
        i = bisect.bisect_right(self.addr, pc) - 1
        if i < 0 or pc >= self.end[i]:
            return None
        return self.name[i], self.addr[i]

    def where(self, pc):
        for k, (s, e) in self.ranges.items():
            if s <= pc < e:
                return "entry" if k == "noinstr" else k
        if any(s <= pc < e for s, e in (self.text, self.inittext)):
            return "linux"
        return "other"

    def classify(self, per_cpu):
        """{class: {function name: set of pcs}} of {cpu: pcs}."""
        out = {}
        for pcs in per_cpu.values():
            for pc in pcs:
                c = self.where(pc)
                f = self.function(pc)
                name = f[0] if f else f"{pc:#x}"
                out.setdefault(c, {}).setdefault(name, set()).add(pc)
        return out
