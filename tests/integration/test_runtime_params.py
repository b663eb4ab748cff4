# SPDX-License-Identifier: GPL-2.0
"""The running system's habits (issue 21): the Linux files a kernel
developer uses in the reference kernel's shell (kernel-glue/pseudofs.c,
kernel-glue/kconsole.c), typed on the serial console:

  echo g > /proc/sysrq-trigger               the debugger (Linux's sysrq-g)
  cat/echo /sys/module/kgdboc/parameters/kgdboc   show, switch, unconfigure,
                                             configure the debugger's I/O
  cat/echo /sys/module/kdb/parameters/cmd_enable  kdb's command mask

Each effect is checked as a person sees it: kdb's entry line, Ctrl-C on a
line reaching kdb or the shell (the shell echoes ^C and prompts again: the
debugger did not take it), Linux's messages and errors; every bad value is
followed by a check that nothing changed."""

import re

from gdb_boot import ACKS_ON, attach
from kdb_session import BAD, CONSOLE, CTRL_C, ENTRY, PROMPT, Kdb, clean
from qemu import BOOT_TIMEOUT

SHELL = r"ekdb:/# "
KGDBOC = "/sys/module/kgdboc/parameters/kgdboc"
CMD_ENABLE = "/sys/module/kdb/parameters/cmd_enable"
TRIGGER = "/proc/sysrq-trigger"
NO_IO = "ERROR: No KGDB I/O module available"
CMD_TIMEOUT = 60


def boot_shell(machine, cmdline, **kw):
    kw.setdefault("ports", ("unix",))
    m = machine(cmdline=cmdline, **kw)
    m.wait_for(SHELL, timeout=BOOT_TIMEOUT, fail_on=BAD)
    return m


def shell(k, line, timeout=CMD_TIMEOUT):
    """Type a shell command and Enter; return its output (the lines between
    the echoed command and the next prompt)."""
    start = k.mark()
    k.type(line)
    k.enter()
    pm = k.wait(SHELL, timeout=timeout)
    raw = k.m.output(k.port)[start:pm.start()]
    return clean(raw).partition("\n")[2].rstrip("\n")


def enter_by_trigger(k):
    """echo g > /proc/sysrq-trigger: kdb stops in the shell's own write."""
    k.mark()
    k.type(f"echo g > {TRIGGER}")
    k.enter()
    e = k.wait(ENTRY, timeout=BOOT_TIMEOUT)
    k.wait(PROMPT)
    return e


def ctrl_c_reaches_shell(k):
    """Ctrl-C on the console line is the shell's (^C and a new prompt): the
    debugger does not use this line."""
    k.mark()
    k.key(CTRL_C)
    k.wait(r"\^C\r?\n" + SHELL, fail_on=BAD + "|Entering kdb")


def ctrl_c_enters(k):
    k.mark()
    k.key(CTRL_C)
    e = k.wait(ENTRY, timeout=BOOT_TIMEOUT)
    k.wait(PROMPT)
    return e


def test_sysrq_trigger(machine):
    """echo g > /proc/sysrq-trigger enters kdb from the shell's write (bt
    shows it), `go` returns to the shell; h, t and a bad key behave as
    Linux's (the help line for a key the kernel does not have); the file is
    write-only; only the first byte counts (as Linux without '_')."""
    m = boot_shell(machine, f"{CONSOLE} kgdboc=ttyS0")
    k = Kdb(m)
    start = k.mark()
    enter_by_trigger(k)
    assert "sysrq: DEBUG" in m.output(0)[start:]
    bt = k.cmd("bt")
    assert "write_sysrq_trigger" in bt and "kconsole" in bt, bt
    k.go(SHELL)

    out = shell(k, f"echo x > {TRIGGER}")                 # a key the kernel has not
    assert re.search(r"sysrq: HELP : .*debug\(g\)", out), out
    out = shell(k, f"echo h > {TRIGGER}")
    assert re.search(r"sysrq: HELP : .*debug\(g\)", out), out
    out = shell(k, f"echo t > {TRIGGER}")
    assert "sysrq: Show State" in out and "kconsole" in out, out
    out = shell(k, f"echo xg > {TRIGGER}")                # the first byte only
    assert "sysrq: HELP" in out and "DEBUG" not in out, out
    out = shell(k, f"cat {TRIGGER}")
    assert out == f"cat: {TRIGGER}: Input/output error", out
    out = shell(k, "echo g > /proc/sysrq")
    assert out == "sh: /proc/sysrq: No such file or directory", out
    out = shell(k, "cat /sys/module/kgdboc/parameters/nope")
    assert out.endswith("No such file or directory"), out
    # plain echo is unchanged; `>` not followed by a path is text
    assert shell(k, 'echo "a  b" <>? c') == "a  b <>? c"
    m.expect_not(r"Oops|Kernel panic")


