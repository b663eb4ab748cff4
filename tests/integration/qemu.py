"""Machine: one ekdb boot under QEMU+OVMF, started through tools/ekdb-qemu.

    with Machine(tmp_path, cmdline="earlyprintk=serial,ttyS0,115200",
                 smp=4, ports=("unix", "socket")) as m:
        m.wait_for(r"boot complete: 4 CPUs online")       # ttyS0
        gdb.connect(m.socket_path(1))                      # ttyS1 for gdb
        m.send(0, b"bt\\r")

Serial port kinds (`ports`, index 0 = ttyS0, 1 = ttyS1, ...):
  "unix"    a socket pair, QEMU's end passed down (--serial fd:N) with a
            large send buffer; the Machine captures output in a thread from
            the first byte and can send().  release_port(i) serves it on
            socket_path(i) for another client (gdb) and take_port(i) captures
            it again.  Why a pair: QEMU's 16550 writes one byte per send, a
            unix socket's default buffer holds only ~280 of those, and when a
            loaded test process reads late QEMU holds the byte back until its
            main loop sees the socket writable again, which a guest polling
            the UART can delay for seconds; OVMF's serial driver drops a
            line's rest after 1 s (its lines came out as "ekdb loader: comma").
  "socket"  unix socket QEMU serves, left unconnected for another client
            (gdb); its path is socket_path(i).  take_port(i) / release_port(i)
            switch it between the Machine and an outside client.
  "tcp"     like "socket", on a free TCP port of 127.0.0.1 (--serial tcp:PORT);
            socket_path(i) is "127.0.0.1:PORT", what gdb's `target remote` takes.
  "file"    QEMU writes to a file; captured (read-only).
  "none"    the port exists but output is discarded.

Every captured port is saved as tmp_path/<name>.ttyS<i>.log, and the
launcher's own output as tmp_path/<name>.ekdb-qemu.log.

wait_for() is expect-like: it searches a port's output from that port's
cursor and moves the cursor past the match, so successive waits find
successive events.  Pass from_start=True to search all output.
"""

import codecs
import ctypes
import functools
import os
import re
import select
import signal
import socket
import subprocess
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAUNCHER = os.path.join(REPO, "tools", "ekdb-qemu")

# Multiply every default timeout by EKDB_TIMEOUT_SCALE (slow machines).
SCALE = float(os.environ.get("EKDB_TIMEOUT_SCALE", "1"))
BOOT_TIMEOUT = 180 * SCALE        # OVMF + loader + kernel under TCG
DEFAULT_TIMEOUT = 60 * SCALE
MACHINE_LIFETIME = 900 * SCALE    # ekdb-qemu --timeout: QEMU never outlives it


def _die_with_the_test(test_pid):
    """In the launcher's child, before exec: SIGTERM it when the test
    process dies, even SIGKILLed (PR_SET_PDEATHSIG; the launcher then stops
    its QEMU), or exit now if the test died before the prctl.  Its own
    session keeps a terminal's Ctrl-C away from it."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM, 0, 0, 0)
    except OSError:
        pass
    if os.getppid() != test_pid:
        os._exit(1)


def _serial_pair():
    """(ours, QEMU's) ends of a serial line.  QEMU's end gets a send buffer
    of 16 MiB (SO_SNDBUFFORCE, as root) or the most wmem_max allows: tens of
    thousands of QEMU's one-byte sends fit before QEMU must wait for us."""
    ours, qemus = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        qemus.setsockopt(socket.SOL_SOCKET, 32, 16 << 20)     # SO_SNDBUFFORCE
    except OSError:
        try:
            with open("/proc/sys/net/core/wmem_max") as f:
                qemus.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, int(f.read()))
        except (OSError, ValueError):
            pass
    return ours, qemus


class MachineError(AssertionError):
    pass


def tail(text, lines=40):
    return "\n".join(text.splitlines()[-lines:])


