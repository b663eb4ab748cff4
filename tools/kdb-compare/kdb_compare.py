#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""kdb_compare.py: type the same kdb commands into ekdb and into a real
Linux 6.1 kdb, side by side, and classify each output.

    tools/kdb-compare/setup.sh /tmp/kdb-compare-linux      # once: the Linux kernel
    make                                                   # ekdb's build/
    /usr/bin/python3 tools/kdb-compare/kdb_compare.py --linux /tmp/kdb-compare-linux \\
        --out docs/kdb-compare.md

Both machines run under QEMU (TCG), 2 CPUs, 512 MiB, no network, kdb on
ttyS0 with kgdbwait: ekdb through tools/ekdb-qemu (OVMF, the loader, the
reference kernel), Linux with -kernel/-initrd (the bzImage setup.sh builds
and a busybox initramfs this script writes).  Keys are typed one at a time
as a person would (tests/integration/kdb_session.py), in the same order on
both; each step's transcript is classified:

  identical   the same text
  slight      the same after masking what must differ between two kernels:
              addresses, numbers, symbol offsets, and per step the kernel's
              own data (task and module names, log text, the kernel's name
              and date); for a listing (ps, bt, help ...) the same set of
              line formats
  very        anything else

The report (markdown) gives the counts, one row per step, then both
transcripts of every step that is not identical with the masked
differences.  Not part of `make check`: it needs the Linux kernel.
"""

import argparse
import difflib
import os
import re
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "tests", "integration"))

from kdb_session import ENTRY, MORE, PROMPT, Kdb, clean  # noqa: E402
from qemu import BOOT_TIMEOUT, SCALE, Machine, MachineError, Port  # noqa: E402

SHELL = r"(?:ekdb|linux):/# "
CMD_TIMEOUT = 90 * SCALE
BAD = r"Kernel panic|ekdb loader: error|cannot boot"

# --------------------------------------------------------------------- Linux


def newc(entries):
    """A cpio 'newc' archive of (name, mode, data, rdev) entries."""
    out = bytearray()

    def one(ino, name, mode, data, rdev=(0, 0)):
        nm = name.encode() + b"\0"
        hdr = "070701" + "".join(f"{v:08x}" for v in (
            ino, mode, 0, 0, 1, 0, len(data), 0, 0, rdev[0], rdev[1], len(nm), 0))
        out.extend(hdr.encode() + nm)
        out.extend(b"\0" * (-len(out) % 4))
        out.extend(data)
        out.extend(b"\0" * (-len(out) % 4))

    for ino, (name, mode, data, rdev) in enumerate(entries, 1):
        one(ino, name, mode, data, rdev)
    one(0, "TRAILER!!!", 0, b"")
    return bytes(out)


INIT = """#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
export PS1='linux:/# '
exec setsid cttyhack sh
"""


def make_initrd(linux_dir, path):
    with open(os.path.join(linux_dir, "busybox"), "rb") as f:
        bb = f.read()
    d, x, c = 0o040755, 0o100755, 0o020600
    entries = [("bin", d, b"", (0, 0)), ("proc", d, b"", (0, 0)), ("sys", d, b"", (0, 0)),
               ("dev", d, b"", (0, 0)), ("tmp", d, b"", (0, 0)),
               ("dev/console", c, b"", (5, 1)),
               ("bin/busybox", x, bb, (0, 0)), ("init", x, INIT.encode(), (0, 0))]
    with open(path, "wb") as f:
        f.write(newc(entries))


class LinuxMachine(Machine):
    """Linux under plain QEMU: -kernel/-initrd, serial ports on unix sockets
    (QEMU waits for the Machine to connect before it starts the guest)."""

    def __init__(self, tmp_path, kernel, initrd, append, **kw):
        self.kernel, self.initrd, self.append = kernel, initrd, append
        super().__init__(tmp_path, qmp=False, **kw)

    def command(self):
        cmd = [os.environ.get("EKDB_QEMU", "qemu-system-x86_64"), "-display", "none",
               "-monitor", "none", "-net", "none", "-no-reboot", "-m", "512",
               "-smp", str(self.smp), "-kernel", self.kernel, "-initrd", self.initrd,
               "-append", self.append]
        for i, kind in enumerate(self.kinds):
            assert kind == "unix", kind
            path = os.path.join(self.sockdir, f"ttyS{i}.sock")
            self.ports.append(Port(i, kind, path, self._path(f"ttyS{i}.log")))
            cmd += ["-serial", f"unix:{path},server=on,wait=on"]
        self.launcher_log = self._path("qemu.log")
        return cmd

    def start(self):
        super().start()
        return self


# --------------------------------------------------------------------- sides


class Side:
    """One kernel: its Machine, kdb on ttyS0, and the transcripts."""

    def __init__(self, name, machine):
        self.name, self.m = name, machine
        self.k = Kdb(machine)
        self.where = "kdb"              # or "shell"

    def text_since(self, start):
        return clean(self.m.output(0)[start:])

    # What a person sees for one command: the prompt line, then the output.
    def cmd(self, line):
        prompt = self.prompt()
        out = self.k.cmd(line, timeout=CMD_TIMEOUT)
        return f"{prompt}{line}\n{out}".rstrip("\n")

    def prompt(self):
        m = list(re.finditer(PROMPT, self.m.output(0)))
        return m[-1].group(0) if m else "[0]kdb> "

    def wait(self, rx, timeout=CMD_TIMEOUT):
        return self.k.wait(rx, timeout=timeout, fail_on=BAD)


def entry_text(side, start, match):
    """The lines from the first line after @start (the typed command's echo
    excluded) to the entry line, inclusive."""
    raw = side.m.output(0)[start:match.end()]
    lines = clean(raw).split("\n")
    return "\n".join(ln for ln in lines[1:] if ln.strip()).rstrip("\n")


# --------------------------------------------------------------------- steps
# Each step function takes a Side and returns the transcript.  Both sides
# get exactly the same keys.

def st_kgdbwait(s):
    e = s.wait(ENTRY, timeout=BOOT_TIMEOUT * 2)
    s.wait(PROMPT, timeout=BOOT_TIMEOUT)
    return e.group(0).rstrip()


def st_sysrq(s):
    s.k.mark()
    s.k.type("go")
    s.k.enter()
    s.wait(SHELL, timeout=BOOT_TIMEOUT * 2)
    time.sleep(1)                       # let the boot's last lines drain
    s.k.mark()
    s.wait_quiet()
    start = s.k.mark()
    s.k.type("echo g > /proc/sysrq-trigger")
    s.k.enter()
    e = s.wait(ENTRY, timeout=BOOT_TIMEOUT)
    s.wait(PROMPT)
    return entry_text(s, start, e)


def cmds(*lines):
    def run(s):
        return "\n".join(s.cmd(ln) for ln in lines)
    run.lines = lines
    return run


def st_cpu_switch(s):
    """cpu <the other CPU>, go (refused there), cpu <the entry CPU>: the
    entry CPU is whichever ran the shell's write."""
    n = int(re.match(PROMPT, s.prompt()).group(1))
    out = [s.cmd(f"cpu {1 - n}")]
    if "diag:" in out[0]:               # no such CPU: go would resume the kernel
        return out[0]
    return "\n".join(out + [s.cmd(ln) for ln in ("go", f"cpu {n}")])