def test_sysrq_trigger_bulk(machine):
    """Linux's '_' prefix (Documentation/admin-guide/sysrq.rst, 6.8+): a write
    starting with '_' makes every following byte a key, in order, so
    `echo _tg` shows the tasks, then enters kdb (from the same write: bt),
    and after `go` echo's newline is a key too (Linux's help line, as
    __handle_sysrq('\n') prints it).  A '_' not first is an ordinary byte
    (the first byte only: x's help, no DEBUG).  Tried: _tg, x_g, _, _hx."""
    m = boot_shell(machine, f"{CONSOLE} kgdboc=ttyS0")
    k = Kdb(m)
    start = k.mark()
    k.type(f"echo _tg > {TRIGGER}")
    k.enter()
    k.wait(ENTRY, timeout=BOOT_TIMEOUT)
    k.wait(PROMPT)
    out = m.output(0)[start:]
    show, debug = out.find("sysrq: Show State"), out.find("sysrq: DEBUG")
    assert 0 <= show < debug, out                       # t, then g
    assert "sysrq: HELP" not in out, out                 # '_' is no key
    bt = k.cmd("bt")
    assert "write_sysrq_trigger" in bt, bt
    start = k.mark()
    k.go(SHELL)
    assert "sysrq: HELP" in m.output(0)[start:]         # echo's newline, as Linux

    out = shell(k, f"echo x_g > {TRIGGER}")             # '_' only counts first
    assert "sysrq: HELP" in out and "DEBUG" not in out, out
    out = shell(k, f"echo _ > {TRIGGER}")                # only echo's newline
    assert out.count("sysrq: HELP") == 1 and "DEBUG" not in out, out
    out = shell(k, f"echo _hx > {TRIGGER}")              # h, x, newline: three
    assert out.count("sysrq: HELP") == 3, out
    m.expect_not(r"Oops|Kernel panic")


def test_kgdboc_switch_and_bad_values(machine):
    """kgdboc=ttyS0 at boot; echo ttyS1 switches: Ctrl-C on ttyS0 is the
    shell's again, Ctrl-C on ttyS1 enters kdb there.  Bad values get Linux's
    errors (ENODEV for a device that is not there or a malformed value,
    ENOSPC for 40 bytes or more) and change nothing: cat shows ttyS1 and
    ttyS1 still breaks in."""
    m = boot_shell(machine, f"{CONSOLE} kgdboc=ttyS0", ports=("unix", "unix"))
    k, k1 = Kdb(m), Kdb(m, port=1)
    assert shell(k, f"cat {KGDBOC}") == "ttyS0"
    e = ctrl_c_enters(k)                                      # ttyS0 is the debugger's
    assert e.group(3) == "Keyboard Entry", e.group(0)
    k.go(r"go\r?\n")

    out = shell(k, f"echo ttyS1 > {KGDBOC}")
    assert "write error" not in out, out
    assert re.search(r"kgdb: Registered I/O driver kgdboc \(ttyS1\)", m.output(0))
    assert shell(k, f"cat {KGDBOC}") == "ttyS1"
    ctrl_c_reaches_shell(k)                                   # the old line: not any more
    ctrl_c_enters(k1)                                         # the new one
    assert "ttyS1" in k1.cmd("serial")
    k1.go(r"go\r?\n")
    k.mark()
    assert shell(k, "echo still-here") == "still-here"

    for bad, err in (("ttyS7", "No such device"), ("bogus", "No such device"),
                     ("ttyS1,", "No such device"), ("kms", "No such device"),
                     ("ttyS1," + "1" * 40, "No space left on device")):
        out = shell(k, f"echo {bad} > {KGDBOC}")
        assert out.endswith(f"sh: echo: write error: {err}"), (bad, out)
        assert shell(k, f"cat {KGDBOC}") == "ttyS1", bad
    assert "config string too long" in m.output(0)
    ctrl_c_reaches_shell(k)
    ctrl_c_enters(k1)                                         # nothing changed
    k1.go(r"go\r?\n")
    k.mark()
    ctrl_c_reaches_shell(k)
    m.expect_not(r"Oops|Kernel panic")


