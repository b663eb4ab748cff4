"""kgdbcon: with gdb attached, printk output reaches gdb as console ('O')
packets, as with Linux's kgdbcon; without the parameter it does not."""

import re

import pytest

from gdb_boot import CONSOLE, attach, boot_to_kgdbwait

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