def st_full_table(s):
    """bp on 16 addresses then a 17th: Linux's table has KDB_MAXBPT = 16."""
    outs = [s.cmd(f"bp vprintk+{i}") for i in range(17)]
    res = "\n".join(outs[-2:])
    res += "\n" + s.cmd("bc *").split("\n")[0] + "\n..."
    return res


def st_pager(s):
    """LINES 10; help; Enter (a line), x (not a pager key), / search, space
    (a page), q.  The raw screen as a person reads it."""
    out = [s.cmd("set LINES 10")]
    start = s.k.mark()
    s.k.type("help")
    s.k.enter()
    s.wait(MORE)
    s.k.key("\r")
    s.wait(MORE)
    s.k.key("x")
    s.wait(MORE)
    s.k.key("/")
    s.wait(r"search> |more> ")          # Linux asks for the string
    s.k.type("summary")
    s.k.key("\r")
    s.wait(MORE)
    s.k.key(" ")
    if s.wait(f"{MORE}|{PROMPT}").group(0) == "more> ":
        s.k.key("q")
        s.wait(PROMPT)
    out.append(s.prompt() + clean(s.m.output(0)[start:]).rstrip("\n"))
    out.append(s.cmd("set LINES 24"))
    return "\n".join(out)


def st_bp_hit(s):
    out = [s.cmd("bp schedule")]
    start = s.k.mark()
    s.k.type("go")
    s.k.enter()
    e = s.wait(ENTRY, timeout=BOOT_TIMEOUT)
    s.wait(PROMPT)
    out.append(s.prompt() + "go\n" + entry_text(s, start, e))
    out.append(s.cmd("bc *"))
    return "\n".join(out)