def test_kgdboc_write_while_gdb_is_connected(machine, gdb):
    """Linux's kgdboc refuses to reconfigure while gdb is connected
    ("kgdboc: Cannot reconfigure while KGDB is connected.", EBUSY): gdb on
    ttyS1 has continued the kernel and is still attached; from the shell on
    ttyS0, switching (ttyS0), unconfiguring ("") and even the same line
    (ttyS1) are refused, cat still shows ttyS1, the shell keeps Ctrl-C and
    gdb still stops the kernel on its line.  After gdb detaches the switch
    is allowed (the control)."""
    m = boot_shell(machine, f"{CONSOLE} kgdboc=ttyS1", ports=("unix", "socket"))
    k = Kdb(m)
    g = attach(machine, gdb, m, pre=ACKS_ON + ("set remote interrupt-on-connect on",))
    g.cont()
    for val in ("ttyS0", '""', "ttyS1"):
        start = k.mark()
        out = shell(k, f"echo {val} > {KGDBOC}")
        assert out.endswith("sh: echo: write error: Device or resource busy"), (val, out)
        assert "kgdboc: Cannot reconfigure while KGDB is connected." in m.output(0)[start:], val
        assert shell(k, f"cat {KGDBOC}") == "ttyS1", val
    ctrl_c_reaches_shell(k)                               # ttyS0 is still the shell's
    st = g.interrupt(timeout=60)                          # gdb kept its line
    assert st.get("signal-name") == "SIGINT", st
    assert int(g.cmd("print/x jiffies").split("=")[1], 16) > 0
    g.detach()
    out = shell(k, f"echo ttyS0 > {KGDBOC}")
    assert "write error" not in out, out
    assert shell(k, f"cat {KGDBOC}") == "ttyS0"
    m.expect_not(r"Oops|Kernel panic")


def test_kgdboc_unconfigure_and_configure(machine):
    """echo "" unconfigures: cat shows an empty value, sysrq-g says Linux's
    "ERROR: No KGDB I/O module available" and the shell goes on, Ctrl-C is
    the shell's.  Writing ttyS0 again configures it: sysrq-g enters kdb."""
    m = boot_shell(machine, f"{CONSOLE} kgdboc=ttyS0")
    k = Kdb(m)
    out = shell(k, f'echo "" > {KGDBOC}')
    assert "write error" not in out, out
    assert "kgdb: Unregistered I/O driver kgdboc, debugger disabled" in m.output(0)
    assert shell(k, f"cat {KGDBOC}") == ""
    out = shell(k, f"echo g > {TRIGGER}")
    assert "sysrq: DEBUG" in out and NO_IO in out, out
    ctrl_c_reaches_shell(k)

    out = shell(k, f"echo ttyS0 > {KGDBOC}")
    assert "write error" not in out, out
    assert shell(k, f"cat {KGDBOC}") == "ttyS0"
    enter_by_trigger(k)
    k.go(SHELL)
    ctrl_c_enters(k)
    k.go(r"go\r?\n")
    assert shell(k, "echo back") == "back"
    m.expect_not(r"Oops|Kernel panic")


