"""What a stop costs on the wire (issue 23), with real gdb (CLI, as a
user types it) through a byte-counting proxy (gdb_wire.WireProxy, wire.py) between gdb and
ttyS1:

- stepi, a step into a call or back out to the caller, and a breakpoint
  stop need no 'g': the stop reply expedites rbp/rsp/rip and core; at a
  breakpoint or on a function's first instruction also the argument
  registers gdb prints; on a stop in another function rax..rip;
- the values gdb shows are the ones the stop reply carried;
- a 'g' gdb does ask for (its register cache flushed) carries the general
  registers only (24 registers, 164 bytes), and gdb reads the others with
  'p': `info registers cr3` and an unavailable `$xmm0` still work;
- replies are run-length encoded on the wire and gdb reads them right.

Bad input tried: gdb asking for registers past the end of the short 'g'
(cr3, xmm0), a forced register-cache flush in the middle of a session.
"""

import re
import subprocess

from gdb_boot import ACKS_ON, boot_to_kgdbwait
from gdbdriver import GDB
from conftest import KERNEL_ELF
from gdb_wire import WireProxy
from wire import FROM_STUB, TO_STUB, expand_rle, payloads

SCRIPT = r'''
import time
import gdb

def mark(name):
    print(f"MARK {name} {time.monotonic():.6f}", flush=True)

gdb.execute("set pagination off")
gdb.execute("set confirm off")
for c in ACKS:
    gdb.execute(c)
gdb.execute("target remote " + WIRE, to_string=True)
mark("stepi")
for _ in range(12):
    gdb.execute("stepi", to_string=True)
mark("bp")
gdb.execute("break free_block_locked", to_string=True)
out = gdb.execute("continue", to_string=True)
print("BPSTOP " + out.replace("\n", " | "), flush=True)
mark("values")
for r in ("pc", "rdi", "rsi", "rsp", "rbp"):
    print(f"REG {r} {int(gdb.parse_and_eval('$' + r)) & (2**64 - 1):#x}", flush=True)
mark("calls")
gdb.execute("delete")
f0, changes = gdb.selected_frame().name(), []
for _ in range(300):
    gdb.execute("stepi", to_string=True)
    f = gdb.selected_frame().name()
    if f != f0:
        changes.append(f)
        f0 = f
        if len(changes) == 2:
            break
print("CHANGES " + " ".join(map(str, changes)), flush=True)
mark("flush")
gdb.execute("maintenance flush register-cache")
print(f"RIP {int(gdb.parse_and_eval('$rip')) & (2**64 - 1):#x}", flush=True)
mark("cr3")
print("CR3 " + gdb.execute("info registers cr3", to_string=True).strip(), flush=True)
print("XMM0 " + gdb.execute("p $xmm0", to_string=True).strip(), flush=True)
mark("end")
'''


def phase_packets(w, marks, name, nxt):
    """(direction, payload) in time order between two marks."""
    chunks = w.between(marks[name], marks[nxt])
    seq = sorted([(t, ">", p) for t, p in payloads(chunks, TO_STUB)] +
                 [(t, "<", p) for t, p in payloads(chunks, FROM_STUB)])
    return [(d, p) for _, d, p in seq]


def assert_no_g(seq, what):
    for i, (d, p) in enumerate(seq):
        if d == ">" and p == b"g":
            ctx = "\n".join(f"{dd} {pp[:120]!r}" for dd, pp in seq[max(0, i - 12):i + 1])
            raise AssertionError(f"{what}: gdb sent 'g' after:\n{ctx}")


def le(h):
    return int.from_bytes(bytes.fromhex(h), "little")


def test_stops_need_no_g(machine, tmp_path):
    m = boot_to_kgdbwait(machine, smp=2)
    w = WireProxy(str(tmp_path / "wire.sock"), m.socket_path(1))
    script = tmp_path / "lean.py"
    script.write_text(f"ACKS = {list(ACKS_ON)!r}\nWIRE = {w.path!r}\n" + SCRIPT)
    try:
        r = subprocess.run([GDB, "-nx", "-q", "-batch", "-x", str(script), str(KERNEL_ELF)],
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=600)
    finally:
        w.close()
        w.dump(str(tmp_path / "wire.log"))      # for a failure's post-mortem
    out = r.stdout.decode(errors="replace")
    (tmp_path / "gdb.out").write_text(out)
    marks = {k: float(v) for k, v in re.findall(r"^MARK (\w+) ([\d.]+)$", out, re.M)}
    assert "end" in marks, out[-3000:]

    # 12 stepi from the kgdbwait stop: 12 resumes, no 'g'
    steps = phase_packets(w, marks, "stepi", "bp")
    assert sum(d == ">" and p.startswith(b"vCont;s") for d, p in steps) == 12, steps
    assert_no_g(steps, "stepi")

    # the breakpoint stop: gdb prints the arguments, from the stop reply
    bp = phase_packets(w, marks, "bp", "values")
    assert_no_g(bp, "breakpoint")
    assert re.search(r"Breakpoint 1, free_block_locked \(idx=\d+, order=\d+\)", out), out
    stop = [expand_rle(p).decode() for d, p in bp if d == "<" and b"swbreak" in p][-1]
    regs = dict(re.findall(r"([0-9a-f]{2}):([0-9a-f]+);", stop))
    assert {"06", "07", "10", "05", "04"} <= set(regs), stop   # rbp rsp rip rdi rsi
    assert re.search(r";core:[0-9a-f]+;", stop), stop
    shown = dict(re.findall(r"^REG (\w+) (0x[0-9a-f]+)$", out, re.M))
    for name, num in (("pc", "10"), ("rdi", "05"), ("rsi", "04"), ("rsp", "07"), ("rbp", "06")):
        assert int(shown[name], 16) == le(regs[num]), (name, shown, stop)
    idx = int(re.search(r"free_block_locked \(idx=(\d+)", out).group(1))
    assert idx == le(regs["05"]) & 0xffffffff
    assert_no_g(phase_packets(w, marks, "values", "calls"), "reading pc/rdi/rsi/rsp/rbp")

    # stepping into a call and back out: the new frame is shown, no 'g'
    changes = re.search(r"^CHANGES (.*)$", out, re.M).group(1).split()
    assert len(changes) == 2, out[-2000:]
    assert_no_g(phase_packets(w, marks, "calls", "flush"), f"stepi into {changes}")

    # a 'g' gdb does send is the lean one; rip from it is right
    flush = phase_packets(w, marks, "flush", "cr3")
    assert (">", b"g") in flush, flush
    greply = [expand_rle(p) for d, p in flush if d == "<"][0]
    assert len(greply) == 2 * (17 * 8 + 7 * 4), greply
    rip = int(re.search(r"^RIP (0x[0-9a-f]+)$", out, re.M).group(1), 16)
    assert rip == le(greply[16 * 16:17 * 16].decode())

    # what the short 'g' leaves out comes with 'p'
    cr3 = phase_packets(w, marks, "cr3", "end")
    assert (">", b"p3e") in cr3, cr3
    assert re.search(r"^CR3 cr3\s+0x[0-9a-f]*000\s", out, re.M), out[-2000:]
    assert re.search(r"^XMM0 .*unavailable", out, re.M), out[-2000:]

    # run-length encoding was used (kernel addresses: ffffffff)
    assert any(d == "<" and b"*" in p for d, p in steps), steps
