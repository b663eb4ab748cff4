"""Bad debugger parameters fail closed: a clear message, the debugger
stays off (no I/O driver registered, kgdbwait does not stop, kdb's
command mask is not left open) and the boot completes.  The machine has
the serial line the options name (ttyS1), so a bad value is the only
reason the debugger is off.

Bad inputs: a serial port that does not exist, a transport we do not
know, a malformed baud rate, an empty value, a value on a flag
(kgdbwait=yes, kgdbcon=1), a bad or missing kdb.cmd_enable mask and one
wider than 32 bits, kgdboc= with an unknown part or a bad baud rate,
ekdb.debug_early= other than unmap.  Every bad value of every option is
walked on the host (tests/host/test_early_params.c, one table that must
name every early parameter); these boots show what the boot then does."""

import pytest

from qemu import BOOT_TIMEOUT

pytestmark = pytest.mark.qemu

CONSOLE = "earlyprintk=serial,ttyS0,115200"
GOOD = "ekgdboc=ttyS1 kgdbwait"

CASES = [
    ("ekgdboc=ttyS9 kgdbwait", "ekgdboc=ttyS9", "ekgdboc"),
    ("ekgdboc=banana kgdbwait", "ekgdboc=banana", "ekgdboc"),
    ("ekgdboc=ttyS1,12x kgdbwait", "ekgdboc=ttyS1,12x", "ekgdboc"),
    ("ekgdboc= kgdbwait", "ekgdboc=", "ekgdboc"),
    (f"{GOOD}=yes", "kgdbwait=yes", "kgdbwait"),
    (f"{GOOD} kgdbcon=1", "kgdbcon=1", "kgdbcon"),
    (f"{GOOD} kdb.cmd_enable=zebra", "kdb.cmd_enable=zebra", "kdb.cmd_enable"),
    (f"{GOOD} kdb.cmd_enable", "kdb.cmd_enable", "kdb.cmd_enable"),
    (f"{GOOD} kdb.cmd_enable=0x100000001", "kdb.cmd_enable=0x100000001", "kdb.cmd_enable"),
    (f"{GOOD} kgdboc=banana", "kgdboc=banana", "kgdboc"),
    (f"{GOOD} kgdboc=kms,kbd,ttyS1,12x", "kgdboc=kms,kbd,ttyS1,12x", "kgdboc"),
    # every option's bad values: tests/host/test_early_params.c's table; here the
    # one that was accepted with the debugger left on (issue 33)
    (f"{GOOD} ekdb.debug_early=unmapx", "ekdb.debug_early=unmapx", "ekdb.debug_early"),
]


@pytest.mark.parametrize("params,shown,option", CASES, ids=[c[1] for c in CASES])
def test_bad_debugger_parameter(machine, params, shown, option):
    m = machine(cmdline=f"{CONSOLE} {params} exit_after_boot", ports=("unix", "unix"))
    m.wait_for(rf"Malformed early option '{shown}': ", timeout=BOOT_TIMEOUT)
    m.wait_for(rf"kgdb: malformed {option}= option: the debugger stays off",
               timeout=BOOT_TIMEOUT)
    m.wait_for(r"boot complete: 1 CPUs online", timeout=BOOT_TIMEOUT)
    assert m.wait_exit(timeout=60) == 0
    m.expect_not(r"Registered I/O driver|Waiting for connection|Entering kdb")
    assert "kdb>" not in m.output(1), m.output(1)   # no debugger on the named line


def test_good_parameters_register(machine):
    """The control case: the same machine and options, well formed, do
    register the debugger (kgdboc= is accepted in all its forms)."""
    m = machine(cmdline=f"{CONSOLE} ekgdboc=ttyS1 kgdbcon kdb.cmd_enable=0x1 "
                        f"kgdboc=kms,kbd,ttyS1,115200 exit_after_boot", ports=("unix", "unix"))
    m.wait_for(r"kgdb: Registered I/O driver ekgdboc", timeout=BOOT_TIMEOUT)
    m.wait_for(r"boot complete: 1 CPUs online", timeout=BOOT_TIMEOUT)
    assert m.wait_exit(timeout=60) == 0
    m.expect_not(r"Malformed early option|malformed")


def test_second_earlyprintk_of_a_kind_is_ignored(machine):
    """Issue 21: `earlyprintk=serial,ttyS0,115200 earlyprintk=serial,ttyS7,115200`
    used to move the boot log to the second (a port that is not there), with
    no message: ttyS0 went quiet after the loader's lines.  Linux keeps the
    first and says why it ignores the second.  Also tried: the same kind
    spelt another way (`earlyprintk=ttyS1`), and a second screen word beside
    a serial one (a kind of its own: taken)."""
    m = machine(cmdline=f"{CONSOLE} earlyprintk=serial,ttyS7,115200 earlyprintk=ttyS1 "
                        "earlyprintk=vga")
    m.wait_for(r"earlyprintk=serial,ttyS7,115200 ignored: an early serial console is "
               r"already set up", timeout=BOOT_TIMEOUT)
    m.wait_for(r"earlyprintk=ttyS1 ignored: an early ttyS console is already set up",
               timeout=BOOT_TIMEOUT)
    # the boot log stays on ttyS0 to the end
    m.wait_for(r"boot complete: \d+ CPUs online", timeout=BOOT_TIMEOUT)
    m.expect_not(r"Malformed early option 'earlyprintk")
