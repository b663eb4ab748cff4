"""Drive real gdb through its machine interface (MI2).

    g = Gdb("build/kernel.elf", log_path=tmp_path / "gdb.log")
    g.connect(machine.socket_path(1))      # target remote <unix socket>
    out = g.cmd("info registers rip")      # CLI command -> console text
    g.cont(); ...; g.interrupt()           # Ctrl-C equivalent
    stop = g.wait_stop()                   # {"reason": ..., "frame": {...}}
    g.detach(); g.close()

MI gives exact command boundaries (token^done / token^error), so nothing
depends on prompts or terminal widths.  Every wait has a timeout and raises
GdbError with the transcript tail.  gdb_batch() runs `gdb -batch` for
one-shot uses (symbols, disassembly, no target).
"""

import os
import queue
import re
import signal
import subprocess
import threading
import time

SCALE = float(os.environ.get("EKDB_TIMEOUT_SCALE", "1"))
DEFAULT_TIMEOUT = 60 * SCALE
GDB = os.environ.get("GDB", "gdb")


class GdbError(AssertionError):
    pass


# ---------------------------------------------------------------- MI parsing
_ESC = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a",
        "b": "\b", "f": "\f", "v": "\v", "e": "\x1b"}


def _parse_cstring(s, i):
    """s[i] == '"'; return (decoded string, index after closing quote)."""
    out, i = [], i + 1
    while True:
        c = s[i]
        if c == '"':
            return "".join(out), i + 1
        if c == "\\":
            n = s[i + 1]
            if n in "01234567":
                j = i + 1
                while j < i + 4 and s[j] in "01234567":
                    j += 1
                out.append(chr(int(s[i + 1:j], 8)))
                i = j
                continue
            out.append(_ESC.get(n, n))
            i += 2
            continue
        out.append(c)
        i += 1


def _parse_value(s, i):
    c = s[i]
    if c == '"':
        return _parse_cstring(s, i)
    if c == "{":
        d, i = {}, i + 1
        if s[i] == "}":
            return d, i + 1
        while True:
            k, v, i = _parse_result(s, i)
            d[k] = v
            if s[i] == "}":
                return d, i + 1
            i += 1          # ','
    if c == "[":
        lst, i = [], i + 1
        if s[i] == "]":
            return lst, i + 1
        while True:
            if s[i] in '"{[':
                v, i = _parse_value(s, i)
                lst.append(v)
            else:           # list of results: keep them as {name: value}
                k, v, i = _parse_result(s, i)
                lst.append({k: v})
            if s[i] == "]":
                return lst, i + 1
            i += 1
    raise ValueError(f"bad MI value at {i}: {s[i:i + 20]!r}")


def _parse_result(s, i):
    j = s.index("=", i)
    k = s[i:j]
    v, i = _parse_value(s, j + 1)
    return k, v, i


def parse_results(s):
    """Parse 'a="1",b={c="2"}' into a dict (repeated keys become lists)."""
    d, i, k = {}, 0, None
    while i < len(s):
        if s[i] == "{" and k is not None:
            # gdb's MI2 quirk: a multi-location breakpoint is printed as
            # bkpt={...},{...},{...}: bare tuples belong to the last key.
            v, i = _parse_value(s, i)
            d[k] = d[k] if isinstance(d[k], list) else [d[k]]
            d[k].append(v)
            if i < len(s) and s[i] == ",":
                i += 1
            continue
        k, v, i = _parse_result(s, i)
        if k in d:
            d[k] = d[k] if isinstance(d[k], list) else [d[k]]
            d[k].append(v)
        else:
            d[k] = v
        if i < len(s) and s[i] == ",":
            i += 1
    return d


_RECORD = re.compile(r"^(\d*)([\^*+=~@&])(.*)$")


