# SPDX-License-Identifier: GPL-2.0
"""ekdb inside Linux 6.1 (issue 34, docs/linux.md).

`make linux` builds Debian's linux-source-6.1 with linux/patches/, the
fragment linux/ekdb.config and this tree's debugger folders (Kbuild), and
a busybox initramfs.  Booted under QEMU+OVMF through its EFI stub with
`ekdb.ekgdboc=ttyS0 ekdb.kgdbwait`, it stops in Linux's setup_arch() at
ekdb's kdb prompt on ttyS0; `bt` walks Linux's frames and names them
through kallsyms; `go` boots on to the initramfs shell.  Without an ekdb.
parameter the kernel boots as the unpatched one (no debugger line, no
stop); a bad value says why and the boot goes on.

The module builds the kernel first (`make linux`: a no-op when the cache
holds this tree's build, else about 8 minutes on 2 cores, docs/testing.md);
it is skipped only when the build cannot be made (Debian's
linux-source-6.1 not installed and not installable as this user).  `make
check` builds Linux before the integration tests and runs it with them;
`make check-linux` runs every test_linux*.py alone.
"""

import os
import re
import subprocess

import pytest

from kdb_session import BAD, ENTRY, PROMPT, Kdb
from qemu import BOOT_TIMEOUT, REPO

LINUX = os.path.join(REPO, "build", "linux")
BZIMAGE = os.path.join(LINUX, "bzImage")
INITRD = os.path.join(LINUX, "initramfs.cpio.gz")
VMLINUX = os.path.join(LINUX, "vmlinux")
TARBALL = "/usr/src/linux-source-6.1.tar.xz"
CONSOLE = "console=ttyS0,115200 earlyprintk=serial,ttyS0,115200"
EKDB_WAIT = f"{CONSOLE} ekdb.ekgdboc=ttyS0 ekdb.kgdbwait"
INIT = r"ekdb-linux: init running"
LINUX_BAD = BAD + r"|BUG:|WARNING:|general protection|PANIC: early exception"


