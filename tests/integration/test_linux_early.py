# SPDX-License-Identifier: GPL-2.0
"""ekdb's early lifetime inside Linux 6.1 (issue 34, docs/linux.md), as a
person uses it, on 2 CPUs, KASLR on (no `nokaslr`):

- real gdb with Linux's vmlinux from setup_arch() (ekdb.ekgdboc=ttyS1, the
  console on ttyS0): Linux's frames by name, registers, Linux's data at
  its KASLR address (qOffsets), bad addresses refused with the machine
  going on, breakpoints in init text and text (a hardware one), a
  breakpoint on the glue's stop path refused;
- kdb on ttyS0: `ps`/`btp`/`pid` from Linux's task list (one task in
  setup_arch()), `dmesg` from Linux's printk ring, `summary`, `lsmod`,
  `per_cpu`, `cpu` on 2 CPUs, breakpoints planted in setup_arch() that
  stop CPU 1 (in Linux's kdb after the handoff), breakpoints refused on the
  glue's stop path, Linux's entry code and a secondary CPU's code before
  its IDT.

Bad input tried: gdb `x` at 0 and at a non-canonical address; kdb `md 0`;
`cpu 7` on 2 CPUs; `btp 1` before pid 1 exists; `bp` on ekdb_linux_task_get,
ekdb_linux_nmi, exc_int3, start_secondary; gdb `break ekdb_linux_log_read`.
The kernel is built by test_linux.py's fixture (`make linux`).
"""

import os
import re
import socket
import subprocess
import time

import pytest

from gdb_boot import cont_expect_error, cont_to_stop, frames, reg, stop_func, value
from gdbdriver import Gdb
from kdb_session import ENTRY, PROMPT, Kdb
from qemu import BOOT_TIMEOUT
import test_linux
from test_linux import CONSOLE, INIT, LINUX_BAD, VMLINUX

GDB_WAIT = f"{CONSOLE} ekdb.ekgdboc=ttyS1 ekdb.kgdbwait"
KDB_WAIT = f"{CONSOLE} ekdb.ekgdboc=ttyS0 ekdb.kgdbwait"
WAITING = r"kgdb: Waiting for connection from remote gdb"
# Linux's gdb helpers, made by `make linux` (CONFIG_GDB_SCRIPTS, make scripts_gdb)
GDB_SCRIPT = os.path.join(os.path.dirname(VMLINUX), "vmlinux-gdb.py")
REFUSED = ("{}: the debugger cannot stop there (its own code, or code that runs "
           "before the CPU can take a trap)")


@pytest.fixture(scope="module")
def kernel():
    """test_linux.py's fixture: `make linux`, (bzImage, initramfs)."""
    return test_linux.linux_kernel.__pytest_wrapped__.obj()


@pytest.fixture
def lgdb(tmp_path, request):
    """gdb (MI) on Linux's vmlinux; closed at teardown."""
    gdbs = []
    request.node._ekdb_gdbs = gdbs

    def start():
        g = Gdb(VMLINUX, log_path=tmp_path / f"gdb{len(gdbs)}.log", timeout=180)
        gdbs.append(g)
        return g

    yield start
    for g in gdbs:
        g.close()


def linked(name):
    """The link-time address of @name in vmlinux."""
    out = subprocess.run(["nm", VMLINUX], capture_output=True, text=True, check=True).stdout
    return int(re.search(rf"^([0-9a-f]{{16}}) \w {re.escape(name)}$", out, re.M).group(1), 16)


