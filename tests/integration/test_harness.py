"""Self-tests of the launcher and the harness (QMP, gdb driver, serial
capture, exit statuses) that need no ekdb build: they boot OVMF on a small
ESP that only holds a UEFI shell script (startup.nsh)."""

import os
import re
import socket
import subprocess
import time

import pytest

from gdbdriver import gdb_batch
from qemu import BOOT_TIMEOUT, LAUNCHER, Port, _die_with_the_test, boot_via_shell, free_tcp_port
from qmp import char_keys, read_ppm


def shell_esp(tmp_path, *lines):
    esp = tmp_path / "esp"
    esp.mkdir()
    (esp / "startup.nsh").write_bytes(
        ("\r\n".join(["@echo -off"] + list(lines)) + "\r\n").encode())
    return esp


@pytest.mark.parametrize("value,status", [("10", 0), ("11", 3)])
def test_guest_exit_status(bare_machine, tmp_path, value, status):
    esp = shell_esp(tmp_path, "echo harness-exit", f"mm F4 {value} -IO -w 1 -n")
    m = boot_via_shell(bare_machine, "harness-exit", esp=esp)
    assert m.wait_exit(timeout=BOOT_TIMEOUT) == status


def test_slow_reader_loses_nothing(bare_machine, tmp_path, monkeypatch):
    """A test process that reads its capture late (a loaded machine) must not
    make QEMU's 16550 wait: OVMF's serial driver gives up on a line after 1 s
    and drops its rest (the loader's lines came out as "ekdb loader: comma").
    The capture here takes every chunk 0.3 s late; each of 30 lines must come
    whole.  With QEMU serving the line on its own unix socket (the harness
    before `--serial fd:N`) they came out cut and the marker never came."""
    lines = [f"harness-line-{i:02d}-" + "x" * 40 for i in range(30)]
    esp = shell_esp(tmp_path, *[f"echo {t}" for t in lines], "echo harness-late-done")
    feed = Port.feed

    def late(self, data):
        time.sleep(0.3)
        feed(self, data)

    monkeypatch.setattr(Port, "feed", late)
    m = boot_via_shell(bare_machine, "harness-late-done", esp=esp, qmp=False)
    out = m.output(0)
    assert [t for t in lines if t not in out] == [], out[-3000:]


def test_launcher_serial_fd(tmp_path):
    """--serial fd:N: a socket the caller passes is QEMU's chardev; bad N
    (not a number, not open, not a socket) is a usage error naming it."""
    ours, theirs = socket.socketpair()
    with ours, theirs, open(tmp_path / "f", "w") as f:
        base = [LAUNCHER, "--esp", str(shell_esp(tmp_path)), "--dry-run"]
        r = subprocess.run(base + ["--serial", f"fd:{theirs.fileno()}"], capture_output=True,
                           text=True, timeout=60, pass_fds=(theirs.fileno(),))
        assert r.returncode == 0, r.stderr
        fd = theirs.fileno()
        assert f"-chardev socket,id=ekdbfd{fd},fd={fd} -serial chardev:ekdbfd{fd}" in r.stderr
        for specs, why in (([f"fd:{f.fileno()}"], "is not a socket"), (["fd:987"], "is not open"),
                           (["fd:x"], "want fd:N"), (["fd:"], "want fd:N"),
                           ([f"fd:{fd}", f"fd:{fd}"], "only one port")):
            r = subprocess.run(base + [a for s in specs for a in ("--serial", s)],
                               capture_output=True, text=True, timeout=60,
                               pass_fds=(f.fileno(), fd))
            assert r.returncode == 2 and why in r.stderr, (specs, r.stderr)


