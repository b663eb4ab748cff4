# SPDX-License-Identifier: GPL-2.0
"""The edges of the stop path (issue 14): breakpoints where the debugger
cannot take a trap are refused, a stale software-breakpoint hit on another
CPU is re-run instead of reported, Ctrl-C behind line noise stops at once,
and the wire edges (lldb's packet order, Z on data, M into the debugger,
Z1 at a non-canonical address, G all-or-nothing, m addr,0).

Which functions the stop path runs is computed, not listed: the static call
graph of build/kernel.elf (objdump) from the debugger's trap handlers, plus
the kernel callbacks the debugger holds (read from the stopped machine)."""

import os
import re
import subprocess


from gdb_boot import (BOOT_COMPLETE, KGDBWAIT, attach, boot_to_kgdbwait,
                      cont_expect_error, cont_to_stop, stop_func)
from gdbdriver import gdb_batch
from qemu import BOOT_TIMEOUT, REPO
from rsp import Rsp, frame

KERNEL_ELF = os.path.join(REPO, "build", "kernel.elf")

# Where a CPU enters the debugger with breakpoints possibly still armed:
# the #BP and #DB handlers, the round-up NMI, the tick's Ctrl-C poll, the
# oops hook, and the trap dispatcher in front of them.
STOP_PATH_ROOTS = ("x86_trap_dispatch", "ekdb_trap_breakpoint", "ekdb_trap_debug", "ekdb_trap_nmi",
                   "ekdb_poll_break", "ekdb_handle_die")
# Function pointers the debugger calls on that path (set by the kernel).
CALLBACK_POINTERS = ("cpu_id_fn", "roundup_fn")
# Every late driver with debugger hooks: the kms display, the keyboard, the serial line.
KGDBWAIT_HOOKS = f"{KGDBWAIT} kgdboc=kms,kbd,ttyS1"


def symbols(elf=KERNEL_ELF):
    """name -> address of every symbol and address -> name of the kernel's
    functions (of build/kernel.elf, or of @elf)."""
    out = subprocess.run(["nm", elf], capture_output=True, text=True,
                         check=True).stdout
    addr, funcs = {}, {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) != 3:
            continue
        a, kind, name = int(parts[0], 16), parts[1], parts[2]
        addr[name] = a
        if kind in "tT":
            funcs[a] = name
    return addr, funcs


def moved(m, addr, funcs):
    """The symbols at their run-time addresses on machine m (KASLR: the
    loader's offset added to build/kernel.elf's)."""
    off = m.kaslr_offset()
    return ({n: a + off for n, a in addr.items()}, {a + off: n for a, n in funcs.items()})


def call_graph():
    """function -> set of functions it calls or tail-jumps to directly."""
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", KERNEL_ELF],
                         capture_output=True, text=True, check=True).stdout
    graph, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"^[0-9a-f]+ <([\w.]+)>:$", line)
        if m:
            cur = m.group(1)
            graph.setdefault(cur, set())
            continue
        m = re.search(r"\s(?:call|jmp)\s+[0-9a-f]+ <([\w.]+)>$", line)
        if m and cur:
            graph[cur].add(m.group(1))     # "<f+0x12>" (a jump inside) does not match
    return graph


def closure(graph, roots):
    seen, todo = set(), list(roots)
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        todo.extend(graph.get(f, ()))
    return seen


