"""kgdbcon: with gdb attached, printk output reaches gdb as console ('O')
packets, as with Linux's kgdbcon; without the parameter it does not; a
stop never tears an 'O' packet in flight on another CPU, and a CPU that
parks at the end of its packet resumes with the registers gdb wrote
(issue 19)."""

import os
import re
import subprocess

import pytest

from gdb_boot import CONSOLE, attach, boot_to_kgdbwait
from gdb_wire import WireProxy
from kdb_session import boot_kdb
from qemu import BOOT_TIMEOUT, REPO
from rsp import Rsp, frame

pytestmark = pytest.mark.qemu


FLOOD_CMDLINE = f"{CONSOLE} ekgdboc=ttyS1 kgdboc=ttyS1 kgdbcon kgdbwait test_printk_flood"
KERNEL_ELF = os.path.join(REPO, "build", "kernel.elf")


def _run_to_exit(machine, gdb, extra):
    m = boot_to_kgdbwait(machine, cmdline=f"{CONSOLE} ekgdboc=ttyS1 kgdbwait exit_after_boot {extra}")
    g = attach(machine, gdb, m)
    g.cmd("break qemu_exit")      # reached right after "boot complete"
    g.cont()
    g.wait_stop()
    return m, "\n".join(g.transcript)


def test_kgdbcon_sends_printk_to_gdb(machine, gdb):
    m, transcript = _run_to_exit(machine, gdb, "kgdbcon")
    # gdb's MI shows target output as @"..." stream records
    target_out = "".join(re.findall(r'^@"(.*)"$', transcript, re.M))
    assert "boot complete" in target_out, transcript[-3000:]
    assert "smp: Brought up" in target_out and "sched:" in target_out
    m.wait_for(r"boot complete", timeout=10)     # the serial console has it too


def test_no_kgdbcon_no_console_packets(machine, gdb):
    m, transcript = _run_to_exit(machine, gdb, "")
    assert not re.search(r'^@"', transcript, re.M), transcript[-3000:]
    m.wait_for(r"boot complete", timeout=10)


def malformed_frames(data):
    """Frames in what the stub sent that gdb would not take whole: a '$'
    whose frame is cut by another '$' (or never ends), or a bad checksum."""
    bad, i = [], 0
    while True:
        i = data.find(b"$", i)
        if i < 0:
            return bad
        j = i + 1
        while j < len(data) and data[j:j + 1] not in (b"$", b"#"):
            j += 1
        if j >= len(data) or data[j:j + 1] == b"$" or j + 3 > len(data):
            if j < len(data):               # cut by the next '$' (a tail still in flight is not)
                bad.append(data[i:j + 1])
            i = j
            continue
        body, cs = data[i + 1:j], data[j + 1:j + 3]
        if not re.fullmatch(rb"[0-9a-f]{2}", cs) or int(cs, 16) != sum(body) % 256:
            bad.append(data[i:j + 3])
        i = j + 3


@pytest.mark.parametrize("cpus", [2, 4])
def test_kgdbcon_packets_never_torn_by_a_stop(machine, tmp_path, cpus):
    """kgdbcon with a printk flood on the last CPU (test_printk_flood: its
    'O' packets fill gdb's line while the kernel runs), gdb's Ctrl-C ten
    times: the round-up NMI lands on that CPU in the middle of a packet
    almost every time.  Every frame the stub sent (counted by the wire
    proxy) must be whole with a good checksum, and each stop reply must
    come (issue 19: the master's stop reply cut the 'O' packet in two).
    The client is a scripted one: gdb itself would only NAK a torn frame."""
    m = boot_kdb(machine, cmdline=f"{CONSOLE} ekgdboc=ttyS1 kgdboc=ttyS1 kgdbcon kgdbwait "
                                  "test_printk_flood", port=1, ports=("unix", "unix"), smp=cpus)
    m.release_port(1)
    proxy = WireProxy(tmp_path / "p.sock", m.socket_path(1), log_path=tmp_path / "wire.log")
    r = Rsp(proxy.path)
    r.send_raw(b"+" + frame("qSupported:multiprocess+;swbreak+"))
    reply, _ = r.read_reply()
    assert "PacketSize" in reply, reply
    assert r.ask("?").startswith("T05"), r.log[-300:]
    for round_ in range(10):
        r.send_raw(frame("c"))
        flood = 0
        while flood < 3:                    # the flood is on the line: O packets of it
            reply, _ = r.read_reply(timeout=BOOT_TIMEOUT)
            assert reply.startswith("O"), reply
            flood += "printk flood" in bytes.fromhex(reply[1:]).decode("latin-1")
        r.send_raw(b"\x03")
        while True:                         # O packets sent before the stop, then the stop
            reply, _ = r.read_reply(timeout=BOOT_TIMEOUT)
            if not reply.startswith("O"):
                break
        assert reply.startswith("T"), (round_, reply)
    r.send_raw(frame("D"))
    r.read_reply()
    r.close()
    bad = malformed_frames(proxy.received("stub"))
    proxy.close()
    assert not bad, bad[:5]


