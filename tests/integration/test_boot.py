"""Foundation boot tests: loader, command line, oops, allocator self-test,
exit status, bad parameters.  Each test boots build/esp under QEMU+OVMF."""

import os
import re

import pytest

from qemu import BOOT_TIMEOUT, MachineError, boot_via_shell

CONSOLE = "earlyprintk=serial,ttyS0,115200"
BAD = r"Oops|Kernel panic|ekdb loader: error"


@pytest.mark.parametrize("smp", [1, 4])
def test_boot_complete(machine, smp):
    m = machine(cmdline=CONSOLE, smp=smp)
    m.wait_for(r"ekdb loader: ", timeout=BOOT_TIMEOUT)
    done = m.wait_for(r"boot complete: (\d+) CPUs online", timeout=BOOT_TIMEOUT,
                      fail_on=BAD)
    assert done.group(0) == f"boot complete: {smp} CPUs online"
    out = m.output(0)
    assert out.index("ekdb loader:") < out.index("boot complete:")


def _command_line_line(m):
    m.wait_for(r"ekdb loader: ", timeout=BOOT_TIMEOUT)
    return m.wait_for(r"Command line: ([^\r\n]*)\r?\n", timeout=BOOT_TIMEOUT).group(1)


CMDLINE_WORDS = f"{CONSOLE} loglevel=7 ekdb.test_word=hello-world foo=bar,baz"


def test_cmdline_from_esp_file(machine):
    m = machine(cmdline=CMDLINE_WORDS)
    assert _command_line_line(m) == CMDLINE_WORDS
    m.wait_for(r"boot complete: ", timeout=BOOT_TIMEOUT, fail_on=BAD)


def test_cmdline_from_load_options(machine):
    """Load options through the UEFI shell (no removable-media path, a
    startup.nsh runs \\EFI\\ekdb\\BOOTX64.EFI <cmdline>; no cmdline.txt)."""
    m = boot_via_shell(machine, r"ekdb loader: command line \(load options\)",
                       cmdline=CMDLINE_WORDS, load_options=True)
    assert _command_line_line(m) == CMDLINE_WORDS
    m.wait_for(r"boot complete: ", timeout=BOOT_TIMEOUT, fail_on=BAD)


def test_oops_null_deref_is_symbolized(machine):
    m = machine(cmdline=f"{CONSOLE} test_oops=null")
    m.wait_for(r"Oops", timeout=BOOT_TIMEOUT)
    m.wait_for(r"Call Trace:", timeout=60)
    # Let the first trace entry arrive, then check the whole report.
    m.wait_for(r"Call Trace:[^\n]*\n[^\n]*[A-Za-z_]\w*\+0x[0-9a-f]+", timeout=60,
               from_start=True)
    out = m.output(0)
    report = out[out.index("Oops"):]
    assert re.search(r"#PF|page fault", report), report
    assert re.search(r"RIP:[^\n]*oops_test_null_deref\+0x[0-9a-f]+", report), report
    trace = report[report.index("Call Trace:"):]
    assert re.search(r"[A-Za-z_]\w*\+0x[0-9a-f]+", trace), trace
    # No reboot loop: no firmware or loader output follows, QEMU keeps running.
    with pytest.raises(MachineError):
        m.wait_for(r"BdsDxe: |ekdb loader: ", timeout=10)
    assert m.alive()


def test_missing_kernel_error(machine, esp_copy):
    os.unlink(esp_copy / "EFI" / "ekdb" / "kernel.elf")
    m = machine(cmdline=CONSOLE, esp=esp_copy, ports=("unix", "unix"))
    m.wait_for_console(r"ekdb loader: error:[^\n]*kernel\.elf", timeout=BOOT_TIMEOUT)
    # The test passes once the message is seen; teardown kills QEMU.


def test_alloc_selftest(machine):
    m = machine(cmdline=f"{CONSOLE} test_alloc")
    m.wait_for(r"kmalloc selftest: passed", timeout=BOOT_TIMEOUT,
               fail_on=BAD + "|FAILED")
    m.wait_for(r"boot complete: ", timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.expect_not(r"FAILED")


def test_exit_after_boot_exits_zero(machine):
    m = machine(cmdline=f"{CONSOLE} exit_after_boot")
    m.wait_for(r"boot complete: 1 CPUs online", timeout=BOOT_TIMEOUT, fail_on=BAD)
    assert m.wait_exit(timeout=BOOT_TIMEOUT) == 0


@pytest.mark.parametrize("bad", ["banana", "16", ""])
def test_bad_loglevel_is_reported_and_boot_completes(machine, bad):
    """The kernel's own error, not the loader's echo of the command line
    (which contains "loglevel=..." too): not a number, out of 0..15, empty."""
    m = machine(cmdline=f"{CONSOLE} loglevel={bad}")
    m.wait_for(rf"Malformed early option 'loglevel={bad}': [^\n]*\(expected loglevel=0\.\.15\)",
               timeout=BOOT_TIMEOUT, fail_on=rf"{BAD}|boot complete")   # reported during boot
    m.wait_for(r"boot complete: 1 CPUs online", timeout=BOOT_TIMEOUT, fail_on=BAD)


def test_bad_earlyprintk_port_still_boots(machine):
    """earlyprintk on a port that does not exist: nothing to print to there,
    but the boot completes (seen on exit status with exit_after_boot)."""
    m = machine(cmdline="earlyprintk=serial,ttyS9 exit_after_boot")
    assert m.wait_exit(timeout=BOOT_TIMEOUT) == 0