def packet(data):
    return f"${data}#{sum(data.encode()) & 0xff:02x}"


def st_gdb_d44(s):
    """kgdb; a gdb's greeting and '?' on the line; maintenance packet 3 back
    to kdb; then the $D#44 gdb sends when it quits, and Enter."""
    start = s.k.mark()
    s.k.type("kgdb")
    s.k.enter()
    s.wait(r"\$3#33")
    for p in (packet("qSupported:multiprocess+;swbreak+;hwbreak+;xmlRegisters=i386"),
              "$?#3f"):
        s.m.send(0, ("+" + p).encode())
        s.wait(r"\$[^$#]*#[0-9a-f]{2}")
    s.m.send(0, b"+$3#33")
    s.wait(ENTRY)
    s.wait(PROMPT)
    s.m.send(0, b"$D#44")
    r = s.wait(r"\$OK#9a|#44")
    s.k.key("\r")
    r = s.wait(f"{PROMPT}|{SHELL}")
    s.where = "shell" if re.match(SHELL, r.group(0)) else "kdb"
    return clean(s.m.output(0)[start:r.end()]).rstrip()


# (id, step, extra masks, compare as a set of line formats)
TASK = (r"(?m)(\s[RSDIMXTZWCims-]\s+HEX\s+\*?)\S.*$", r"\1COMM")
STEPS = [
    ("entry at kgdbwait", st_kgdbwait, (), False),
    ("entry at sysrq-g", st_sysrq, [(r"(?m)^.*\becho g\b.*$", "")], False),
    ("help", cmds("help"), (), True),
    ("bp, bl", cmds("bp vprintk", "bl"), (), False),
    ("bp duplicate", cmds("bp vprintk"), (), False),
    ("bd, be", cmds("bd 0", "be 0", "bl"), (), False),
    ("bph dataw", cmds("bph jiffies dataw", "bl"), (), False),
    ("bc", cmds("bc 1", "bc *", "bl"), (), False),
    ("bp 0", cmds("bp 0"), (), False),
    ("bp: full table", st_full_table, (), False),
    ("md", cmds("md init_task 2"), [(r"(?m)(HEX(?: HEX)+)\s+.*$", r"\1 TEXT")], False),
    ("md1, md2", cmds("md1 init_task 1", "md2 init_task 1"),
     [(r"(?m)(HEX(?: HEX)+)\s+.*$", r"\1 TEXT")], False),
    ("md4, md8", cmds("md4 init_task 1", "md8 init_task 1"),
     [(r"(?m)(HEX(?: HEX)+)\s+.*$", r"\1 TEXT")], False),
    ("md4c2", cmds("md4c2 init_task"), [(r"(?m)(HEX(?: HEX)+)\s+.*$", r"\1 TEXT")], False),
    ("mds", cmds("mds %sp 2"), [(r"(?m)^(HEX HEX) .*$", r"\1 REST")], False),
    ("mdr", cmds("mdr init_task 8"), [(r"(?m)^[0-9a-f]{16}$", "HEX")], False),
    ("md bad address", cmds("md 0 1"), (), False),
    ("mm read-only text", cmds("mm kernel_init 0"), (), False),
    ("mm bad address", cmds("mm 0 1"), (), False),
    ("rd", cmds("rd"), (), True),
    ("rm cr0, rm bad name", cmds("rm cr0 1", "rm nosuch 1"), (), False),
    ("go x y", cmds("go x y"), (), False),
    ("ss", cmds("ss"), (), False),
    ("bt", cmds("bt"), [TASK, (r"(?m)^\s*\??\s*SYM\+OFF$", " SYM+OFF"),
                        (r"(?m)^(CPU: N PID: N Comm: )\S+ .*$", r"\1COMM ..."),
                        (r"(?m)^Code: .*$", "Code: BYTES"),
                        (r"(?m)^RIP: (HEX:)?\S+$", "RIP: SYM")], True),
    ("btp 2", cmds("btp 2"), [TASK, (r"(?m)^\s*\??\s*SYM\+OFF$", " SYM+OFF"),
                              (r"(?m)^(CPU: N PID: N Comm: )\S+ .*$", r"\1COMM ...")], True),
    ("btc", cmds("btc"), [TASK, (r"(?m)^\s*\??\s*SYM\+OFF$", " SYM+OFF"),
                          (r"(?m)^(CPU: N PID: N Comm: )\S+ .*$", r"\1COMM ..."),
                          (r"(?m)^Code: .*$", "Code: BYTES"),
                          (r"(?m)^RIP: (HEX:)?\S+$", "RIP: SYM")], True),
    ("bta R", cmds("set BTAPROMPT 0", "bta R"),
     [TASK, (r"(?m)^\s*\??\s*SYM\+OFF$", " SYM+OFF"),
      (r"(?m)^(CPU: N PID: N Comm: )\S+ .*$", r"\1COMM ..."),
      (r"(?m)^Code: .*$", "Code: BYTES"), (r"(?m)^RIP: (HEX:)?\S+$", "RIP: SYM")], True),
    ("ps", cmds("ps"), [TASK], True),
    ("pid 99, pid 2, rd, pid R", cmds("pid 99", "pid 2", "rd", "pid R"),
     [(r"process is \S+\(", "process is COMM(")], False),
    ("cpu", cmds("cpu"), (), False),
    ("cpu N, go, cpu M", st_cpu_switch, (), False),
    ("env", cmds("env"), (), False),
    ("set", cmds("set RADIX 7", "set FOO=bar", "env | grep FOO"), (), False),
    ("dmesg 3", cmds("dmesg 3"), [(r"(?m)^(<N>\[\s*N\.N\] ).*$", r"\1TEXT")], False),
    ("lsmod", cmds("lsmod"), [(r"(?m)^\S+(\s+N\s+HEX)", r"MOD\1")], True),
    ("summary", cmds("summary"),
     [(r"(?m)^(sysname|release|version|machine|nodename|domainname|date)\s+.*$", r"\1 X")],
     False),
    ("sr h", cmds("sr h"), (), False),
    ("unknown command", cmds("frobnicate now"), (), False),
    ("an expression", cmds("panic+0x10"), (), False),
    ("pager: Enter, x, /, space, q", st_pager, (), False),
    ("entry at a breakpoint", st_bp_hit, [(r"(?m)^(\[N\]kdb> )", r"[N]kdb> ")], False),
    ("kgdb, then $D#44 after $3#33", st_gdb_d44,
     [(r"\$[A-Za-z0-9]*[^$#\n]*#[0-9a-f]{2}", "PACKET")], False),
]

