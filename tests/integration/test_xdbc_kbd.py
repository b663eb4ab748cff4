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

from gdb_boot import ACKS_ON, BOOT_COMPLETE, WAITING, cont_to_stop, frames
from kdb_session import BAD, PROMPT, Kdb
from qemu import BOOT_TIMEOUT
from test_kdb_screen import Screen, at_prompt, last_line, rows_after

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
        """QMP's names: "ret", "shift-g", "alt-sysrq-g" (SysRq held with g)."""
        for k in names:
            words = k.split("-")
            mods = [MODS[w] for w in words if w in MODS]
            key = "+".join(w for w in words if w not in MODS)
            cmd = f"key {key}" + (" " + "+".join(mods) if mods else "")
            assert self.m.xdbc_control(cmd).get("ok"), cmd
            time.sleep(KEY_DELAY)

    def type(self, text):
        for ch in text:
            assert self.m.xdbc_control(f"type {ch}").get("ok"), ch
            time.sleep(KEY_DELAY)


def boot(machine, tmp_path, cmdline=BOTH, knobs=("kbd",), far_host=True):
    """(machine, screen, the DbC's port or None): the far host's terminal
    on the DbC from the start (far_host), the keyboard found."""
    m = machine(cmdline=cmdline, no_ps2=True, ports=("unix",), xdbc=True, xdbc_knobs=knobs)
    p = m.take_xdbc() if far_host else None
    m.wait_for(KBD, timeout=BOOT_TIMEOUT, fail_on=BAD)
    return m, ModelScreen(m, tmp_path), p


def test_kdb_on_the_keyboard_and_the_dbc_across_the_handoff(machine, tmp_path):
    """kgdbwait: kdb on the screen typed on the model's keyboard and kdb
    on the DbC, both answering; bp after the xHCI driver, go (typed on the
    keyboard); at the breakpoint the kernel's keyboard driver has the
    keyboard (on its own rings, the early state carried) and the DbC was
    enabled again after the reset: both answer again; go; boot completes."""
    m, sc, p = boot(machine, tmp_path)
    m.wait_for(PROMPT, port=p, timeout=BOOT_TIMEOUT)
    sc.wait("kgdbwait", at_prompt, timeout=BOOT_TIMEOUT)
    resets = m.xdbc_control("stats")["kbd_port_resets"]     # the firmware's, the early driver's
    s, out = sc.cmd("bt", "bt")
    assert "Call Trace:" in out and any("setup_arch" in ln for ln in out), out
    k = Kdb(m, p)
    assert "setup_arch" in k.cmd("bt")
    s, out = sc.cmd("bp kthreads_start", "bp")
    assert any("kthreads_start" in ln for ln in out), out
    sc.keys("caps_lock")                        # its LED: the kernel's driver sends it again
    sc.keys("shift-g", "shift-o", "ret")        # "go" with Caps Lock on
    m.wait_for(STARTED, timeout=BOOT_TIMEOUT, fail_on=BAD)
    log = m.output(0)
    for msg in (BACK, TAKEN):
        assert re.search(msg, log), (msg, log[-3000:])
    s = sc.wait("at-bp", lambda s: at_prompt(s) and s.find("due to Breakpoint @ 0x") is not None,
                timeout=120)
    st = m.xdbc_control("stats")
    # the late driver's port reset reset the keyboard: the LEDs (Num, Caps) were sent again
    assert st["kbd_leds"] == 0x3 and st["kbd_port_resets"] == resets + 1, st
    sc.type("bt")                               # Caps Lock kept across the takeover: BT
    sc.wait("caps-kept", lambda s: last_line(s).rstrip().endswith("kdb> BT"))
    sc.keys("backspace", "backspace", "caps_lock")
    s, out = sc.cmd("bt", "bt-late")
    assert any("kthreads_start" in ln for ln in out), out
    k.wait(PROMPT)
    assert "kthreads_start" in k.cmd("bt")      # and kdb on the DbC, after its reset
    st = m.xdbc_control("stats")
    assert st["dbc_resets"] == 1 and st["enumerations"] == 2, st
    assert st["kbd_leds"] == 0x1, st            # Num Lock only
    sc.type("bc 0")
    sc.keys("ret")
    sc.type("go")
    sc.keys("ret")
    m.wait_for(DONE, timeout=BOOT_TIMEOUT, fail_on=BAD)