def go_to_stop(m, k):
    """kdb `go`; return the next Entering kdb line's match (pid, cpu, reason)."""
    k.mark()
    k.type("go")
    k.enter()
    e = m.wait_for(ENTRY, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|" + INIT)
    m.wait_for(PROMPT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD)
    return e


def test_gdb_from_setup_arch_kaslr_two_cpus(bare_machine, kernel, lgdb):
    """gdb 13 with vmlinux from ekdb's stop in setup_arch(), KASLR on."""
    assert "nokaslr" not in GDB_WAIT
    bz, initrd = kernel
    m = bare_machine(cmdline=GDB_WAIT, linux=bz, initrd=initrd, smp=2,
                     ports=("unix", "socket"))
    m.wait_for(WAITING, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|" + INIT)
    g = lgdb()
    g.cmd("set remote noack-packet off")
    g.connect(m.socket_path(1))

    bt = g.cmd("bt")
    assert frames(bt)[:5] == ["kgdb_breakpoint", "ekdb_early_init", "ekdb_linux_setup_arch",
                              "setup_arch", "start_kernel"], bt
    # KASLR moved the kernel; gdb follows (qOffsets TextSeg=): the pc is
    # kgdb_breakpoint's run-time address, and data (.data, .rodata) reads
    # at its run-time address too
    offset = reg(g, "rip") - 1 - linked("kgdb_breakpoint")
    assert offset and offset % (2 << 20) == 0, hex(offset)
    assert re.search(r"<kgdb_breakpoint\+1>", g.cmd("x/i $pc")), g.tail()
    assert value(g, "init_task.comm").startswith('"swapper'), g.tail()
    assert '<linux_banner> "Linux version 6.1' in value(g, "linux_banner"), g.tail()
    # the registers of gdb's built-in amd64 layout, Linux's gdbstub's:
    # ekdb's stub in plain mode offers no target.xml (docs/linux.md), so
    # that the switch to Linux's stub at the handoff does not change them
    regs = g.cmd("info registers")
    assert not re.search(r"^(cr3|dr7)\s", regs, re.M), regs
    for r in ("rax", "rip", "rsp", "eflags", "cs", "ss", "gs"):
        assert re.search(rf"^{r}\s+0x[0-9a-f]+", regs, re.M), f"{r} missing:\n{regs}"
    assert reg(g, "rsp") >= 0xffffffff80000000
    # bad addresses: an error each (gdb's E reply), the machine goes on
    for bad in (0, 0xdead000000000000):
        try:
            out = g.cmd(f"x/2gx {bad:#x}")
        except AssertionError as e:
            out = str(e)
        assert f"Cannot access memory at address {bad:#x}" in out, out
    assert value(g, "init_task.pid") == "0"
    # Linux's own gdb helpers (scripts/gdb) over ekdb's stub, KASLR on:
    # the printk ring and the task list (per-CPU data: see the nokaslr test)
    lx_helpers(g)

    # a breakpoint on the glue's stop path is refused (gdb cannot insert it)
    g.cmd("break ekdb_linux_log_read")
    cont_expect_error(g, r"Cannot insert breakpoint")
    g.cmd("delete")

    # a software breakpoint in init text, a hardware one in text, later in
    # start_kernel() (a watchpoint on CPU 1 after the handoff:
    # test_linux_handoff.py::test_hw_breakpoint_fires_on_cpu1_after_the_handoff)
    g.cmd("break trap_init")
    g.cmd("hbreak kmem_cache_init")
    st = cont_to_stop(g)
    assert st.get("reason") == "breakpoint-hit" and stop_func(st) == "trap_init", st
    assert "start_kernel" in frames(g.cmd("bt")), g.tail()
    st = cont_to_stop(g)
    assert st.get("reason") == "breakpoint-hit" and stop_func(st) == "kmem_cache_init", st
    g.cmd("delete")
    g.detach()
    m.wait_for(INIT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|" + WAITING)


def wait_on_line(path, regex, timeout):
    """Read the line at the unix socket @path as a terminal would, until
    @regex; then hang up (QEMU takes the next client)."""
    deadline, text = time.monotonic() + timeout, ""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        while True:
            try:
                s.connect(path)
                break
            except (FileNotFoundError, ConnectionRefusedError):
                assert time.monotonic() < deadline, f"no {path}"
                time.sleep(0.2)
        s.settimeout(1)
        while not re.search(regex, text):
            assert time.monotonic() < deadline, f"/{regex}/ not on the line:\n{text[-2000:]}"
            try:
                data = s.recv(4096)
            except socket.timeout:
                continue
            assert data, f"the line closed:\n{text[-2000:]}"
            text += data.decode(errors="replace")
    return text


def test_gdb_on_the_console_line(bare_machine, kernel, lgdb):
    """The kgdb way: one line for Linux's console and the debugger
    (ekdb.ekgdboc=ttyS0, console=ttyS0).  ekdb waits at its kdb prompt in
    setup_arch(); gdb connects to that line (its first packet switches ekdb
    to gdb), and Linux's console text between gdb's packets, once Linux
    runs on, does not disturb it: a breakpoint in kernel_init, then a
    hardware one in the initcalls, both from Linux's gdbstub after the
    handoff (kgdb's hardware breakpoints reach CPU 1 only once it is
    online: docs/linux.md)."""
    bz, initrd = kernel
    m = bare_machine(cmdline=KDB_WAIT, linux=bz, initrd=initrd, smp=2, ports=("socket",))
    text = wait_on_line(m.socket_path(0), PROMPT, BOOT_TIMEOUT)
    assert "kgdb: Waiting for connection from remote gdb..." in text, text[-2000:]
    g = lgdb()
    g.cmd("set remote noack-packet off")
    g.connect(m.socket_path(0))
    assert frames(g.cmd("bt"))[:4] == ["kgdb_breakpoint", "ekdb_early_init",
                                       "ekdb_linux_setup_arch", "setup_arch"], g.tail()
    g.cmd("break kernel_init")
    st = cont_to_stop(g)
    assert st.get("reason") == "breakpoint-hit" and stop_func(st) == "kernel_init", st
    g.cmd("delete")
    # a hardware breakpoint from Linux's gdbstub (the handoff was in
    # dbg_late_init()): the first early initcall
    g.cmd("hbreak do_one_initcall")
    st = cont_to_stop(g)
    assert stop_func(st) == "do_one_initcall", st
    assert "kernel_init" in frames(g.cmd("bt")), g.tail()
    g.cmd("delete")
    g.detach()


def lx_helpers(g):
    """source vmlinux-gdb.py; lx-dmesg and lx-ps in setup_arch()."""
    g.cmd(f"source {GDB_SCRIPT}")
    dmesg = g.cmd("lx-dmesg")
    assert re.search(r"^\[ *\d+\.\d{6}\] Linux version 6\.1\.", dmesg, re.M), dmesg[:2000]
    assert re.search(r"\] kgdb: Waiting for connection from remote gdb\.\.\.$",
                     dmesg.rstrip(), re.M), dmesg[-2000:]
    ps = g.cmd("lx-ps").strip().splitlines()
    assert len(ps) == 2 and re.match(r"0x[0-9a-f]{16}\s+0\s+swapper$", ps[1]), ps


def test_lx_current_with_nokaslr(bare_machine, kernel, lgdb):
    """$lx_current() reads Linux's per-CPU current_task: right with
    `nokaslr` (gdb moves every section of vmlinux by the KASLR offset,
    Linux's zero-based per-CPU section too, so with KASLR on it is read at
    a wrong address: docs/linux.md)."""
    bz, initrd = kernel
    m = bare_machine(cmdline=f"{GDB_WAIT} nokaslr", linux=bz, initrd=initrd,
                     ports=("unix", "socket"))
    m.wait_for(WAITING, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|" + INIT)
    g = lgdb()
    g.cmd("set remote noack-packet off")
    g.connect(m.socket_path(1))
    assert reg(g, "rip") - 1 == linked("kgdb_breakpoint")
    lx_helpers(g)
    assert value(g, "$lx_current().comm").startswith('"swapper'), g.tail()
    assert value(g, "$lx_current()->pid") == "0"
    assert value(g, '$lx_per_cpu("cpu_number")') == "0"
    g.detach()
    m.wait_for(INIT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|" + WAITING)


def test_kdb_tasks_dmesg_cpus_and_refusals(bare_machine, kernel):
    """kdb in setup_arch() on 2 CPUs: the stopped ops from Linux's data,
    breakpoints refused where ekdb cannot stop, breakpoints planted there
    that stop pid 1 and CPU 1 later in Linux's kdb (after the handoff):
    a software breakpoint CPU 1 hits before it is online, with a
    watchpoint armed (no oops: patch 0014);
    afterwards Linux's own NMIs (sysrq-l, the NMI button) stay Linux's and
    sysrq-g enters Linux's kdb on the line ekdb handed over."""
    bz, initrd = kernel
    m = bare_machine(cmdline=KDB_WAIT, linux=bz, initrd=initrd, smp=2)
    m.wait_for(ENTRY, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|" + INIT)
    m.wait_for(PROMPT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD)
    k = Kdb(m)

    # setup_arch(): one task, swapper (the scheduler is not up), on CPU 0
    ps = k.cmd("ps A")
    rows = re.findall(r"^0x[0-9a-f]{16} .*$", ps, re.M)
    assert len(rows) == 1 and re.search(r"\s0\s+0\s+1\s+0\s+R\s+0x[0-9a-f]{16} \*swapper$",
                                        rows[0]), ps
    assert k.cmd("btp 1").strip() == "No process with pid == 1 found"
    # Linux's printk ring, newest last, in Linux's kdb format
    dm = k.cmd("dmesg 2").strip().splitlines()
    assert dm[-1] == "<5>kgdb: Waiting for connection from remote gdb...", dm
    assert re.match(r"<5>Linux version 6\.1\.", k.cmd("dmesg -1").strip()), k.cmd("dmesg -1")
    assert re.search(r"^sysname\s+Linux$", k.cmd("summary"), re.M)
    lsmod = k.cmd("lsmod").strip().splitlines()     # no module built or loaded: no rows
    assert lsmod == ["Module                  Size  modstruct     Used by"], lsmod
    assert re.search(r"^\s+0 0x[0-9a-f]{16} 0+\s", k.cmd("per_cpu cpu_number"), re.M)
    cpu = k.cmd("cpu")
    assert "Currently on cpu 0" in cpu and "Available cpus: 0\n" in cpu + "\n", cpu
    assert "Invalid cpu number" in k.cmd("cpu 7")
    # refused: the glue's stop path, Linux's int3 entry, an AP before its IDT
    for fn in ("ekdb_linux_task_get", "ekdb_linux_nmi", "exc_int3", "start_secondary"):
        out = k.cmd(f"bp {fn}")
        assert REFUSED.format(fn) in out, out
    assert k.cmd("bl").strip() == "", k.cmd("bl")

    # planted here, fired later: pid 1 on CPU 0, then CPU 1 (software, with
    # a data write watchpoint on the online mask armed)
    for c in ("bp kernel_init", "bp identify_secondary_cpu", "bph __cpu_online_mask dataw 8"):
        assert "is enabled" in k.cmd(c), c
    e = go_to_stop(m, k)
    assert e.group(1, 2) == ("1", "0") and "Breakpoint" in e.group(3), e.group(0)
    k.cmd("set LINES 200")           # Linux's kdb (after the handoff): its own env
    ps = k.cmd("ps A")
    assert re.search(r"\s1\s+0\s+1\s+0\s+R\s+0x[0-9a-f]{16} \*swapper/0$", ps, re.M), ps
    assert re.search(r"\s2\s+0\s+0\s+0\s+[sS]\s+0x[0-9a-f]{16}  kthreadd$", ps, re.M), ps
    bt = k.cmd("btp 2")
    assert "kthreadd+" in bt and "__schedule+" in bt, bt

    # CPU 1 in start_secondary(), before set_cpu_online(): Linux's kdb
    # (the handoff was in dbg_late_init()) stops it on the breakpoint
    # ekdb planted (kgdb took its int3)
    e = go_to_stop(m, k)
    assert e.group(2) == "1" and "Breakpoint" in e.group(3), e.group(0)
    assert "Currently on cpu 1" in k.cmd("cpu")
    assert "identify_secondary_cpu" in k.cmd("bt")
    assert "Invalid cpu number" in k.cmd("cpu 7")
    # the watchpoint planted in setup_arch() is kgdb's now: it reaches CPU 1
    # only once CPU 1 is online (patch 0013's hotplug callback), after it
    # set its own bit; with it armed, this stop did not oops (patch 0014)
    bl = k.cmd("bl")
    assert re.search(r"Data Write BP #2 at 0x[0-9a-f]+ \(__cpu_online_mask\)", bl), bl
    k.cmd("bc *")
    k.mark()
    k.type("go")
    k.enter()
    # (CPU 1 is still not online: Linux's kdb did not wait for CPU 0 and
    # asks for `go` a second time, "Catastrophic error detected", as Linux
    # alone does there)
    if k.wait(r"type go a second time|" + INIT, timeout=BOOT_TIMEOUT,
              fail_on=LINUX_BAD + r"|Entering kdb").group(0).startswith("type go"):
        k.wait(PROMPT)
        k.type("go")
        k.enter()
        m.wait_for(INIT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + r"|Entering kdb")
    # Linux's own NMIs stay Linux's: sysrq-l's backtrace NMI to the other
    # CPU is not taken for a stop, and after the handoff an NMI nobody
    # claims (QEMU's NMI button) is Linux's too: its message, no stop
    test_linux.sysrq_l_then_nmi_button(m, k)
    m.wait_for(r"Uhhuh\. NMI received for unknown reason", timeout=BOOT_TIMEOUT,
               fail_on=LINUX_BAD + r"|Entering kdb")
    # sysrq-g: Linux's kdb on the line ekdb handed over (I/O driver ekdb),
    # both CPUs in
    k.mark()
    m.send(0, b"echo g > /proc/sysrq-trigger\n")
    e = k.wait(ENTRY, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD)
    # (Linux 6.1's kdb names sysrq-g's stop NonMaskable Interrupt: docs/linux.md)
    assert re.match(r"NonMaskable Interrupt|Keyboard Entry", e.group(3)), e.group(0)
    k.wait(PROMPT)
    # both CPUs; the other one may still be on its way in ("(-)")
    assert re.search(r"Available cpus: (0-1|0, 1\(-\)|0\(-\), 1)$", k.cmd("cpu"), re.M)
    assert re.search(r"\d+ sleeping system daemon", k.cmd("ps")), k.cmd("ps")
    k.go(r"go\r?\n")
    m.send(0, b"echo ekdb-$((6*7))\n")
    m.wait_for(r"ekdb-42", timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + r"|Entering kdb")