# --------------------------------------------------------------------- masks

BASE_MASKS = [
    (r"\b[A-Za-z_][\w.]*\+0x[0-9a-f]+(?:/0x[0-9a-f]+)?(?: \[\w+\])?", "SYM+OFF"),
    (r"0x[0-9a-fA-F]+", "HEX"),
    (r"\b[0-9a-f]{6,16}\b", "HEX"),
    (r"\b\d+\b", "N"),
]


def mask(text, extra):
    for rx, rep in BASE_MASKS:
        text = re.sub(rx, rep, text)
    for rx, rep in extra:
        text = re.sub(rx, rep, text)
    return [ln.rstrip() for ln in text.split("\n")]


def same_cpu(text):
    """Which CPU ran the shell's write (and so entered kdb) is chance: the
    prompt's and the entry line's CPU number count as equal."""
    return re.sub(r"on processor \d+", "on processor N", re.sub(r"\[\d+\]kdb> ", "[N]kdb> ", text))


def classify(a, b, extra, shapes):
    a, b = same_cpu(a), same_cpu(b)
    if a == b:
        return "identical"
    ma, mb = mask(a, extra), mask(b, extra)
    if ma == mb:
        return "slight"
    if shapes and set(ma) == set(mb):
        return "slight"
    return "very"