class Gdb:
    def __init__(self, elf=None, gdb=GDB, log_path=None, timeout=DEFAULT_TIMEOUT,
                 args=()):
        self.timeout = timeout
        cmd = [gdb, "-nx", "-q", "-interpreter=mi2"] + list(args)
        if elf:
            cmd.append(str(elf))
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, start_new_session=True,
                                     bufsize=0)
        self.lines = queue.Queue()
        self.transcript = []
        self.async_records = []     # (kind, class, results) of *, =, + records
        self._log = open(log_path, "a") if log_path else None
        self._token = 0
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._collect_until_prompt(timeout)
        # Asynchronous MI: gdb keeps reading commands while the target runs,
        # so -exec-interrupt works.  Must be set before connecting.
        self.mi("-gdb-set mi-async on")
        for c in ("set pagination off", "set confirm off", "set width 0",
                  "set height 0", f"set remotetimeout {int(10 * SCALE)}"):
            self.cmd(c)

    def _read(self):
        buf = b""
        while True:
            data = os.read(self.proc.stdout.fileno(), 65536)
            if not data:
                break
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                self.lines.put(line.decode(errors="replace").rstrip("\r"))
        self.lines.put(None)

    def _note(self, line):
        self.transcript.append(line)
        if self._log:
            self._log.write(line + "\n")
            self._log.flush()

    def _next_line(self, deadline, what):
        left = deadline - time.monotonic()
        try:
            line = self.lines.get(timeout=max(left, 0.01))
        except queue.Empty:
            raise GdbError(f"gdb: timeout waiting for {what}\n{self.tail()}")
        if line is None:
            self.lines.put(None)
            raise GdbError(f"gdb exited while waiting for {what}\n{self.tail()}")
        self._note(line)
        return line

    def _collect_until_prompt(self, timeout):
        deadline = time.monotonic() + timeout
        while self._next_line(deadline, "the first prompt") != "(gdb) ":
            pass

    def tail(self, n=30):
        return "--- gdb transcript (tail) ---\n" + "\n".join(self.transcript[-n:])

    # ------------------------------------------------------------ MI commands
    def mi(self, command, timeout=None):
        """Send an MI command; return (class, results dict, console text).
        class is done/running/connected/exit; ^error raises GdbError."""
        timeout = self.timeout if timeout is None else timeout
        self._token += 1
        tok = str(self._token)
        self._note(f"<<< {tok}{command}")
        self.proc.stdin.write(f"{tok}{command}\n".encode())
        self.proc.stdin.flush()
        deadline = time.monotonic() + timeout
        console = []
        while True:
            line = self._next_line(deadline, f"the answer to {command!r}")
            m = _RECORD.match(line)
            if not m:
                continue
            t, kind, rest = m.groups()
            if kind in "~@&":
                try:
                    text, _ = _parse_cstring(rest, 0)
                except (IndexError, ValueError):
                    text = rest
                if kind == "~" or kind == "&":
                    console.append(text)
                continue
            cls, _, res = rest.partition(",")
            if kind == "^" and t == tok:
                results = parse_results(res) if res else {}
                if cls == "error":
                    raise GdbError(f"gdb: {command}: {results.get('msg', res)}\n"
                                   f"{''.join(console)}")
                return cls, results, "".join(console)
            if kind in "*=+":
                self.async_records.append((kind, cls, parse_results(res) if res else {}))

    def cmd(self, cli, timeout=None):
        """Run a CLI command; return its console output (stdout+stderr text)."""
        quoted = cli.replace("\\", "\\\\").replace('"', '\\"')
        _, _, console = self.mi(f'-interpreter-exec console "{quoted}"', timeout)
        return console

    def monitor(self, cmd, timeout=None):
        """`monitor cmd`: what gdb prints, console and target output (the
        stub's O packets come as MI `@` records, which cmd() leaves out)."""
        n = len(self.transcript)
        out = self.cmd(f"monitor {cmd}", timeout)
        target = "".join(_parse_cstring(ln, 1)[0] for ln in self.transcript[n:]
                         if ln.startswith('@"'))
        return target + out

    def connect(self, target, timeout=None):
        """target remote <unix socket path | host:port>; returns console text."""
        cls, res, console = self.mi(f"-target-select remote {target}", timeout)
        self.last_stop = self._drop_stops()
        return console

    def _drop_stops(self):
        """Forget stale *stopped records; return the last one (or None)."""
        stops = [r for k, c, r in self.async_records if k == "*" and c == "stopped"]
        self.async_records = [a for a in self.async_records
                              if not (a[0] == "*" and a[1] == "stopped")]
        return stops[-1] if stops else None

    def wait_stop(self, timeout=None):
        """Wait for the next *stopped record; return its results
        (reason, frame={func, addr, ...}, signal-name, ...)."""
        timeout = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + timeout
        while True:
            for n, (kind, cls, res) in enumerate(self.async_records):
                if kind == "*" and cls == "stopped":
                    del self.async_records[:n + 1]
                    return res
            line = self._next_line(deadline, "the target to stop")
            m = _RECORD.match(line)
            if m and m.group(2) in "*=+":
                rest = m.group(3)
                cls, _, res = rest.partition(",")
                self.async_records.append((m.group(2), cls, parse_results(res) if res else {}))

    def cont(self, timeout=None):
        self._drop_stops()
        self.mi("-exec-continue", timeout)

    def interrupt(self, timeout=None):
        """Like Ctrl-C: stop the running target; return the *stopped results."""
        self.mi("-exec-interrupt", timeout)
        return self.wait_stop(timeout)

    def detach(self, timeout=None):
        return self.cmd("detach", timeout)

    def kill_target(self, timeout=None):
        return self.cmd("kill", timeout)

    def close(self, timeout=10):
        """Quit gdb (kills it if it does not quit)."""
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write(b"-gdb-exit\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=timeout)
            except (OSError, subprocess.TimeoutExpired):
                pass
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()
        if self._log:
            self._log.close()
            self._log = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def gdb_batch(elf, cmds, timeout=DEFAULT_TIMEOUT, gdb=GDB, check=True):
    """Run `gdb -nx -q -batch elf -ex cmd...`; return stdout+stderr text."""
    argv = [gdb, "-nx", "-q", "-batch"]
    if elf:
        argv.append(str(elf))
    for c in cmds:
        argv += ["-ex", c]
    r = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=timeout)
    out = r.stdout.decode(errors="replace")
    if check and r.returncode != 0:
        raise GdbError(f"gdb -batch failed ({r.returncode}):\n{out}")
    return out