class Port:
    """Output of one serial port, captured into a growing string buffer."""

    def __init__(self, index, kind, path, log_path):
        self.index, self.kind, self.path, self.log_path = index, kind, path, log_path
        self.cond = threading.Condition()
        self.text = ""
        self.cursor = 0
        self.closed = False
        self.sock = None
        self.pair = None        # "unix": our end of the socket pair with QEMU
        self.thread = None
        self.rlock = threading.Lock()   # one reader at a time: the thread or output()
        self._stop = threading.Event()
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._log = open(log_path, "ab") if log_path else None

    def feed(self, data):
        if self._log:
            self._log.write(data)
            self._log.flush()
        s = self._decoder.decode(data)
        with self.cond:
            self.text += s
            self.cond.notify_all()

    def take_pending(self, s):
        """Read and feed what socket s holds now, without waiting; under
        rlock, so the bytes are fed in the order they came.  False at the
        end of the stream."""
        with self.rlock:
            while True:
                try:
                    data = s.recv(65536, socket.MSG_DONTWAIT)
                except (BlockingIOError, InterruptedError):
                    return True
                if not data:
                    return False
                self.feed(data)

    def finish(self):
        with self.cond:
            self.closed = True
            self.cond.notify_all()
        if self._log:
            self._log.close()
            self._log = None