# --------------------------------------------------------------------- run


def run_side(side, only):
    res = {}
    for name, fn, _, _ in STEPS:
        if only and name not in only and name not in ("entry at kgdbwait", "entry at sysrq-g"):
            continue
        if side.where != "kdb":
            res[name] = "(not run: the kernel is no longer in kdb)"
            continue
        try:
            res[name] = fn(side)
        except MachineError as e:
            res[name] = f"(step failed: {str(e).splitlines()[0]})"
            print(f"{side.name}: {name}: {e}", file=sys.stderr)
            try:                         # back to a prompt for the next step
                side.k.key("q")
                side.k.key("\r")
                side.wait(PROMPT, timeout=30)
            except MachineError:
                side.where = "lost"
        print(f"{side.name}: {name}: done", file=sys.stderr, flush=True)
    return res


def wait_quiet(self, pause=2.0):
    """Until the line has been quiet for @pause seconds (the boot's last
    messages before the shell command is typed)."""
    n = -1
    while n != len(self.m.output(0)):
        n = len(self.m.output(0))
        time.sleep(pause)


Side.wait_quiet = wait_quiet


def report(res_l, res_e, path, meta):
    rows, counts = [], {"identical": 0, "slight": 0, "very": 0}
    detail = []
    for name, fn, extra, shapes in STEPS:
        if name not in res_l or name not in res_e:
            continue
        a, b = res_l[name], res_e[name]
        c = classify(a, b, extra, shapes)
        counts[c] += 1
        rows.append((name, c))
        if c != "identical":
            ma, mb = mask(a, extra), mask(b, extra)
            diff = [ln for ln in difflib.unified_diff(ma, mb, "linux", "ekdb", lineterm="", n=0)
                    if not ln.startswith("@@")]
            detail.append(f"### {name}: {c}\n\nLinux 6.1:\n```\n{a}\n```\nekdb:\n```\n{b}\n```\n"
                          + (f"masked difference:\n```\n" + "\n".join(diff[2:]) + "\n```\n"
                             if c == "very" else ""))
    total = sum(counts.values())
    out = [f"# kdb side by side: ekdb and Linux 6.1\n",
           "Generated by `tools/kdb-compare/kdb_compare.py` (see docs/kdb.md, "
           "\"Compared with Linux\"); do not edit by hand.\n",
           f"{meta}\n",
           f"**{total} steps: {counts['identical']} identical, {counts['slight']} slightly "
           f"different, {counts['very']} very different.**\n",
           "| step | keys typed | result |", "|---|---|---|"]
    for (name, c), (_, fn, _, _) in zip(rows, [s for s in STEPS if s[0] in dict(rows)]):
        keys = "; ".join(getattr(fn, "lines", ())) or (fn.__doc__ or "").split(".")[0].split(":")[0].strip()
        keys = keys.replace("|", "\\|").replace("\n", " ")
        out.append(f"| {name} | `{keys}` | {c} |" if getattr(fn, "lines", None)
                   else f"| {name} | {keys or 'see the transcript'} | {c} |")
    out.append("\n## Steps that differ\n")
    out.extend(detail)
    out.append("## Identical steps\n")
    for name, c in rows:
        if c == "identical":
            out.append(f"### {name}\n```\n{res_e[name]}\n```\n")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    return counts


