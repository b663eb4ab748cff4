"""hidkbd.py - a full-speed USB HID boot keyboard, as QEMU's usb-kbd
presents itself (vendor 0627, product 0001, one interface of class 3,
subclass 1 (boot), protocol 1 (keyboard), interrupt IN endpoint 0x81 of 8
bytes), for the model's host side (host.py) to carry.

Control requests answered: GET_DESCRIPTOR (device, configuration,
strings, the HID report descriptor), GET_STATUS, GET/SET_CONFIGURATION,
CLEAR/SET_FEATURE, GET/SET_INTERFACE (alternate 0), and the HID class
requests SET_PROTOCOL/GET_PROTOCOL, SET_IDLE/GET_IDLE, SET_REPORT (the
LEDs, one byte) and GET_REPORT.  Anything else stalls.  Reports (8 bytes:
modifiers, 0, six key usages) are queued by key() and taken one per
interrupt IN transfer.
"""

import collections
import struct

VENDOR, PRODUCT = 0x0627, 0x0001
MAXP0 = 8                               # full speed: EP0's max packet
REPORT_LEN = 8

DEVICE_DESC = struct.pack("<BBHBBBBHHHBBBB", 18, 1, 0x0200, 0, 0, 0, MAXP0, VENDOR, PRODUCT,
                          0x0000, 1, 2, 3, 1)
REPORT_DESC = bytes([
    0x05, 0x01, 0x09, 0x06, 0xa1, 0x01, 0x75, 0x01, 0x95, 0x08, 0x05, 0x07, 0x19, 0xe0,
    0x29, 0xe7, 0x15, 0x00, 0x25, 0x01, 0x81, 0x02, 0x95, 0x01, 0x75, 0x08, 0x81, 0x01,
    0x95, 0x05, 0x75, 0x01, 0x05, 0x08, 0x19, 0x01, 0x29, 0x05, 0x91, 0x02, 0x95, 0x01,
    0x75, 0x03, 0x91, 0x01, 0x95, 0x06, 0x75, 0x08, 0x15, 0x00, 0x25, 0xff, 0x05, 0x07,
    0x19, 0x00, 0x29, 0xff, 0x81, 0x00, 0xc0])
HID_DESC = struct.pack("<BBHBBBH", 9, 0x21, 0x0111, 0, 1, 0x22, len(REPORT_DESC))
IFACE_DESC = struct.pack("<BBBBBBBBB", 9, 4, 0, 0, 1, 3, 1, 1, 0)
EP_DESC = struct.pack("<BBBBHB", 7, 5, 0x81, 3, REPORT_LEN, 10)
_body = IFACE_DESC + HID_DESC + EP_DESC
CONFIG_DESC = struct.pack("<BBHBBBBB", 9, 2, 9 + len(_body), 1, 1, 0, 0xa0, 50) + _body
STRINGS = {1: "QEMU", 2: "QEMU USB Keyboard", 3: "ekdb-xdbc-sim-kbd"}

# modifier names (bits of the report's first byte)
MODS = {"lctrl": 0x01, "lshift": 0x02, "lalt": 0x04, "lgui": 0x08, "rctrl": 0x10,
        "rshift": 0x20, "ralt": 0x40, "rgui": 0x80, "ctrl": 0x01, "shift": 0x02, "alt": 0x04}
# key names for the control socket (HID usage page 7)
NAMES = {"enter": 0x28, "ret": 0x28, "esc": 0x29, "backspace": 0x2a, "tab": 0x2b,
         "space": 0x2c, "minus": 0x2d, "caps_lock": 0x39, "sysrq": 0x46, "num_lock": 0x53,
         "up": 0x52, "down": 0x51, "left": 0x50, "right": 0x4f}


def usage_of_char(ch):
    """(usage, shift) of a printable ASCII character on a US layout, or None."""
    if "a" <= ch <= "z":
        return 0x04 + ord(ch) - ord("a"), False
    if "A" <= ch <= "Z":
        return 0x04 + ord(ch) - ord("A"), True
    if "1" <= ch <= "9":
        return 0x1e + ord(ch) - ord("1"), False
    plain = {"0": 0x27, " ": 0x2c, "-": 0x2d, "=": 0x2e, "[": 0x2f, "]": 0x30, "\\": 0x31,
             ";": 0x33, "'": 0x34, "`": 0x35, ",": 0x36, ".": 0x37, "/": 0x38, "\n": 0x28}
    if ch in plain:
        return plain[ch], False
    shifted = {"!": 0x1e, "@": 0x1f, "#": 0x20, "$": 0x21, "%": 0x22, "^": 0x23, "&": 0x24,
               "*": 0x25, "(": 0x26, ")": 0x27, "_": 0x2d, "+": 0x2e, "{": 0x2f, "}": 0x30,
               "|": 0x31, ":": 0x33, '"': 0x34, "~": 0x35, "<": 0x36, ">": 0x37, "?": 0x38}
    if ch in shifted:
        return shifted[ch], True
    return None