def test_kgdboc_configure_after_boot_without_debugger(machine):
    """No debugger at boot (no ekgdboc=/kgdboc=): kgdboc is empty and sysrq-g
    says there is no I/O.  echo ttyS1 starts the debugger on ttyS1 (the
    driver takes the line now): Ctrl-C there enters kdb, and a kdb
    breakpoint set there fires when the shell's cat runs."""
    m = boot_shell(machine, CONSOLE, ports=("unix", "unix"))
    k, k1 = Kdb(m), Kdb(m, port=1)
    assert shell(k, f"cat {KGDBOC}") == ""
    out = shell(k, f"echo g > {TRIGGER}")
    assert NO_IO in out, out
    out = shell(k, f"echo ttyS1,115200 > {KGDBOC}")
    assert "write error" not in out, out
    assert re.search(r"serial8250: ttyS1 at I/O 0x2f8 \(irq = 3, 115200 baud\)", m.output(0))
    assert shell(k, f"cat {KGDBOC}") == "ttyS1,115200"
    ctrl_c_enters(k1)
    assert "BP #0" in k1.cmd("bp pseudofs_read")
    k1.go(r"go\r?\n")
    k.type(f"cat {KGDBOC}")
    k.enter()
    e = k1.wait(ENTRY, timeout=BOOT_TIMEOUT)
    assert "Breakpoint" in e.group(3), e.group(0)
    k1.wait(PROMPT)
    k1.cmd("bc 0")
    k1.go(r"go\r?\n")
    k.wait(r"\nttyS1,115200\r?\n" + SHELL)
    m.expect_not(r"Oops|Kernel panic")


def test_cmd_enable(machine):
    """cat shows kdb's mask as an int (1: everything); echo 0 restricts kdb
    at once (md refused at the next stop); bad values get kstrtoint's
    errors (EINVAL, ERANGE) and change nothing; echo 1 gives it back."""
    m = boot_shell(machine, f"{CONSOLE} kgdboc=ttyS0")
    k = Kdb(m)
    assert shell(k, f"cat {CMD_ENABLE}") == "1"
    out = shell(k, f"echo 0 > {CMD_ENABLE}")
    assert "write error" not in out, out
    assert shell(k, f"cat {CMD_ENABLE}") == "0"
    for bad, err in (("abc", "Invalid argument"), ("", "Invalid argument"),
                     ("0x100000000", "Numerical result out of range"),
                     ("2147483648", "Numerical result out of range"), ("1 2", "Invalid argument")):
        out = shell(k, f'echo "{bad}" > {CMD_ENABLE}')
        assert out == f"sh: echo: write error: {err}", (bad, out)
        assert shell(k, f"cat {CMD_ENABLE}") == "0", bad
    enter_by_trigger(k)
    out = k.cmd("md pseudofs_read")
    assert "Permission denied" in out, out
    k.go(SHELL)
    assert shell(k, f"echo 0x28 > {CMD_ENABLE}") == ""
    assert shell(k, f"cat {CMD_ENABLE}") == "40"
    assert shell(k, f"echo 1 > {CMD_ENABLE}") == ""
    enter_by_trigger(k)
    out = k.cmd("md pseudofs_read")
    assert "Permission denied" not in out and re.search(r"0x[0-9a-f]+ ", out), out
    k.go(SHELL)
    m.expect_not(r"Oops|Kernel panic")


def page0(m, tmp_path, name):
    """The kms driver's page 0 (the kernel's screen) as text, read from video
    memory with QMP pmemsave whatever the scanout shows (the framebuffer's
    address from the driver's boot line; 32 bpp, pitch = width * 4)."""
    from screen import Screen as Decoded
    g = re.search(r"kms: bochs-drm .*: (\d+)x(\d+)x32 at (0x[0-9a-f]+)", m.output(0))
    assert g, "no kms driver line in the boot log"
    w, h, base = int(g.group(1)), int(g.group(2)), int(g.group(3), 16)
    path = str(tmp_path / f"{name}.raw")
    m.qmp().execute("pmemsave", val=base, size=w * h * 4, filename=path)
    with open(path, "rb") as f:
        bgrx = f.read()
    assert len(bgrx) == w * h * 4, len(bgrx)
    rgb = bytearray(w * h * 3)
    for c in range(3):
        rgb[c::3] = bgrx[c::4]
    s = Decoded(w, h, bytes(rgb))
    s.save_png(str(tmp_path / f"{name}.png"))
    return s


