# SPDX-License-Identifier: GPL-2.0
"""Typing at kdb like a person: one character at a time with small pauses,
VT100 escape sequences for the editing keys, answers read back from the
serial line (or, for the keyboard+screen transport, see test_kdb_screen.py).

    m = boot_kdb(machine)                   # stops at kgdbwait: [0]kdb>
    k = Kdb(m)                              # kdb on ttyS0
    out = k.cmd("md setup_arch")            # text between the echo and the prompt
    k.type("mdd"); k.key(BACKSPACE); ...    # raw keys, then k.enter()

Used by test_kdb_serial.py, test_kdb_gdb.py and test_kdb_screen.py.
"""

import time

from qemu import BOOT_TIMEOUT, SCALE

CONSOLE = "earlyprintk=serial,ttyS0,115200"
KGDBWAIT = f"{CONSOLE} ekgdboc=ttyS0 kgdbwait"
PROMPT = r"\[(\d+)\]kdb> "
MORE = r"more> "
BAD = r"Oops|Kernel panic|ekdb loader: error|cannot boot"
BOOT_COMPLETE = r"boot complete: (\d+) CPUs online"
ENTRY = (r"Entering kdb \(current=0x[0-9a-f]+, pid (\d+)\) on processor (\d+) "
         r"due to ([^\r\n]*)\r?\n")

# The bytes a VT100 terminal sends for the keys.
UP, DOWN, RIGHT, LEFT = "\x1b[A", "\x1b[B", "\x1b[C", "\x1b[D"
HOME, END, DELETE = "\x1b[H", "\x1b[F", "\x1b[3~"
BACKSPACE, TAB, CTRL_C, CTRL_U = "\x7f", "\t", "\x03", "\x15"

KEY_PAUSE = 0.03         # between keys (a fast typist)
CMD_TIMEOUT = 60 * SCALE


def boot_kdb(machine, cmdline=KGDBWAIT, port=0, **kw):
    """Boot; return the Machine once kdb shows its prompt at kgdbwait on
    ttyS<port>."""
    kw.setdefault("ports", ("unix",) * (port + 1))
    m = machine(cmdline=cmdline, **kw)
    m.wait_for(ENTRY, port=port, timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(PROMPT, port=port, timeout=BOOT_TIMEOUT, fail_on=BAD)
    return m


def clean(text):
    """Serial text with \\r\\n line ends and the line editor's redraws:
    lines as a person reads them (CR and backspaces applied)."""
    lines = []
    for raw in text.replace("\r\n", "\n").split("\n"):
        buf, col = [], 0
        i = 0
        while i < len(raw):
            c = raw[i]
            if c == "\r":
                col = 0
            elif c == "\b":
                col = max(col - 1, 0)
            elif c == "\x1b":           # ESC [ ... letter: cursor moves, erase
                j = i + 1
                if j < len(raw) and raw[j] == "[":
                    j += 1
                    while j < len(raw) and not raw[j].isalpha() and raw[j] != "~":
                        j += 1
                seq = raw[i:j + 1]
                if seq.endswith("K"):
                    del buf[col:]
                i = j + 1
                continue
            else:
                if col < len(buf):
                    buf[col] = c
                else:
                    buf.extend(" " * (col - len(buf)))
                    buf.append(c)
                col += 1
            i += 1
        lines.append("".join(buf).rstrip())
    return "\n".join(lines)


class Kdb:
    """kdb on one serial port of a Machine."""

    def __init__(self, m, port=0):
        self.m, self.port = m, port

    # ------------------------------------------------------------ keys
    def mark(self):
        """Forget output so far: later waits look only at what follows."""
        p = self.m.ports[self.port]
        with p.cond:
            p.cursor = len(p.text)
            return p.cursor

    def key(self, seq):
        """One key: a character or an escape sequence, sent as one burst."""
        self.m.send(self.port, seq.encode("latin-1"))
        time.sleep(KEY_PAUSE)

    def type(self, text):
        for ch in text:
            self.key(ch)

    def enter(self):
        self.key("\r")

    def since(self, start):
        return self.m.output(self.port)[start:]

    def wait(self, regex, timeout=CMD_TIMEOUT, **kw):
        kw.setdefault("fail_on", BAD)
        return self.m.wait_for(regex, port=self.port, timeout=timeout, **kw)

    # ------------------------------------------------------------ commands
    def cmd(self, line, timeout=CMD_TIMEOUT, prompt=PROMPT, pages=True):
        """Type line and Enter; wait for the next prompt; return the output
        between the echoed line and that prompt (lines cleaned).  With
        @pages, each `more> ` of kdb's pager gets a space (as a person
        reading every page would type) and the pages are joined."""
        start = self.mark()
        self.type(line)
        self.enter()
        while True:
            pm = self.wait(f"(?:{prompt})|(?P<more>{MORE})" if pages and prompt != MORE
                           else prompt, timeout=timeout)
            if not pm.groupdict().get("more"):
                break
            self.key(" ")
        raw = self.m.output(self.port)[start:pm.start()]
        echo, _, out = raw.partition("\n")
        out = clean(out)
        if pages:
            out = "\n".join(ln[len("more> "):] if ln.startswith("more> ") else ln
                            for ln in out.split("\n"))
        return out.rstrip("\n")

    def line(self, keys, timeout=CMD_TIMEOUT):
        """Type a key sequence ending in Enter (e.g. with editing keys);
        return (what the line looks like, the command's output)."""
        start = self.mark()
        for k in keys:
            if len(k) > 1 and k.startswith("\x1b"):
                self.key(k)
            else:
                self.type(k)
        self.enter()
        pm = self.wait(PROMPT, timeout=timeout)
        raw = self.m.output(self.port)[start:pm.start()]
        echo, _, out = raw.partition("\n")
        return clean(echo), clean(out).rstrip("\n")

    def go(self, until, timeout=BOOT_TIMEOUT):
        """`go`; wait for regex until (e.g. a new entry, boot complete)."""
        self.mark()
        self.type("go")
        self.enter()
        return self.wait(until, timeout=timeout)
