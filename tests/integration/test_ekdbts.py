"""ekdbts= (the debugger's in-kernel self-test, Linux's kgdbts): a scripted
gdb inside the kernel drives the real debug core and gdbstub; each test
prints a line and the run ends with "ekdbts: N passed, M failed"."""

import re

import pytest

from qemu import BOOT_TIMEOUT

CONSOLE = "earlyprintk=serial,ttyS0,115200"
BAD = r"Oops|Kernel panic|ekdbts: FAIL"
RESULT = r"ekdbts: (\d+) passed, (\d+) failed"

EARLY = ["sw breakpoint", "hw breakpoint", "write watchpoint", "access watchpoint",
         "memory read/write", "single step", "step over breakpoint"]
LATE = EARLY + ["breakpoint on every CPU", "Ctrl-C break-in"]


def run(machine, value, smp, fail_on=BAD):
    m = machine(cmdline=f"{CONSOLE} ekdbts={value}", smp=smp)
    res = m.wait_for(RESULT, timeout=BOOT_TIMEOUT * 3, fail_on=fail_on)
    m.wait_for(r"boot complete: %d CPUs online" % smp, timeout=BOOT_TIMEOUT,
               fail_on=r"Oops|Kernel panic")
    return m, int(res.group(1)), int(res.group(2))


def passed_names(m):
    return re.findall(r"ekdbts: PASS ([^\r\n]*)", m.output(0))


@pytest.mark.parametrize("smp", [1, 2, 4])
def test_ekdbts_all(machine, smp):
    """V1 + E + F + S: every test passes on 1, 2 and 4 CPUs."""
    m, passed, failed = run(machine, "V1EF40S40", smp)
    names = passed_names(m)
    want = (["early " + n for n in EARLY] + ["handoff"] + LATE +
            [f"breakpoint stress (40 iterations, {smp} CPUs)", "single-step stress (40 steps)"])
    assert failed == 0
    assert names == want
    assert passed == len(want) == 19
    assert "ekdb: handoff: " in m.output(0)
    assert re.search(r"ekdbts: breakpoint stress: 40 iterations in \d+ ms", m.output(0))