def test_kgdboc_kms_kbd_at_run_time(machine, tmp_path):
    """Issue 21: echo kms,kbd configures kdb on the screen and the PS/2
    keyboard at run time (as Linux's kgdboc=kms,kbd written to sysfs), the
    same as kgdboc=kms,kbd at boot: sysrq-g typed on the serial shell shows
    kdb on the screen (read back from a screendump) on the debugger's own
    page - page 0, read from video memory meanwhile, still shows the console
    as it was (the shell's line, no kdb text) - and `go` typed on the
    keyboard shows page 0 again: the screen is the console with the kernel's
    lines (kdb's lines are in the console's history, as Linux's fbcon keeps
    them: they show from the next console output on).  The serial line is
    not the debugger's (its Ctrl-C is the shell's).  Switching to ttyS0
    moves kdb to the serial line and takes the kms hooks back (kdb's `kms`
    is gone, the screen stays on page 0 while kdb runs); an empty write
    unconfigures.  Bad values (kms alone: no input; kms,kbd,ttyS9: no such
    line) get Linux's ENODEV and change nothing."""
    from screen import grab
    from test_kdb_screen import Screen, at_prompt

    m = boot_shell(machine, CONSOLE)
    k = Kdb(m)
    out = shell(k, f"echo kms,kbd > {KGDBOC}")
    assert "write error" not in out, out
    assert re.search(r"kgdb: Registered I/O driver kgdboc \(kms,kbd\)", m.output(0))
    assert shell(k, f"cat {KGDBOC}") == "kms,kbd"
    for bad in ("kms", "kms,kbd,ttyS9"):
        out = shell(k, f"echo {bad} > {KGDBOC}")
        assert out.endswith("sh: echo: write error: No such device"), (bad, out)
        assert shell(k, f"cat {KGDBOC}") == "kms,kbd", bad
    ctrl_c_reaches_shell(k)                        # the serial line is not the debugger's

    sc = Screen(m, tmp_path)
    k.mark()
    k.type(f"echo g > {TRIGGER}")
    k.enter()
    s = sc.wait("kdb", lambda s: at_prompt(s) and s.find("due to Keyboard Entry") is not None,
                timeout=BOOT_TIMEOUT)
    assert (s.width, s.height) == (1024, 768), (s.width, s.height)
    m.expect_not(r"\[\d+\]kdb> ", port=0)           # not on the serial line
    p0 = page0(m, tmp_path, "page0-in-kdb")         # kdb drew on its own page:
    assert p0.find(f"echo g > {TRIGGER}") is not None, p0.text()
    assert p0.find("Entering kdb") is None and p0.find("kdb>") is None, p0.text()
    s, rows = sc.cmd("ps", "ps")
    assert any(r.startswith("Task Addr") for r in rows), rows   # typed on the keyboard
    assert page0(m, tmp_path, "page0-after-ps").find("Task Addr") is None
    sc.type("go")
    sc.keys("ret")
    k.wait(SHELL, timeout=CMD_TIMEOUT)              # the shell's echo came back
    assert shell(k, "echo after-go") == "after-go"
    s = sc.wait("after-go", lambda s: s.find("after-go") is not None and not at_prompt(s),
                timeout=CMD_TIMEOUT)
    assert s.text() == page0(m, tmp_path, "page0-after-go").text()    # page 0 is shown

    # -- switch to the serial line (the kms hooks go), then unconfigure
    out = shell(k, f"echo ttyS0 > {KGDBOC}")
    assert "write error" not in out, out
    assert shell(k, f"cat {KGDBOC}") == "ttyS0"
    enter_by_trigger(k)
    out = k.cmd("kms")
    assert "Unknown kdb command" in out, out       # kdb's `kms` went with the hooks
    s = grab(m.qmp(), tmp_path / "serial-kdb")    # the screen was not switched:
    assert s.text() == page0(m, tmp_path, "page0-serial-kdb").text()   # page 0 shows
    k.go(SHELL)
    out = shell(k, f'echo "" > {KGDBOC}')
    assert "write error" not in out, out
    assert shell(k, f"cat {KGDBOC}") == ""
    out = shell(k, f"echo g > {TRIGGER}")
    assert NO_IO in out, out
    m.expect_not(r"Oops|Kernel panic")


