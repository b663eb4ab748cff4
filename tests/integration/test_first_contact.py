# SPDX-License-Identifier: GPL-2.0
"""First contact (issue 14): the first thing a user types works.

- the README's by-hand recipe, run as written (its shell lines and its
  `(gdb)` lines): real gdb connects as soon as QEMU's socket exists, long
  before the firmware is done, and gets a working session at kgdbwait;
- line noise at the kdb prompt does not hide gdb's greeting."""

import os
import re
import subprocess

import pytest

from gdb_boot import ACKS_ON, WAITING, frames as gdb_frames
from kdb_session import CONSOLE, Kdb, boot_kdb
from qemu import BOOT_TIMEOUT, REPO

README = os.path.join(REPO, "README.md")


def readme_recipe():
    """The shell lines and the (gdb) lines of the README's by-hand recipe."""
    text = open(README).read()
    m = re.search(r"By hand, in one shell.*?```sh\n(.*?)```\n```\n(.*?)```", text, re.S)
    assert m, "README: by-hand recipe not found"
    shell = m.group(1).replace("\\\n", " ")
    gdb_lines = [ln.split("#")[0].replace("(gdb)", "").strip()
                 for ln in m.group(2).splitlines() if ln.startswith("(gdb)")]
    return [ln for ln in shell.splitlines() if ln.strip()], gdb_lines


@pytest.mark.qemu
def test_readme_recipe_as_written(build_tree, tmp_path):
    shell, gdb_cmds = readme_recipe()
    qemu_line, wait_line, gdb_line = shell
    assert qemu_line.startswith("tools/ekdb-qemu ") and qemu_line.endswith("&")
    assert gdb_line.startswith("gdb build/kernel.elf ")
    # private paths (tests run in parallel), no user gdbinit; nothing else changes
    d = str(tmp_path)
    sub = lambda s: s.replace("/tmp/ekdb", os.path.join(d, "ekdb"))
    log = os.path.join(d, "ekdb-ttyS0.log")
    script = "\n".join([
        "set -e",
        sub(qemu_line),
        "QEMU=$!",
        "trap 'kill $QEMU 2>/dev/null' EXIT",
        sub(wait_line),
        # was the firmware still running when gdb started?  (the point of the test)
        f"if grep -q 'Waiting for connection' {log} 2>/dev/null; then echo LATE; fi",
        sub(gdb_line).replace("gdb ", "gdb -nx ", 1) + f" < {d}/cmds",
    ])
    with open(os.path.join(d, "cmds"), "w") as f:
        f.write("\n".join(gdb_cmds) + "\n")
    r = subprocess.run(["bash", "-c", script], cwd=REPO, stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, timeout=BOOT_TIMEOUT * 2,
                       start_new_session=True)
    out = (r.stdout + r.stderr).replace("(gdb) ", "")
    boot = open(log, errors="replace").read() if os.path.exists(log) else ""
    ctx = out[-4000:] + "\n--- ttyS0 ---\n" + boot[-2000:]
    assert "LATE" not in out, "gdb started after kgdbwait: the test proves nothing\n" + ctx
    assert re.search(WAITING, boot), ctx
    # OVMF copies the firmware console to every UART, gdb's too: a '+' or
    # '-' the loader prints there is an ack or a NAK to a waiting gdb (a NAK
    # made it send its greeting twice, and the stub answered both)
    loader = "\n".join(ln for ln in boot.splitlines() if ln.startswith("ekdb loader:"))
    assert loader and not re.search(r"[-+]", loader), loader
    assert "vMustReplyEmpty" not in out and "Remote replied unexpectedly" not in out, ctx
    names = gdb_frames(out)
    assert names[:3] == ["kgdb_breakpoint", "ekdb_early_init", "setup_arch"], ctx
    assert re.search(r"^cr3\s+0x[0-9a-f]+", out, re.M), ctx
    assert re.search(r"Breakpoint 2, trap_init \(\)", out), ctx
    assert re.search(r"Breakpoint 1, mm_init \(\)", out), ctx
    assert re.search(r"Hardware watchpoint 3: kmalloc_ready\s+Old value = false\s+"
                     r"New value = true", out), ctx
    assert "killed" in out, ctx


def test_noise_at_kdb_prompt_then_gdb(machine, gdb):
    """Stray bytes at the kdb prompt (no Enter), then gdb connects: gdb
    gets the line (its packets are not typed into kdb's line)."""
    m = boot_kdb(machine, cmdline=f"{CONSOLE} ekgdboc=ttyS1 kgdbwait", port=1,
                 ports=("unix", "unix"))
    k = Kdb(m, port=1)
    k.type("xyz")
    k.wait("xyz")
    m.release_port(1)
    g = gdb()
    for c in ACKS_ON:
        g.cmd(c)
    g.connect(m.socket_path(1))
    names = gdb_frames(g.cmd("bt"))
    assert names[:3] == ["kgdb_breakpoint", "ekdb_early_init", "setup_arch"], names
    g.detach()