@pytest.fixture(scope="module")
def linux_kernel():
    r = subprocess.run(["make", "--no-print-directory", "-C", REPO, "linux"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    tail = "\n".join(r.stdout.splitlines()[-25:])
    if r.returncode != 0:
        if not os.path.exists(TARBALL):
            pytest.skip("the Linux build is not cached and cannot be made: Debian's "
                        f"linux-source-6.1 ({TARBALL}) is not installed and "
                        f"`make linux` could not install it:\n{tail}")
        pytest.fail(f"make linux failed:\n{tail}")
    return BZIMAGE, INITRD


def boot(bare_machine, linux_kernel, cmdline):
    bz, initrd = linux_kernel
    return bare_machine(cmdline=cmdline, linux=bz, initrd=initrd)


def sysrq_l_then_nmi_button(m, k):
    """At the shell: sysrq-l's backtrace NMI to the other CPU stays Linux's
    (no stop); then QEMU's NMI button (an NMI nobody claims), from a fresh
    mark of @k's line: the caller waits for what follows.

    The button waits until sysrq-l is over: both CPUs' backtraces and the
    shell's prompt after them (the write returns once every CPU cleared its
    bit in Linux's backtrace mask).  Before that, Linux's backtrace handler
    rightly claims any NMI on a CPU whose bit is still set, the button's
    too: it printed that CPU's backtrace a second time and nothing stopped
    (the CI failure of stop 38: the button pressed while the shell's CPU
    was still printing its own backtrace)."""
    k.mark()
    m.send(0, b"echo l > /proc/sysrq-trigger\n")
    m.wait_for(r"sysrq: Show backtrace of all active CPUs", timeout=BOOT_TIMEOUT,
               fail_on=LINUX_BAD + r"|Entering kdb")
    m.wait_for(r"(?s)(?=.*NMI backtrace for cpu 0)(?=.*NMI backtrace for cpu 1).*/ # ",
               timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + r"|Entering kdb")
    k.mark()
    m.qmp().execute("inject-nmi")


def trace(bt):
    """The function names of a kdb `bt`, innermost first (Linux's format:
    " name+0xoff/0xsize" per Call Trace line, and the RIP: line)."""
    return [m.group(1) for m in
            re.finditer(r"(?:^RIP: [0-9a-f]{4}:| (?:\? )?)(\w+)\+0x[0-9a-f]+/0x[0-9a-f]+$",
                        bt, re.M)]


def test_kdb_in_setup_arch(bare_machine, linux_kernel):
    """The mission's first line on Linux: kdb in setup_arch() on ttyS0,
    `bt` through Linux's frames by name, bad addresses refused without an
    oops, `go` on to the shell."""
    m = boot(bare_machine, linux_kernel, EKDB_WAIT)
    m.wait_for(ENTRY, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|" + INIT)
    m.wait_for(PROMPT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD)
    out = m.output(0)
    assert "kgdb: Registered I/O driver ekgdboc (ttyS0)" in out
    # Linux's own log came first: ekdb stops inside Linux's boot
    assert out.index("Linux version 6.1") < out.index("Entering kdb")
    k = Kdb(m)
    bt = k.cmd("bt")
    names = trace(bt)
    # Linux's uname through the port's sys_info, as Linux's own dump_stack
    # line; the task is init_task from the port's task_get, whose comm is
    # "swapper" until sched_init() names it swapper/0
    assert re.search(r"^CPU: 0 PID: 0 Comm: swapper Not tainted 6\.1\.\d+ #\d+$", bt, re.M), bt
    assert "setup_arch" in names and "start_kernel" in names, bt
    assert names.index("ekdb_linux_setup_arch") < names.index("setup_arch") \
        < names.index("start_kernel"), bt
    # a Linux symbol by name, through kallsyms: md starts at its run-time
    # address (down to a word, as Linux's kdb), vmlinux's moved by KASLR
    # (2 MiB aligned: the low bits stay)
    md = k.cmd("md start_kernel 1")
    addr = re.search(r"^0x([0-9a-f]{16}) ", md, re.M)
    assert addr, md
    linked = int(re.search(r"^([0-9a-f]{16}) T start_kernel$", subprocess.run(
        ["nm", VMLINUX], capture_output=True, text=True, check=True).stdout, re.M).group(1), 16)
    assert int(addr.group(1), 16) % (2 << 20) == (linked & ~7) % (2 << 20), (md, hex(linked))
    # bad addresses: Linux's early fault path hands the fault to ekdb's
    # fixup (fixup_exception()): a message, no oops.  Tried: 0 (unmapped,
    # #PF) and a non-canonical address (#GP).
    for bad in ("0", "0x8000000000000000"):
        out = k.cmd(f"md {bad} 1")
        assert re.match(rf"^kdb_getarea_size: Bad address 0x{int(bad, 16):x}\n", out), out
    # go: Linux boots on; no other stop on the way (an int3 of Linux's own,
    # the alternatives' self-test, is not ekdb's)
    k.mark()
    k.type("go")
    k.enter()
    m.wait_for(INIT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + r"|Entering kdb")
    m.send(0, b"echo ekdb-$((6*7))\n")
    m.wait_for(r"ekdb-42", timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD)


def test_no_ekdb_parameter_boots_as_unpatched(bare_machine, linux_kernel):
    """No ekdb. parameter: no debugger line, no stop, the shell comes up
    (the hooks return at once: ekdb is never called)."""
    m = boot(bare_machine, linux_kernel, CONSOLE)
    m.wait_for(INIT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + r"|Entering kdb|ekgdboc")
    out = m.output(0)
    assert "Entering kdb" not in out and "ekdb" not in out.split(INIT)[0].replace(
        "ekdb-linux", ""), out


def test_bad_ekdb_parameter_says_so_and_boots(bare_machine, linux_kernel):
    """Bad input tried: ekdb.ekgdboc=ttyS9 (no such port): it is named
    with the syntax ekdb takes, ekdb.kgdbwait then does not stop, and the
    boot goes on to the shell."""
    m = boot(bare_machine, linux_kernel,
             f"{CONSOLE} ekdb.ekgdboc=ttyS9 ekdb.kgdbwait")
    m.wait_for(r"Malformed early option 'ekgdboc=ttyS9': [^\r\n]* \(expected ekgdboc=ttySn",
               timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|Entering kdb|" + INIT)
    m.wait_for(INIT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + r"|Entering kdb")