def test_earlyprintk_xdbc_keep_through_both_keyboard_resets(machine, tmp_path):
    """earlyprintk=xdbc0,keep first: the early keyboard driver finds the
    DbC in use and resets the controller all the same, the early DbC
    driver told before and after (it enables the DbC again: the far host
    enumerates it a second time, and the console's lines go on on the
    DbC); kdb on the keyboard at kgdbwait; `go`: the xHCI driver's reset,
    the third enumeration, and the console on the DbC to the end of the
    boot; the keyboard typed in the running system reaches the shell."""
    m, sc, p = boot(machine, tmp_path, cmdline=f"{SERIAL} earlyprintk=xdbc0,keep "
                    "earlyprintk=vga ekgdboc=kbd kgdbwait")
    early = (r"xdbc: xdbc0: the keyboards' xHCI reset turned the DbC off: enabled again, debug "
             r"host back on port 2 \(enumerated again\), the session goes on")
    m.wait_for(early, port=p, timeout=BOOT_TIMEOUT)   # said on the DbC itself
    m.wait_for(KBD, port=p, timeout=60)
    m.wait_for(r"kbd: xHCI [0-9a-f:.]+: its Debug Capability is in use: reset for keyboards "
               r"beside it", from_start=True, timeout=60)
    sc.wait("kgdbwait", at_prompt, timeout=BOOT_TIMEOUT)
    assert m.xdbc_control("stats")["enumerations"] == 2
    s, out = sc.cmd("bt", "bt")
    assert any("setup_arch" in ln for ln in out), out
    sc.type("go")
    sc.keys("ret")
    m.wait_for(DONE, port=p, timeout=BOOT_TIMEOUT)     # the whole boot log on the DbC
    log = m.output(p)
    assert re.search(BACK, log) and re.search(TAKEN, log), log[-3000:]
    st = m.xdbc_control("stats")
    assert st["enumerations"] == 3 and st["dbc_resets"] == 2, st
    sc.type("echo on-the-model")
    sc.keys("ret")
    m.wait_for(r"\non-the-model\r?\n", timeout=60, fail_on=BAD)



def test_a_dbc_that_the_reset_leaves_alone(machine, tmp_path):
    """A controller whose HCRST leaves the DbC enabled (the model's
    hcrst-keeps-dbc): the early DbC driver finds DCE still set after the
    keyboards' reset and keeps the DbC as it is (no second enumeration);
    the console goes on on the DbC and kdb types on the keyboard."""
    m, sc, p = boot(machine, tmp_path, cmdline=f"{SERIAL} earlyprintk=xdbc0,keep "
                    "earlyprintk=vga ekgdboc=kbd kgdbwait", knobs=("kbd", "hcrst-keeps-dbc"))
    m.wait_for(r"xdbc: xdbc0: DbC kept across the keyboards' xHCI reset \(still enabled\)",
               port=p, timeout=BOOT_TIMEOUT)
    m.wait_for(KBD, port=p, timeout=60)
    sc.wait("kgdbwait", at_prompt, timeout=BOOT_TIMEOUT)
    s, out = sc.cmd("bt", "bt")
    assert any("setup_arch" in ln for ln in out), out
    st = m.xdbc_control("stats")
    assert st["enumerations"] == 1 and st["dbc_resets"] == 0 and st["hcresets"] >= 1, st


def test_gdb_on_the_dbc_and_sysrq_g_on_the_keyboard(machine, gdb, tmp_path):
    """gdb on the DbC from kgdbwait, the keyboard beside it: gdb's
    breakpoint after the xHCI driver's reset stops in the same session;
    `continue` to the end of the boot; Alt+SysRq+g typed on the model's
    keyboard (the kernel's keyboard driver on the DbC's controller) stops
    the kernel in gdb's session, in the keyboard's thread."""
    m, sc, _ = boot(machine, tmp_path, far_host=False)
    m.wait_for(WAITING, timeout=BOOT_TIMEOUT)
    g = gdb()
    for c in ACKS_ON:
        g.cmd(c)
    g.connect(m.xdbc_path, timeout=120)
    assert "setup_arch" in frames(g.cmd("bt"))
    g.cmd("break kthreads_start")
    st = cont_to_stop(g)
    assert st.get("reason") == "breakpoint-hit", st
    assert re.search(TAKEN, m.output(0)) and re.search(BACK, m.output(0))
    g.cmd("delete")
    g.cont()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    sc.keys("alt-sysrq-g")
    st = g.wait_stop(timeout=120)
    assert "poll_once" in frames(g.cmd("bt")) or "usbkbd_thread" in frames(g.cmd("bt")), \
        g.cmd("bt")
    assert "etach" in g.detach()


