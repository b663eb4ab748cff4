# SPDX-License-Identifier: GPL-2.0
"""Read the screen back as text: decode a QMP screendump with the font the
console draws with (tools/gen_font.py reads the same Debian PSF font).

    from screen import grab
    s = grab(m.qmp(), tmp_path / "boot")      # saves boot.ppm and boot.png
    assert s.find("boot complete")
    print(s.text())                            # rows, trailing blanks cut
    s.cursor                                   # (col, row) or None

The console (io/vga/fbcon.c) draws 8x16 cells from pixel (0,0):
cols = width // 8, rows = height // 16 (at most 320x100).  A cell is
decoded by its "lit" pixels (any channel above 0x40); the cursor cell is
drawn inverted and decodes through the inverted glyph.  A cell matching no
glyph decodes as U+FFFD.

Linux's fbcon draws its own font the same way (8x16 cells from (0,0)):
`Screen(..., tables=c_font_tables(path))` decodes it from Linux's
lib/fonts/font_8x16.c (the VGA font, fbcon's default), so a test can tell
which of the two drew the screen.
"""

import importlib.util
import os
import struct
import zlib

from qmp import read_ppm

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CELL_W, CELL_H = 8, 16
MAX_COLS, MAX_ROWS = 320, 100
UNKNOWN = "\ufffd"

_glyph_tables = None


def _tables():
    """{bit-string of the cell: char} for plain and inverted (cursor) cells."""
    global _glyph_tables
    if _glyph_tables is None:
        spec = importlib.util.spec_from_file_location(
            "gen_font", os.path.join(REPO, "tools", "gen_font.py"))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        glyphs = mod.load_glyphs(os.environ.get("EKDB_FONT_PSF", mod.DEFAULT_FONT))
        plain, inverted = {}, {}
        for code, rows in glyphs.items():
            ch = chr(code) if code < mod.LAST else UNKNOWN
            bits = "".join(f"{b:08b}" for b in rows)
            plain.setdefault(bits, ch)
            inverted.setdefault(bits.translate(str.maketrans("01", "10")), ch)
        _glyph_tables = (plain, inverted)
    return _glyph_tables


def _table_pair(glyphs):
    """{bits: char} plain and inverted, from {code: 16 row bytes}: ASCII
    wins where glyphs look alike (0x00, 0x20 and 0xff are all blank)."""
    plain, inverted = {}, {}
    for code in sorted(glyphs, key=lambda c: not 0x20 <= c < 0x7f):
        ch = chr(code) if 0x20 <= code < 0x7f else UNKNOWN
        bits = "".join(f"{b:08b}" for b in glyphs[code])
        plain.setdefault(bits, ch)
        inverted.setdefault(bits.translate(str.maketrans("01", "10")), ch)
    return plain, inverted


def c_font_tables(path):
    """Glyph tables of a Linux C font file (lib/fonts/font_8x16.c: one
    `0xNN,` per glyph row, 16 rows per glyph, glyphs 0-255 in order)."""
    import re
    with open(path) as f:
        data = [int(v, 16) for v in re.findall(r"^\s*(0x[0-9a-fA-F]{2}),", f.read(), re.M)]
    if len(data) != 256 * CELL_H:
        raise ValueError(f"{path}: {len(data)} glyph rows, want {256 * CELL_H}")
    glyphs = {c: data[c * CELL_H:(c + 1) * CELL_H] for c in range(256)}
    plain, _ = _table_pair(glyphs)
    # fbcon's cursor: an underline, the cell's last two pixel rows inverted
    under = {c: g[:-2] + [b ^ 0xff for b in g[-2:]] for c, g in glyphs.items()}
    _, cursor = _table_pair({c: [b ^ 0xff for b in g] for c, g in under.items()})
    return plain, cursor


def _lit_mask(width, height, rgb):
    """'0'/'1' string, one per pixel: any channel above 0x40."""
    tbl = bytes(1 if v > 0x40 else 0 for v in range(256))
    n = width * height
    acc = 0
    for c in range(3):
        acc |= int.from_bytes(rgb[c::3].translate(tbl), "big")
    return acc.to_bytes(n, "big").translate(bytes.maketrans(b"\x00\x01", b"01")).decode()


class Screen:
    def __init__(self, width, height, rgb, tables=None):
        self.width, self.height, self.rgb = width, height, rgb
        self.tables = tables
        self.cols = min(width // CELL_W, MAX_COLS)
        self.rows = min(height // CELL_H, MAX_ROWS)
        self.cursor = None
        self.lines = self._decode()

    @classmethod
    def from_file(cls, path, tables=None):
        return cls(*read_ppm(path), tables=tables)

    def _decode(self):
        plain, inverted = self.tables or _tables()
        mask = _lit_mask(self.width, self.height, self.rgb)
        w = self.width
        lines = []
        for r in range(self.rows):
            base = r * CELL_H * w
            pix_rows = [mask[base + i * w:base + i * w + self.cols * CELL_W]
                        for i in range(CELL_H)]
            out = []
            for c in range(self.cols):
                x = c * CELL_W
                bits = "".join(p[x:x + CELL_W] for p in pix_rows)
                ch = plain.get(bits)
                if ch is None:
                    ch = inverted.get(bits)
                    if ch is not None:
                        self.cursor = (c, r)
                    else:
                        ch = UNKNOWN
                out.append(ch)
            lines.append("".join(out))
        return lines

    def row(self, r):
        return self.lines[r].rstrip()

    def text(self):
        return "\n".join(line.rstrip() for line in self.lines).rstrip("\n")

    def find(self, s):
        """(row, col) of the first occurrence of s, or None."""
        for r, line in enumerate(self.lines):
            c = line.find(s)
            if c >= 0:
                return (r, c)
        return None

    def find_all(self, s):
        return [r for r, line in enumerate(self.lines) if s in line]

    def save_png(self, path):
        """Write the screendump as PNG (no filters, zlib) for people to look at."""
        def chunk(kind, data):
            return (struct.pack(">I", len(data)) + kind + data
                    + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff))
        stride = self.width * 3
        raw = b"".join(b"\x00" + self.rgb[y * stride:(y + 1) * stride]
                       for y in range(self.height))
        png = (b"\x89PNG\r\n\x1a\n"
               + chunk(b"IHDR", struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0))
               + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))
        with open(path, "wb") as f:
            f.write(png)
        return str(path)


def grab(qmp, base, tables=None):
    """Screendump through QMP into base.ppm (and base.png), decoded (with
    ekdb's font, or @tables)."""
    base = str(base)
    qmp.screendump(base + ".ppm")
    s = Screen.from_file(base + ".ppm", tables)
    s.save_png(base + ".png")
    return s


def wait_screen(qmp, base, pred, timeout=60, interval=0.5, stable=False, tables=None):
    """Grab the screen until pred(screen) is true; return that screen.
    stable: also until the next grab shows the same text (a scroll the
    guest is still doing can be caught half-way: rows half moved).
    Raises AssertionError with the last decoded text on timeout."""
    import time
    deadline = time.monotonic() + timeout
    n = 0
    last = None
    while True:
        s = grab(qmp, f"{base}", tables)
        text = s.text() if pred(s) else None
        if text is not None and (not stable or text == last):
            return s
        last = text
        if time.monotonic() > deadline:
            raise AssertionError(f"screen never matched; last screen:\n{s.text()}")
        n += 1
        time.sleep(interval)


if __name__ == "__main__":
    import sys
    scr = Screen.from_file(sys.argv[1])
    print(scr.text())
    print(f"-- {scr.cols}x{scr.rows} cells, cursor {scr.cursor}", file=sys.stderr)
