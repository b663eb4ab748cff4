# SPDX-License-Identifier: GPL-2.0
"""kdb on the serial line, typed like a person (issue 4, docs/kdb.md).

`earlyprintk=serial,ttyS0,115200 ekgdboc=ttyS0 kgdbwait` stops in
setup_arch() with `[0]kdb> ` on ttyS0.  Each test is one boot and groups
the checks that belong to it; keys go one at a time with small pauses
(kdb_session.Kdb), arrows and Delete as VT100 escape sequences.
"""

import re


from gdbdriver import gdb_batch
from conftest import KERNEL_ELF
from kdb_session import (BACKSPACE, BOOT_COMPLETE, CTRL_C, CTRL_U, ENTRY, KGDBWAIT,
                         LEFT, MORE, PROMPT, TAB, UP, Kdb, boot_kdb, clean)
from qemu import BOOT_TIMEOUT

_SYMS = {}


def sym(name, m):
    """Run-time address of a kernel symbol on machine m: build/kernel.elf's
    plus the offset the loader moved the kernel by (KASLR)."""
    if not _SYMS:
        import subprocess
        out = subprocess.run(["nm", KERNEL_ELF], capture_output=True, text=True,
                             check=True).stdout
        for line in out.splitlines():
            f = line.split()
            if len(f) == 3:
                _SYMS.setdefault(f[2], int(f[0], 16))
    return _SYMS[name] + m.kaslr_offset()


def elf_bytes(symbol, n):
    """The first n bytes at symbol in the ELF, as a hex string (gdb x/xb)."""
    out = gdb_batch(KERNEL_ELF, [f"x/{n}xb {symbol}"])
    return "".join(b[2:] for b in re.findall(r"\b0x[0-9a-f]{2}\b", out.split(":", 1)[1]
                                             if ":" in out else out)
                   if len(b) == 4)[:2 * n]


def frames(bt):
    """Function names of a kdb `bt` in Linux 6.x's format, innermost first:
    the stopped function of the RIP: line, then each Call Trace entry
    (" name+0xoff/0xsize", also the unreliable " ? name+...")."""
    names = []
    for ln in bt.splitlines():
        m = (re.match(r"^RIP: [0-9a-f]{4}:(\S+?)\+0x[0-9a-f]+/0x[0-9a-f]+$", ln) or
             re.match(r"^ (?:\? )?(\S+?)\+0x[0-9a-f]+/0x[0-9a-f]+$", ln))
        if m:
            names.append(m.group(1))
    return names


LINUX_BT = re.compile(
    r"^Stack traceback for pid (\d+)\n"
    r"0x[0-9a-f]{16} +\d+ +\d+  [01] +\d+   \S  0x[0-9a-f]{16} [ *]\S+\n"
    r"CPU: \d+ PID: \d+ Comm: \S+ Not tainted \S+ #\d+\n"
    r"Call Trace:\n <TASK>\n"
    r"RIP: [0-9a-f]{4}:\S+\+0x[0-9a-f]+/0x[0-9a-f]+\n"
    r"Code: (?:[0-9a-f]{2} ){42}<[0-9a-f]{2}>(?: [0-9a-f]{2}){21}\n"
    r"RSP: [0-9a-f]{4}:[0-9a-f]{16} EFLAGS: [0-9a-f]{8}(?: ORIG_RAX: [0-9a-f]{16})?\n"
    r"RAX: [0-9a-f]{16} RBX: [0-9a-f]{16} RCX: [0-9a-f]{16}\n"
    r"RDX: [0-9a-f]{16} RSI: [0-9a-f]{16} RDI: [0-9a-f]{16}\n"
    r"RBP: [0-9a-f]{16} R08: [0-9a-f]{16} R09: [0-9a-f]{16}\n"
    r"R10: [0-9a-f]{16} R11: [0-9a-f]{16} R12: [0-9a-f]{16}\n"
    r"R13: [0-9a-f]{16} R14: [0-9a-f]{16} R15: [0-9a-f]{16}\n"
    r"(?: (?:\? )?\S+\+0x[0-9a-f]+/0x[0-9a-f]+\n)+"
    r" </TASK>$", re.M)