def stall_and_replug(m, sc, func, when):
    """`bt` typed with the keyboard's interrupt endpoint stalling between
    its two keys (the driver recovers it, no key lost: the trace names
    func); then the keyboard unplugged and plugged back while kdb waits,
    and Enter on the new one gives a fresh prompt."""
    stalls = m.xdbc_control("stats")["host_stalls"]
    sc.type("b")
    assert m.xdbc_control("kbd-stall")["ok"]
    sc.type("t")
    sc.keys("ret")
    sc.wait(f"bt-stall-{when}", lambda s: at_prompt(s) and s.find("kdb> bt") is not None
            and any(func in ln for ln in rows_after(s, "kdb> bt")))
    st = m.xdbc_control("stats")
    assert st["host_stalls"] == stalls + 1, st
    assert m.xdbc_control("kbd-unplug")["ok"]
    m.wait_for(r"kbd: xHCI [0-9a-f:.]+ port 5: USB keyboard unplugged", timeout=60, fail_on=BAD)
    assert m.xdbc_control("kbd-plug")["ok"]
    m.wait_for(KBD, timeout=60, fail_on=BAD)
    sc.keys("ret")
    sc.wait(f"fresh-prompt-{when}", lambda s: at_prompt(s) and "0627:0001" not in last_line(s))


def test_stall_unplug_and_dbc_port_reset_while_typing(machine, tmp_path):
    """Bad inputs at kgdbwait, kdb on the keyboard and on the DbC, then
    again at a breakpoint after the handoff (the kernel's keyboard driver):
    the keyboard's interrupt endpoint stalls between two keys (the driver
    resets it and the key is not lost); the keyboard unplugged and plugged
    back (typing resumes on the new one); the far host resets the DbC's
    port while keys are typed (both lines keep working)."""
    m, sc, p = boot(machine, tmp_path)
    m.wait_for(PROMPT, port=p, timeout=BOOT_TIMEOUT)
    sc.wait("kgdbwait", at_prompt, timeout=BOOT_TIMEOUT)
    stall_and_replug(m, sc, "setup_arch", "early")
    # the DbC's port reset by the far host in the middle of a command typed on the keyboard
    sc.type("bp setup")
    assert m.xdbc_control("port-reset")["ok"]
    sc.type("_arch")
    sc.keys("ret")
    sc.wait("bp", lambda s: s.find("kdb> bp setup_arch") is not None and at_prompt(s)
            and s.find("BP #0") is not None)
    k = Kdb(m, p)
    assert "setup_arch" in k.cmd("bl")
    st = m.xdbc_control("stats")
    assert st["port_resets"] == 1 and st["state"] == "configured", st
    # the same through the kernel's keyboard driver, at a breakpoint after the handoff
    assert "BP #1" in k.cmd("bp kthreads_start")
    sc.type("go")
    sc.keys("ret")
    m.wait_for(TAKEN, timeout=BOOT_TIMEOUT, fail_on=BAD)
    sc.wait("at-bp", lambda s: at_prompt(s) and s.find("due to Breakpoint @ 0x") is not None,
            timeout=120)
    stall_and_replug(m, sc, "kthreads_start", "late")
    sc.type("bc *")
    assert m.xdbc_control("port-reset")["ok"]
    sc.keys("ret")
    sc.wait("bc", lambda s: s.find("kdb> bc *") is not None and at_prompt(s))
    assert "BP #" not in k.cmd("bl")            # bc * typed on the keyboard cleared both
    sc.type("go")
    sc.keys("ret")
    m.wait_for(DONE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    st = m.xdbc_control("stats")
    assert st["port_resets"] == 2 and st["state"] == "configured", st