def _usage(word):
    word = word.lower()
    if word in NAMES:
        return NAMES[word]
    if len(word) == 1 and usage_of_char(word):
        return usage_of_char(word)[0]
    try:
        usage = int(word, 0)
    except ValueError:
        raise ValueError(f"unknown key {word!r}") from None
    if not 0 < usage < 0xe0:
        raise ValueError(f"usage {usage:#x} out of range (0x01-0xdf)")
    return usage


def parse_key(args):
    """`key KEY[+KEY...] [MOD+MOD...]` (KEY: a name, a character or a usage;
    several: pressed in that order, held together) -> ([usages], modifier byte);
    ValueError says why."""
    if not 1 <= len(args) <= 2:
        raise ValueError("key KEY[+KEY...] [MODS] (KEY: a name, a character or a usage; "
                         "MODS: shift+ctrl+alt+...)")
    usages = [_usage(w) for w in args[0].split("+")]
    if len(usages) > 6:
        raise ValueError("at most 6 keys at once (the boot report's rollover)")
    mods = 0
    if len(args) == 2:
        for m in args[1].lower().split("+"):
            if m not in MODS:
                raise ValueError(f"unknown modifier {m!r} (lctrl lshift lalt lgui rctrl rshift "
                                 "ralt rgui, or ctrl shift alt)")
            mods |= MODS[m]
    return usages, mods


class Keyboard:
    def __init__(self, log):
        self.log = log
        self.leds = 0
        self.set_reports = 0
        self.reset()

    def reset(self):
        """Bus reset (or power on): default state, nothing queued."""
        self.address = 0
        self.configuration = 0
        self.protocol = 1               # report protocol until SET_PROTOCOL(0)
        self.idle = 0
        self.reports = collections.deque()

    # ------------------------------------------------------------ reports
    def key(self, usages, mods=0):
        """Keys pressed in order, held together, released (modifiers held around them)."""
        if mods:
            self.reports.append(bytes([mods, 0, 0, 0, 0, 0, 0, 0]))
        for n in range(1, len(usages) + 1):
            self.reports.append(bytes([mods, 0] + usages[:n] + [0] * (6 - n)))
        self.reports.append(bytes([mods, 0, 0, 0, 0, 0, 0, 0]))
        if mods:
            self.reports.append(bytes(REPORT_LEN))

    def text(self, s):
        """Type @s (printable ASCII and \\n); False if a character has no key."""
        keys = [usage_of_char(ch) for ch in s]
        if None in keys:
            return False
        for usage, shift in keys:
            self.key([usage], MODS["lshift"] if shift else 0)
        return True

    def next_report(self):
        return self.reports.popleft() if self.reports else None

    def unread(self, report):
        self.reports.appendleft(report)

    # ------------------------------------------------------------ control
    def control(self, setup, data_out):
        """One control request: (True, bytes for an IN data stage) or (False, None): stall."""
        rtype, req, value, index, length = struct.unpack("<BBHHH", setup)
        kind = (rtype, req)
        if kind == (0x80, 6):                               # GET_DESCRIPTOR
            return self._descriptor(value >> 8, value & 0xff, length)
        if kind == (0x81, 6) and value >> 8 == 0x22:        # the HID report descriptor
            return True, REPORT_DESC[:length]
        if kind == (0x81, 6) and value >> 8 == 0x21:
            return True, HID_DESC[:length]
        if rtype & 0x80 and req == 0:                       # GET_STATUS
            return True, bytes(2)[:length]
        if kind == (0x00, 9):                               # SET_CONFIGURATION
            if value not in (0, 1):
                return False, None
            self.configuration = value
            return True, b""
        if kind == (0x80, 8):
            return True, bytes([self.configuration])[:length]
        if kind in ((0x00, 1), (0x00, 3), (0x02, 1), (0x02, 3)):   # CLEAR/SET_FEATURE
            return True, b""
        if kind == (0x01, 11) and value == 0:               # SET_INTERFACE alt 0
            return True, b""
        if kind == (0x81, 10):                              # GET_INTERFACE
            return True, bytes(1)[:length]
        if kind == (0x21, 11):                              # SET_PROTOCOL
            self.protocol = value & 1
            return True, b""
        if kind == (0xa1, 3):
            return True, bytes([self.protocol])[:length]
        if kind == (0x21, 10):                              # SET_IDLE
            self.idle = value >> 8
            return True, b""
        if kind == (0xa1, 2):
            return True, bytes([self.idle])[:length]
        if kind == (0x21, 9) and value >> 8 == 2:           # SET_REPORT (output): the LEDs
            if len(data_out) < 1:
                return False, None
            self.leds = data_out[0]
            self.set_reports += 1
            return True, b""
        if kind == (0xa1, 1):                               # GET_REPORT
            return True, bytes(REPORT_LEN)[:length]
        self.log(f"kbd: request {rtype:#04x}/{req} value {value:#x} index {index}: stall")
        return False, None

    def _descriptor(self, kind, idx, length):
        if kind == 1:
            return True, DEVICE_DESC[:length]
        if kind == 2:
            return True, CONFIG_DESC[:length]
        if kind == 3:
            if idx == 0:
                return True, bytes([4, 3, 0x09, 0x04])[:length]
            if idx in STRINGS:
                s = STRINGS[idx].encode("utf-16-le")
                return True, (bytes([2 + len(s), 3]) + s)[:length]
        return False, None
