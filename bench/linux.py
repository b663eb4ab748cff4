# SPDX-License-Identifier: GPL-2.0
"""make bench's Linux column (docs/bench.md (g)): ekdb's early stub inside
Linux 6.1 (`make linux`'s kernel) against Linux's own kgdb, on the same
line (ttyS1, a unix socket), same kernel image, same run, real gdb running
bench/gdb_measure.py on build/linux/vmlinux.

  ekdb:  ekdb.ekgdboc=ttyS1 ekdb.kgdbwait  (stops in setup_arch())
  Linux: kgdboc=ttyS1 kgdbwait             (stops when kgdboc registers,
                                            after the 8250 driver is up)

Both boot with `nokaslr`: Linux's stub has no qOffsets, so gdb would not
know where the kernel runs (ekdb's would; nokaslr keeps the comparison on
one footing).  The breakpoint function (--linux-bp-func, default
kmem_cache_alloc) is called often after either stop.
"""

import os
import subprocess

from common import BASE_CMDLINE, REPO, Machine, MachineError, log

LINUX_DIR = os.path.join(REPO, "build", "linux")
STUBS = (
    ("linux-ekdb", "ekdb.ekgdboc=ttyS1 ekdb.kgdbwait"),
    ("linux-kgdb", "kgdboc=ttyS1 kgdbwait"),
)
# ekdb says "kgdb: ...", Linux's debug core "KGDB: ..."
WAITING = r"(?i:kgdb): Waiting for connection from remote gdb"


def build():
    """`make linux` (a few seconds when cached): the paths, or an error text."""
    r = subprocess.run(["make", "--no-print-directory", "-C", REPO, "linux"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode:
        return None, "make linux failed: " + " / ".join(r.stdout.splitlines()[-3:])
    return {k: os.path.join(LINUX_DIR, f) for k, f in
            (("bzImage", "bzImage"), ("vmlinux", "vmlinux"),
             ("initrd", "initramfs.cpio.gz"))}, None


def one(args, work, name, params, paths, measure, gdb_env):
    cmdline = f"console=ttyS0,115200 {BASE_CMDLINE} nokaslr {params}"
    m = Machine(work, name=name, qmp=False, cmdline=cmdline, linux=paths["bzImage"],
                initrd=paths["initrd"], ports=("unix", "socket"))
    try:
        m.wait_for(WAITING, timeout=args.boot_timeout)
        env = gdb_env(args, m.socket_path(1), None)
        env["BENCH_BP_FUNC"] = args.linux_bp_func
        res = measure(args, work, name, m.socket_path(1), env, args.gdb_timeout)
    except MachineError as e:
        res = {"error": str(e).splitlines()[0]}
    finally:
        m.kill()
    return res


def linux_stubs(args, work, measure, gdb_env):
    """{"linux-ekdb": figures, "linux-kgdb": figures} (or {"error": ...})."""
    paths, err = build()
    if err:
        return {"error": err}
    sub = type(args)(**vars(args))
    sub.kernel = paths["vmlinux"]
    out = {}
    for name, params in STUBS:
        log(f"(g) Linux: {name} ...")
        out[name] = one(sub, work, name, params, paths, measure, gdb_env)
    return out


def report(res, figures, fmt_rate, w=print):
    """The (g) section: one row per figure, ekdb inside Linux / Linux's kgdb."""
    r = res.get("linux", {"error": "skipped"})
    w("(g) Linux 6.1 (make linux, nokaslr): ekdb's early stub vs Linux's own kgdb, ttyS1 on a "
      "unix socket, real gdb on vmlinux")
    if r.get("error"):
        w(f"    not measured: {r['error']}")
        w("")
        return
    e, k = r.get("linux-ekdb", {}), r.get("linux-kgdb", {})
    fe, fk = figures(e), figures(k)
    w(f"    {'figure':34} {'ekdb in Linux':>14} {'Linux kgdb':>12} {'ekdb/Linux':>11}")

    def row(label, key, fmt):
        a, b = fe.get(key), fk.get(key)
        ratio = f"{a / b:.3g}x" if (a and b) else "-"
        w(f"    {label:34} {fmt(a):>14} {fmt(b):>12} {ratio:>11}")

    row("memory read 64 KiB (median of 3)", "mem", fmt_rate)
    row(f"stepi x{e.get('stepi_n', '?')}/{k.get('stepi_n', '?')} (per second)", "stepi",
        lambda v: "-" if v is None else f"{v:.0f} /s")
    row("bp hit+continue (median)", "bp",
        lambda v: "-" if v is None else f"{v * 1e3:.2f} ms")
    row("target remote (attach + tdesc)", "attach",
        lambda v: "-" if v is None else f"{v * 1e3:.0f} ms")
    for name, x in (("ekdb in Linux", e), ("Linux kgdb", k)):
        if x.get("error"):
            w(f"    {name}: ERROR {x['error']}  (gdb log: {x.get('log')})")
        if x.get("stepi_error"):
            w(f"    {name}: stepi stopped {x['stepi_error'][:120]}")
    w(f"    (breakpoint on {e.get('bp_func') or k.get('bp_func', '?')}: the figure includes the "
      "guest's run time between two calls; stop places differ: ekdb in setup_arch(), "
      "Linux's kgdb after its 8250 driver)")
    w("")
