"""kgdbcon: with gdb attached, printk output reaches gdb as console ('O')
packets, as with Linux's kgdbcon; without the parameter it does not; a
stop never tears an 'O' packet in flight on another CPU (issue 19)."""

import re

import pytest

from gdb_boot import CONSOLE, attach, boot_to_kgdbwait
from gdb_wire import WireProxy
from kdb_session import boot_kdb
from qemu import BOOT_TIMEOUT
from rsp import Rsp, frame

pytestmark = pytest.mark.qemu


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
