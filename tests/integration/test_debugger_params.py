"""Bad debugger parameters get a clear message, the debugger stays off and
the boot completes (bad inputs tried: a serial port that does not exist, a
transport we do not know, a value on a flag, a malformed baud rate, a bad
kdb.cmd_enable mask)."""

import pytest

from qemu import BOOT_TIMEOUT

pytestmark = pytest.mark.qemu

CONSOLE = "earlyprintk=serial,ttyS0,115200"

CASES = [
    ("ekgdboc=ttyS9 kgdbwait", r"Malformed early option 'ekgdboc=ttyS9'"),
    ("ekgdboc=banana kgdbwait", r"Malformed early option 'ekgdboc=banana'"),
    ("ekgdboc=ttyS1,12x kgdbwait", r"Malformed early option 'ekgdboc=ttyS1,12x'"),
    ("ekgdboc=ttyS1 kgdbwait=yes", r"Malformed early option 'kgdbwait=yes'"),
    ("ekgdboc=ttyS1 kdb.cmd_enable=zebra", r"Malformed early option 'kdb.cmd_enable=zebra'"),
]


@pytest.mark.parametrize("params,message", CASES, ids=[c[0].split()[0] + "/" + c[0].split()[-1] for c in CASES])
def test_bad_debugger_parameter(machine, params, message):
    m = machine(cmdline=f"{CONSOLE} {params} exit_after_boot")
    m.wait_for(message, timeout=BOOT_TIMEOUT)
    m.wait_for(r"boot complete: 1 CPUs online", timeout=BOOT_TIMEOUT)
    assert m.wait_exit(timeout=60) == 0