PCI_UNUSED = r"serial8250: 00:\w\w\.\d: ttyS4 \(io (0x[0-9a-f]+)\) not used"


def test_kgdboc_pci_line_at_run_time(machine):
    """Issue 21: echo ttyS4 names a PCI UART (QEMU's pci-serial) the driver
    found at boot and left unused: it is taken now (as Linux's 8250_pci has
    a tty for every line it found), polled at 115200: Ctrl-C there enters
    kdb.  A PCI line that does not exist (ttyS5: one PCI UART) is Linux's
    ENODEV and changes nothing, before and after."""
    m = boot_shell(machine, CONSOLE, uart_pci=1)
    k = Kdb(m)
    io = re.search(PCI_UNUSED, m.output(0))
    assert io, m.output(0)[-3000:]
    out = shell(k, f"echo ttyS5 > {KGDBOC}")
    assert out.endswith("sh: echo: write error: No such device"), out
    assert shell(k, f"cat {KGDBOC}") == ""
    out = shell(k, f"echo ttyS4 > {KGDBOC}")
    assert "write error" not in out, out
    log = m.output(0)
    assert re.search(rf"serial8250: ttyS4 at I/O {io.group(1)} \(polled, 115200 baud\) is a "
                     r"16550A", log), log[-2000:]
    assert re.search(r"kgdb: Registered I/O driver kgdboc \(ttyS4\)", log), log[-2000:]
    assert shell(k, f"cat {KGDBOC}") == "ttyS4"
    k4 = Kdb(m, m.take_uart(m.uart_pci_path(0)))
    e = ctrl_c_enters(k4)
    assert e.group(3) == "Keyboard Entry", e.group(0)
    assert "ttyS4" in k4.cmd("serial")
    k4.go(r"go\r?\n")
    ctrl_c_reaches_shell(k)                          # ttyS0 is not the debugger's
    out = shell(k, f"echo ttyS5 > {KGDBOC}")
    assert out.endswith("sh: echo: write error: No such device"), out
    assert shell(k, f"cat {KGDBOC}") == "ttyS4"
    ctrl_c_enters(k4)                                # nothing changed
    k4.go(r"go\r?\n")
    m.expect_not(r"Oops|Kernel panic")


def qemu_bauds(m, start=0):
    """The baud rates QEMU's 16550s were programmed to (its
    serial_update_parameters trace: baudbase / the divisor the guest
    wrote), from the launcher's log at offset start."""
    with open(m.launcher_log, "rb") as f:
        f.seek(start)
        log = f.read().decode(errors="replace")
    return [int(b) for b in re.findall(r"serial_update_parameters baudrate=(\d+)", log)]


def launcher_log_size(m):
    with open(m.launcher_log, "rb") as f:
        return len(f.read())