def _link_addr(symbol):
    out = subprocess.run(["nm", KERNEL_ELF], capture_output=True, text=True, check=True).stdout
    m = re.search(r"^([0-9a-f]+) [tT] %s$" % re.escape(symbol), out, re.M)
    assert m, symbol
    return int(m.group(1), 16)


def _first_int3(func):
    """Link address of the first int3 of FUNC (kgdb_breakpoint: the
    compiled-in one)."""
    out = subprocess.run(["objdump", "-d", f"--disassemble={func}", KERNEL_ELF],
                         capture_output=True, text=True, check=True).stdout
    m = re.search(r"^\s*([0-9a-f]+):\s+cc\s+int3", out, re.M)
    assert m, out
    return int(m.group(1), 16)


def _le(value):
    return value.to_bytes(8, "little").hex()


def _stop_on_flood(r):
    """`c`, let the flood run (three of its lines as O packets), Ctrl-C:
    the stop reply."""
    r.send_raw(frame("c"))
    flood = 0
    while flood < 3:
        reply, _ = r.read_reply(timeout=BOOT_TIMEOUT)
        assert reply.startswith("O"), reply
        flood += "printk flood" in bytes.fromhex(reply[1:]).decode("latin-1")
    r.send_raw(b"\x03")
    while True:
        reply, _ = r.read_reply(timeout=BOOT_TIMEOUT)
        if not reply.startswith("O"):
            return reply


def test_register_write_to_a_cpu_parked_at_its_packet_end(machine):
    """2 CPUs, kgdbcon, the printk flood on CPU 1 (thread 2): at each
    Ctrl-C the round-up NMI lands on it mid-packet almost every time, and
    it parks at the packet's end (arch_dbg_park_trap, x86_park_insn).
    Thread 2's rip is written (`Hg2`, `P10=`: gdb's `thread 2`, `set $pc`)
    to kgdb_breakpoint's int3 and the machine continued: the CPU must run
    from there and stop on it (a stop of thread 2 past the int3), then its
    rip is written back and the flood goes on.  Rounds until three parked
    the CPU at its packet's end (at most 40; at least one must have).  Fails when that park
    runs on a copy of the CPU's registers (the write is lost: the flood
    simply goes on, and only a second Ctrl-C stops it)."""
    m = boot_kdb(machine, cmdline=FLOOD_CMDLINE, port=1, ports=("unix", "unix"), smp=2)
    m.release_port(1)
    off = m.kaslr_offset()
    park = _link_addr("x86_park_insn") + off
    brk = _first_int3("kgdb_breakpoint") + off
    r = Rsp(m.socket_path(1))
    r.send_raw(b"+" + frame("qSupported:multiprocess+;swbreak+"))
    reply, _ = r.read_reply()
    assert "PacketSize" in reply, reply
    assert r.ask("?").startswith("T05"), r.log[-300:]
    parked_at_end = 0
    for round_ in range(40):
        if parked_at_end == 3:
            break
        stop = _stop_on_flood(r)
        assert stop.startswith("T"), (round_, stop)
        assert r.ask("Hg2") == "OK"
        pc = int.from_bytes(bytes.fromhex(r.ask("p10")), "little")
        parked_at_end += pc == park + 1
        assert r.ask(f"P10={_le(brk)}") == "OK"
        r.send_raw(frame("c"))
        flood, interrupted = 0, False
        while True:
            reply, _ = r.read_reply(timeout=BOOT_TIMEOUT)
            if not reply.startswith("O"):
                break
            flood += "printk flood" in bytes.fromhex(reply[1:]).decode("latin-1")
            if flood >= 20 and not interrupted:     # the flood goes on: the write was lost
                r.send_raw(b"\x03")
                interrupted = True
        assert re.match(r"T05.*thread:0*2;", reply) and not interrupted, \
            (round_, hex(pc), hex(park), flood, reply)
        assert r.ask("Hg2") == "OK"
        assert int.from_bytes(bytes.fromhex(r.ask("p10")), "little") == brk + 1
        assert r.ask(f"P10={_le(pc)}") == "OK"       # back where it was
    r.send_raw(frame("D"))
    r.read_reply()
    r.close()
    assert parked_at_end, "no round parked the flood's CPU at its packet's end"