class Machine:
    def __init__(self, tmp_path, cmdline=None, smp=1, memory=None,
                 ports=("unix",), qmp=True, load_options=False, esp=None,
                 display="none", no_gop=False, extra=(), qemu_gdb=None,
                 lifetime=MACHINE_LIFETIME, name="m", start=True, dbgp=False,
                 dbgp_knobs=(), xdbc=False, xdbc_knobs=(), uart_pci=0, uart_mmio32=False,
                 uart_mmio64=False, no_ps2=False, usb_kbd=(), linux=None, initrd=None):
        self.dir = str(tmp_path)
        self.linux = linux                      # a bzImage instead of the ESP (--linux)
        self.initrd = initrd
        self.name = name
        self.cmdline = cmdline
        self.smp = smp
        self.memory = memory
        self.kinds = list(ports)
        self.use_qmp = qmp
        self.load_options = load_options
        self.esp = esp
        self.display = display
        self.no_gop = no_gop
        self.extra = list(extra)
        self.qemu_gdb = qemu_gdb
        self.lifetime = lifetime
        self.dbgp = dbgp or bool(dbgp_knobs)    # the USB debug port model (dbgp-sim)
        self.dbgp_knobs = list(dbgp_knobs)
        self.xdbc = xdbc or bool(xdbc_knobs)    # the xHCI DbC model (xdbc-sim)
        self.xdbc_knobs = list(xdbc_knobs)
        self.uart_pci = uart_pci                # pci-serial lines (I/O BAR), on sockets
        self.uart_mmio32 = uart_mmio32 or uart_mmio64   # the memory-mapped UART model (uart-sim)
        self.uart_mmio64 = uart_mmio64          # ... with a 64-bit BAR0
        self.no_ps2 = no_ps2                    # -machine i8042=off
        self.usb_kbd = list(usb_kbd)            # xHCI controllers, a usb-kbd on each
        self.proc = None
        self.ports = []
        self._qemu_ends = []        # QEMU's ends of the "unix" ports' pairs
        self.returncode = None
        self._qmp = None
        # unix socket paths must stay short (108 bytes): use a private short dir.
        self.sockdir = os.path.join("/tmp", f"ekdb-{os.getpid()}-{id(self):x}")
        if start:
            self.start()

    # ------------------------------------------------------------- start/stop
    def _path(self, suffix):
        return os.path.join(self.dir, f"{self.name}.{suffix}")

    def socket_path(self, i):
        return self.ports[i].path

    @property
    def dbgp_path(self):
        """The debug device's host side (gdb or a terminal connects here)."""
        return os.path.join(self.sockdir, "dbgp.sock")

    def take_dbgp(self):
        """Connect the Machine to the debug device's host side like a
        captured serial port (output(i), wait_for(port=i), send(i), Kdb(m, i)):
        returns that port's index."""
        i = len(self.ports)
        p = Port(i, "unix", self.dbgp_path, self._path("dbgp.log"))
        self.ports.append(p)
        self._connect(p)
        return i

    @property
    def xdbc_path(self):
        """The DbC's far host side (gdb or a terminal connects here)."""
        return os.path.join(self.sockdir, "xdbc.sock")

    def take_xdbc(self):
        """take_dbgp() for the DbC's far host side."""
        i = len(self.ports)
        p = Port(i, "unix", self.xdbc_path, self._path("xdbc.log"))
        self.ports.append(p)
        self._connect(p)
        return i

    def uart_pci_path(self, i=0):
        """The other end of the i-th pci-serial line (--uart-pci)."""
        return os.path.join(self.sockdir, f"uartpci{i}.sock")

    @property
    def uart_mmio32_path(self):
        """The other end of the memory-mapped UART (--uart-mmio32)."""
        return os.path.join(self.sockdir, "uartmmio.sock")

    def take_uart(self, path):
        """Connect the Machine to a PCI UART's socket like a captured serial
        port (output(i), wait_for(port=i), send(i), Kdb(m, i), release_port(i)
        for gdb): returns that port's index."""
        i = len(self.ports)
        p = Port(i, "unix", path, self._path(f"uart{i}.log"))
        self.ports.append(p)
        self._connect(p)
        return i

    def xdbc_control(self, command):
        """One command to the DbC model's control socket (stats, unplug,
        plug, port-reset, stall in|out, ...): its JSON answer as a dict."""
        return self.dbgp_control(command, "xdbc.ctl")

    def dbgp_control(self, command, ctl="dbgp.ctl"):
        """One command to the debug-port model's control socket (stats,
        unplug, plug, nak N, timeout N, ...): its JSON answer as a dict."""
        import json
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(30 * SCALE)
            s.connect(os.path.join(self.sockdir, ctl))
            s.sendall(command.encode() + b"\n")
            with s.makefile("r") as f:
                return json.loads(f.readline())

    @property
    def qmp_path(self):
        return os.path.join(self.sockdir, "qmp.sock")

    def command(self):
        cmd = [LAUNCHER, "--smp", str(self.smp), "--display", self.display,
               "--timeout", str(int(self.lifetime))]
        if self.cmdline is not None:
            cmd += ["--cmdline", self.cmdline]
        if self.memory:
            cmd += ["--memory", str(self.memory)]
        if self.load_options:
            cmd += ["--load-options"]
        if self.esp:
            cmd += ["--esp", str(self.esp)]
        if self.linux:
            cmd += ["--linux", str(self.linux)]
        if self.initrd:
            cmd += ["--initrd", str(self.initrd)]
        if self.no_gop:
            cmd += ["--no-gop"]
        if self.qemu_gdb:
            cmd += ["--qemu-gdb", str(self.qemu_gdb)]
        if self.use_qmp:
            cmd += ["--qmp", f"unix:{self.qmp_path}"]
        for i, kind in enumerate(self.kinds):
            if kind == "unix":
                path = os.path.join(self.sockdir, f"ttyS{i}.sock")
                ours, qemus = _serial_pair()
                spec = f"fd:{qemus.fileno()}"
            elif kind == "socket":
                path = os.path.join(self.sockdir, f"ttyS{i}.sock")
                spec = f"unix:{path}"
            elif kind == "tcp":
                port = free_tcp_port()
                path, spec = f"127.0.0.1:{port}", f"tcp:{port}"
            elif kind == "file":
                path = self._path(f"ttyS{i}.log")
                spec = f"file:{path}"
            elif kind == "none":
                path, spec = None, "none"
            else:
                raise ValueError(f"unknown port kind {kind!r}")
            log = self._path(f"ttyS{i}.log") if kind == "unix" else None
            self.ports.append(Port(i, kind, path, log))
            if kind == "unix":
                self.ports[-1].pair = ours
                self._qemu_ends.append(qemus)
            cmd += ["--serial", spec]
        if self.dbgp:
            cmd += ["--dbgp-sim", f"unix:{self.dbgp_path}",
                    "--dbgp-control", f"unix:{os.path.join(self.sockdir, 'dbgp.ctl')}"]
            cmd += [f"--dbgp-knob={k}" for k in self.dbgp_knobs]
        if self.xdbc:
            cmd += ["--xdbc-sim", f"unix:{self.xdbc_path}",
                    "--xdbc-control", f"unix:{os.path.join(self.sockdir, 'xdbc.ctl')}"]
            cmd += [f"--xdbc-knob={k}" for k in self.xdbc_knobs]
        for i in range(self.uart_pci):
            cmd += ["--uart-pci", f"unix:{self.uart_pci_path(i)}"]
        if self.uart_mmio32:
            cmd += ["--uart-mmio32", f"unix:{self.uart_mmio32_path}"]
            cmd += ["--uart-mmio64"] if self.uart_mmio64 else []
        if self.no_ps2:
            cmd.append("--no-ps2")
        cmd += [f"--usb-kbd={c}" for c in self.usb_kbd]
        for e in self.extra:
            cmd.append(f"--extra={e}")
        return cmd

    def start(self):
        os.makedirs(self.sockdir, exist_ok=True)
        self._qemu_ends = []
        cmd = self.command()
        self.launcher_log = self._path("ekdb-qemu.log")
        try:
            with open(self.launcher_log, "wb") as out:
                self.proc = subprocess.Popen(
                    cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                    start_new_session=True,
                    preexec_fn=functools.partial(_die_with_the_test, os.getpid()),
                    pass_fds=tuple(e.fileno() for e in self._qemu_ends))
        finally:
            for e in self._qemu_ends:     # QEMU has them: its exit is our EOF
                e.close()
        for p in self.ports:
            if p.kind == "unix":
                self._capture(p, p.pair)
            elif p.kind == "file":
                p.thread = threading.Thread(target=self._tail_file, args=(p,),
                                            daemon=True)
                p.thread.start()
        return self

    def _wait_path(self, path, timeout=60 * SCALE):
        deadline = time.monotonic() + timeout
        while not os.path.exists(path):
            if self.proc.poll() is not None:
                raise MachineError(f"ekdb-qemu exited ({self.proc.returncode}) before "
                                   f"creating {path}:\n{self.launcher_output()}")
            if time.monotonic() > deadline:
                raise MachineError(f"{path} did not appear:\n{self.launcher_output()}")
            time.sleep(0.05)

    def _connect(self, p):
        self._wait_path(p.path)
        deadline = time.monotonic() + 30 * SCALE
        while True:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.connect(p.path)
                break
            except (ConnectionRefusedError, FileNotFoundError):
                s.close()
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise MachineError(f"cannot connect to {p.path}")
                time.sleep(0.05)
        self._capture(p, s)

    def _capture(self, p, s):
        p.sock = s
        p._stop.clear()
        p.thread = threading.Thread(target=self._read_socket, args=(p, s), daemon=True)
        p.thread.start()

    @staticmethod
    def _read_socket(p, s):
        while not p._stop.is_set():
            try:
                # (a pair is never shut down to stop this thread: QEMU would
                # see its line closed; look at _stop every 0.2 s instead)
                if not select.select([s], [], [], 0.2)[0]:
                    continue
                if not p.take_pending(s):
                    break
            except (OSError, ValueError):
                break
        if not p._stop.is_set():
            p.finish()

    @staticmethod
    def _serve_pair(p, ls):
        """A released "unix" port: one client at a time on socket_path(i),
        bytes copied both ways; what the guest sends while no client is
        connected is dropped, as QEMU's own server=on,wait=off line does."""
        client = None
        try:
            while not p._stop.is_set():
                watch = [p.pair] + ([client] if client else [ls])
                ready = select.select(watch, [], [], 0.2)[0]
                if p.pair in ready:
                    data = p.pair.recv(65536)
                    if not data:
                        break                   # QEMU is gone
                    if client:
                        try:
                            client.sendall(data)
                        except OSError:
                            client.close()
                            client = None
                if client and client in ready:
                    try:
                        data = client.recv(65536)
                    except OSError:
                        data = b""
                    if data:
                        p.pair.sendall(data)
                    else:
                        client.close()
                        client = None
                elif ls in ready:
                    client = ls.accept()[0]
        except (OSError, ValueError):
            pass
        finally:
            if client:
                client.close()
            ls.close()
            try:
                os.unlink(p.path)
            except OSError:
                pass

    def _tail_file(self, p):
        while not os.path.exists(p.path) and self.proc.poll() is None:
            time.sleep(0.05)
        try:
            f = open(p.path, "rb")
        except OSError:
            p.finish()
            return
        with f:
            while True:
                data = f.read(65536)
                if data:
                    p.feed(data)
                    continue
                if self.proc.poll() is not None:
                    data = f.read()
                    if data:
                        p.feed(data)
                    break
                time.sleep(0.05)
        p.finish()

    def release_port(self, i):
        """Disconnect the Machine from a "unix" port so another client (gdb)
        can connect to socket_path(i).  Output so far stays in output(i)."""
        p = self.ports[i]
        if p.pair and p.kind == "socket":
            return                              # served already
        if p.sock:
            p._stop.set()
            if p.sock is not p.pair:
                try:
                    p.sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                p.sock.close()
            p.thread.join(5)
            p.sock = None
            while p.pair and select.select([p.pair], [], [], 0)[0]:
                data = p.pair.recv(65536)       # what came before the release
                if not data:
                    break
                p.feed(data)
        if p._log:
            p._log.close()
            p._log = None
        p.kind = "socket"
        if p.pair:
            ls = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            ls.bind(p.path)
            ls.listen(1)
            p._stop.clear()
            p.thread = threading.Thread(target=self._serve_pair, args=(p, ls), daemon=True)
            p.thread.start()

    def take_port(self, i):
        """Connect the Machine to a "socket" port (again)."""
        p = self.ports[i]
        if p.log_path is None:
            p.log_path = self._path(f"ttyS{i}.log")
        p._log = open(p.log_path, "ab")
        p.closed = False
        p.kind = "unix"
        if p.pair:
            p._stop.set()
            p.thread.join(5)
            self._capture(p, p.pair)
        else:
            self._connect(p)

    # ------------------------------------------------------------- I/O
    def output(self, port=0):
        """Everything the port has shown so far: on a captured port, what the
        guest sent before this call, the bytes its reader thread has not
        taken in yet included (QEMU writes a UART's byte to the socket before
        the guest's next instruction, so a line printed before a stop that
        reached the test on another channel is here)."""
        p = self.ports[port]
        s = p.sock
        if s is not None and p.thread is not None and p.thread.is_alive():
            try:
                p.take_pending(s)
            except (OSError, ValueError):
                pass                            # closed under us: what we have
        return p.text

    def kaslr_offset(self, port=0):
        """How far the loader moved the kernel from its link address (0 with
        nokaslr).  Add it to addresses read from build/kernel.elf (nm, gdb
        batch).  From the loader's line, on any port (OVMF mirrors its console
        on every UART and now and then drops part of a line on one), else from
        the kernel's own line once it has booted that far."""
        loader = (r"ekdb loader: (?:KASLR: kernel base 0x[0-9A-Fa-f]+ \(offset (0x[0-9A-Fa-f]+)"
                  r"|KASLR off \(nokaslr\))")
        kernel = r"^KASLR: (?:kernel base 0x[0-9a-f]+, offset (0x[0-9a-f]+)|off,)"
        texts = [self.output(port)] + [p.text for p in self.ports if p.index != port]
        for rx in (loader, kernel):
            for text in texts:
                m = re.search(rx, text, re.M)
                if m:
                    return int(m.group(1), 16) if m.group(1) else 0
        raise MachineError("no KASLR line from the loader or the kernel on ttyS%d:\n%s"
                           % (port, tail(self.output(port))))

    def wait_for(self, regex, port=0, timeout=DEFAULT_TIMEOUT, from_start=False,
                 flags=0, fail_on=None):
        """Wait until regex matches the port's output (after its cursor);
        return the re.Match and move the cursor past it.  Raise MachineError
        with the output so far on timeout, if QEMU is gone, or at once if
        the regex fail_on matches first (e.g. r"Oops|Kernel panic")."""
        p = self.ports[port]
        rx = re.compile(regex, flags) if isinstance(regex, str) else regex
        bad = re.compile(fail_on) if isinstance(fail_on, str) else fail_on
        deadline = time.monotonic() + timeout
        with p.cond:
            while True:
                start = 0 if from_start else p.cursor
                m = rx.search(p.text, start)
                b = bad.search(p.text, start) if bad else None
                if b and (not m or b.start() < m.start()):
                    why = f"found /{bad.pattern}/ ({b.group(0)!r}) first"
                    break
                if m:
                    p.cursor = m.end()
                    return m
                left = deadline - time.monotonic()
                if left <= 0:
                    why = f"timeout ({timeout:g} s)"
                    break
                if p.closed:
                    why = "port closed (QEMU exited?)"
                    break
                p.cond.wait(min(left, 0.5))
        raise MachineError(
            f"ttyS{port}: {why} waiting for /{rx.pattern}/; output so far "
            f"(tail):\n{tail(p.text)}\n--- launcher ---\n{tail(self.launcher_output(), 10)}")

    def wait_for_console(self, regex, timeout=DEFAULT_TIMEOUT):
        """Wait for a line the firmware's console carries (the loader's own
        messages before ExitBootServices): OVMF writes it on every UART, and
        now and then drops part of a line on one of them under load, so the
        first port that shows it whole counts.  Returns the re.Match."""
        rx = re.compile(regex)
        deadline = time.monotonic() + timeout
        while True:
            for p in self.ports:
                m = rx.search(p.text)
                if m:
                    return m
            if time.monotonic() >= deadline or not self.alive():
                raise MachineError(f"no port shows /{regex}/ (firmware console); ttyS0 "
                                   f"(tail):\n{tail(self.output(0))}")
            time.sleep(0.5)

    def expect_not(self, regex, port=0):
        """Assert regex does not match anything in the port's output so far."""
        m = re.search(regex, self.ports[port].text)
        if m:
            raise MachineError(f"ttyS{port}: unexpected {m.group(0)!r}:\n"
                               f"{tail(self.ports[port].text)}")

    def send(self, port, data):
        if isinstance(data, str):
            data = data.encode()
        p = self.ports[port]
        if p.sock is None:
            raise MachineError(f"ttyS{port} is not connected (kind {p.kind})")
        p.sock.sendall(data)

    def qmp(self):
        from qmp import QMP
        if self._qmp is None:
            if not self.use_qmp:
                raise MachineError("machine started with qmp=False")
            self._wait_path(self.qmp_path)
            self._qmp = QMP(self.qmp_path)
        return self._qmp

    def launcher_output(self):
        try:
            with open(self.launcher_log, errors="replace") as f:
                return f.read()
        except (OSError, AttributeError):
            return ""

    # ------------------------------------------------------------- lifetime
    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def wait_exit(self, timeout=DEFAULT_TIMEOUT):
        """Wait for ekdb-qemu to exit; return its exit status."""
        try:
            self.returncode = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise MachineError(f"QEMU still running after {timeout:g} s; ttyS0 tail:\n"
                               f"{tail(self.output(0)) if self.ports else ''}")
        self._join_readers()
        return self.returncode

    def _join_readers(self):
        for p in self.ports:
            if p.thread:
                p.thread.join(5)

    def kill(self):
        """End ekdb-qemu and its QEMU (their own process group only)."""
        if self._qmp:
            self._qmp.close()
            self._qmp = None
        if self.proc and self.proc.poll() is None:
            for sig, grace in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
                try:
                    os.killpg(self.proc.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    self.proc.wait(timeout=grace)
                    break
                except subprocess.TimeoutExpired:
                    pass
        if self.proc:
            self.returncode = self.proc.poll()
        for p in self.ports:
            p._stop.set()
        self._join_readers()        # (they look at _stop every 0.2 s)
        for p in self.ports:
            for s in (p.sock, p.pair):
                if s:
                    try:
                        s.close()
                    except OSError:
                        pass
            p.sock = p.pair = None
        for p in self.ports:
            p.finish()
        try:
            for n in os.listdir(self.sockdir):
                os.unlink(os.path.join(self.sockdir, n))
            os.rmdir(self.sockdir)
        except OSError:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.kill()

    def report(self, lines=60):
        """Tails of every captured port and of the launcher, for failures."""
        parts = []
        for p in self.ports:
            if p.text:
                parts.append(f"--- {self.name} ttyS{p.index} ({p.log_path or p.path}) ---\n"
                             f"{tail(p.text, lines)}")
        parts.append(f"--- {self.name} ekdb-qemu ({getattr(self, 'launcher_log', '')}) ---\n"
                     f"{tail(self.launcher_output(), 15)}")
        return "\n".join(parts)


# OVMF now and then cannot start its own shell ("failed to start Boot0002
# "EFI Internal Shell" ...: Device Error", then no boot device; seen in about
# one clean-clone run in three, in a different shell boot each time).  That
# is the firmware, not the launcher or ekdb: such a boot is made once more.
SHELL_NOT_STARTED = r'failed to start Boot\d+ "EFI Internal Shell"'


def boot_via_shell(start, marker, **kw):
    """A boot that goes through the firmware's shell (load options, a test
    startup.nsh): start(**kw) (the machine fixture), then wait for the regex
    @marker on ttyS0; boot once more if OVMF could not start its shell."""
    for _ in range(2):
        m = start(**kw)
        hit = m.wait_for(rf"(?P<ok>{marker})|{SHELL_NOT_STARTED}", timeout=BOOT_TIMEOUT)
        if hit.group("ok") is not None:
            return m
        m.kill()
    raise MachineError(f"OVMF could not start its shell twice: {hit.group(0)}")


def free_tcp_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port