def run_linux(args, logs):
    bz = os.path.join(args.linux, "build", "arch", "x86", "boot", "bzImage")
    if not os.path.exists(bz):
        sys.exit(f"kdb_compare: no {bz}: run tools/kdb-compare/setup.sh {args.linux}")
    initrd = os.path.join(logs, "initrd.cpio")
    make_initrd(args.linux, initrd)
    linux = LinuxMachine(logs, bz, initrd, "console=ttyS0 kgdboc=ttyS0 kgdbwait nokaslr",
                         smp=2, name="linux")
    try:
        res = run_side(Side("linux", linux), args.only)
    finally:
        linux.kill()
    ver = re.search(r"Linux version (\S+)", linux.output(0))
    return {"version": ver.group(1) if ver else "6.1", "steps": res}


def run_ekdb(args, logs):
    if not os.path.exists(os.path.join(REPO, "build", "kernel.elf")):
        sys.exit("kdb_compare: no build/kernel.elf: run make")
    ekdb = Machine(logs, cmdline="earlyprintk=serial,ttyS0,115200 ekgdboc=ttyS0 kgdbwait nokaslr",
                   smp=2, name="ekdb", qmp=False, lifetime=3600)
    try:
        res = run_side(Side("ekdb", ekdb), args.only)
    finally:
        ekdb.kill()
    rev = os.popen(f"git -C {REPO} describe --always --dirty").read().strip()
    return {"version": rev, "steps": res}


def main():
    import json
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--linux", help="the directory tools/kdb-compare/setup.sh filled")
    ap.add_argument("--out", default="kdb-compare.md", help="report (markdown)")
    ap.add_argument("--logs", help="where the serial logs and the transcripts "
                                   "(linux.json, ekdb.json) go (default: a temp dir)")
    ap.add_argument("--only", action="append", help="run only this step (repeatable)")
    ap.add_argument("--linux-json", metavar="JSON",
                    help="Linux's transcripts from an earlier run instead of booting Linux "
                         "(while fixing ekdb)")
    ap.add_argument("--ekdb-json", metavar="JSON",
                    help="ekdb's transcripts from an earlier run instead of booting ekdb")
    args = ap.parse_args()
    if not args.linux and not args.linux_json:
        ap.error("give --linux DIR (or --linux-json from an earlier run)")
    logs = args.logs or tempfile.mkdtemp(prefix="kdb-compare-")
    os.makedirs(logs, exist_ok=True)
    sides = {}
    for name, given, run in (("linux", args.linux_json, run_linux),
                             ("ekdb", args.ekdb_json, run_ekdb)):
        if given:
            with open(given) as f:
                sides[name] = json.load(f)
        else:
            sides[name] = run(args, logs)
            with open(os.path.join(logs, f"{name}.json"), "w") as f:
                json.dump(sides[name], f, indent=1)
    meta = (f"Linux {sides['linux']['version']} (Debian's linux-source-6.1, "
            "tools/kdb-compare/linux-kdb.config) and ekdb "
            f"{sides['ekdb'].get('version', '?')}, both under QEMU TCG with -smp 2, "
            "kdb on ttyS0 at kgdbwait.")
    counts = report(sides["linux"]["steps"], sides["ekdb"]["steps"], args.out, meta)
    print(f"kdb_compare: {sum(counts.values())} steps: {counts['identical']} identical, "
          f"{counts['slight']} slightly different, {counts['very']} very different "
          f"-> {args.out} (serial logs and transcripts in {logs})")


if __name__ == "__main__":
    main()
