"""A tiny QMP (QEMU Machine Protocol) client over a unix socket.

QEMU's own Python package is not in Debian, so this is ours.  Events are
collected in `self.events` and otherwise skipped.

    q = QMP("/tmp/x/qmp.sock")
    q.execute("query-status")            # -> {"running": True, ...}
    q.send_key("ctrl-alt-delete")        # keys pressed together
    q.type_text("bt\\n")                 # one key (+shift) per character
    q.screendump(tmp_path / "s.png")     # png (QEMU >= 7.1) or .ppm
    q.quit()
"""

import json
import os
import socket
import time


class QMPError(Exception):
    pass


# Characters -> QKeyCode names (US layout).  Shifted characters map to the
# unshifted key name; SHIFTED lists them.
_PLAIN = {" ": "spc", "\n": "ret", "\r": "ret", "\t": "tab", "\b": "backspace",
          "\x1b": "esc", "-": "minus", "=": "equal", "[": "bracket_left",
          "]": "bracket_right", "\\": "backslash", ";": "semicolon",
          "'": "apostrophe", "`": "grave_accent", ",": "comma", ".": "dot",
          "/": "slash"}
_SHIFTED = {"!": "1", "@": "2", "#": "3", "$": "4", "%": "5", "^": "6",
            "&": "7", "*": "8", "(": "9", ")": "0", "_": "minus", "+": "equal",
            "{": "bracket_left", "}": "bracket_right", "|": "backslash",
            ":": "semicolon", '"': "apostrophe", "~": "grave_accent",
            "<": "comma", ">": "dot", "?": "slash"}
# Friendly aliases accepted by send_key.
_ALIASES = {"ctrl": "ctrl", "control": "ctrl", "alt": "alt", "shift": "shift",
            "enter": "ret", "return": "ret", "space": "spc", "escape": "esc",
            "del": "delete", "bs": "backspace", "pgup": "pgup", "pgdn": "pgdn"}


def char_keys(ch):
    """The QKeyCode names to press together to type one character."""
    if "a" <= ch <= "z" or "0" <= ch <= "9":
        return [ch]
    if "A" <= ch <= "Z":
        return ["shift", ch.lower()]
    if ch in _PLAIN:
        return [_PLAIN[ch]]
    if ch in _SHIFTED:
        k = _SHIFTED[ch]
        return ["shift", _PLAIN.get(k, k)]
    raise ValueError(f"no key for character {ch!r}")


class QMP:
    def __init__(self, path, timeout=30.0, connect_timeout=30.0):
        self.path = str(path)
        self.timeout = timeout
        self.events = []
        self._id = 0
        deadline = time.monotonic() + connect_timeout
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.settimeout(timeout)
                self.sock.connect(self.path)
                break
            except (FileNotFoundError, ConnectionRefusedError):
                self.sock.close()
                if time.monotonic() > deadline:
                    raise QMPError(f"cannot connect to QMP socket {self.path}")
                time.sleep(0.1)
        self._buf = b""
        greeting = self._read()
        if "QMP" not in greeting:
            raise QMPError(f"unexpected QMP greeting: {greeting}")
        self.greeting = greeting["QMP"]
        self.execute("qmp_capabilities")

    # -- wire
    def _read(self):
        while b"\n" not in self._buf:
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                raise QMPError(f"QMP: no answer within {self.timeout} s")
            if not data:
                raise QMPError("QMP: connection closed by QEMU")
            self._buf += data
        line, self._buf = self._buf.split(b"\n", 1)
        return json.loads(line)

    def execute(self, cmd, args=None, **kwargs):
        """Run one command, return its "return" value; raise QMPError on error.
        Argument names with dashes go in args={...}."""
        self._id += 1
        msg = {"execute": cmd, "id": self._id}
        arguments = dict(args or {}, **kwargs)
        if arguments:
            msg["arguments"] = arguments
        self.sock.sendall(json.dumps(msg).encode() + b"\n")
        deadline = time.monotonic() + self.timeout      # events alone never end it
        while True:
            if time.monotonic() > deadline:
                raise QMPError(f"{cmd}: no reply within {self.timeout} s")
            r = self._read()
            if "event" in r:
                self.events.append(r)
                continue
            if r.get("id") not in (None, self._id):
                continue
            if "error" in r:
                e = r["error"]
                raise QMPError(f"{cmd}: {e.get('class')}: {e.get('desc')}")
            return r.get("return")

    # -- keyboard
    @staticmethod
    def _qcodes(keys):
        if isinstance(keys, str):
            keys = keys.split("-") if len(keys) > 1 else [keys]
        out = []
        for k in keys:
            k = _ALIASES.get(k.lower(), k) if len(k) > 1 else k
            out.append({"type": "qcode", "data": k})
        return out

    def send_key(self, keys, hold_time=None, device=None):
        """Press keys together and release them: "ctrl-c", "shift-a", "ret",
        or a list of QKeyCode names ["ctrl", "alt", "delete"].  device: the
        display (QOM id) a keyboard is bound to (usb-kbd,display=ID): the
        keys go to that keyboard (input-send-event), not the default one."""
        if device is not None:
            keys = self._qcodes(keys)
            for down in (True, False):
                self.execute("input-send-event", {"device": device, "events": [
                    {"type": "key", "data": {"down": down, "key": k}}
                    for k in (keys if down else keys[::-1])]})
            return
        args = {"keys": self._qcodes(keys)}
        if hold_time is not None:
            args["hold-time"] = int(hold_time)
        self.execute("send-key", args)

    def type_text(self, text, delay=0.05, device=None):
        """Type text one character at a time (US layout, shift as needed);
        device: as for send_key."""
        for ch in text:
            self.send_key(char_keys(ch), device=device)
            if delay:
                time.sleep(delay)

    # -- screen
    def screendump(self, path, fmt=None):
        """Save the screen; format from fmt or the file suffix (.png or .ppm)."""
        path = os.path.abspath(str(path))
        if fmt is None:
            fmt = "png" if path.endswith(".png") else "ppm"
        args = {"filename": path}
        if fmt != "ppm":
            args["format"] = fmt
        self.execute("screendump", args)
        return path

    # -- lifecycle
    def quit(self):
        try:
            self.execute("quit")
        except QMPError:
            pass   # QEMU may close the socket before answering
        self.close()

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def read_ppm(path):
    """Read a binary PPM (P6) as (width, height, rgb_bytes)."""
    with open(path, "rb") as f:
        data = f.read()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    if fields[0] != b"P6":
        raise ValueError(f"{path}: not a P6 PPM")
    w, h, maxval = int(fields[1]), int(fields[2]), int(fields[3])
    if maxval != 255:
        raise ValueError(f"{path}: maxval {maxval} not supported")
    pos += 1
    return w, h, data[pos:pos + w * h * 3]
