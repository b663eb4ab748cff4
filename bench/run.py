#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""make bench: raw 16550 line rate, our gdb stub (unix and tcp), QEMU's gdbstub, the USB
debug port, footprint.

    bench/run.py --build build [--early-dirs early io/serial ...]

Prints a table and writes <build>/bench/results.json.  A benchmark, not a
test: targets are printed as PASS/MISS, the exit status is 0 unless the
benchmark itself could not run.  See docs/bench.md.
"""

import argparse
import binascii
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time

from common import (BASE_CMDLINE, REPO, Machine, MachineError, connect_unix,
                    free_tcp_port, log, median, pattern)
import wire  # tests/integration/wire.py (on the path through common)
from gdb_wire import WireProxy
import linux as linux_bench  # bench/linux.py: the (g) Linux column

GDB = os.environ.get("GDB", "gdb")
HERE = os.path.dirname(os.path.abspath(__file__))

# Objects of the early debugger with its serial transport and gdbstub.
DEBUGGER_DIRS = ["early", "io/serial", "core", "gdbstub", "lib"]
DEBUGGER_X86 = ["debugreg.c.o", "debug_trap.c.o", "hw_breakpoint.c.o", "sstep.c.o",
                "text_poke.c.o", "cpu_state.c.o", "fixup.c.o", "regs_table.c.o", "tdesc.c.o",
                # (not insn.c, frame.c: kdb's ssb and ef, counted with kdb, outside this figure)
                "x86_tdesc.gen.o"]   # target.xml, generated (arch/x86/tdesc.mk)

TARGETS = {   # figure: (op, limit, unit text)
    "mem": (">=", 100e3, ">= 100 KB/s"),
    "stepi": (">=", 100, ">= 100 /s"),
    "bp": ("<", 0.020, "< 20 ms"),
    "attach": ("<", 0.2, "< 0.2 s"),
    "footprint": ("<", 24 * 1024, "< 24 KiB"),
}


def verdict(key, value):
    if value is None:
        return "n/a"
    op, lim, _ = TARGETS[key]
    ok = value >= lim if op == ">=" else value < lim
    return "PASS" if ok else "MISS"


# ------------------------------------------------------------ (a) line rate
def linerate(args, work):
    nbytes = args.linerate_bytes
    res = {"bytes": nbytes}
    if not has_symbol(args.kernel, "serial_linetest"):
        res["error"] = "kernel has no serial_linetest() (test_linerate= not wired)"
        return res
    want = pattern(nbytes)
    m = Machine(work, name="linerate", ports=("unix", "socket"), qmp=False,
                esp=args.esp,
                cmdline=f"{BASE_CMDLINE} test_linerate=ttyS1,{nbytes}")
    try:
        s = connect_unix(m.socket_path(1))
        buf = bytearray()
        tx_hdr = f"EKDB-LINERATE-TX {nbytes}\n".encode()
        deadline = time.monotonic() + args.boot_timeout
        s.settimeout(1)

        def recv_until(pred):
            while not pred():
                if time.monotonic() > deadline:
                    raise MachineError("line-rate: timeout on ttyS1")
                try:
                    d = s.recv(1 << 20)
                except TimeoutError:
                    continue
                if not d:
                    raise MachineError("line-rate: ttyS1 closed")
                buf.extend(d)
                yield len(d)

        for _ in recv_until(lambda: tx_hdr in buf):
            pass
        t0 = time.monotonic()
        start = buf.index(tx_hdr) + len(tx_hdr)
        first = len(buf) - start          # bytes that came with the header
        deadline = time.monotonic() + 300
        for _ in recv_until(lambda: len(buf) - start >= nbytes):
            pass
        t1 = time.monotonic()
        got = bytes(buf[start:start + nbytes])
        res["tx_ok"] = got == want
        if nbytes - first > 0 and t1 > t0:
            res["tx_Bps"] = (nbytes - first) / (t1 - t0)
        for _ in recv_until(lambda: b"EKDB-LINERATE-RX-READY\n" in buf):
            pass
        t0 = time.monotonic()
        tx = s.dup()                      # blocking: sendall must not time out
        tx.settimeout(None)
        sender = threading.Thread(target=tx.sendall, args=(want,), daemon=True)
        sender.start()
        rx_end = re.compile(rb"EKDB-LINERATE-RXEND (\d+) (\d+) ([0-9a-f]{8})\n")
        for _ in recv_until(lambda: rx_end.search(buf)):
            pass
        t1 = time.monotonic()
        g = rx_end.search(buf)
        got_n, errors, crc = int(g[1]), int(g[2]), int(g[3], 16)
        res["rx_Bps"] = nbytes / (t1 - t0)
        res["rx_ok"] = (got_n == nbytes and errors == 0
                        and crc == binascii.crc32(want) & 0xffffffff)
        m.wait_for(rf"linerate: rx {nbytes} bytes ok crc=", timeout=30)
        sender.join(5)
        tx.close()
        s.close()
    except MachineError as e:
        res["error"] = str(e).splitlines()[0]
    finally:
        m.kill()
        res["console"] = [ln for ln in m.output(0).splitlines() if "linerate" in ln]
    return res


# ------------------------------------------------------------ (b)/(c) gdb
def run_gdb(script, env, log_path, timeout, kernel):
    e = dict(os.environ)
    e.update(env)
    with open(log_path, "w") as lf:
        p = subprocess.Popen([GDB, "-nx", "-q", "-batch", "-x", script, kernel],
                             stdout=lf, stderr=subprocess.STDOUT, env=e,
                             start_new_session=True)
        try:
            p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, 9)
            p.wait()
            return False
    return True


def gdb_env(args, target, out):
    return {"BENCH_TARGET": target, "BENCH_OUT": out,
            "BENCH_STEPS": str(args.steps), "BENCH_BP_FUNC": args.bp_func,
            "BENCH_BP_HITS": str(args.bp_hits), "PYTHONPATH": HERE}


def measure(args, work, name, target, env, timeout):
    """bench/gdb_measure.py against @target (timed, direct), then its packet
    pass through a byte-counting proxy to the same target (gdb_wire.WireProxy,
    counted by tests/integration/wire.py).
    Returns the figures with "wire": {phase: packets, bytes, kinds, rtt}."""
    out = os.path.join(work, f"{name}.json")
    glog = os.path.join(work, f"{name}.gdb.log")
    w = WireProxy(os.path.join(work, f"{name}.wire.sock"), target)
    env = dict(env, BENCH_OUT=out, BENCH_WIRE=w.path)
    try:
        run_gdb(os.path.join(HERE, "gdb_measure.py"), env, glog, timeout, args.kernel)
    finally:
        w.close()
        w.dump(os.path.join(work, f"{name}.wire.log"))
    res = load_json(out)
    res["wire"] = wire_phases(w, glog)
    res["log"] = glog
    return res


def load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {"error": "gdb produced no figures"}


def ours(args, work, transport="unix"):
    """Our stub on ttyS1, reached by gdb over a unix socket (what the README's
    `make debug` / `--serial unix:PATH` give) or over TCP (`--serial tcp:PORT`,
    the launcher's nodelay=on chardev): same image, same kgdbwait stop."""
    cmdline = f"{BASE_CMDLINE} ekgdboc=ttyS1 kgdbwait"
    name = "ours" if transport == "unix" else "ours-tcp"
    m = Machine(work, name=name, qmp=False, esp=args.esp, cmdline=cmdline,
                ports=("unix", "socket" if transport == "unix" else "tcp"))
    try:
        m.wait_for(r"Waiting for connection from remote gdb", timeout=args.boot_timeout)
        res = measure(args, work, name, m.socket_path(1),
                      gdb_env(args, m.socket_path(1), None), args.gdb_timeout)
    except MachineError as e:
        res = {"error": str(e).splitlines()[0]}
    finally:
        m.kill()
    return res


def dbgp_stub(args, work):
    """(e) the same gdb measurements through the USB debug port (kgdbdbgp=0,
    tools/dbgp-sim behind x-pci-proxy-dev), and the driver's bring-up time
    as the guest measured it (TSC, in the "dbgp: ... bring-up N us" line)."""
    cmdline = f"{BASE_CMDLINE} kgdbdbgp=0 kgdbwait"
    m = Machine(work, name="dbgp", ports=("unix",), qmp=False, esp=args.esp,
                cmdline=cmdline, dbgp=True)
    try:
        bring = m.wait_for(r"dbgp: .*bring-up (\d+) us", timeout=args.boot_timeout)
        m.wait_for(r"Waiting for connection from remote gdb", timeout=args.boot_timeout)
        env = gdb_env(args, m.dbgp_path, None)
        env["BENCH_STEPS"] = str(args.dbgp_steps)
        env["BENCH_BP_HITS"] = str(args.dbgp_bp_hits)
        res = measure(args, work, "dbgp", m.dbgp_path, env, args.gdb_timeout * 2)
        res["bringup_us"] = int(bring.group(1))
        res["model"] = m.dbgp_control("stats")
    except MachineError as e:
        res = {"error": str(e).splitlines()[0]}
    finally:
        m.kill()
    return res


def dbc_maxp():
    return 1024         # tools/xdbc-sim/dbc.py MAXP: the full TRBs the raw rate is taken on


def xdbc_stub(args, work):
    """(e2) the same gdb measurements through the xHCI Debug Capability
    (kgdbxdbc=0, tools/xdbc-sim behind x-pci-proxy-dev), the bring-up time
    the guest measured, and the model's raw bulk OUT rate in the same run:
    bytes over the time the model spent on full-size (1 KiB) OUT TRBs, from
    fetching the TRB to writing its Transfer Event, the bytes written to
    the far host's socket in between: what the cable side carries when the
    guest is never the limit (no MMIO round trip, no gdb)."""
    cmdline = f"{BASE_CMDLINE} kgdbxdbc=0 kgdbwait"
    m = Machine(work, name="xdbc", ports=("unix",), qmp=False, esp=args.esp,
                cmdline=cmdline, xdbc=True)
    try:
        bring = m.wait_for(r"xdbc: .*bring-up (\d+) us", timeout=args.boot_timeout)
        m.wait_for(r"Waiting for connection from remote gdb", timeout=args.boot_timeout)
        env = gdb_env(args, m.xdbc_path, None)
        env["BENCH_STEPS"] = str(args.dbgp_steps)
        env["BENCH_BP_HITS"] = str(args.dbgp_bp_hits)
        res = measure(args, work, "xdbc", m.xdbc_path, env, args.gdb_timeout * 2)
        res["bringup_us"] = int(bring.group(1))
        st = m.xdbc_control("stats")
        res["model"] = st
        if st.get("out_full_ns_median"):
            # the median TRB: on a loaded host a preempted TRB would lower the mean
            res["raw_out_Bps"] = dbc_maxp() / (st["out_full_ns_median"] / 1e9)
            res["raw_out_mean_Bps"] = st["out_full_bytes"] / (st["out_full_ns"] / 1e9)
            res["raw_out_trbs"] = st["out_full_trbs"]
    except MachineError as e:
        res = {"error": str(e).splitlines()[0]}
    finally:
        m.kill()
    return res


def qemu_stub(args, work):
    port = free_tcp_port()
    cmdline = f"{BASE_CMDLINE} ekgdboc=ttyS1 kgdbwait"
    m = Machine(work, name="qemu", ports=("unix", "socket"), qmp=False,
                esp=args.esp, cmdline=cmdline, qemu_gdb=port)
    ready = os.path.join(work, "qemu.gate.ready")
    target = f"127.0.0.1:{port}"
    try:
        m.wait_for(r"Waiting for connection from remote gdb", timeout=args.boot_timeout)
        # KASLR is on: QEMU's stub cannot tell gdb where the kernel runs
        offset = f"{m.kaslr_offset():#x}"
        s = connect_unix(m.socket_path(1))
        gate = threading.Thread(target=run_gdb, args=(
            os.path.join(HERE, "gdb_gate.py"),
            {"BENCH_TARGET": target, "BENCH_READY": ready, "BENCH_KASLR_OFFSET": offset},
            os.path.join(work, "qemu.gate.log"), 120, args.kernel))
        gate.start()
        deadline = time.monotonic() + 120
        while not os.path.exists(ready) and gate.is_alive() \
                and time.monotonic() < deadline:
            time.sleep(0.05)
        s.sendall(b"+$c#63")     # our stub: continue -> QEMU's breakpoint
        gate.join()
        s.close()
        with open(os.path.join(work, "qemu.gate.log")) as f:
            gl = f.read()
        if "gate: stopped at" not in gl:
            raise MachineError("QEMU gdbstub gate failed, see "
                               + os.path.join(work, "qemu.gate.log"))
        env = gdb_env(args, target, None)
        env["BENCH_KASLR_OFFSET"] = offset
        res = measure(args, work, "qemu", target, env, args.gdb_timeout)
    except MachineError as e:
        res = {"error": str(e).splitlines()[0]}
    finally:
        m.kill()
    return res


# ------------------------------------------------------------ packet table
MARK = re.compile(r"^BENCH-MARK (\d+\.\d+) (\S+)-(begin|end)$", re.M)
PHASES = ("attach", "mem", "bp", "stepi")


def wire_phases(w, log_path):
    """Per phase of gdb_measure's packet pass (BENCH-MARK lines, same
    monotonic clock as the relay): what crossed the wire."""
    try:
        text = open(log_path, errors="replace").read()
    except OSError:
        return {}
    marks = {}
    for t, name, which in MARK.findall(text):
        marks.setdefault(name, {})[which] = float(t)
    out = {}
    for name in PHASES:
        m = marks.get(name, {})
        if "begin" in m and "end" in m:
            out[name] = dict(wire.phase(w.between(m["begin"], m["end"])),
                             wall_s=m["end"] - m["begin"])
    return out


# ------------------------------------------------------------ footprint
def has_symbol(elf, name):
    r = subprocess.run(["nm", elf], capture_output=True, text=True)
    return re.search(rf"\s{re.escape(name)}$", r.stdout, re.M) is not None


def size_of(objs):
    if not objs:
        return 0, {}
    r = subprocess.run(["size"] + objs, capture_output=True, text=True, check=True)
    tot, per = 0, {}
    for ln in r.stdout.splitlines()[1:]:
        f = ln.split()
        n = int(f[0]) + int(f[1]) + int(f[2])
        tot += n
        per[f[5]] = n
    return tot, per


def footprint(args):
    k = os.path.join(args.build, "k")
    by_dir = {}
    for d in DEBUGGER_DIRS:
        objs = sorted(glob.glob(os.path.join(k, d, "*.o")))
        by_dir[d] = size_of(objs)[0]
    x86 = [os.path.join(k, "arch/x86", f) for f in DEBUGGER_X86]
    by_dir["arch/x86 (debugger files)"] = size_of([o for o in x86 if os.path.exists(o)])[0]
    early = {}
    for d in args.early_dirs:
        early[d] = size_of(sorted(glob.glob(os.path.join(k, d, "*.o"))))[0]
    # the early lifetime's static storage (released at the handoff) and the
    # debugger that stays, from the linked kernel's symbols
    syms = {}
    r = subprocess.run(["nm", args.kernel], capture_output=True, text=True)
    for ln in r.stdout.splitlines():
        parts = ln.split()
        if len(parts) == 3:
            syms[parts[2]] = int(parts[0], 16)
    span = lambda a, b: syms.get(b, 0) - syms.get(a, 0)
    early_storage = span("__ekdb_early_start", "__ekdb_early_end")
    permanent = (span("__ekdb_text_start", "__ekdb_text_end") +
                 span("__ekdb_data_start", "__ekdb_data_end") +
                 span("__ekdb_bss_start", "__ekdb_bss_end") - early_storage)
    return {"debugger_total": sum(by_dir.values()), "debugger_by_dir": by_dir,
            "early_total": sum(early.values()), "early_by_dir": early,
            "early_storage": early_storage, "permanent": permanent}


# ------------------------------------------------------------ (d) framebuffer console
def fbbench(args, work):
    """Characters/second on the GOP framebuffer console and the cost of a
    full-screen scroll, timed by the kernel itself (test_fbbench=, TSC)."""
    res = {}
    if not has_symbol(args.kernel, "fbbench_run") and not has_symbol(args.kernel, "console_selftests"):
        res["error"] = "kernel has no framebuffer benchmark (test_fbbench=)"
        return res
    m = Machine(work, name="fbbench", ports=("unix",), qmp=False, esp=args.esp,
                cmdline=f"{BASE_CMDLINE} earlyprintk=vga test_fbbench=64 nomodeset exit_after_boot")
    try:
        g = m.wait_for(r"fbbench: (\d+) chars/s, scroll (\d+) us", timeout=args.boot_timeout)
        res["chars_per_s"] = int(g.group(1))
        res["scroll_us"] = int(g.group(2))
        res["lines"] = [ln for ln in m.output(0).splitlines() if ln.startswith("fbbench:")]
    except MachineError as e:
        res["error"] = str(e).splitlines()[0]
    finally:
        m.kill()
    return res


# ------------------------------------------------------------ ekdbts stress rate
def ekdbts_bench(args, work, iters=1000, smp=1):
    """How many stress iterations per second the in-kernel self-test does
    (ekdbts=F<N>S<N>: breakpoint stops continued over the breakpoint, shared
    by every CPU, and single steps; each a full stop of the real core + gdbstub
    with a scripted gdb), timed by the kernel (uptime_ms, 10 ms ticks).  One CPU
    by default (the figure compared across runs); the stress passes on 2 and 4
    CPUs too since the step-over release race was fixed (test_ekdbts.py)."""
    res = {"iterations": iters, "smp": smp}
    if not has_symbol(args.kernel, "ekdbts_run_late"):
        res["error"] = "kernel has no ekdbts (ekdbts=)"
        return res
    m = Machine(work, name="ekdbts", ports=("unix",), qmp=False, esp=args.esp, smp=smp,
                cmdline=f"{BASE_CMDLINE} ekdbts=F{iters}S{iters} exit_after_boot")
    try:
        f = m.wait_for(r"ekdbts: breakpoint stress: (\d+) iterations in (\d+) ms \((\d+)/s\)",
                       timeout=args.boot_timeout * 5)
        s = m.wait_for(r"ekdbts: single-step stress: (\d+) steps in (\d+) ms \((\d+)/s\)",
                       timeout=args.boot_timeout * 5)
        r = m.wait_for(r"ekdbts: (\d+) passed, (\d+) failed", timeout=args.boot_timeout)
        res.update(bp_ms=int(f.group(2)), bp_per_s=int(f.group(3)),
                   step_ms=int(s.group(2)), step_per_s=int(s.group(3)),
                   passed=int(r.group(1)), failed=int(r.group(2)))
    except MachineError as e:
        res["error"] = str(e).splitlines()[0]
    finally:
        m.kill()
    return res


def ekdbts_line(r):
    if not r or "error" in r:
        return f"ekdbts stress: {(r or {}).get('error', 'skipped')}"
    return (f"ekdbts stress ({r['smp']} CPUs): {r['bp_per_s']} breakpoint stops/s "
            f"({r['iterations']} in {r['bp_ms']} ms), {r['step_per_s']} single steps/s "
            f"({r['iterations']} in {r['step_ms']} ms); {r['passed']} passed, {r['failed']} failed")


# ------------------------------------------------------------ (e) kms debugger hooks
def kmsbench(args, work, rounds=5):
    """Debugger entry and leave on the kms screen while test_fbdraw draws:
    Alt+SysRq+g through QMP, kdb's `kms` (on ttyS0 too: kgdboc=kms,kbd,ttyS0)
    reports what the display hooks cost, TSC-timed in the guest: enter =
    save the registers, flip the scanout to the debugger's page and bring
    it up to date with the console (kdb visible but for its own prompt);
    leave = registers back (the kernel's page shown again, untouched)."""
    res = {"enter_us": [], "leave_us": []}
    if not has_symbol(args.kernel, "kms_debug_init"):
        res["error"] = "kernel has no kms debugger hooks"
        return res
    m = Machine(work, name="kmsbench", ports=("unix",), qmp=True, esp=args.esp,
                cmdline=f"{BASE_CMDLINE} kgdboc=kms,kbd,ttyS0 test_fbdraw=100")
    rx = r"last enter (\d+) us \((scanout flip|mode loaded)\), last leave (\d+) us"
    try:
        m.wait_for(r"ekdb:/# ", timeout=args.boot_timeout)
        q = m.qmp()
        for i in range(rounds):
            q.send_key("alt-sysrq-g")
            m.wait_for(r"\[0\]kdb> ", timeout=60)
            m.send(0, b"kms\r")
            g = m.wait_for(rx, timeout=60)
            res["enter_us"].append(int(g.group(1)))
            res["how"] = g.group(2)
            if i:
                res["leave_us"].append(int(g.group(3)))
            m.wait_for(r"\[0\]kdb> ", timeout=60)
            m.send(0, b"go\r")
            time.sleep(0.5)
    except MachineError as e:
        res["error"] = str(e).splitlines()[0]
    finally:
        m.kill()
    return res


# ------------------------------------------------------------ report
def fmt_rate(bps):
    return "-" if bps is None else (f"{bps / 1e6:.2f} MB/s" if bps >= 1e6
                                   else f"{bps / 1e3:.1f} KB/s")


def figures(r):
    """Derived figures from one gdb run."""
    f = {}
    if r.get("mem_read_s"):
        f["mem"] = 65536 / median(r["mem_read_s"])
    if r.get("stepi_s"):
        f["stepi"] = r["stepi_n"] / r["stepi_s"]
    if r.get("bp_hit_s"):
        f["bp"] = median(r["bp_hit_s"])
    if "attach_s" in r:
        f["attach"] = r["attach_s"]
    return f


def xdbc_raw_lines(x, fx):
    """(e2): the memory read against the model's raw bulk OUT rate, counted
    both in memory bytes and in the bytes that crossed the wire (the wire
    pass's 64 KiB read: gdb 13 reads with `m`, hex, so about 2 wire bytes
    carry one memory byte, less where run-length encoding folds repeats)."""
    raw, mem = x.get("raw_out_Bps"), fx.get("mem")
    ph = x.get("wire", {}).get("mem")
    out = []
    if not raw:
        return ["    model's raw bulk OUT rate: not measured (no full-size OUT TRB)"]
    out.append(f"    model's raw bulk OUT rate (1 KiB over its median time per full OUT TRB, fetch "
               f"to event, socket write included; {x.get('raw_out_trbs')} TRBs): {fmt_rate(raw)} "
               f"(mean: {fmt_rate(x.get('raw_out_mean_Bps'))})")
    if not mem:
        return out
    best = 65536 / min(x["mem_read_s"])
    out.append(f"    memory read / raw = {mem / raw:.3f} (median read), {best / raw:.3f} (best of "
               f"{len(x['mem_read_s'])}); issue 20's goal >= 0.5: "
               f"{'PASS' if mem / raw >= 0.5 else 'MISS'}")
    if ph and ph.get("bytes_in"):
        per = ph["bytes_in"] / 65536
        out.append(f"    on the wire: {per:.2f} bytes per memory byte ({ph['bytes_in']} B in "
                   f"{ph['packets']} replies for 64 KiB), so {fmt_rate(mem * per)} crossed it: "
                   f"wire / raw = {mem * per / raw:.3f}; with `m` a memory read can reach at most "
                   f"{1 / per:.2f} of raw (the wire at the raw rate)")
    return out


def report(res):
    lr, o, q, fp = res["linerate"], res["ours"], res["qemu"], res["footprint"]
    ot = res.get("ours_tcp", {"error": "skipped"})
    fo, ft, fq = figures(o), figures(ot), figures(q)
    line = min([v for v in (lr.get("tx_Bps"), lr.get("rx_Bps")) if v] or [0]) or None
    w = print
    w("")
    w("ekdb bench  (QEMU TCG + OVMF, 16550 on a unix socket; "
      f"{time.strftime('%Y-%m-%d %H:%M')})")
    w("=" * 96)
    w("(a) raw 16550 line rate, polled, FIFO on "
      f"({lr['bytes']} bytes each way, test_linerate=ttyS1,{lr['bytes']})")
    if lr.get("error"):
        w(f"    not measured: {lr['error']}")
    else:
        w(f"    guest -> host : {fmt_rate(lr.get('tx_Bps')):>12}   data "
          f"{'ok' if lr.get('tx_ok') else 'BAD'}")
        w(f"    host -> guest : {fmt_rate(lr.get('rx_Bps')):>12}   data "
          f"{'ok' if lr.get('rx_ok') else 'BAD'} (guest CRC32 checked)")
    w("")
    hdr = f"{'figure':34} {'ekdb unix':>12} {'ekdb tcp':>12} {'tcp/unix':>8} " \
          f"{'QEMU stub':>12} {'ekdb/QEMU':>10} {'ekdb/line':>10}  {'target':>12} {'':9}"
    w("(b) ekdb gdbstub on ttyS1 over a unix socket and over TCP (--serial tcp:PORT)")
    w("    vs (c) QEMU's gdbstub (tcp), real gdb, same image & stop; PASS/MISS: unix/tcp")
    w(hdr)
    w("-" * len(hdr))

    def row(label, key, fmt, higher_better, vs_line=False):
        a, t, b = fo.get(key), ft.get(key), fq.get(key)
        ratio = f"{a / b:.3g}x" if (a and b) else "-"
        tratio = f"{t / a:.2f}" if (a and t) else "-"
        lratio = f"{a / line:.2f}" if (vs_line and a and line) else "-"
        w(f"{label:34} {fmt(a):>12} {fmt(t):>12} {tratio:>8} {fmt(b):>12} {ratio:>10} "
          f"{lratio:>10}  {TARGETS[key][2]:>12} {verdict(key, a)}/{verdict(key, t)}")

    row("memory read 64 KiB (median of 3)", "mem", fmt_rate, True, vs_line=True)
    row(f"stepi x{o.get('stepi_n') or ot.get('stepi_n', '?')} (per second)", "stepi",
        lambda v: "-" if v is None else f"{v:.0f} /s", True)
    row(f"bp hit+continue ({o.get('bp_func') or ot.get('bp_func', '?')}, median)", "bp",
        lambda v: "-" if v is None else f"{v * 1e3:.2f} ms", False)
    row("target remote (attach + tdesc)", "attach",
        lambda v: "-" if v is None else f"{v * 1e3:.0f} ms", False)
    for name, r in (("ekdb unix", o), ("ekdb tcp", ot), ("QEMU stub", q)):
        if r.get("error"):
            w(f"  {name}: ERROR {r['error']}  (gdb log: {r.get('log')})")
        if r.get("bp_hit_s") is not None and len(r["bp_hit_s"]) < int(ARGS.bp_hits):
            w(f"  {name}: only {len(r['bp_hit_s'])} timed breakpoint hits")
    w("")
    d = res.get("dbgp", {"error": "skipped"})
    fd = figures(d)
    w("(e) the same through the EHCI USB debug port (kgdbdbgp=0; Python model behind "
      "x-pci-proxy-dev, ~45 us per MMIO access)")
    if d.get("error") and not fd:
        w(f"    not measured: {d['error']}  (gdb log: {d.get('log')})")
    else:
        def cmp(key, fmt):
            a, b = fd.get(key), fo.get(key)
            return f"{fmt(a):>12} {fmt(b):>12} " + (f"{a / b:>9.3g}x" if a and b else f"{'-':>10}")
        w(f"    {'figure':30} {'debug port':>12} {'serial':>12} {'port/serial':>10}")
        w(f"    {'memory read 64 KiB':30} " + cmp("mem", fmt_rate))
        w(f"    {'stepi (per second)':30} " + cmp("stepi", lambda v: "-" if v is None
                                                   else f"{v:.0f} /s"))
        w(f"    {'bp hit+continue (median)':30} " + cmp("bp", lambda v: "-" if v is None
                                                         else f"{v * 1e3:.1f} ms"))
        w(f"    {'target remote':30} " + cmp("attach", lambda v: "-" if v is None
                                              else f"{v * 1e3:.0f} ms"))
        if d.get("bringup_us") is not None:
            w(f"    bring-up added to the boot (PCI scan, handoff, port reset 50 ms, "
              f"enumeration): {d['bringup_us'] / 1e3:.1f} ms (+ ~30 ms TSC calibration)")
        st = d.get("model", {})
        if st:
            w(f"    model: {st.get('transactions')} transactions, {st.get('naks')} NAKs, "
              f"{st.get('enumerations')} enumeration(s)")
    x = res.get("xdbc", {"error": "skipped"})
    fx = figures(x)
    w("(e2) the same through the xHCI Debug Capability (kgdbxdbc=0; Python model behind "
      "x-pci-proxy-dev, DMA rings; ~45 us per MMIO access)")
    if x.get("error") and not fx:
        w(f"    not measured: {x['error']}  (gdb log: {x.get('log')})")
    else:
        def cmpx(key, fmt):
            a, b = fx.get(key), fo.get(key)
            return f"{fmt(a):>12} {fmt(b):>12} " + (f"{a / b:>9.3g}x" if a and b else f"{'-':>10}")
        w(f"    {'figure':30} {'xHCI DbC':>12} {'serial':>12} {'dbc/serial':>10}")
        w(f"    {'memory read 64 KiB':30} " + cmpx("mem", fmt_rate))
        w(f"    {'stepi (per second)':30} " + cmpx("stepi", lambda v: "-" if v is None
                                                    else f"{v:.0f} /s"))
        w(f"    {'bp hit+continue (median)':30} " + cmpx("bp", lambda v: "-" if v is None
                                                          else f"{v * 1e3:.1f} ms"))
        w(f"    {'target remote':30} " + cmpx("attach", lambda v: "-" if v is None
                                               else f"{v * 1e3:.0f} ms"))
        for ln in xdbc_raw_lines(x, fx):
            w(ln)
        if x.get("bringup_us") is not None:
            w(f"    bring-up added to the boot (PCI scan, handoff, rings, enable, configure): "
              f"{x['bringup_us'] / 1e3:.1f} ms (+ ~30 ms TSC calibration)")
        st = x.get("model", {})
        if st:
            w(f"    model: {st.get('trbs_out')} OUT TRBs, {st.get('trbs_in')} IN TRBs, "
              f"{st.get('events')} events, {st.get('mmio')} DbC register accesses, "
              f"{st.get('enumerations')} enumeration(s)")
    w("")
    fb = res.get("fbbench", {"error": "skipped"})
    w("(d) framebuffer console (earlyprintk=vga, test_fbbench=64: 64 KiB of text, TSC-timed in the guest)")
    if fb.get("error"):
        w(f"    not measured: {fb['error']}")
    else:
        for ln in fb.get("lines", []):
            w(f"    {ln}")
        w(f"    => {fb['chars_per_s']} chars/s, full-screen scroll {fb['scroll_us']} us "
          f"(a 30 KiB dmesg in {30 * 1024 / max(fb['chars_per_s'], 1):.2f} s)")
    w("")
    kb = res.get("kmsbench", {"error": "skipped"})
    w("(e) debugger on the kms screen (kgdboc=kms,kbd, test_fbdraw drawing, Alt+SysRq+g; "
      "display hooks TSC-timed in the guest)")
    if kb.get("error"):
        w(f"    not measured: {kb['error']}")
    elif kb.get("enter_us"):
        w(f"    entry -> kdb's page shown and drawn: median {median(kb['enter_us'])} us "
          f"({kb.get('how')}; {kb['enter_us']})")
        if kb.get("leave_us"):
            w(f"    go -> kernel's page shown again (untouched, nothing to copy): median "
              f"{median(kb['leave_us'])} us ({kb['leave_us']})")
    w("")
    w("footprint (text+data+bss, `size` on build/k objects)")
    by = fp["debugger_by_dir"]
    w("    " + "  ".join(f"{d}={v}" for d, v in by.items()))
    tot = fp["debugger_total"]
    w(f"    early debugger + serial + core + gdbstub + lib + x86 debug files: "
      f"{tot} B = {tot / 1024:.1f} KiB   target {TARGETS['footprint'][2]}  "
      f"{verdict('footprint', tot)}")
    w("    early-only dirs (" + ", ".join(f"{d}={v}" for d, v in fp["early_by_dir"].items())
      + f"): {fp['early_total']} B = {fp['early_total'] / 1024:.1f} KiB")
    es, pm = fp.get("early_storage", 0), fp.get("permanent", 0)
    w(f"    early static storage (freed at the handoff): {es} B = {es / 1024:.1f} KiB   "
      f"goal <= 24 KiB  {'met' if es <= 24 * 1024 else 'NOT met'}")
    w(f"    permanent debugger (linked text+data+bss in the debugger's ranges, "
      f"without the early storage): {pm} B = {pm / 1024:.1f} KiB")
    w("")
    d = res.get("dbgp", {})
    stubs = (("ekdb", o), ("tcp", ot), ("dbgp", d), ("qemu", q))
    w("what crosses the wire (tests/integration/gdb_wire.py WireProxy between gdb and the stub,")
    w("a short pass after the timed runs; acks included, replies as sent, e.g. run-length encoded)")
    w(f"    {'phase':13} {'stub':5} {'wall':>9} {'packets':>8} {'out B':>8} {'in B':>8} "
      f"{'rtt mean':>9}  request kinds")
    for ph, label in (("attach", "attach"), ("mem", "64 KiB read"), ("bp", "5 bp hits"),
                      ("stepi", "20 stepi")):
        first = True
        for name, r in stubs:
            p = r.get("wire", {}).get(ph)
            if not p:
                continue
            kinds = " ".join(f"{k}:{v}" for k, v in sorted(p["kinds"].items(),
                                                          key=lambda kv: -kv[1]))
            rtt = "-" if p["rtt_mean_ms"] is None else f"{p['rtt_mean_ms']:.2f}ms"
            w(f"    {label if first else '':13.13} {name:5} {p['wall_s'] * 1e3:7.1f}ms "
              f"{p['packets']:8} {p['bytes_out']:8} {p['bytes_in']:8} {rtt:>9}  {kinds}")
            first = False
    w("")
    goals(res, fo, fq, figures(d))


def per_op(r, ph, n):
    p = r.get("wire", {}).get(ph)
    return None if not p else p["bytes_in"] / n


def goals(res, fo, fq, fd):
    """Issue 23's goals, from this run's figures (unix socket vs QEMU's stub)."""
    o, d = res["ours"], res.get("dbgp", {})
    w = print

    def line(text, value, ok, fmt):
        v = "-" if value is None else fmt(value)
        w(f"    {text:58} {v:>12}  {'n/a' if value is None else ('PASS' if ok(value) else 'MISS')}")

    ratio = lambda a, b: (a / b) if (a and b) else None
    w("goals (issue 23; ratios are ekdb unix / QEMU stub in this run)")
    line("stepi rate / QEMU's >= 0.15", ratio(fo.get("stepi"), fq.get("stepi")),
         lambda v: v >= 0.15, lambda v: f"{v:.3f}")
    line("bp hit+continue time / QEMU's <= 5", ratio(fo.get("bp"), fq.get("bp")),
         lambda v: v <= 5, lambda v: f"{v:.2f}")
    line("attach time / QEMU's <= 6", ratio(fo.get("attach"), fq.get("attach")),
         lambda v: v <= 6, lambda v: f"{v:.2f}")
    line("bytes gdb receives per stepi <= 400", per_op(o, "stepi", 20),
         lambda v: v <= 400, lambda v: f"{v:.0f} B")
    line("bytes gdb receives per breakpoint stop <= 600", per_op(o, "bp", 5),
         lambda v: v <= 600, lambda v: f"{v:.0f} B")
    for ph in ("stepi", "bp"):
        p = o.get("wire", {}).get(ph)
        line(f"'g' packets in the {ph} pass (a stop needs none)",
             None if not p else p["kinds"].get("g", 0), lambda v: v == 0, lambda v: f"{v}")
    line("USB debug port: attach < 2 s", fd.get("attach"), lambda v: v < 2,
         lambda v: f"{v * 1e3:.0f} ms")
    line("USB debug port: stepi >= 30 /s", fd.get("stepi"), lambda v: v >= 30,
         lambda v: f"{v:.0f} /s")
    for name, r in (("ekdb", o), ("qemu", res["qemu"]), ("dbgp", d)):
        for ph in PHASES:
            if r and not r.get("error") and ph not in r.get("wire", {}):
                w(f"    {name}: no packet figures for {ph} (see {r.get('log')})")
    w("")


ARGS = None


def main():
    global ARGS
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(REPO, "build"))
    ap.add_argument("--early-dirs", nargs="*", default=[])
    ap.add_argument("--linerate-bytes", type=int, default=65536)
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--bp-func", default="free_block_locked")
    ap.add_argument("--bp-hits", type=int, default=50)
    ap.add_argument("--boot-timeout", type=float, default=120)
    ap.add_argument("--gdb-timeout", type=float, default=600)
    ap.add_argument("--dbgp-steps", type=int, default=200)
    ap.add_argument("--dbgp-bp-hits", type=int, default=10)
    ap.add_argument("--linux-bp-func", default="kmem_cache_alloc")
    ap.add_argument("--only", choices=["linerate", "ours", "ours-tcp", "qemu", "footprint",
                                       "fbbench", "kmsbench", "dbgp", "xdbc", "ekdbts", "linux"],
                    action="append")
    ARGS = args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    args.kernel = os.path.join(args.build, "kernel.elf")
    args.esp = os.path.join(args.build, "esp")
    if not has_symbol(args.kernel, args.bp_func):
        log(f"{args.bp_func} not in the kernel, using printk")
        args.bp_func = "printk"
    work = os.path.join(args.build, "bench")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    only = set(args.only or ["linerate", "ours", "ours-tcp", "qemu", "footprint", "fbbench",
                             "kmsbench", "dbgp", "xdbc", "ekdbts", "linux"])
    res = {"linerate": {"bytes": args.linerate_bytes, "error": "skipped"},
           "ours": {"error": "skipped"}, "ours_tcp": {"error": "skipped"},
           "qemu": {"error": "skipped"}}
    t = time.monotonic()
    res["footprint"] = footprint(args)
    if "linerate" in only:
        log("(a) raw line rate ...")
        res["linerate"] = linerate(args, work)
    if "ours" in only:
        log("(b) ekdb stub ...")
        res["ours"] = ours(args, work)
    if "ours-tcp" in only:
        log("(b) ekdb stub over TCP ...")
        res["ours_tcp"] = ours(args, work, transport="tcp")
    if "qemu" in only:
        log("(c) QEMU gdbstub ...")
        res["qemu"] = qemu_stub(args, work)
    if "dbgp" in only:
        log("(e) USB debug port ...")
        res["dbgp"] = dbgp_stub(args, work)
    if "xdbc" in only:
        log("(e2) xHCI DbC ...")
        res["xdbc"] = xdbc_stub(args, work)
    if "fbbench" in only:
        log("(d) framebuffer console ...")
        res["fbbench"] = fbbench(args, work)
    if "kmsbench" in only:
        log("(e) kms debugger hooks ...")
        res["kmsbench"] = kmsbench(args, work)
    if "ekdbts" in only:
        log("(f) ekdbts stress ...")
        res["ekdbts"] = ekdbts_bench(args, work)
    if "linux" in only:
        log("(g) Linux: ekdb's early stub vs Linux's kgdb ...")
        res["linux"] = linux_bench.linux_stubs(args, work, measure, gdb_env)
    res["elapsed_s"] = time.monotonic() - t
    with open(os.path.join(work, "results.json"), "w") as f:
        json.dump(res, f, indent=1)
    report(res)
    linux_bench.report(res, figures, fmt_rate)
    print(ekdbts_line(res.get("ekdbts")))
    print(f"raw results: {os.path.join(work, 'results.json')}; gdb logs in {work}/; "
          f"{res['elapsed_s']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
