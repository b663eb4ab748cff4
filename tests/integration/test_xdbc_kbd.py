# SPDX-License-Identifier: GPL-2.0
"""The DbC and the keyboards on one controller (docs/console.md, "The DbC
and the keyboards on one controller"; docs/xdbc.md): the DbC model with
its keyboard (tools/xdbc-sim --kbd: a full-speed HID boot keyboard on a
USB 2 root port of the same xHCI, keys through the model's control
socket), no PS/2 at all.  kdb on the screen typed on that keyboard and
kdb (or gdb) on the DbC at the same time, at kgdbwait and after the
handoff to the running kernel, whose xHCI driver resets the controller
(the DbC enabled again) and whose keyboard driver takes the keyboard.

Bad inputs tried: the keyboard's interrupt endpoint stalls in the middle
of typing (kbd-stall: Reset Endpoint, Set TR Dequeue, typing goes on); the
keyboard unplugged and plugged back while kdb waits; the DbC's port reset
by the far host while typing on the keyboard.
"""

import re
import time

import pytest

from kdb_session import BAD, ENTRY, PROMPT, Kdb
from qemu import BOOT_TIMEOUT
from test_kdb_screen import Screen, at_prompt, last_line

pytestmark = pytest.mark.qemu

SERIAL = "earlyprintk=serial,ttyS0,115200"
BOTH = f"{SERIAL} earlyprintk=vga ekgdboc=kbd kgdbxdbc=0 kgdbwait"
KBD = r"kbd: xHCI [0-9a-f:.]+ port 5: USB keyboard 0627:0001 \(full speed"
DONE = r"boot complete: \d+ CPUs online"
TAKEN = (r"xhci_hcd [0-9a-f:.]+: 1 USB keyboard on its own rings, 1 taken over from the "
         r"debugger's early driver")
BACK = (r"xdbc: xdbc0: the xHCI reset turned the DbC off: enabled again, debug host back on "
        r"port 2 \(enumerated again\), the session goes on")
STARTED = (r"xhci_hcd [0-9a-f:.]+: xHCI 1\.10 started, 5 ports, 1 connected, Debug Capability "
           r"in use")
KEY_DELAY = 0.05
MODS = {"shift": "lshift", "ctrl": "lctrl", "alt": "lalt"}


class ModelScreen(Screen):
    """Typing on the model's keyboard (its control socket), reading the screen."""

    def keys(self, *names):
        for k in names:
            *mods, key = k.split("-")
            cmd = f"key {key}" + (" " + "+".join(MODS[x] for x in mods) if mods else "")
            assert self.m.xdbc_control(cmd).get("ok"), cmd
            time.sleep(KEY_DELAY)

    def type(self, text):
        for ch in text:
            assert self.m.xdbc_control(f"type {ch}").get("ok"), ch
            time.sleep(KEY_DELAY)


def boot(machine, tmp_path, cmdline=BOTH, knobs=("kbd",)):
    m = machine(cmdline=cmdline, no_ps2=True, ports=("unix",), xdbc=True, xdbc_knobs=knobs)
    m.wait_for(KBD, timeout=BOOT_TIMEOUT, fail_on=BAD)
    return m, ModelScreen(m, tmp_path)


def test_kdb_on_the_keyboard_and_the_dbc_across_the_handoff(machine, tmp_path):
    """kgdbwait: kdb on the screen typed on the model's keyboard and kdb
    on the DbC, both answering; bp after the xHCI driver, go (typed on the
    keyboard); at the breakpoint the kernel's keyboard driver has the
    keyboard (on its own rings, the early state carried) and the DbC was
    enabled again after the reset: both answer again; go; boot completes."""
    m, sc = boot(machine, tmp_path)
    p = m.take_xdbc()
    m.wait_for(PROMPT, port=p, timeout=BOOT_TIMEOUT)
    sc.wait("kgdbwait", at_prompt, timeout=BOOT_TIMEOUT)
    s, out = sc.cmd("bt", "bt")
    assert "Call Trace:" in out and any("setup_arch" in ln for ln in out), out
    k = Kdb(m, p)
    assert "setup_arch" in k.cmd("bt")
    s, out = sc.cmd("bp kthreads_start", "bp")
    assert any("kthreads_start" in ln for ln in out), out
    sc.type("go")
    sc.keys("ret")
    m.wait_for(STARTED, timeout=BOOT_TIMEOUT, fail_on=BAD)
    log = m.output(0)
    for msg in (BACK, TAKEN):
        assert re.search(msg, log), (msg, log[-3000:])
    s = sc.wait("at-bp", lambda s: at_prompt(s) and s.find("due to Breakpoint @ 0x") is not None,
                timeout=120)
    s, out = sc.cmd("bt", "bt-late")
    assert any("kthreads_start" in ln for ln in out), out
    k.wait(PROMPT)
    assert "kthreads_start" in k.cmd("bt")
    st = m.xdbc_control("stats")
    assert st["dbc_resets"] == 1 and st["enumerations"] == 2, st
    sc.type("bc 0")
    sc.keys("ret")
    sc.type("go")
    sc.keys("ret")
    m.wait_for(DONE, timeout=BOOT_TIMEOUT, fail_on=BAD)
