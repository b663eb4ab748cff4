# SPDX-License-Identifier: GPL-2.0
"""kdb typed on a USB keyboard (issue 35, docs/console.md "USB keyboards").

QEMU's own devices: `-machine q35,i8042=off` (no PS/2 controller at all),
qemu-xhci or nec-usb-xhci with a usb-kbd (the launcher's --no-ps2 and
--usb-kbd), keys sent through QMP (send-key reaches the only keyboard there
is; input-send-event names the device), the screen read back with
screen.py.  PNGs are left in the test's tmp dir (kdbscreen-*.png).
"""

import re

import pytest

from kdb_session import BAD, Kdb
from qemu import BOOT_TIMEOUT, MachineError
from test_kdb_screen import ON_SCREEN, SERIAL, Screen, at_prompt, last_line

DONE = r"boot complete: \d+ CPUs online"
SHELL = r"ekdb:/# "
USB_ONLY = r"kgdb: ekgdboc=kbd: 1 USB keyboard, output on the screen"
TAKEN = (r"xhci_hcd [0-9a-f:.]+: 1 USB keyboard on its own rings, 1 taken over from the "
         r"debugger's early driver \(keys held, locks and unread bytes kept\)")


def kdb_on_usb(machine, tmp_path, ctrl="qemu-xhci", **kw):
    m = machine(cmdline=ON_SCREEN, no_ps2=True, usb_kbd=[ctrl], **kw)
    m.wait_for(r"kbd: xHCI [0-9a-f:.]+ port \d+: USB keyboard 0627:0001 \((full|high) speed",
               timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(USB_ONLY, timeout=60, fail_on=BAD)
    m.wait_for(r"kgdb: Waiting for connection", timeout=60, fail_on=BAD)
    sc = Screen(m, tmp_path)
    sc.wait("kgdbwait", at_prompt, timeout=BOOT_TIMEOUT)
    return m, sc


def test_kdb_at_kgdbwait_on_a_usb_keyboard_only(machine, tmp_path):
    m, sc = kdb_on_usb(machine, tmp_path)
    m.expect_not(r"i8042 keyboard")
    s, out = sc.cmd("bt", "bt")
    assert "Call Trace:" in out and any("setup_arch" in ln for ln in out), out
    # editing keys and Shift: the same bytes as on PS/2
    sc.type("mdd")
    sc.keys("backspace")
    sc.type(" setup_arch 1")
    sc.keys("ret")
    sc.wait("backspace", lambda s: s.find("kdb> md setup_arch 1") is not None and at_prompt(s))
    # Caps Lock on and off again, Shift inverting it
    sc.keys("caps_lock")
    sc.type("abc")
    sc.keys("shift-d")
    sc.keys("caps_lock")
    sc.type("e")
    sc.wait("caps", lambda s: last_line(s).rstrip().endswith("kdb> ABCde"))
    sc.keys("ctrl-u")
    sc.wait("ctrl-u", lambda s: re.fullmatch(r"\[\d+\]kdb>", last_line(s).rstrip()) is not None)
    sc.type("go")
    sc.keys("ret")
    # the kernel's xHCI driver resets the controller and its keyboard driver takes the keyboard
    m.wait_for(TAKEN, timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(r"kbd: the debugger's kbd is the USB keyboard \(1\)", timeout=60, fail_on=BAD)
    m.wait_for(DONE, timeout=BOOT_TIMEOUT, fail_on=BAD)


def back_in_shell(m, sc):
    """Enter on the keyboard until the console shell answers with a prompt:
    the debugger has left (what is typed while it leaves is kdb's, dropped)."""
    k = Kdb(m)
    for _ in range(30):
        k.mark()
        sc.keys("ret")
        try:
            k.wait(SHELL, timeout=5)
            return
        except MachineError:
            continue
    raise AssertionError("the console shell never answered after go")


def test_no_keyboard_at_all(machine):
    """i8042=off and no USB keyboard (a tablet is there): a clear message, the boot goes on."""
    m = machine(cmdline="earlyprintk=serial,ttyS0,115200 earlyprintk=vga ekgdboc=kbd kgdbwait",
                no_ps2=True,
                extra=("-device", "pcie-root-port,id=rpx,chassis=30",
                       "-device", "qemu-xhci,id=hx,bus=rpx", "-device", "usb-tablet,bus=hx.0"))
    m.wait_for(r"kbd: xHCI [0-9a-f:.]+ port \d+: 0627:0001 is not a keyboard \(1 interface, none "
               r"HID boot keyboard\)", timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(r"kgdb: ekgdboc=kbd: no keyboard: no PS/2 keyboard controller \(port 0x64 reads "
               r"0xff\) and no USB keyboard: keyboard transport disabled", timeout=60, fail_on=BAD)
    m.wait_for(DONE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.expect_not(r"Waiting for connection")


def test_nec_usb_xhci(machine, tmp_path):
    """nec-usb-xhci: kdb at kgdbwait, then the kernel's driver takes the
    keyboard over and Alt+SysRq+g on it enters kdb, which it types to."""
    m, sc = kdb_on_usb(machine, tmp_path, ctrl="nec-usb-xhci")
    s, out = sc.cmd("bt", "bt")
    assert "Call Trace:" in out and any("setup_arch" in ln for ln in out), out
    sc.type("go")
    sc.keys("ret")
    m.wait_for(TAKEN, timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(DONE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    sysrq_g_from_the_thread(sc)


def test_ps2_and_usb_both_type(machine, tmp_path):
    """The USB keyboard is bound to the display (the launcher does it when
    PS/2 is there too): send-key types on PS/2, device=vga0 on USB."""
    m = machine(cmdline=ON_SCREEN, usb_kbd=["qemu-xhci"])
    m.wait_for(r"kgdb: ekgdboc=kbd: i8042 keyboard", timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(r"kgdb: ekgdboc=kbd: 1 USB keyboard beside it, output on the screen", timeout=60,
               fail_on=BAD)
    sc = Screen(m, tmp_path)
    sc.wait("kgdbwait", at_prompt, timeout=BOOT_TIMEOUT)
    sc.q.type_text("b", delay=0.05)                          # PS/2
    sc.q.type_text("t", delay=0.05, device="vga0")           # USB
    sc.wait("b-t", lambda s: last_line(s).rstrip().endswith("kdb> bt"))
    sc.q.type_text("\r", device="vga0")
    sc.wait("bt", lambda s: s.find("Call Trace:") is not None and at_prompt(s))
    sc.q.type_text("go\r", device="vga0")
    m.wait_for(DONE, timeout=BOOT_TIMEOUT, fail_on=BAD)


def test_unplugged_and_plugged_back_while_kdb_waits(machine, tmp_path):
    m, sc = kdb_on_usb(machine, tmp_path)
    sc.q.execute("device_del", {"id": "usbkbd0"})
    m.wait_for(r"kbd: xHCI [0-9a-f:.]+ port \d+: USB keyboard unplugged", timeout=60, fail_on=BAD)
    sc.q.execute("device_add", {"driver": "usb-kbd", "id": "usbkbd0", "bus": "usbhc0.0"})
    m.wait_for(r"kbd: xHCI [0-9a-f:.]+ port \d+: USB keyboard 0627:0001", timeout=60, fail_on=BAD)
    # the two lines were printed after the prompt: Enter on the new keyboard gives a fresh one
    sc.keys("ret")
    sc.wait("fresh-prompt", lambda s: at_prompt(s) and "0627:0001" not in last_line(s))
    s, out = sc.cmd("bt", "bt")
    assert "Call Trace:" in out, out


def test_usb_only_journey_through_the_xhci_reset(machine, tmp_path):
    """USB only, from setup_arch into the running system: `bp kthreads_start`
    and Caps Lock on at kgdbwait, `go`; the kms driver takes the screen, the
    kernel's xHCI driver resets the controller and its keyboard driver
    enumerates the keyboard on its own rings, carrying the early keyboard's
    state on, and takes the debugger's kbd over; the breakpoint fires on the
    kms screen and the USB keyboard types there through the kernel's driver
    (Caps Lock still on); `go`; keys typed in the running system reach the
    console shell (Ctrl-C among them: it is the shell's, as on PS/2);
    Alt+SysRq+g on the USB keyboard enters kdb, twice; `go` each time."""
    m, sc = kdb_on_usb(machine, tmp_path)
    s, out = sc.cmd("bp kthreads_start", "bp")
    assert any("kthreads_start" in ln for ln in out), out
    sc.keys("caps_lock")
    sc.keys("shift-g", "shift-o", "ret")        # "go" with Caps Lock on
    m.wait_for(TAKEN, timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(r"kbd: the debugger's kbd is the USB keyboard \(1\)", timeout=60, fail_on=BAD)
    s = sc.wait("at-bp", lambda s: s.width == 1024 and at_prompt(s)
                and s.find("due to Breakpoint @ 0x") is not None, timeout=120)
    sc.type("bt")                               # Caps Lock kept across the takeover: BT
    s = sc.wait("caps-kept", lambda s: last_line(s).rstrip().endswith("kdb> BT"))
    sc.keys("backspace", "backspace")
    # the kernel's driver sent the LEDs again: Num and Caps (Shift with Caps Lock: lower case)
    sc.keys(*(f"shift-{c}" for c in "usbkbd"), "ret")
    s = sc.wait("usbkbd", lambda s: at_prompt(s) and s.find("leds 0x") is not None)
    assert re.search(r"port \d+: 0627:0001 slot \d+, .*caps 1 num 1 scroll 0 leds 0x3",
                     s.text()), s.text()
    assert "the debugger's kbd" in s.text(), s.text()
    sc.keys("caps_lock")
    s, out = sc.cmd("bt", "bt-after-reset")
    assert any("kthreads_start" in ln for ln in out), out
    sc.type("bc 0")
    sc.keys("ret")
    sc.type("go")
    sc.keys("ret")
    m.wait_for(DONE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    # the console shell reads the USB keyboard (Shift through the kernel's decoder too)
    sc.type("echo usb-")
    sc.keys("shift-t", "y", "p", "e", "d")
    sc.keys("ret")
    m.wait_for(r"\nusb-Typed\r?\n", timeout=60, fail_on=BAD)
    sc.keys("ctrl-c")                           # the shell's: no debugger entry
    sc.type("echo after-ctrl-c")
    sc.keys("ret")
    m.wait_for(r"\nafter-ctrl-c\r?\n", timeout=60, fail_on=BAD)
    s = sc.wait("ctrl-c-shell", lambda s: s.find("after-ctrl-c") is not None)
    assert entries_after_boot(s) == 0, s.text()
    # Alt+SysRq+g twice in the running system: each an entry below "boot complete"
    for n in (1, 2):
        sc.keys("alt-sysrq-g")
        sc.wait(f"entry{n}", lambda s: at_prompt(s) and entries_after_boot(s) == n, timeout=120)
        sc.type("go")
        sc.keys("ret")
        # the kernel's screen is back (what is typed while kdb leaves is kdb's, dropped)
        sc.wait(f"go{n}", lambda s: "sysrq: DEBUG" in last_line(s), timeout=60)
        sc.type(f"echo resumed{n}")           # the system runs again: the shell answers
        sc.keys("ret")
        m.wait_for(rf"\nresumed{n}\r?\n", timeout=60, fail_on=BAD)


def sysrq_g_from_the_thread(sc):
    """Alt+SysRq+g in the running system: kdb entered from the kernel's
    USB keyboard thread (`bt` names it), typed on the keyboard, `go`."""
    sc.keys("alt-sysrq-g")
    sc.wait("entry", lambda s: at_prompt(s) and entries_after_boot(s) == 1, timeout=120)
    s, out = sc.cmd("bt", "bt")
    assert any("usbkbd" in ln for ln in out), out
    sc.type("go")
    sc.keys("ret")
    sc.wait("go", lambda s: "sysrq: DEBUG" in last_line(s), timeout=60)


def entries_after_boot(s):
    rows = s.text().splitlines()
    boot = [i for i, r in enumerate(rows) if "boot complete:" in r]
    return sum(r.startswith("Entering kdb (") for r in rows[boot[-1]:]) if boot else 0


def only_the_hubs_keyboard_types(m, sc):
    """The keyboard on the root port goes: the one behind the hub types
    `bt` and `go`, and the kernel's driver takes it over."""
    sc.q.execute("device_del", {"id": "usbkbd0"})
    m.wait_for(r"kbd: xHCI [0-9a-f:.]+ port \d+: USB keyboard unplugged", timeout=60, fail_on=BAD)
    sc.keys("ret")
    sc.wait("fresh-prompt", lambda s: at_prompt(s) and "unplugged" not in last_line(s))
    s, out = sc.cmd("bt", "bt")
    assert "Call Trace:" in out, out
    sc.type("go")
    sc.keys("ret")
    m.wait_for(TAKEN, timeout=BOOT_TIMEOUT, fail_on=BAD)     # the one behind the hub
    m.wait_for(DONE, timeout=BOOT_TIMEOUT, fail_on=BAD)


def test_keyboard_behind_a_hub(machine, tmp_path):
    """A hub on a root port with a keyboard behind it, present at boot: the
    hub is configured, its ports powered and reset, the keyboard there used
    beside the one on a root port; that one is unplugged (the hub's stays)
    and kdb is typed on the one behind the hub, also after the xHCI reset."""
    m = machine(cmdline=ON_SCREEN, no_ps2=True, usb_kbd=["qemu-xhci"],
                extra=("-device", "usb-hub,id=hub0,bus=usbhc0.0,port=2",
                       "-device", "usb-kbd,id=behindhub,bus=usbhc0.0,port=2.1"))
    m.wait_for(r"kbd: xHCI [0-9a-f:.]+ port (\d+)\.1: USB keyboard 0627:0001 \(full speed",
               timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(r"kbd: xHCI [0-9a-f:.]+ port \d+: USB hub [0-9a-f]{4}:[0-9a-f]{4}, \d+ ports, "
               r"1 keyboard behind it", timeout=60, fail_on=BAD)
    m.wait_for(r"kbd: xHCI [0-9a-f:.]+: \d+ root ports, 2 USB keyboards", timeout=60, fail_on=BAD)
    sc = Screen(m, tmp_path)
    sc.wait("kgdbwait", at_prompt, timeout=BOOT_TIMEOUT)
    only_the_hubs_keyboard_types(m, sc)


def test_ps2_and_usb_both_type_after_the_takeover(machine, tmp_path):
    """PS/2 and USB: the i8042 driver takes the debugger's kbd over, the
    xHCI driver's keyboard driver the USB keyboard; at a breakpoint after
    both, kdb reads both (one command typed half on each); in the running
    system the console shell reads both, and Alt+SysRq+g on the USB
    keyboard enters kdb (the kernel's USB thread)."""
    m = machine(cmdline=ON_SCREEN, usb_kbd=["qemu-xhci"])
    m.wait_for(r"kgdb: ekgdboc=kbd: 1 USB keyboard beside it, output on the screen",
               timeout=BOOT_TIMEOUT, fail_on=BAD)
    sc = Screen(m, tmp_path)
    sc.wait("kgdbwait", at_prompt, timeout=BOOT_TIMEOUT)
    s, out = sc.cmd("bp kthreads_start", "bp")
    assert any("kthreads_start" in ln for ln in out), out
    sc.q.type_text("go\r", device="vga0")
    m.wait_for(r"kbd: i8042 keyboard \(config 0x[0-9a-f]+\), irq 1, kgdboc kbd",
               timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(TAKEN, timeout=BOOT_TIMEOUT, fail_on=BAD)
    sc.wait("at-bp", lambda s: at_prompt(s) and s.find("due to Breakpoint @ 0x") is not None,
            timeout=120)
    sc.q.type_text("b", delay=0.05, device="vga0")           # USB, through the kernel's driver
    sc.type("t")                                             # PS/2, through the i8042 driver
    sc.wait("b-t", lambda s: last_line(s).rstrip().endswith("kdb> bt"))
    sc.q.type_text("\r", device="vga0")
    sc.wait("bt", lambda s: s.find("Call Trace:") is not None and at_prompt(s))
    sc.type("bc 0\r")
    sc.q.type_text("go\r", device="vga0")
    m.wait_for(DONE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    sc.q.type_text("echo us", delay=0.05, device="vga0")
    sc.type("b-ps2")
    sc.q.type_text("\r", device="vga0")
    m.wait_for(r"\nusb-ps2\r?\n", timeout=60, fail_on=BAD)
    sc.q.send_key("alt-sysrq-g", device="vga0")
    sc.wait("entry", lambda s: at_prompt(s) and entries_after_boot(s) == 1, timeout=120)
    sc.q.type_text("go\r", device="vga0")
    sc.wait("go", lambda s: "sysrq: DEBUG" in last_line(s), timeout=60)


def test_keyboard_unplugged_at_the_takeover(machine, tmp_path):
    """The only keyboard (USB) is unplugged right after `go`: the xHCI
    driver's reset finds none, says so, and the boot goes on; plugged in
    again in the running system, the kernel's thread enumerates it, it
    takes the debugger's kbd over, types to the shell, and Alt+SysRq+g on
    it enters kdb, where it types too."""
    m, sc = kdb_on_usb(machine, tmp_path)
    sc.type("go")
    sc.keys("ret")
    sc.q.execute("device_del", {"id": "usbkbd0"})
    m.wait_for(r"xhci_hcd [0-9a-f:.]+: 0 USB keyboards on its own rings", timeout=BOOT_TIMEOUT,
               fail_on=BAD)
    m.wait_for(r"kbd: the debugger's kbd: no keyboard: no PS/2 keyboard controller \(port 0x64 "
               r"reads 0xff\) and no USB keyboard \(one plugged in later is used\)", timeout=60,
               fail_on=BAD)
    m.wait_for(DONE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    sc.q.execute("device_add", {"driver": "usb-kbd", "id": "usbkbd0", "bus": "usbhc0.0"})
    m.wait_for(r"kbd: xHCI [0-9a-f:.]+ port \d+: USB keyboard 0627:0001", timeout=60, fail_on=BAD)
    m.wait_for(r"kbd: the debugger's kbd is the USB keyboard \(1\)", timeout=60, fail_on=BAD)
    sc.type("echo plugged")
    sc.keys("ret")
    m.wait_for(r"\nplugged\r?\n", timeout=60, fail_on=BAD)
    sysrq_g_from_the_thread(sc)


@pytest.mark.parametrize("when", ["boot", "run-time"])
def test_kgdboc_kbd_alone_on_usb(machine, tmp_path, when):
    """kgdboc=kbd without ekgdboc= (at boot, or written at run time on the
    serial shell), USB only: the kernel's USB keyboard driver is the
    debugger's kbd; Alt+SysRq+g on it enters kdb, which reads it."""
    kgdboc = "kgdboc=kbd " if when == "boot" else ""
    m = machine(cmdline=f"{SERIAL} {kgdboc}", no_ps2=True, usb_kbd=["qemu-xhci"],
                ports=("unix",))
    m.wait_for(r"xhci_hcd [0-9a-f:.]+: 1 USB keyboard on its own rings", timeout=BOOT_TIMEOUT,
               fail_on=BAD)
    m.wait_for(SHELL, timeout=BOOT_TIMEOUT, fail_on=BAD)
    if when == "boot":
        assert re.search(r"kbd: the debugger's kbd is the USB keyboard \(1\)", m.ports[0].text)
    else:
        k = Kdb(m)
        k.mark()
        k.type("echo kbd > /sys/module/kgdboc/parameters/kgdboc")
        k.enter()
        k.wait(r"kgdb: Registered I/O driver kgdboc \(kbd\)", fail_on=BAD + "|write error")
    sc = Screen(m, tmp_path)
    sc.keys("alt-sysrq-g")
    s = sc.wait("kdb", lambda s: at_prompt(s) and s.find("due to Keyboard Entry") is not None,
                timeout=120)
    s, out = sc.cmd("bt", "bt")
    assert any("usbkbd" in ln for ln in out), out      # entered from the keyboard's thread
    sc.type("go")
    sc.keys("ret")
    back_in_shell(m, sc)
    sc.type("echo back")
    sc.keys("ret")
    m.wait_for(r"\nback\r?\n", timeout=60, fail_on=BAD)


def test_kgdboc_kbd_at_run_time_with_no_keyboard(machine):
    """No PS/2, no USB keyboard (a tablet on the controller): kgdboc=kbd
    written at run time is refused with a clear message; the system runs on."""
    m = machine(cmdline=SERIAL, no_ps2=True, ports=("unix",),
                extra=("-device", "pcie-root-port,id=rpx,chassis=30",
                       "-device", "qemu-xhci,id=hx,bus=rpx", "-device", "usb-tablet,bus=hx.0"))
    m.wait_for(r"xhci_hcd [0-9a-f:.]+: 0 USB keyboards on its own rings", timeout=BOOT_TIMEOUT,
               fail_on=BAD)
    m.wait_for(SHELL, timeout=BOOT_TIMEOUT, fail_on=BAD)
    k = Kdb(m)
    k.mark()
    k.type("echo kbd > /sys/module/kgdboc/parameters/kgdboc")
    k.enter()
    k.wait(r"kbd: kgdboc=kbd: no keyboard: no PS/2 keyboard controller \(port 0x64 reads 0xff\) "
           r"and no USB keyboard \(one plugged in later is used\)", fail_on=BAD)
    k.type("echo still-running")
    k.enter()
    k.wait(r"\nstill-running\r?\n", fail_on=BAD)


def test_keyboard_plugged_into_a_hub_later(machine, tmp_path):
    """A hub with nothing behind it at boot: kept, its status-change
    endpoint read.  A keyboard plugged into it while kdb waits (early
    driver) is enumerated and types (the root port's one unplugged first);
    after the takeover, unplugged and plugged into the hub again in the
    running system, the kernel's thread drops and enumerates it, and it
    types to the shell."""
    m = machine(cmdline=ON_SCREEN, no_ps2=True, usb_kbd=["qemu-xhci"],
                extra=("-device", "usb-hub,id=hub0,bus=usbhc0.0,port=2",))
    m.wait_for(r"kbd: xHCI [0-9a-f:.]+ port (\d+): USB hub [0-9a-f]{4}:[0-9a-f]{4}, \d+ ports, "
               r"0 keyboards behind it\r?\n", timeout=BOOT_TIMEOUT, fail_on=BAD)
    sc = Screen(m, tmp_path)
    sc.wait("kgdbwait", at_prompt, timeout=BOOT_TIMEOUT)
    hub_kbd = {"driver": "usb-kbd", "id": "behindhub", "bus": "usbhc0.0", "port": "2.1"}
    sc.q.execute("device_add", hub_kbd)
    m.wait_for(r"kbd: xHCI [0-9a-f:.]+ port \d+\.1: USB keyboard 0627:0001 \(full speed",
               timeout=60, fail_on=BAD)
    only_the_hubs_keyboard_types(m, sc)
    sc.q.execute("device_del", {"id": "behindhub"})
    m.wait_for(r"kbd: xHCI [0-9a-f:.]+ port \d+\.1: USB keyboard unplugged", timeout=60,
               fail_on=BAD)
    sc.q.execute("device_add", hub_kbd)
    m.wait_for(r"kbd: xHCI [0-9a-f:.]+ port \d+\.1: USB keyboard 0627:0001", timeout=60,
               fail_on=BAD)
    sc.type("echo behind-the-hub")
    sc.keys("ret")
    m.wait_for(r"\nbehind-the-hub\r?\n", timeout=60, fail_on=BAD)


def test_nousb_keeps_the_early_driver(machine, tmp_path):
    """`nousb`: the kernel's xHCI driver stays off, so the debugger's early
    driver keeps the controller and its keyboard (said, no "no keyboard"
    line): Alt+SysRq+g on it in the running system enters kdb through the
    timer tick's poll, and kdb reads it."""
    m = machine(cmdline=f"{ON_SCREEN} nousb", no_ps2=True, usb_kbd=["qemu-xhci"])
    sc = Screen(m, tmp_path)
    sc.wait("kgdbwait", at_prompt, timeout=BOOT_TIMEOUT)
    sc.type("go")
    sc.keys("ret")
    m.wait_for(r"kbd: nousb: the debugger's early driver keeps its 1 USB keyboard",
               timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(DONE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.expect_not(r"no keyboard")
    sc.keys("alt-sysrq-g")
    sc.wait("entry", lambda s: at_prompt(s) and entries_after_boot(s) == 1, timeout=120)
    s, out = sc.cmd("bt", "bt")
    assert "Call Trace:" in out, out