def help_commands(out):
    return [ln.split()[0] for ln in out.splitlines()[2:] if ln.strip()]


# --------------------------------------------------------------------------
def test_kgdbwait_commands(machine):
    """At kgdbwait: help with the pager, memory, registers, bt, system
    commands, diagnostics, | grep, defcmd, and the line editor."""
    m = boot_kdb(machine)
    assert re.search(ENTRY, m.output(0)).group(3) == "Keyboard Entry"
    k = Kdb(m)

    # -- help through the pager (LINES=24): Enter = one more line, space =
    # a page, q = drop the rest.
    start = k.mark()
    k.type("help")
    k.enter()
    page1 = k.wait(MORE)
    first = clean(m.output(0)[start:page1.start()]).split("\n", 1)[1]
    assert "Display Memory Contents" in first and "Command" in first
    assert len([ln for ln in first.splitlines() if ln.strip()]) <= 24
    start = page1.end()
    k.enter()
    again = k.wait(MORE)
    one = [ln for ln in clean(m.output(0)[start:again.start()]).splitlines() if ln.strip()]
    assert len(one) == 1, one
    start = again.end()
    k.type(" ")
    end = k.wait(f"{PROMPT}|{MORE}")
    rest = clean(m.output(0)[start:end.start()])
    assert "ssb" in rest or "more>" in end.group(0), rest
    if end.group(0).startswith("more"):
        k.type("q")
        k.wait(PROMPT)
    start = k.mark()
    k.type("help")
    k.enter()
    k.wait(MORE)
    k.type("q")
    k.wait(PROMPT)
    dropped = clean(k.since(start))
    assert "Display Memory Contents" in dropped and "Single step" not in dropped, dropped

    # -- memory
    out = k.cmd("md setup_arch")
    lines = out.splitlines()
    assert len(lines) == 8, out                              # MDCOUNT=8
    assert lines[0].startswith(f"0x{sym('setup_arch', m):016x} "), out
    # Linux's kdb_md_line(): two words, three blanks, the 16 bytes as text
    assert re.match(rf"^0x{sym('setup_arch', m):016x} [0-9a-f]{{16}} [0-9a-f]{{16}}   .{{16}}$", lines[0]), out
    assert k.cmd("start_kernel+0x10") == \
        f"start_kernel+0x10 = 0x{sym('start_kernel', m) + 0x10:016x} (start_kernel+0x10)"
    # Linux's lookup: a word that starts with a command name is that command
    assert k.cmd("setup_arch") == "diag: -2: Improper argument count, see usage."
    assert re.match(r"^kdb_getarea_size: Bad address 0x0\n0x0000000000000000 *$", k.cmd("md 0 1"))
    # mdWcN: N words of W bytes (issue 12: md4c2 printed 4, md1c3 16)
    md4c2 = k.cmd("md4c2 setup_arch")
    assert re.match(rf"^0x{sym('setup_arch', m):016x} [0-9a-f]{{8}} [0-9a-f]{{8}} {{21}}.{{8}}$", md4c2), md4c2
    md1c3 = k.cmd("md1c3 setup_arch")
    assert md1c3.split()[1:4] == [elf_bytes("setup_arch", 3)[i:i + 2] for i in (0, 2, 4)], md1c3
    assert len(md1c3.split()) == 5, md1c3
    assert k.cmd("mdr setup_arch 16").strip() == elf_bytes("setup_arch", 16)
    mds = k.cmd("mds %rsp 4")
    # kgdb_breakpoint is `int3; ret`: the top of the stack is its return
    # address in ekdb_early_init
    assert re.match(r"^0x[0-9a-f]{16} [0-9a-f]{16} ekdb_early_init\+0x[0-9a-f]+$",
                    mds.splitlines()[0].rstrip()), mds
    assert len(mds.splitlines()) == 4

    # -- registers
    rd = k.cmd("rd")
    # Linux's dbg_reg_def[] names, order and widths, three to a line
    assert re.match(r"^ax: [0-9a-f]{16}  bx: [0-9a-f]{16}  cx: [0-9a-f]{16}\n"
                    r"dx: [0-9a-f]{16}  si: [0-9a-f]{16}  di: [0-9a-f]{16}\n"
                    r"bp: [0-9a-f]{16}  sp: [0-9a-f]{16}  r8: [0-9a-f]{16}\n", rd), rd
    assert re.search(r"^r15: [0-9a-f]{16}  ip: [0-9a-f]{16}  flags: [0-9a-f]{8}  cs: [0-9a-f]{8}\n"
                     r"ss: [0-9a-f]{8}  ds: [0-9a-f]{8}  es: [0-9a-f]{8}  fs: [0-9a-f]{8}  gs: [0-9a-f]{8}$",
                     rd, re.M), rd
    rip = int(re.search(r"\bip: ([0-9a-f]{16})", rd).group(1), 16)
    assert rip == sym("kgdb_breakpoint", m) + 1, rd              # after the int3
    assert "rax" not in rd and "cr3: " in rd                  # ekdb's extra registers follow
    assert k.cmd("rm %ax 0x1234") == ""
    assert "ax: 0000000000001234" in k.cmd("rd")

    # -- backtrace (the caller frames: see test_backtraces_name_every_frame)
    bt = k.cmd("bt")
    assert LINUX_BT.match(bt), bt
    names = frames(bt)
    assert names[0] == "kgdb_breakpoint", names
    assert names.index("setup_arch") < names.index("start_kernel"), names
    # kgdb_breakpoint has no frame: its caller is found on the stack, unreliable
    assert re.search(r"^ \? ekdb_early_init\+0x[0-9a-f]+/0x[0-9a-f]+$", bt, re.M), bt
    assert "[<" not in bt and "boot_stack" not in bt and "/0x0\n" not in bt, bt
    assert frames(k.cmd("b")) == names                        # b is bt

    # -- system
    ps = k.cmd("ps")
    assert re.search(r"^0x[0-9a-f]+\s+0\s+0\s+1\s+0\s+R\s+0x[0-9a-f]+ \*swapper/0$", ps, re.M), ps
    summ = k.cmd("summary")
    assert re.match(r"^sysname    ekdb\nrelease    \S+\nversion    #1 .*\nmachine    x86_64\n"
                    r"nodename   \(none\)\ndomainname \(none\)\n"
                    r"date       20\d\d-\d\d-\d\d \d\d:\d\d:\d\d tz_minuteswest 0\n"
                    r"uptime     \d\d:\d\d\n"
                    r"load avg   \d+\.\d\d \d+\.\d\d \d+\.\d\d\n\n"
                    r"MemTotal: +\d+ kB\nMemFree: +\d+ kB\nBuffers: +0 kB$", summ), summ
    lsmod = k.cmd("lsmod")
    assert lsmod.splitlines()[0].split() == ["Module", "Size", "modstruct", "Used", "by"]
    assert re.search(r"^printk +[1-9]\d*  0x[0-9a-f]{16}    0  \(Live\) 0x[0-9a-f]{16} \[ \]$",
                     lsmod, re.M), lsmod
    env = k.cmd("env")
    # Linux 6.x's default environment (x86-64), nothing more
    assert env.splitlines() == ["PROMPT=[%d]kdb>", "MOREPROMPT=more>", "RADIX=16", "MDCOUNT=8",
                                "BYTESPERWORD=8", "DTABCOUNT=30", "NOSECT=1"], env
    assert k.cmd("set LINES 50") == ""
    assert "LINES=50" in k.cmd("env").splitlines()
    start = k.mark()
    full_help = k.cmd("help")                    # 50 lines: no pager now
    assert "more>" not in k.since(start) and "dumpcpu" in full_help

    dmesg = k.cmd("dmesg").splitlines()
    assert "ekdb reference kernel" in dmesg[0], dmesg[:3]    # the first boot line
    # Linux 6.x's kdb dmesg: the syslog form of each record
    assert all(re.match(r"^<[0-7]>\[ *\d+\.\d{6}\] ", ln) for ln in dmesg), dmesg
    assert "Waiting for connection from remote gdb" in dmesg[-1]
    five = k.cmd("dmesg 5").splitlines()
    assert five == dmesg[-5:], five
    assert k.cmd("dmesg -1").splitlines() == dmesg[:1]
    grep = k.cmd("dmesg | grep kgdb").splitlines()
    assert grep and all("kgdb" in ln for ln in grep), grep
    assert grep == [ln for ln in dmesg if "kgdb" in ln]

    # -- diagnostics
    assert "Unknown kdb command: 'frobnicate'" in k.cmd("frobnicate")
    many = k.cmd("md " + " ".join(str(n) for n in range(1, 18)))
    assert "kdb_parse: too many arguments, command ignored" in many, many
    assert k.cmd("mdr setup_arch") == "diag: -2: Improper argument count, see usage."
    assert k.cmd("md no_such_symbol_here") == "diag: -15: Illegal numeric value"

    # -- defcmd ... endefcmd, then run it
    for ln in ('defcmd mine "" "my test macro"', "dmesg -1", "-md 0 1", "ps"):
        k.cmd(ln)
    k.cmd("endefcmd")
    start = k.mark()
    k.type("mine")
    k.enter()
    k.wait(r"kdb> ps\r?\n")          # each line of the macro runs after a prompt
    k.wait(PROMPT)
    mine = clean(k.since(start))
    assert "ekdb reference kernel" in mine and "*swapper/0" in mine, mine
    assert "kdb_getarea_size: Bad address 0x0" in mine      # '-': error ignored, goes on
    assert "[mine]kdb> dmesg -1" in mine                     # Linux echoes each line so
    assert re.search(r"^mine\s+my test macro$", k.cmd("help | grep mine"), re.M)

    # -- line editing: Backspace, Left + insert, Up (history), Tab, Tab Tab
    want = k.cmd("md setup_arch 1")
    echo, out = k.line(["mdd", BACKSPACE, " setup_arch 1"])
    assert echo.endswith("md setup_arch 1") and out == want, (echo, out)
    echo, out = k.line(["md setp_arch 1"] + [LEFT] * len("p_arch 1") + ["u"])
    assert echo.endswith("md setup_arch 1") and out == want, (echo, out)
    k.cmd("dmesg -1")
    echo, out = k.line([UP, UP])                               # two lines back
    assert echo.endswith("md setup_arch 1") and out == want, (echo, out)
    echo, out = k.line(["md acpi_boot_t", TAB, " 1"])          # unique: completed
    assert echo.endswith("md acpi_boot_table_init 1"), echo
    assert out.startswith(f"0x{sym('acpi_boot_table_init', m):016x} "), out
    start = k.mark()
    k.type("memblock_res")
    k.key(TAB)                                                 # common prefix
    k.key(TAB)                                                 # list
    k.wait(r"symbols are found\.")
    k.wait(r"memblock_rese")                                   # the line, redrawn
    listing = clean(k.since(start))
    for name in ("memblock_reserve", "memblock_reserved", "memblock_reserved_size",
                 "memblock_reset"):
        assert re.search(rf"(?:^| ){name}(?: |$)", listing, re.M), listing   # Linux: one line
    k.key(CTRL_U)
    out = k.cmd("ps")                   # the line was emptied: ps runs, alone
    assert "swapper/0" in out and "memblock_rese" not in out, out

    # issue 21: `bp print_memory_map` (gdb's `break print_memory_map`, a static
    # step of setup_arch) names a kallsyms symbol in kdb too
    pmm = sym("print_memory_map", m)
    out = k.cmd("bp print_memory_map")
    assert out.startswith(f"Instruction(i) BP #0 at 0x{pmm:x} (print_memory_map)"), out
    assert k.cmd("bc 0") == f"Breakpoint 0 at 0x{pmm:x} cleared"