def test_launcher_linux(tmp_path):
    """--linux BZIMAGE --initrd FILE (make linux, docs/linux.md): QEMU's
    -kernel/-initrd with the command line as -append, no ESP disk.  Bad
    input tried: --initrd without --linux, a kernel file that does not
    exist, --linux with --load-options: each a usage error naming it."""
    kernel, initrd = tmp_path / "bzImage", tmp_path / "initrd"
    kernel.write_bytes(b"MZ")
    initrd.write_bytes(b"07070")
    r = subprocess.run([LAUNCHER, "--linux", str(kernel), "--initrd", str(initrd),
                        "--cmdline", "ekdb.ekgdboc=ttyS0 ekdb.kgdbwait", "--dry-run"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert (f"-kernel {kernel} -append 'ekdb.ekgdboc=ttyS0 ekdb.kgdbwait' "
            f"-initrd {initrd}") in r.stderr, r.stderr
    assert "ide-hd" not in r.stderr and "esp.img" not in r.stderr, r.stderr
    for args, why in ((["--initrd", str(initrd)], "--initrd goes with --linux"),
                      (["--linux", str(tmp_path / "none")], "no such file"),
                      (["--linux", str(kernel), "--load-options"], "--load-options is for")):
        r = subprocess.run([LAUNCHER, "--dry-run"] + args, capture_output=True, text=True,
                           timeout=60)
        assert r.returncode == 2 and why in r.stderr, (args, r.stderr)


def test_launcher_timeout(bare_machine, tmp_path):
    m = bare_machine(esp=shell_esp(tmp_path), lifetime=3, qmp=False)
    assert m.wait_exit(timeout=120) == 124
    assert "timeout" in m.launcher_output()


def test_launcher_prints_command_and_checks_dbgp(tmp_path):
    r = subprocess.run([LAUNCHER, "--esp", str(shell_esp(tmp_path)), "--dry-run",
                        "--serial", "none", "--serial", "file:/dev/null"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    line = [x for x in r.stderr.splitlines() if x.startswith("+ ")]
    assert line and "-machine q35" in line[0] and "isa-debug-exit" in line[0]
    assert "-serial null -serial file:/dev/null" in line[0]
    for bad in (["--dbgp-sim", "serial:x"], ["--dbgp-sim", "tcp:port"],
                ["--dbgp-control", "unix:/tmp/x"], ["--dbgp-sim", "unix:/tmp/x",
                                                    "--dbgp-control", "tcp:1"]):
        r = subprocess.run([LAUNCHER] + bad, capture_output=True, text=True, timeout=60)
        assert r.returncode == 2 and "dbgp" in r.stderr, (bad, r.stderr)
    # the debug-port model behind x-pci-proxy-dev needs guest RAM it can share
    r = subprocess.run([LAUNCHER, "--esp", str(tmp_path / "esp"), "--dry-run",
                        "--serial", "none", "--dbgp-sim", "unix:/tmp/x", "--memory", "256"],
                       capture_output=True, text=True, timeout=60)
    line = [x for x in r.stderr.splitlines() if x.startswith("+ ")][-1]
    assert "-machine q35,memory-backend=ekdbram" in line
    assert "memory-backend-memfd,id=ekdbram,size=256M,share=on" in line
    assert "x-pci-proxy-dev" in line


def test_launcher_usb_keyboards(tmp_path):
    """Issue 35: --no-ps2 and --usb-kbd (docs/launcher.md): each controller
    behind its own root port (OVMF then places its 64-bit BAR below 4 GiB),
    a usb-kbd on it; bound to the display (vga0) only when PS/2 is there
    too.  Bad input tried: an unknown controller."""
    import shlex

    def argv(*opts):
        r = subprocess.run([LAUNCHER, "--esp", str(tmp_path / "esp"), "--dry-run",
                            "--serial", "none"] + list(opts), capture_output=True, text=True,
                           timeout=60)
        assert r.returncode == 0, r.stderr
        return shlex.split([x for x in r.stderr.splitlines() if x.startswith("+ ")][-1][2:])

    shell_esp(tmp_path)
    a = argv("--no-ps2", "--usb-kbd", "--usb-kbd", "nec-usb-xhci")
    assert a[a.index("-machine") + 1] == "q35,i8042=off", a
    devs = [a[i + 1] for i, x in enumerate(a) if x == "-device"]
    assert devs[-6:] == ["pcie-root-port,id=usbrp0,chassis=10",
                         "qemu-xhci,id=usbhc0,bus=usbrp0", "usb-kbd,id=usbkbd0,bus=usbhc0.0",
                         "pcie-root-port,id=usbrp1,chassis=11",
                         "nec-usb-xhci,id=usbhc1,bus=usbrp1", "usb-kbd,id=usbkbd1,bus=usbhc1.0"], devs
    assert a[a.index("-vga") + 1] == "std", a
    a = argv("--usb-kbd")                       # PS/2 too: the USB keyboard bound to vga0
    devs = [a[i + 1] for i, x in enumerate(a) if x == "-device"]
    assert "VGA,id=vga0" in devs and devs[-1] == "usb-kbd,id=usbkbd0,bus=usbhc0.0,display=vga0"
    assert a[a.index("-vga") + 1] == "none" and a[a.index("-machine") + 1] == "q35", a
    a = argv("--no-ps2")
    assert not any("usb" in x or "xhci" in x for x in a), a
    r = subprocess.run([LAUNCHER, "--dry-run", "--usb-kbd", "ohci"], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2 and "--usb-kbd" in r.stderr and "ohci" in r.stderr, r.stderr


def test_launcher_tcp_lines_are_relayed(tmp_path):
    """Issue 13: a --serial tcp: line is served by the launcher's relay
    (build/tools/tcp-relay) in front of a unix socket QEMU listens on; unix
    lines stay as they are; QEMU's own gdbstub socket has nodelay=on.  The
    speed itself is measured by make bench (its ekdb tcp column)."""
    import shlex
    r = subprocess.run([LAUNCHER, "--esp", str(shell_esp(tmp_path)), "--dry-run",
                        "--serial", "tcp:5555", "--serial", "tcp:0.0.0.0:5556",
                        "--serial", "unix:/tmp/x.sock", "--qemu-gdb", "5557"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    relays = re.findall(r"^\+ relay (\S+) -> unix:(\S+)$", r.stderr, re.M)
    assert [h for h, _ in relays] == ["127.0.0.1:5555", "0.0.0.0:5556"], r.stderr
    line = [x for x in r.stderr.splitlines()
            if x.startswith("+ ") and not x.startswith("+ relay ")][0]
    argv = shlex.split(line[2:])
    serials = [argv[i + 1] for i, a in enumerate(argv) if a == "-serial"]
    assert serials == [f"unix:{relays[0][1]},server=on,wait=off",
                       f"unix:{relays[1][1]},server=on,wait=off",
                       "unix:/tmp/x.sock,server=on,wait=off"], serials
    i = argv.index("-gdb")
    assert argv[i + 1] == "chardev:ekdbgdb", argv
    assert ("socket,id=ekdbgdb,host=127.0.0.1,port=5557,server=on,wait=off,nodelay=on"
            in argv), argv
    for bad in ("tcp:55x", "tcp:0", "tcp:70000"):
        r = subprocess.run([LAUNCHER, "--dry-run", "--serial", bad],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 2 and f"bad --serial '{bad}'" in r.stderr, r.stderr


def test_launcher_tcp_line_in_use(tmp_path):
    """A TCP port that is taken: a clear error, nothing started."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    port = s.getsockname()[1]
    r = subprocess.run([LAUNCHER, "--esp", str(shell_esp(tmp_path)), "--timeout", "60",
                        "--serial", f"tcp:{port}"], capture_output=True, text=True,
                       timeout=120)
    s.close()
    assert r.returncode == 2, r.stderr
    assert f"--serial tcp:127.0.0.1:{port}: cannot listen" in r.stderr, r.stderr
    assert "qemu-system" not in r.stderr, r.stderr


def test_qmp_keyboard_and_screendump(bare_machine, tmp_path):
    esp = shell_esp(tmp_path, "echo harness-ready")
    m = boot_via_shell(bare_machine, "harness-ready", esp=esp)
    m.wait_for(r"Shell> ", timeout=BOOT_TIMEOUT)
    q = m.qmp()
    q.type_text("echo Hi-There_42!\n")
    m.wait_for(r"\nHi-There_42!", timeout=60)
    png = q.screendump(tmp_path / "screen.png")
    assert open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n"
    w, h, rgb = read_ppm(q.screendump(tmp_path / "screen.ppm"))
    assert w > 0 and h > 0 and len(rgb) == w * h * 3
    assert any(rgb)          # something is drawn
    assert q.execute("query-status")["running"] is True


def test_char_keys():
    assert char_keys("a") == ["a"]
    assert char_keys("A") == ["shift", "a"]
    assert char_keys("_") == ["shift", "minus"]
    assert char_keys("\n") == ["ret"]
    assert char_keys(":") == ["shift", "semicolon"]


def test_gdb_driver_on_qemu_gdbstub(bare_machine, gdb, tmp_path):
    """The gdb driver against QEMU's own gdbstub (--qemu-gdb)."""
    port = free_tcp_port()
    esp = shell_esp(tmp_path, "echo harness-ready")
    m = boot_via_shell(bare_machine, "harness-ready", esp=esp, qemu_gdb=port)
    g = gdb(elf=None)
    g.cmd("set architecture i386:x86-64")
    g.connect(f"127.0.0.1:{port}")
    out = g.cmd("info registers rip")
    assert "rip" in out
    g.cont()
    stop = g.interrupt()
    assert stop.get("reason") == "signal-received" and stop.get("signal-name") == "SIGINT", stop
    assert "rip" in g.cmd("info registers rip")
    g.detach()
    assert m.alive()


def test_load_options_script_without_loader(bare_machine, tmp_path):
    boot_via_shell(bare_machine, r"BOOTX64.EFI not found on fs0", esp=shell_esp(tmp_path),
                   load_options=True, cmdline="a=1 b")


def test_gdb_batch():
    out = gdb_batch(None, ["print 6*7"])
    assert "$1 = 42" in out


def _module(name, path):
    """A tool script (with or without .py) loaded as a module."""
    import importlib.machinery
    import importlib.util
    loader = importlib.machinery.SourceFileLoader(name, path)
    mod = importlib.util.module_from_spec(importlib.util.spec_from_loader(name, loader))
    loader.exec_module(mod)
    return mod


def _relay_module():
    return _module("tcp_relay", os.path.join(os.path.dirname(LAUNCHER), "tcp_relay.py"))


def test_tcp_relay_gathers_and_flushes(tmp_path):
    """Issue 13: build/tools/tcp-relay between a TCP client and a unix
    socket standing in for QEMU's.  What the guest sends a byte at a time
    reaches the client: a gdb packet as soon as it is complete, text with
    no packet end (a kdb prompt, a lone ack) once the line is quiet; the
    client's bytes reach the guest; a client that leaves frees the line for
    the next; the relay refuses bad arguments and a missing binary is a
    clear error."""
    tr = _relay_module()
    path = str(tmp_path / "qemu.sock")
    qemu = socket.socket(socket.AF_UNIX)
    qemu.bind(path)
    qemu.listen(1)
    relay = tr.TcpRelay("127.0.0.1", 0, path)
    port = relay.ls.getsockname()[1]
    relay.start()
    try:
        def recv_exactly(s, want):
            s.settimeout(10)
            got = b""
            while len(got) < len(want):
                chunk = s.recv(4096)
                assert chunk, f"closed after {got!r}, wanted {want!r}"
                got += chunk
            assert got == want
        for round_ in range(2):
            c = socket.create_connection(("127.0.0.1", port), timeout=10)
            g, _ = qemu.accept()
            for text in (b"$T05thread:1;#d7", b"kdb> ", b"+", b"$OK#9a"):
                for b in text:                  # the 16550: a byte per write
                    g.send(bytes([b]))
                    time.sleep(0.0002)
                recv_exactly(c, text)
            c.sendall(b"+$g#67")
            recv_exactly(g, b"+$g#67")
            c.close()                           # the next client gets the line
            g.settimeout(10)
            assert g.recv(16) == b""
            g.close()
        c = socket.create_connection(("127.0.0.1", port), timeout=10)
        g, _ = qemu.accept()
        g.close()                               # QEMU went away: the client sees it
        c.settimeout(10)
        assert c.recv(16) == b""
        c.close()
    finally:
        relay.stop()
        qemu.close()
    for args in ([], ["x", path], ["-1", path], ["3"]):
        r = subprocess.run([tr.RELAY] + args, capture_output=True, text=True, timeout=30)
        assert r.returncode == 2 and "tcp-relay" in r.stderr, (args, r.stderr)
    with pytest.raises(tr.RelayMissing, match="not built"):
        tr.TcpRelay("127.0.0.1", 0, path, relay=str(tmp_path / "no-relay"))


def _alive(pid):
    """Running, not a zombie nobody reaped (in a container PID 1 may not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


def _comm(pid):
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return ""


def _children(pid):
    """The processes whose parent is @pid (from /proc: no procps needed)."""
    kids = []
    for d in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{d}/stat") as f:
                if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                    kids.append(int(d))
        except (FileNotFoundError, ProcessLookupError):
            pass                        # gone meanwhile
    return kids


def test_child_exits_when_its_parent_is_already_gone(tmp_path):
    """The race PR_SET_PDEATHSIG leaves: a parent killed between the fork
    and the child's prctl sends no signal, so the child (re-parented) must
    see that its parent is not the one that forked it and exit before the
    exec, in the launcher (its QEMU) and in the harness (its launcher).
    The kill cannot be timed into that window, so the test gives the check
    a parent that is not the child's: the command must not run.  Fails
    without the getppid() checks (the command ran)."""
    mod = _module("ekdb_qemu", LAUNCHER)
    me = os.getpid()
    marker = tmp_path / "ran"
    cmd = ["sh", "-c", f"touch {marker}; exit 7"]
    hooks = {"launcher": (mod._child_setup, lambda: setattr(mod, "LAUNCHER_PID", -1)),
             "harness": (lambda: _die_with_the_test(me), None)}
    for name, (hook, break_parent) in hooks.items():
        # the parent that forked it: the command runs
        assert subprocess.run(cmd, preexec_fn=hook).returncode == 7, name
        assert marker.exists(), name
        marker.unlink()
        # another parent: exit 1 before the exec
        if break_parent:
            break_parent()
        else:
            hook = lambda: _die_with_the_test(-1)    # noqa: E731
        assert subprocess.run(cmd, preexec_fn=hook).returncode == 1, name
        assert not marker.exists(), f"{name}: the command ran under another parent"


def test_launcher_dies_with_the_test(tmp_path):
    """A test process SIGKILLed (a CI timeout, a killed xdist worker) takes
    its launcher and QEMU with it: nothing outlives it for the machine's
    whole lifetime (fails without qemu.py's PR_SET_PDEATHSIG: the launcher
    ran on, its QEMU with it)."""
    import sys
    child = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time; sys.path.insert(0, sys.argv[1]); from qemu import Machine; "
         "m = Machine(sys.argv[2], esp=sys.argv[3], qmp=False); "
         "print(m.proc.pid, flush=True); time.sleep(600)",
         os.path.dirname(os.path.abspath(__file__)), str(tmp_path),
         str(shell_esp(tmp_path))],
        stdout=subprocess.PIPE, text=True)
    pids = []
    try:
        launcher = int(child.stdout.readline())
        deadline = time.monotonic() + 60     # (its "unix" ports need no connect:
        while time.monotonic() < deadline:   # QEMU may still be starting)
            pids = [launcher] + _children(launcher)
            if len(pids) == 2 and _comm(pids[1]).startswith("qemu-system"):
                break                        # (past its exec, so past the prctl)
            time.sleep(0.1)
        assert len(pids) == 2, f"the launcher's QEMU not found: {pids}"
        child.kill()
        child.wait()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(_alive(p) for p in pids):
            time.sleep(0.2)
        assert not [p for p in pids if _alive(p)], f"outlived the test: {pids}"
    finally:
        child.kill()
        for p in pids:
            if _alive(p):
                os.kill(p, 9)


def test_launcher_dies_with_any_parent(tmp_path):
    """Issue 33: tools/ekdb-qemu started by anything (a script, a shell job,
    not only the harness, which passes its own PR_SET_PDEATHSIG) whose
    parent is SIGKILLed takes everything it started along: QEMU, the three
    device models and the TCP relay.  The parent here is a bare Python
    process; after its SIGKILL no process of the launcher's may remain
    (bounded wait); then the same with the launcher SIGKILLed as well (no
    clean stop: each child's own PR_SET_PDEATHSIG).  Fails without the
    launcher's own PR_SET_PDEATHSIG (the launcher, QEMU, the models and
    the relay ran on) and without its children's (QEMU and the models ran
    on in the second half)."""
    import sys
    d = str(tmp_path)
    args = [LAUNCHER, "--esp", str(shell_esp(tmp_path)), "--timeout", "600",
            "--serial", f"unix:{d}/s0", "--serial", f"tcp:{free_tcp_port()}",
            "--dbgp-sim", f"unix:{d}/dbgp", "--xdbc-sim", f"unix:{d}/xdbc",
            "--uart-mmio32", f"unix:{d}/uart"]
    for kill_launcher_too in (False, True):
        parent = subprocess.Popen(
            [sys.executable, "-c",
             "import subprocess, sys; p = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL,"
             " stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); print(p.pid, flush=True); "
             "p.wait()"] + args, stdout=subprocess.PIPE, text=True, start_new_session=True)
        pids = []
        try:
            launcher = int(parent.stdout.readline())
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                pids = [launcher] + _children(launcher)
                names = [_comm(p) for p in pids[1:]]
                if len(names) == 5 and any(n.startswith("qemu-system") for n in names):
                    break                   # 3 models, the relay and QEMU
                time.sleep(0.1)
            assert len(pids) == 6, f"not all started: {[(p, _comm(p)) for p in pids]}"
            os.kill(parent.pid, 9)
            parent.wait()
            if kill_launcher_too:           # both gone at once: each child's own signal
                os.kill(launcher, 9)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and any(_alive(p) for p in pids):
                time.sleep(0.2)
            left = [(p, _comm(p)) for p in pids if _alive(p)]
            assert not left, f"outlived the launcher's parent (launcher killed: {kill_launcher_too}): {left}"
        finally:
            for p in pids:
                if _alive(p):
                    os.kill(p, 9)


class _FakeScreen:
    def __init__(self, text):
        self._text = text

    def text(self):
        return self._text


def test_wait_screen_stable_waits_for_a_repeated_match(monkeypatch):
    """screen.wait_screen(stable=True) returns only a matching screen that
    the next grab shows again: a grab caught half-way through a scroll (it
    matches, but rows are still moving) is not the answer.  Without stable
    the first match is.  On timeout the last screen's text is in the error.
    (Fails when stable is ignored: the half-scrolled screen came back.)"""
    import screen
    shots = ["booting", "kconsole: off\nhalf-moved row", "kconsole: off\nfinal row",
             "kconsole: off\nfinal row"]
    grabs = []

    def fake_grab(qmp, base, tables=None):
        grabs.append(base)
        return _FakeScreen(shots[min(len(grabs), len(shots)) - 1])

    monkeypatch.setattr(screen, "grab", fake_grab)
    pred = lambda s: "kconsole: off" in s.text()     # noqa: E731
    got = screen.wait_screen(None, "b", pred, interval=0)
    assert got.text() == shots[1] and len(grabs) == 2
    grabs.clear()
    got = screen.wait_screen(None, "b", pred, interval=0, stable=True)
    assert got.text() == shots[3] and len(grabs) == 4
    grabs.clear()
    shots[:] = ["a", "b"]                            # never matches
    with pytest.raises(AssertionError, match="last screen:\nb"):
        screen.wait_screen(None, "b", pred, timeout=0.05, interval=0.01)


def test_output_has_what_the_guest_sent_before_it(tmp_path, monkeypatch):
    """m.output(i) holds every byte that reached the port's socket before
    the call, even when the port's reader thread is behind (a loaded
    machine): a line the guest printed before a stop that reached the test
    on another channel (gdb, the debug port) must be there.  The reader is
    made 0.3 s late on every chunk it takes; no QEMU.  Fails without
    output()'s take_pending (two clean checks went red on such a read)."""
    import threading
    from qemu import Machine
    m = Machine(tmp_path, start=False)
    ours, guest = socket.socketpair()
    p = Port(0, "unix", None, None)
    m.ports.append(p)
    feed = Port.feed

    def late(self, data):
        if threading.current_thread() is p.thread:
            time.sleep(0.3)
        feed(self, data)

    monkeypatch.setattr(Port, "feed", late)
    m._capture(p, ours)
    try:
        for i in range(200):
            guest.sendall(f"line {i}\r\n".encode())
            if i % 50 == 49:
                out = m.output(0)
                assert out.endswith(f"line {i}\r\n"), out[-200:]
        assert m.output(0) == "".join(f"line {i}\r\n" for i in range(200))
        guest.close()                       # the end of the stream: the reader finishes
        p.thread.join(5)
        assert p.closed and not p.thread.is_alive()
    finally:
        p._stop.set()
        guest.close()
        ours.close()


def test_c_font_tables_read_fbcon_cells(tmp_path):
    """screen.c_font_tables(): a Linux C font file (one `0xNN,` row per
    line, 16 per glyph, 256 glyphs) decodes cells drawn with it, fbcon's
    underline cursor included; a file with a glyph row missing is refused."""
    import screen
    glyph = {c: [(c * 7 + r * 13) & 0xff for r in range(16)] for c in range(256)}
    glyph[0x20] = glyph[0] = glyph[0xff] = [0] * 16          # blanks alike: ' ' wins
    text = "".join(f"\t0x{b:02x}, /* row */\n" for c in range(256) for b in glyph[c])
    path = tmp_path / "font_8x16.c"
    path.write_text("static const struct font_data fontdata_8x16 = {\n" + text + "};\n")
    tables = screen.c_font_tables(str(path))
    word, w, h = "kdb> A", 8 * 8, 16
    rgb = bytearray(w * h * 3)
    for i, ch in enumerate(word + "  "):
        rows = list(glyph[ord(ch)])
        if i == len(word):                                    # the cursor: last 2 rows inverted
            rows[-2:] = [b ^ 0xff for b in rows[-2:]]
        for y, bits in enumerate(rows):
            for x in range(8):
                if bits & (0x80 >> x):
                    o = (y * w + i * 8 + x) * 3
                    rgb[o:o + 3] = b"\xaa\xaa\xaa"            # fbcon's light grey
    s = screen.Screen(w, h, bytes(rgb), tables)
    assert s.text() == word and s.cursor == (len(word), 0), (s.text(), s.cursor)
    path.write_text(text.split("\n", 1)[1])                  # one row short
    with pytest.raises(ValueError):
        screen.c_font_tables(str(path))
