"""tools/ekdb-debug (`make debug`): boots with kgdbwait on ttyS1 and runs
real gdb on the socket at once, while the firmware still boots."""

import os
import re
import signal
import subprocess
import time

import pytest

from qemu import BOOT_TIMEOUT, REPO

# Real gdb, started by ekdb-debug the moment QEMU's socket exists (the
# firmware is still booting): the wrapper notes whether kgdbwait was
# already reached, then runs gdb with ekdb-debug's arguments and a few
# commands after them.
GDB_WRAPPER = """#!/bin/sh
grep -q "Waiting for connection" "$LOG" 2>/dev/null && echo "wrapper: LATE"
echo "wrapper: $*"
exec gdb -nx -batch "$@" -ex bt -ex 'p $pc' -ex kill
"""


@pytest.mark.qemu
def test_ekdb_debug_attaches_real_gdb_while_the_firmware_boots(build_tree, tmp_path):
    fake = tmp_path / "gdb-wrapper"
    fake.write_text(GDB_WRAPPER)
    fake.chmod(0o755)
    log = tmp_path / "ttyS0.log"
    env = dict(os.environ, LOG=str(log))
    r = subprocess.run([os.path.join(REPO, "tools", "ekdb-debug"), "--gdb", str(fake),
                        "--log", str(log)], env=env, stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, timeout=BOOT_TIMEOUT + 120)
    out = r.stdout + r.stderr
    boot = log.read_text(errors="replace") if log.exists() else ""
    ctx = out[-4000:] + "\n--- ttyS0 ---\n" + boot[-3000:]
    assert r.returncode == 0, ctx
    assert "ekgdboc=ttyS1 kgdbwait" in out
    assert "wrapper: LATE" not in out, "gdb started after kgdbwait: proves nothing\n" + ctx
    assert "Waiting for connection" in boot, ctx
    assert "Remote replied unexpectedly" not in out, ctx
    assert re.search(r"#0\s+(0x[0-9a-f]+ in )?kgdb_breakpoint \(\)", out), ctx
    assert re.search(r"#1\s+(0x[0-9a-f]+ in )?ekdb_early_init \(\)", out), ctx
    assert "killed" in out, ctx
    sock = re.search(r"target remote (/\S+\.sock)", out).group(1)
    assert not os.path.exists(sock)       # cleaned up with QEMU


def test_ekdb_debug_killed_takes_qemu_along(build_tree, tmp_path):
    """Issue 21: `make debug` killed with SIGKILL (a closed terminal, a CI
    timeout) left QEMU running.  The wrapper is killed while gdb waits; its
    QEMU must be gone (bounded wait), found by the unique socket directory
    on its command line."""
    fake = tmp_path / "gdb-wrapper"
    fake.write_text("#!/bin/sh\necho wrapper: started\nexec sleep 600\n")
    fake.chmod(0o755)
    log = tmp_path / "ttyS0.log"
    p = subprocess.Popen([os.path.join(REPO, "tools", "ekdb-debug"), "--gdb", str(fake),
                          "--log", str(log)], stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         start_new_session=True)
    out = ""
    deadline = time.monotonic() + BOOT_TIMEOUT
    while "wrapper: started" not in out:
        assert time.monotonic() < deadline and p.poll() is None, out
        out += p.stdout.readline()
    sock = re.search(r"target remote (/\S+\.sock)", out).group(1)

    def qemus():
        r = subprocess.run(["pgrep", "-f", f"qemu-system-x86_64.*{os.path.dirname(sock)}"],
                           capture_output=True, text=True)
        return r.stdout.split()

    assert qemus(), "no QEMU found for " + sock
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    deadline = time.monotonic() + 30
    while qemus():
        assert time.monotonic() < deadline, f"QEMU still running after the wrapper was killed: {qemus()}"
        time.sleep(0.2)
    os.killpg(p.pid, signal.SIGKILL)    # the fake gdb (its own session's leftovers)