def test_breakpoints_step_and_after_boot(machine):
    """bp on a later setup_arch step and on mm_init, bl/bd/be/bc, a write
    watchpoint (bph), ss with Enter repeating it, ssb, go to the end of
    boot; then Ctrl-C on the line, the kernel's threads (ps, btp, bta,
    btc), cpu 1 of 2, and the commands registered after the allocator."""
    m = boot_kdb(machine, smp=2)
    k = Kdb(m)
    k.cmd("set LINES 200")
    early_help = help_commands(k.cmd("help"))

    acpi, mm_init, jiffies = sym("acpi_boot_table_init", m), sym("mm_init", m), sym("jiffies", m)
    out = k.cmd("bp acpi_boot_table_init")                   # a later step of setup_arch
    assert out.splitlines()[0] == f"Instruction(i) BP #0 at 0x{acpi:x} (acpi_boot_table_init)", out
    assert out.splitlines()[1] == f"    is enabled   addr at {acpi:016x}, hardtype=0 installed=0", out
    assert k.cmd("bp mm_init").startswith(f"Instruction(i) BP #1 at 0x{mm_init:x} (mm_init)")
    out = k.cmd("bph jiffies dataw 8")
    assert out.startswith(f"Data Write BP #2 at 0x{jiffies:x} (jiffies)"), out
    assert out.splitlines()[1] == f"    is enabled   addr at {jiffies:016x}, hardtype=2 installed=0", out
    bl = k.cmd("bl")
    assert [int(n) for n in re.findall(r"BP #(\d+) at", bl)] == [0, 1, 2], bl
    assert k.cmd("bd 1") == f"Breakpoint 1 at 0x{mm_init:x} disabled"
    assert re.search(r"BP #1 at .*\n\s+is disabled", k.cmd("bl"))
    assert k.cmd("be 1") == f"Breakpoint 1 at 0x{mm_init:x} enabled"
    assert re.search(r"BP #1 at .*\n\s+is enabled", k.cmd("bl"))

    # -- go: the bp in the later setup_arch step fires
    k.go(rf"Instruction\(i\) breakpoint #0 at 0x{acpi:x}")
    e = k.wait(ENTRY)
    assert e.group(3) == f"Breakpoint @ 0x{acpi:x}"
    k.wait(PROMPT)
    assert "framebuffer:" in m.output(0)[:e.start()]          # print_framebuffer ran first
    assert "ACPI: RSDP" not in m.output(0)[:e.start()]         # acpi not yet
    names = frames(k.cmd("bt"))
    assert names[:2] == ["acpi_boot_table_init", "setup_arch"], names

    # -- ss, Enter repeats it, ssb
    out = k.cmd("ss")
    ss1 = int(re.search(r"due to SS trap @ 0x([0-9a-f]+)", out).group(1), 16)
    assert acpi < ss1 < acpi + 16, out
    out = k.cmd("")                                             # Enter: ss again
    ss2 = int(re.search(r"due to SS trap @ 0x([0-9a-f]+)", out).group(1), 16)
    assert ss1 < ss2 < acpi + 32, out
    out = k.cmd("ssb")
    stepped = [int(a, 16) for a in re.findall(r"^0x([0-9a-f]+) \(acpi_boot_table_init\+", out, re.M)]
    last = int(re.search(r"due to SS trap @ 0x([0-9a-f]+)", out).group(1), 16)
    assert stepped and stepped[0] >= ss2 and last >= stepped[-1], out

    # -- go: mm_init
    k.go(rf"Instruction\(i\) breakpoint #1 at 0x{mm_init:x}")
    assert k.wait(ENTRY).group(3) == f"Breakpoint @ 0x{mm_init:x}"
    k.wait(PROMPT)
    assert "ACPI: MADT: 2 CPUs" in m.output(0)
    names = frames(k.cmd("bt"))
    assert names[0] == "mm_init" and "start_kernel" in names, names
    assert k.cmd("bc 0") == f"Breakpoint 0 at 0x{acpi:x} cleared"
    assert "acpi_boot_table_init" not in k.cmd("bl")

    # -- go: the timer tick writes jiffies: the watchpoint fires
    k.go(rf"Data Write breakpoint #2 at 0x{jiffies:x}")
    e = k.wait(ENTRY)
    assert e.group(3).startswith("Debug @ 0x"), e.group(0)
    k.wait(PROMPT)
    names = frames(k.cmd("bt"))
    assert names[0] == "timer_interrupt", names
    out = k.cmd("bc *")
    assert f"Breakpoint 1 at 0x{mm_init:x} cleared" in out
    assert f"Breakpoint 2 at 0x{jiffies:x} cleared" in out
    assert k.cmd("bl") == ""

    # -- go to the end of boot; Ctrl-C on the line enters kdb again
    k.go(BOOT_COMPLETE)
    m.wait_for(r"kthreads: .* started", from_start=True)
    k.mark()
    k.key(CTRL_C)
    assert k.wait(ENTRY, timeout=BOOT_TIMEOUT).group(3) == "Keyboard Entry"
    k.wait(PROMPT)

    ps = k.cmd("ps")
    # Linux's kdb_ps(): what is hidden, the header, the CPUs' tasks, a blank line, the rest
    # (CPU 0 may be running a thread too, e.g. kpagezero, when the Ctrl-C comes:
    # swapper/0 is then not listed at all: an idle task is not on Linux's task list)
    assert re.match(r"^(?:1 idle process \(state -\) and\n)?"     # CPU 1 may run a thread
                    r"\d+ sleeping system daemon \(state \[ims\]\) processes suppressed,\n"
                    r"use 'ps A' to see all\.\n"
                    r"Task Addr {15}Pid   Parent \[\*\] cpu State Thread {13}Command\n"
                    r"0x[0-9a-f]{16} +\d+ +0  1    0   R  0x[0-9a-f]{16} \*\S+(?:\n|$)"
                    r"(?:0x[0-9a-f]{16} +\d+ +0  1    1   R  0x[0-9a-f]{16}  \S+(?:\n|$))?"
                    r"(?:\n|$)", ps), ps                      # the rest may be empty (all asleep)
    # issue 21: swapper/0 once at most (among the CPUs' tasks), swapper/1 not at all
    assert ps.count("swapper/0") <= 1 and "swapper/1" not in ps, ps
    psa = k.cmd("ps A")
    tasks = {}
    for ln in psa.splitlines()[1:]:
        f = ln.split()
        if f:
            # a running thread is in both parts (as Linux); an idle task only in the first
            assert not (f[-1].lstrip("*").startswith("swapper/") and f[-1].lstrip("*") in tasks), psa
            tasks[f[-1].lstrip("*")] = (int(f[1]), f[5])
            assert 0 <= int(f[4]) < 2, ln                     # every task has a CPU
            assert f[5] != "X", psa                           # exited: gone, as in Linux
    for name in ("kheartbeat", "kallocd", "ksoftirqd/0", "ksoftirqd/1"):
        assert name in tasks, psa
    # the idle tasks only as a CPU's task: swapper/1 is '-' off the kdb CPU
    assert [n for n in tasks if n.startswith("swapper/")] == \
        [ln.split()[-1].lstrip("*") for ln in psa.split("\n\n")[0].splitlines()
         if ln.split()[-1].lstrip("*").startswith("swapper/")], psa
    if "swapper/1" in tasks:
        assert tasks["swapper/1"][1] == "-", psa
    pid, state = tasks["kheartbeat"]
    assert state == "s", psa                                   # a sleeping kernel thread
    btp = k.cmd(f"btp {pid}")
    names = frames(btp)
    assert any("schedule" in n for n in names) and "msleep" in names, names
    # its first frame (the switch's return address, at thread.sp + 48) once, reliable
    trace = [ln.replace(" ? ", " ", 1) for ln in btp.split(" <TASK>\n", 1)[1].splitlines()]
    assert not btp.split(" <TASK>\n", 1)[1].startswith(" ? ") and trace.count(trace[0]) == 1, btp
    assert names.index("msleep") < names.index("kheartbeat"), names
    assert f"kheartbeat(pid={pid})" in k.cmd(f"pid {pid}")
    assert frames(k.cmd("bt")) == names                        # bt follows `pid`
    # rd for a task that is not running: Linux's kdb_check_regs(), not CPU 0's registers
    assert k.cmd("rd") == ("No current kdb registers.  You may need to select another task\n"
                           "diag: -17: Invalid register name"), k.cmd("rd")
    k.cmd("pid R")
    assert re.search(r"^ax: [0-9a-f]{16}  bx: ", k.cmd("rd"), re.M)
    # mm on read-only kernel text is refused as Linux's kdb_putword() (the byte
    # written back is the one there, so a write that went through changes nothing)
    msleep = sym("msleep", m)
    b = re.search(r"^0x[0-9a-f]{16} ([0-9a-f]{2}) ", k.cmd("md1c1 msleep"), re.M).group(1)
    out = k.cmd(f"mm1 msleep 0x{b}")
    assert out == f"kdb_putarea_size: Bad address 0x{msleep:x}\ndiag: -21: Invalid address", out

    k.cmd("set BTAPROMPT 0")
    bta = k.cmd("bta A")
    traced = re.findall(r"^Stack traceback for pid (\d+)\n\S+\s+\d+\s+\d+\s+\S+\s+\d+\s+\S\s+\S+\s+\*?(\S+)$",
                        bta, re.M)
    assert sorted(n for _, n in traced) == sorted(tasks), bta
    btc = k.cmd("btc")
    # one trace per CPU, each idle or in a thread; '*' marks kdb's CPU's task
    assert len(re.findall(r"^Stack traceback for pid \d+$", btc, re.M)) == 2, btc
    cpu0 = re.search(r"^CPU: 0 PID: \d+ Comm: (\S+) ", btc, re.M)
    assert cpu0 and f"*{cpu0.group(1)}" in btc, btc
    assert re.search(r"^CPU: 1 PID: \d+ Comm: ", btc, re.M), btc

    # Linux's kdb_cpu_status(): "(-)" marks a CPU stopped in its idle task
    cpu1_idle = re.search(r"^CPU: 1 PID: 0 Comm: swapper/1 ", btc, re.M)
    assert k.cmd("cpu") == ("Currently on cpu 0\nAvailable cpus: " +
                            ("0, 1(-)" if cpu1_idle else "0-1")), btc
    k.mark()
    k.type("cpu 1")
    k.enter()
    cpu1_pid = re.search(r"^CPU: 1 PID: (\d+) ", btc, re.M).group(1)
    k.wait(rf"Entering kdb \(current=0x[0-9a-f]{{16}}, pid {cpu1_pid}\) on processor 1 "
           r"due to cpu switch")
    k.wait(r"\[1\]kdb> ")
    rd = k.cmd("rd", prompt=r"\[1\]kdb> ")
    assert re.search(r"\bip: ffffffff[0-9a-f]{8}", rd), rd
    bt1 = k.cmd("bt", prompt=r"\[1\]kdb> ")
    assert re.search(rf"^CPU: 1 PID: {cpu1_pid} ", bt1, re.M), bt1
    assert ("*swapper/1" in bt1) == bool(cpu1_idle), bt1
    k.type("cpu 0")
    k.enter()
    k.wait(r"\[0\]kdb> ")

    # -- commands registered after the allocator (kdb_register)
    late = [c for c in help_commands(k.cmd("help")) if c not in early_help]
    assert len(late) >= 2, late                                  # issue 4: two subsystems
    # each prints what it is for (not merely "no Unknown command")
    expect = {"runq": r"^cpu 0: running \S+\s+pid \d+, \d+ switches$",
              "meminfo": r"^MemTotal:\s+\d+ kB$",
              "irq": r"^\s+4\s+4 0x34 edge\s+high\s+\d+\s+\d+\s+ttyS0$",
              "serial": r"^ttyS0: 0x3f8 irq 4 115200 baud.*: rx \d+, console \d+, dropped \d+",
              "kbd": r"^kbd: i8042 irq 1.*: interrupts \d+, bytes \d+"}
    assert sorted(late) == sorted(expect), late
    for c in late:
        out = k.cmd(c)
        assert re.search(expect[c], out, re.M), (c, out)

    k.go(r"\S")                                                  # resumes: ticks go on
    assert m.alive()