def test_stop_path_and_ap_start_refuse_breakpoints(machine):
    """Every function the stop path can run (computed), and the AP start
    code before its IDT, refuse Z0 and Z1 with E01; a breakpoint in the AP's
    code after its IDT works and stops that CPU."""
    addr, funcs = symbols()
    m = boot_to_kgdbwait(machine, smp=2)
    addr, funcs = moved(m, addr, funcs)
    r = Rsp(m.socket_path(1))
    r.send_raw(b"+")
    assert "PacketSize" in r.ask("qSupported:swbreak+;hwbreak+")

    callbacks = set()
    for ptr in CALLBACK_POINTERS:
        target = r.u64(addr[ptr])
        assert target in funcs, f"{ptr} = {target:#x} is not a function"
        callbacks.add(funcs[target])
    assert callbacks == {"debugger_cpu_id", "apic_send_nmi_allbutself"}
    path = closure(call_graph(), STOP_PATH_ROOTS + tuple(callbacks))
    # the enumeration reaches into the kernel, the arch code and lib/
    for f in ("debugger_cpu_id", "apic_send_nmi_allbutself", "dbg_enter", "arch_dbg_text_poke",
              "memset", "dbg_trap_swbreak", "dbg_trap_debug", "x86_dr6_hit_slot",
              "arch_hw_bp_load"):
        assert f in path, f"{f} not found on the stop path: {sorted(path)}"
    path |= {"smp_ap_start", "percpu_init_cpu", "kgdb_breakpoint"}
    accepted = []
    for f in sorted(path):
        for kind in (0, 1):
            reply = r.ask(f"Z{kind},{addr[f]:x},1")
            if not reply.startswith("E.01.in the debugger's own code"):
                accepted.append((f, kind, reply))
                r.ask(f"z{kind},{addr[f]:x},1")
    assert not accepted, f"breakpoints accepted on the stop path: {accepted}"

    # After its IDT an AP takes breakpoints: CPU#1 (thread 2) stops there.
    assert r.ask(f"Z0,{addr['smp_ap_online']:x},1") == "OK"
    r.send_raw(b"$c#63")
    stop, _ = r.read_reply(timeout=BOOT_TIMEOUT)
    assert re.match(r"T05thread:0*2;", stop), stop
    assert r.ask("z0,%x,1" % addr["smp_ap_online"]) == "OK"
    rip = int.from_bytes(bytes.fromhex(r.ask("p10")), "little")
    assert rip == addr["smp_ap_online"], f"{rip:#x}"
    r.send_raw(b"$c#63")
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)
    assert m.alive()


# Where the debugger keeps the kernel's hooks and ops: the display (core/
# display.c), the transports (core/transport.c, EKDB_MAX_TRANSPORTS slots)
# and the kernel's stopped ops (the first member of the porting interface's
# table, core/port.c's ekdb_host_port).  Each is a pointer to a struct of function
# pointers (its size from the ELF's DWARF); every word of it that is a
# function's address is a root.
HOOK_POINTERS = (("display", 1, "struct ekdb_display_ops"),
                 ("transports", 8, "struct ekdb_transport"),
                 ("ekdb_host_port", 1, "struct ekdb_stopped_ops"))


def hook_roots(r, addr, funcs):
    """Every kernel function the debugger holds a pointer to through its
    display, transports and kernel ops, read from the stopped machine."""
    out = gdb_batch(KERNEL_ELF, [f"p sizeof({t})" for _, _, t in HOOK_POINTERS])
    sizes = [int(n) for n in re.findall(r"^\$\d+ = (\d+)$", out, re.M)]
    assert len(sizes) == len(HOOK_POINTERS), out
    roots = set()
    for (var, count, _), size in zip(HOOK_POINTERS, sizes):
        for i in range(count):
            ops = r.u64(addr[var] + 8 * i)
            if not ops:
                continue
            raw = r.mem(ops, size)
            for off in range(0, len(raw), 8):
                word = int.from_bytes(raw[off:off + 8], "little")
                if word in funcs:
                    roots.add(funcs[word])
    return roots


# printk and vprintk: the one exception to the computed set (see below)
BREAKABLE_LOG = ("printk", "vprintk")