@pytest.mark.qemu
def test_make_debug_ctrl_c_and_ctrl_z_in_gdb(build_tree, tmp_path):
    """Issue 33: `make debug` run from an interactive shell, as a user does.
    Ctrl-C in gdb (the terminal's SIGINT to the foreground process group)
    reached make too, which waited for gdb and then ended with `make: ***
    [Makefile:NN: debug] Interrupt` and status 130 though the user had only
    interrupted the target.  Now gdb alone gets it: the target stops, gdb
    goes on, and quitting gdb ends make with status 0 and no such line.
    Ctrl-Z in gdb stops the job (the shell says so) and `fg` gives gdb the
    terminal back (it evaluates an expression and reads the target)."""
    pexpect = pytest.importorskip("pexpect")
    wrapper = tmp_path / "gdb-wrapper"
    wrapper.write_text("#!/bin/sh\nexec gdb -nx -iex 'set confirm off' -iex 'set pagination off' \"$@\"\n")
    wrapper.chmod(0o755)
    env = dict(os.environ, GDB=str(wrapper), PS1="SHELL> ", TERM="dumb")
    sh = pexpect.spawn("bash", ["--norc", "--noprofile", "-i"], env=env, cwd=REPO,
                       encoding="utf-8", codec_errors="replace", timeout=60)
    sh.logfile_read = open(tmp_path / "terminal.log", "w")
    try:
        sh.expect_exact("SHELL> ")
        sh.sendline("make debug DEBUG_CMDLINE='earlyprintk=serial,ttyS0,115200 ekgdboc=ttyS1 kgdbwait'")
        sh.expect(r"kgdb_breakpoint \(\)", timeout=BOOT_TIMEOUT + 60)
        sh.expect_exact("(gdb) ")
        sh.sendcontrol("z")                             # gdb stops, the job with it
        sh.expect(r"Stopped\s+make debug")
        sh.expect_exact("SHELL> ")
        sh.sendline("fg")
        sh.expect(r"fg\r\nmake debug ")                # bash names the job it continues
        sh.sendline("p 6*7")
        sh.expect(r"\$\d+ = 42")
        sh.sendline("x/2i $pc")
        sh.expect(r"<kgdb_breakpoint\+\d+>")
        sh.expect_exact("(gdb) ")
        sh.sendline("continue")
        sh.expect_exact("Continuing.")
        sh.sendintr()                                   # Ctrl-C on the terminal
        sh.expect(r"received signal SIG(INT|TRAP)")
        sh.expect_exact("(gdb) ")
        sh.sendline("p 6*7")                            # gdb is still there
        sh.expect(r"\$\d+ = 42")
        sh.sendline("quit")
        sh.expect_exact("SHELL> ")
        sh.sendline("echo make-status=$?")               # fg's status is make's
        sh.expect(r"make-status=(\d+)")
        status = sh.match.group(1)
        sh.expect_exact("SHELL> ")
        out = (tmp_path / "terminal.log").read_text(errors="replace")
        assert status == "0", out[-3000:]
        assert "make: ***" not in out and "] Interrupt" not in out, out[-3000:]
    finally:
        sh.close(force=True)


def test_gdb_over_a_tcp_serial_line_and_reconnect(machine, gdb):
    """--serial tcp:PORT as a user would use it (the README's TCP recipe):
    gdb attaches at kgdbwait through the launcher's relay, a gdb that dies
    frees the line, the next gdb attaches to the same session and detaches,
    and the boot completes."""
    from gdb_boot import KGDBWAIT, WAITING, frames
    m = machine(cmdline=KGDBWAIT, ports=("unix", "tcp"))
    m.wait_for(WAITING, timeout=BOOT_TIMEOUT)
    target = m.socket_path(1)
    assert re.fullmatch(r"127\.0\.0\.1:\d+", target), target
    g1 = gdb()
    g1.cmd("set remote noack-packet off")
    g1.connect(target, timeout=BOOT_TIMEOUT)
    assert frames(g1.cmd("bt"))[:3] == ["kgdb_breakpoint", "ekdb_early_init", "setup_arch"]
    assert "0x" in g1.cmd("x/16xb setup_arch")
    g1.proc.kill()                                  # gone without a word
    g1.proc.wait()
    g2 = gdb()
    g2.cmd("set remote noack-packet off")
    g2.connect(target, timeout=BOOT_TIMEOUT)
    assert "setup_arch" in frames(g2.cmd("bt")), g2.cmd("bt")
    g2.detach()
    m.wait_for(r"boot complete: \d+ CPUs online", timeout=BOOT_TIMEOUT)