def test_cmd_enable_refuses_restricted_commands(machine):
    """kdb.cmd_enable=0x28 (register read + inspection): memory reads and
    writes, register writes and breakpoints are refused with a message
    that says so; rd, ps, bt, help and a plain go still work."""
    m = boot_kdb(machine, cmdline=f"{KGDBWAIT} kdb.cmd_enable=0x28")
    k = Kdb(m)
    assert k.cmd("mm setup_arch 0") == "diag: -22: Permission denied"
    assert k.cmd("md setup_arch") == "diag: -22: Permission denied"
    assert k.cmd("rm %ax 1") == "diag: -22: Permission denied"
    assert k.cmd("bp mm_init") == "diag: -22: Permission denied"
    assert k.cmd("bl") == "diag: -22: Permission denied"
    assert "  ip: " in k.cmd("rd")
    assert "*swapper/0" in k.cmd("ps")
    assert "kgdb_breakpoint" in k.cmd("bt")
    # Linux's help lists only the commands the mask allows
    hlp = k.cmd("help")
    assert "Display Registers" in hlp and "Display Memory Contents" not in hlp, hlp
    k.go(BOOT_COMPLETE)


def test_watchpoint_survives_go_from_breakpoint(machine):
    """bph jiffies dataw 8 and a bp on a later setup_arch step; `go` stops
    at the bp; `go` again: the timer tick's first write of jiffies (once
    interrupts are on, at the end of boot) must stop the kernel."""
    m = boot_kdb(machine)
    k = Kdb(m)
    k.cmd("bp acpi_boot_table_init")
    k.cmd("bph jiffies dataw 8")
    k.go(r"Instruction\(i\) breakpoint #0 at")
    k.wait(PROMPT)
    k.mark()
    k.type("go")
    k.enter()
    k.wait(rf"Data Write breakpoint #1 at 0x{sym('jiffies', m):x}", timeout=BOOT_TIMEOUT)
    assert k.wait(ENTRY).group(3).startswith("Debug @ 0x")