def test_debugger_hooks_and_ops_refuse_breakpoints(machine):
    """issue 19: every kernel function the stop path can reach through the
    hooks and ops the debugger holds (the kms display hooks, the late serial,
    keyboard and debug-port transport ops, the kernel ops of debug_glue.c:
    found from the pointers in the stopped machine, then the static call
    graph) refuses Z0 and Z1 with E01: they are __ekdb_nobp.  A breakpoint
    there used to fire inside the debugger as it resumed, and hang every
    CPU."""
    addr, funcs = symbols()
    m = boot_to_kgdbwait(machine, smp=2, cmdline=KGDBWAIT_HOOKS)
    addr, funcs = moved(m, addr, funcs)
    r = Rsp(m.socket_path(1))
    r.send_raw(b"+")
    assert "PacketSize" in r.ask("qSupported:swbreak+;hwbreak+")
    # run to the end of the boot: the kernel's drivers have taken over
    r.send_raw(b"$c#63")
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)
    r.send_raw(b"\x03")
    stop, _ = r.read_reply(timeout=240)
    assert stop.startswith("T02"), stop

    roots = hook_roots(r, addr, funcs)
    for f in ("kms_debug_enter", "kms_debug_leave", "serial8250_getc", "kbd_t_post",
              "glue_task_get", "glue_warn", "glue_panic"):
        assert f in roots, f"{f} not among the debugger's hooks: {sorted(roots)}"
    path = closure(call_graph(), roots)
    for f in ("dispi_save", "dispi_write", "kms_console_debug", "printk", "panic"):
        assert f in path, f"{f} not reached from the hooks: {sorted(path)}"
    accepted = []
    for f in sorted(path):
        if f not in addr:
            continue        # a local label objdump names, not a symbol
        if f in BREAKABLE_LOG:
            # users break on them (Linux allows it); the stop path reaches
            # them only while breakpoints are out (armed last), and a trap
            # there would be recovered (re-entry recovery): they accept
            assert r.ask(f"Z0,{addr[f]:x},1") == "OK", f
            assert r.ask(f"z0,{addr[f]:x},1") == "OK", f
            continue
        for kind in (0, 1):
            reply = r.ask(f"Z{kind},{addr[f]:x},1")
            if not reply.startswith("E.01.in the debugger's own code"):
                accepted.append((f, kind, reply))
                r.ask(f"z{kind},{addr[f]:x},1")
    assert not accepted, f"breakpoints accepted in the debugger's hooks: {accepted}"
    r.send_raw(b"$D#44")


def test_break_on_stop_path_function_with_gdb(machine, gdb):
    """The issue's session: `break debugger_cpu_id` is refused when gdb
    inserts it (it used to recurse until the kernel oopsed); after deleting
    it, `break mm_init` + `continue` stops at mm_init."""
    m = boot_to_kgdbwait(machine, smp=2)
    g = attach(machine, gdb, m)
    g.cmd("break debugger_cpu_id")
    cont_expect_error(g, r"Cannot insert breakpoint 1", r"Cannot access memory")
    g.cmd("delete 1")
    g.cmd("break smp_ap_start")
    cont_expect_error(g, r"Cannot insert breakpoint 2")
    g.cmd("delete 2")
    g.cmd("break mm_init")
    assert stop_func(cont_to_stop(g)) == "mm_init"
    g.cmd("delete")
    g.cont()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)
    st = g.interrupt(timeout=120)
    assert st.get("signal-name") == "SIGINT", st
    m.expect_not(r"Oops|Kernel panic|general protection")


