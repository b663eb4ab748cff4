#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# test_gdbsim_real_lldb.sh - real lldb against build/host/gdbsim (the
# gdbstub over the sim target).  lldb sends QStartNoAckMode before
# qSupported: the stub must stay in no-ack mode (it used to send a '+' for
# every packet after qSupported).  lldb cannot start a stub through a pipe,
# so a small bridge serves gdbsim on a unix socket and logs what the stub
# sends.  Usage: $0 path/to/gdbsim
# lldb is a dependency (tools/deps.sh installs it): without it this check
# FAILS (exit 1), as test_gdbsim_real_gdb.sh does without gdb; a check
# that cannot run must not look like one that passed.
set -u
SIM=${1:-build/host/gdbsim}
LLDB=${LLDB:-lldb}
command -v "$LLDB" >/dev/null 2>&1 ||
	{ echo "FAIL: $LLDB not found (lldb is a dependency: make deps)"; exit 1; }
[ -x "$SIM" ] || { echo "FAIL: $SIM not built"; exit 1; }
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
sock=$dir/sim.sock

timeout 60 /usr/bin/python3 - "$sock" "$dir/stub.out" "$SIM" <<'PY' &
import os, socket, subprocess, sys, threading
path, log, sim = sys.argv[1:4]
s = socket.socket(socket.AF_UNIX); s.bind(path); s.listen(1)
c, _ = s.accept()
p = subprocess.Popen([sim], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def up():
    while (d := c.recv(4096)):
        p.stdin.write(d); p.stdin.flush()
    p.stdin.close()
threading.Thread(target=up, daemon=True).start()
with open(log, "wb") as f:
    while (d := os.read(p.stdout.fileno(), 4096)):
        f.write(d); f.flush(); c.sendall(d)
PY
i=0; while [ ! -S "$sock" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -S "$sock" ] || { echo "FAIL: the bridge to $SIM never listened on $sock"; exit 1; }
timeout 60 "$LLDB" -b -o "process connect unix-connect://$sock" -o 'register read rip' \
	-o 'process detach' >"$dir/lldb.out" 2>&1
wait
fails=0
grep -q 'rip = 0xffffffff81000010' "$dir/lldb.out" ||
	{ echo "FAIL: lldb did not read rip"; sed 's/^/    /' "$dir/lldb.out"; fails=1; }
# the stub's output, outside packets: exactly one '+' (for QStartNoAckMode)
acks=$(/usr/bin/python3 -c 'import re,sys; d=open(sys.argv[1],"rb").read(); print(re.sub(rb"\$[^#]*#..", b"", d).count(b"+"))' "$dir/stub.out")
[ "$acks" = 1 ] || { echo "FAIL: stub sent $acks acks to lldb (no-ack mode lost)"; fails=1; }
[ $fails = 0 ] && echo "lldb: 1 test passed (no-ack mode kept, registers read)"
exit $fails