def test_backtraces_name_every_frame(machine):
    """bt at kgdbwait: kgdb_breakpoint <- ekdb_early_init <- setup_arch <-
    start_kernel; after boot (Ctrl-C), btc: every frame of both idle
    CPUs named by the function that made the call."""
    m = boot_kdb(machine, smp=2)
    k = Kdb(m)
    k.cmd("set LINES 10000")                  # Linux's bt is longer than a page
    names = frames(k.cmd("bt"))
    assert names[:4] == ["kgdb_breakpoint", "ekdb_early_init", "setup_arch",
                         "start_kernel"], names
    k.go(BOOT_COMPLETE)
    k.mark()
    k.key(CTRL_C)
    k.wait(ENTRY, timeout=BOOT_TIMEOUT)
    k.wait(PROMPT)
    k.cmd("set LINES 10000")                  # two full traces: no more> prompts
    btc = k.cmd("btc")
    unnamed = re.findall(r"^ (?:\? )?0x[0-9a-f]+$", btc, re.M)
    assert not unnamed, btc
    cpu0 = frames(btc.split("Stack traceback")[1])
    # CPU 0 is idle (rest_init <- start_kernel) or still in a kernel thread
    # the Ctrl-C interrupted (kernel_init printing the console prompt):
    # either way the trace reaches the root of that context
    if "rest_init" in cpu0:
        assert cpu0[cpu0.index("rest_init") + 1] == "start_kernel", btc
    else:
        assert cpu0[-1] == "ret_from_kthread", btc
    cpu1 = frames(btc.split("Stack traceback")[2])
    # CPU 1 likewise: idle (from smp_ap_start) or in a thread (kernel_init
    # runs on either CPU), then rooted in ret_from_kthread
    assert "smp_ap_start" in cpu1 or cpu1[-1] == "ret_from_kthread", btc