def test_wire_edges(machine):
    """lldb's order (QStartNoAckMode before qSupported) stays in no-ack
    mode; Z0 on data, Z1 at a non-canonical address and M into the
    debugger's code are refused; G is all or nothing; m addr,0 is an empty
    hex string (zero bytes, as gdbserver answers); Ctrl-C behind 4 KB of
    line noise stops the running kernel within a few ticks."""
    addr, funcs = symbols()
    m = boot_to_kgdbwait(machine)
    addr, _ = moved(m, addr, funcs)
    r = Rsp(m.socket_path(1))
    # lldb: +, QStartNoAckMode (acked), + for the OK, then qSupported
    r.send_raw(b"+")
    assert r.ask("QStartNoAckMode") == "OK"
    r.no_ack = True
    r.send_raw(b"+")
    r.send_raw(frame("qSupported:xmlRegisters=i386,arm,mips,arc"))
    reply, before = r.read_reply()
    assert reply.startswith("PacketSize="), reply
    assert b"+" not in before, f"acked in no-ack mode: {before!r}"
    r.send_raw(frame("?"))
    reply, before = r.read_reply()
    assert reply.startswith("T05") and b"+" not in before, (reply, before)

    # Z0 belongs in code
    assert r.ask(f"Z0,{addr['console_loglevel']:x},1") == "E0e"
    assert r.ask(f"Z0,{addr['jiffies']:x},1") == "E0e"
    assert r.ask(f"Z0,{addr['mm_init']:x},1") == "OK"
    assert r.ask(f"z0,{addr['mm_init']:x},1") == "OK"
    # DR0-DR3 hold canonical addresses only
    assert r.ask("Z1,800000000000,1") == "E0e"
    assert r.ask("Z2,ffff000000001000,8") == "E0e"
    assert r.ask(f"Z1,{addr['mm_init']:x},1") == "OK"
    assert r.ask(f"z1,{addr['mm_init']:x},1") == "OK"
    # M into the debugger's own code: refused like Z; its bytes unchanged
    before_bytes = r.ask(f"m{addr['dbg_bp_set']:x},1")
    assert r.ask(f"M{addr['dbg_bp_set']:x},1:cc") == "E01"
    assert r.ask(f"X{addr['dbg_bp_set']:x},1:\xcc") == "E01"
    assert r.ask(f"m{addr['dbg_bp_set']:x},1") == before_bytes
    level = r.ask(f"m{addr['console_loglevel']:x},4")
    assert r.ask(f"M{addr['console_loglevel']:x},4:05000000") == "OK"
    assert r.ask(f"M{addr['console_loglevel']:x},4:{level}") == "OK"
    # m addr,0: zero bytes of hex
    assert r.ask(f"m{addr['mm_init']:x},0") == ""
    # G: a bad value anywhere writes nothing
    regs = r.ask("g")
    rax = regs[:16]
    bad = "G" + "0300000000000000" + regs[16:-1] + "q"
    assert r.ask(bad) == "E16"
    assert r.ask("p0") == rax

    # Ctrl-C behind noise while the kernel runs: it stops within a few
    # ticks, not one tick per byte of noise (measured in guest jiffies).
    r.send_raw(b"$c#63")
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)
    r.send_raw(b"\x03")
    stop, _ = r.read_reply(timeout=120)
    assert stop.startswith("T02"), stop
    noise = bytes((i * 7 + 32) % 95 + 32 for i in range(4096))   # printable, no ^C
    j0 = r.u64(addr["jiffies"])
    r.send_raw(b"$c#63")
    r.send_raw(noise + b"\x03")
    stop, _ = r.read_reply(timeout=240)
    assert stop.startswith("T02"), stop
    ticks = r.u64(addr["jiffies"]) - j0
    # one byte per tick would be >= 4096 ticks; the poll drains the line
    assert ticks < len(noise) // 8, f"Ctrl-C behind {len(noise)} bytes took {ticks} ticks"
    r.send_raw(b"$D#44")


def test_stale_breakpoint_hit_on_other_cpu_is_rerun(machine, gdb):
    """--smp 2: after a stop every CPU's tick is overdue, so both CPUs run
    into a breakpoint in scheduler_tick together; one reports, the other
    waits for the debugger.  When the user deletes the breakpoint and
    continues, the waiting CPU must re-run the instruction, not report a
    stop (it used to: SIGTRAP in scheduler_tick, one byte past)."""
    m = boot_to_kgdbwait(machine, smp=2)
    g = attach(machine, gdb, m)
    g.cont()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)
    st = g.interrupt(timeout=120)
    assert st.get("signal-name") == "SIGINT", st
    tick = int(re.search(r"0x([0-9a-f]+)", g.cmd("p/x &scheduler_tick")).group(1), 16)
    for round_ in range(6):
        g.cmd("break *scheduler_tick")
        for _ in range(2):
            st = cont_to_stop(g)
            assert stop_func(st) == "scheduler_tick", (round_, st)
            assert int(st["frame"]["addr"], 16) == tick, (round_, st)
        g.cmd("delete")
        g.cont()
        st = g.interrupt(timeout=120)
        assert st.get("signal-name") == "SIGINT", \
            f"round {round_}: a stop after the breakpoint was deleted: {st}"
    m.expect_not(r"Oops|Kernel panic")
