# SPDX-License-Identifier: GPL-2.0
"""Runs INSIDE gdb (gdb -nx -q -batch -x bench/gdb_measure.py kernel.elf).

Environment:
  BENCH_TARGET   what `target remote` gets (/path/to.sock or host:port)
  BENCH_OUT      JSON file for the figures
  BENCH_STEPS    stepi count (1000)
  BENCH_BP_FUNC  function for the breakpoint hit-and-continue test
  BENCH_BP_HITS  timed hits (50)
  BENCH_DEBUG_ALL 1: `set debug remote 1` + timestamps for the whole session
  BENCH_WIRE     a unix socket of a byte-counting proxy (gdb_wire.WireProxy) to the
                 same stub: afterwards, gdb disconnects and makes a short
                 packet pass through it (attach, a 64 KiB read, 5 breakpoint
                 hits, 20 stepi), each phase between BENCH-MARK lines
  BENCH_KASLR_OFFSET  where the kernel runs relative to its link address,
                 for a stub that cannot say so (QEMU's: no qOffsets)

Order: attach (timed, fresh gdb, tdesc fetched by gdb itself), 3 x 64 KiB
reads from _text, stepi x N from where the target stopped, then breakpoint
hits, then the optional packet pass through the relay.
"""

import json
import os
import sys
import time

import gdb

OUT = os.environ["BENCH_OUT"]
res = {}


def save():
    with open(OUT, "w") as f:
        json.dump(res, f, indent=1)


def mark(name):
    # Same clock as gdb's "set debug timestamp" (CLOCK_MONOTONIC seconds).
    sys.stderr.write(f"BENCH-MARK {time.monotonic():.6f} {name}\n")
    sys.stderr.flush()


def run():
    gdb.execute("set pagination off")
    gdb.execute("set confirm off")
    gdb.execute("set remotetimeout 30")
    if os.environ.get("BENCH_DEBUG_ALL") == "1":
        gdb.execute("set debug timestamp on")
        gdb.execute("set debug remote 1")
    offset = int(os.environ.get("BENCH_KASLR_OFFSET", "0"), 0)
    if offset:
        kernel = gdb.current_progspace().filename
        gdb.execute(f"symbol-file -o {offset:#x} {kernel}", to_string=True)
    t = time.monotonic()
    gdb.execute("target remote " + os.environ["BENCH_TARGET"], to_string=True)
    res["attach_s"] = time.monotonic() - t
    res["stop_pc"] = int(gdb.parse_and_eval("$pc"))
    save()

    inf = gdb.selected_inferior()
    text = int(gdb.parse_and_eval("(unsigned long)&_text"))
    size = 65536
    times = []
    for i in range(3):
        t = time.monotonic()
        data = inf.read_memory(text + i * size, size)
        times.append(time.monotonic() - t)
        assert len(data) == size
    res["mem_read_s"] = times
    save()

    steps = int(os.environ.get("BENCH_STEPS", "1000"))
    t = time.monotonic()
    done = 0
    try:
        for _ in range(steps):
            gdb.execute("stepi", to_string=True)
            done += 1
    except gdb.error as e:
        res["stepi_error"] = f"after {done} steps: {str(e)[:300]}"
        sys.stderr.write(f"gdb_measure: stepi {res['stepi_error']}\n")
    res["stepi_s"] = time.monotonic() - t
    res["stepi_n"] = done
    save()

    func = os.environ.get("BENCH_BP_FUNC", "printk")
    hits = int(os.environ.get("BENCH_BP_HITS", "50"))
    bp = gdb.Breakpoint(func)
    gdb.execute("continue", to_string=True)      # first hit: not timed
    per = []
    for _ in range(hits):
        t = time.monotonic()
        gdb.execute("continue", to_string=True)
        per.append(time.monotonic() - t)
        if bp.hit_count < 2:
            break
    res["bp_func"] = func
    res["bp_hit_s"] = per
    res["bp_hit_count"] = bp.hit_count
    save()

    wire = os.environ.get("BENCH_WIRE")
    if wire:
        gdb.execute("disconnect", to_string=True)
        mark("attach-begin")
        gdb.execute("target remote " + wire, to_string=True)
        mark("attach-end")
        mark("mem-begin")
        inf = gdb.selected_inferior()
        inf.read_memory(text + 3 * size, size)
        mark("mem-end")
        mark("bp-begin")
        for _ in range(5):
            gdb.execute("continue", to_string=True)
        mark("bp-end")
        bp.delete()
        mark("stepi-begin")
        for _ in range(20):
            gdb.execute("stepi", to_string=True)
        mark("stepi-end")
    res["done"] = True
    save()


try:
    run()
except Exception as e:                     # keep what was measured
    res["error"] = f"{type(e).__name__}: {e}"
    save()
    sys.stderr.write(f"gdb_measure: {res['error']}\n")