def test_kgdboc_pci_line_baud_at_run_time(machine):
    """echo ttyS4,9600 programs 9600 baud into the PCI UART: QEMU's own
    trace of the divisor the guest wrote says 9600 (not what the guest
    prints about itself); echo ttyS4 (no baud) keeps the line's 9600, as
    Linux's uart_poll_init; echo ttyS4,115200 programs 115200.  The same on
    an ISA line: ttyS1,9600 takes it at 9600, ttyS1,57600 reprograms it.
    Bad bauds (ttyS4,0, ttyS4,12x) are ENODEV and program nothing."""
    m = boot_shell(machine, CONSOLE, uart_pci=1, ports=("unix", "unix"))
    k = Kdb(m)
    m.qmp().execute("trace-event-set-state", {"name": "serial_update_parameters",
                                              "enable": True})
    for bad in ("ttyS4,0", "ttyS4,12x"):
        start = launcher_log_size(m)
        out = shell(k, f"echo {bad} > {KGDBOC}")
        assert out.endswith("sh: echo: write error: No such device"), (bad, out)
        assert qemu_bauds(m, start) == [], bad
    start = launcher_log_size(m)
    out = shell(k, f"echo ttyS4,9600 > {KGDBOC}")
    assert "write error" not in out, out
    assert re.search(r"serial8250: ttyS4 at I/O 0x[0-9a-f]+ \(polled, 9600 baud\)", m.output(0))
    assert shell(k, f"cat {KGDBOC}") == "ttyS4,9600"
    bauds = qemu_bauds(m, start)
    assert bauds and bauds[-1] == 9600, bauds
    k4 = Kdb(m, m.take_uart(m.uart_pci_path(0)))
    ctrl_c_enters(k4)                                  # it is the debugger's line
    k4.go(r"go\r?\n")

    start = launcher_log_size(m)                       # no baud: the line keeps its
    out = shell(k, f"echo ttyS4 > {KGDBOC}")           # own (Linux's uart_poll_init
    assert "write error" not in out, out               # sets one only when given)
    assert all(b == 9600 for b in qemu_bauds(m, start)), qemu_bauds(m, start)
    start = launcher_log_size(m)
    out = shell(k, f"echo ttyS4,115200 > {KGDBOC}")
    assert "write error" not in out, out
    bauds = qemu_bauds(m, start)
    assert bauds and bauds[-1] == 115200, bauds

    for val, baud in (("ttyS1,9600", 9600), ("ttyS1,57600", 57600)):   # ISA: taken, then open
        start = launcher_log_size(m)
        out = shell(k, f"echo {val} > {KGDBOC}")
        assert "write error" not in out, out
        bauds = qemu_bauds(m, start)
        assert bauds and bauds[-1] == baud, (val, bauds)
    m.expect_not(r"Oops|Kernel panic")


def test_kgdboc_pci_line_at_boot_waits_for_the_driver(machine):
    """Issue 21: kgdboc=ttyS4 kgdbwait at boot, no early debugger: at the
    handoff no driver has ttyS4 yet, so the debugger waits (Linux defers
    kgdboc's probe until the tty registers); the PCI driver finds the UART
    later in the boot and registers it, and kgdbwait stops right there, on
    ttyS4.  Without any PCI UART the line never comes: the boot says so and
    goes on, cat shows the boot's value (as Linux keeps it), sysrq-g has no
    I/O."""
    m = machine(cmdline=f"{CONSOLE} kgdboc=ttyS4 kgdbwait", ports=("unix",), uart_pci=1)
    p = m.take_uart(m.uart_pci_path(0))
    m.wait_for(ENTRY, port=p, timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(PROMPT, port=p, timeout=BOOT_TIMEOUT, fail_on=BAD)
    log = m.output(0)
    assert re.search(r"kgdb: kgdbwait: waiting for the first kgdboc= driver\r?\n"
                     r"(.*\n)*kgdb: Registered I/O driver kgdboc \(ttyS4\)", log), log[-3000:]
    k4 = Kdb(m, p)
    assert "serial8250_pci_init" in k4.cmd("bt")
    k4.go(r"go\r?\n")
    m.wait_for(r"serial8250: ttyS4 at I/O 0x[0-9a-f]+ \(polled, 115200 baud\) is a "
               r"16550A, debugger line \(kgdboc\)", timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(SHELL, timeout=BOOT_TIMEOUT, fail_on=BAD)
    e = ctrl_c_enters(k4)
    assert e.group(3) == "Keyboard Entry", e.group(0)
    k4.go(r"go\r?\n")

    m2 = machine(cmdline=f"{CONSOLE} kgdboc=ttyS4", ports=("unix",))
    m2.wait_for(SHELL, timeout=BOOT_TIMEOUT, fail_on=BAD)
    k = Kdb(m2)
    assert "kgdboc: ttyS4: no such line yet: the debugger waits for it" in m2.output(0)
    assert shell(k, f"cat {KGDBOC}") == "ttyS4"
    out = shell(k, f"echo g > {TRIGGER}")
    assert NO_IO in out, out
    m2.expect_not(r"Oops|Kernel panic")
