"""tools/ekdb-debug plumbing: boots with kgdbwait on ttyS1 and hands the
socket to "gdb" (here a stand-in script that checks what it was given)."""

import os
import subprocess

import pytest

from qemu import BOOT_TIMEOUT, REPO

FAKE_GDB = """#!/bin/sh
# called as: gdb ELF -ex 'target remote SOCKET'
echo "fake-gdb: $*"
[ "$2" = "-ex" ] || exit 5
sock=${3#target remote }
[ -S "$sock" ] || exit 6
i=0
while [ $i -lt 2000 ]; do
    grep -q "Waiting for connection" "$LOG" && exit 0
    sleep 0.1; i=$((i+1))
done
exit 7
"""


@pytest.mark.qemu
def test_ekdb_debug_starts_gdb_on_the_debug_socket(build_tree, tmp_path):
    fake = tmp_path / "fake-gdb"
    fake.write_text(FAKE_GDB)
    fake.chmod(0o755)
    log = tmp_path / "ttyS0.log"
    env = dict(os.environ, LOG=str(log))
    r = subprocess.run([os.path.join(REPO, "tools", "ekdb-debug"), "--gdb", str(fake),
                        "--log", str(log)], env=env, stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, timeout=BOOT_TIMEOUT + 60)
    out = r.stdout + r.stderr
    boot = log.read_text(errors="replace") if log.exists() else ""
    assert r.returncode == 0, out + "\n--- ttyS0 ---\n" + boot[-3000:]
    assert "ekgdboc=ttyS1 kgdbwait" in out
    assert "build/kernel.elf -ex target remote /" in out
    sock = out.split("target remote ")[1].split()[0]
    assert not os.path.exists(sock)       # cleaned up with QEMU
