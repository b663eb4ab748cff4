#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# test_gdbsim_real_gdb.sh - drive build/host/gdbsim (the gdbstub over the
# sim target) with the real gdb: registers by name, memory with holes,
# breakpoints, watchpoints, threads, monitor.  Usage: $0 path/to/gdbsim
set -u
SIM=${1:-build/host/gdbsim}
GDB=${GDB:-gdb}
command -v "$GDB" >/dev/null 2>&1 || { echo "FAIL: $GDB not found (gdb is a dependency: make deps)"; exit 1; }
[ -x "$SIM" ] || { echo "FAIL: $SIM not built"; exit 1; }
fails=0; tests=0
out=$(mktemp); trap 'rm -f "$out"' EXIT

# run_gdb ID PURPOSE SIMARGS -- gdb -ex args...
run_gdb() {
	id=$1; purpose=$2; simargs=$3; shift 3
	tests=$((tests + 1))
	timeout 60 "$GDB" -nx -batch -ex 'set pagination off' \
		-ex "target remote | $SIM $simargs" "$@" >"$out" 2>&1
}
expect() {
	grep -Eq -- "$1" "$out" || { echo "FAIL [$id] $purpose: missing /$1/"; fails=$((fails + 1)); sed 's/^/    /' "$out"; }
}
reject() {
	if grep -Eq -- "$1" "$out"; then echo "FAIL [$id] $purpose: unexpected /$1/"; fails=$((fails + 1)); sed 's/^/    /' "$out"; fi
}

run_gdb G1 "system registers by name (target description)" "" \
	-ex 'info registers cr3' -ex 'p $fs_base' -ex 'p/x $dr7' -ex 'p/x $efer' \
	-ex 'p/x $k_gs_base' -ex 'p/x $cr0' -ex 'show architecture' -ex 'info registers rip eflags'
expect '^cr3 +0x1234000'
expect '^\$1 = 139637976731648'
expect '^\$2 = 0x400$'
expect '^\$3 = 0xd01$'
expect '^\$4 = 0xabc$'
expect '^\$5 = 0x80050033$'
expect 'currently "i386:x86-64"'
expect '^eflags +0x246 +\[ PF ZF IF \]'
reject 'rejected target-supplied description|Truncated register|too long'

run_gdb G2 "memory reads: mapped, short at a hole, unmapped" "" \
	-ex 'x/4gx 0x1000' -ex 'x/4gx 0xdead0000' -ex 'x/8xb 0x2ffc' -ex 'p *(int*)0x3000'
expect '0x1000:.*0x0706050403020100.*0x0f0e0d0c0b0a0908'
expect 'Cannot access memory at address 0xdead0000'
expect '0x2ffc:.*0xfc.*0xfd.*0xfe.*0xff'
expect 'Cannot access memory at address 0x3000'

run_gdb G3 "register and memory writes" "" \
	-ex 'set $rax = 0x42' -ex 'p/x $rax' -ex 'set $cr3 = 0x5000' -ex 'p/x $cr3' \
	-ex 'set *(long*)0x1000 = 0x1122334455667788' -ex 'x/gx 0x1000' \
	-ex 'set *(char*)0x3000 = 1' -ex 'p $st0' -ex 'p $xmm0'
expect '^\$1 = 0x42$'
expect '^\$2 = 0x5000$'
expect '0x1000:.*0x1122334455667788'
expect 'Cannot access memory at address 0x3000'
expect '^\$3 = <unavailable>'
expect '^\$4 = <unavailable>'

run_gdb G4 "software breakpoint, continue, stepi, swbreak stop" "" \
	-ex 'break *0xffffffff81000020' -ex 'continue' -ex 'p/x $pc' -ex 'stepi' -ex 'p/x $pc' \
	-ex 'delete' -ex 'break *0xffffffff81001010'
expect 'hit Breakpoint 1, 0xffffffff81000020'
expect '^\$1 = 0xffffffff81000020$'
expect '^\$2 = 0xffffffff81000021$'

run_gdb G5 "breakpoint in debugger-owned range is refused" "" \
	-ex 'break *0xffffffff81001010' -ex 'continue'
expect 'Cannot insert breakpoint 1|Cannot access memory'

run_gdb G6 "hardware breakpoints and watchpoints, slot exhaustion" "" \
	-ex 'hbreak *0xffffffff81000100' -ex 'continue' -ex 'delete' \
	-ex 'watch *(long*)0x10000' -ex 'continue' -ex 'delete' \
	-ex 'rwatch *(int*)0x1008' -ex 'continue' -ex 'delete' \
	-ex 'hbreak *0xffffffff81000200' -ex 'hbreak *0xffffffff81000210' \
	-ex 'hbreak *0xffffffff81000220' -ex 'hbreak *0xffffffff81000230' \
	-ex 'hbreak *0xffffffff81000240' -ex 'continue'
expect 'hit Breakpoint 1, 0xffffffff81000100'
expect 'hit Hardware watchpoint 2: \*\(long\*\)0x10000'
expect 'New value = 1'
expect 'hit Hardware read watchpoint 3'
expect 'Could not insert hardware breakpoint|Cannot insert hardware breakpoint'

run_gdb G7 "threads: list, names, switch, per-thread registers" "--threads 3" \
	-ex 'info threads' -ex 'thread 3' -ex 'p/x $rsp' -ex 'p/x $cr3' -ex 'thread 1' -ex 'p/x $rsp' \
	-ex 'thread 9'
expect '\* 1 +Thread 1 \(CPU#0 \[stopped\]\)'
expect '3 +Thread 3 \(CPU#2 \[parked\]\)'
expect '^\$1 = 0x2d00$'
expect '^\$2 = 0x201234000$'
expect '^\$3 = 0x2f00$'
expect 'Unknown thread 9|Invalid thread ID'

run_gdb G8 "monitor command output" "" -ex 'monitor echo hello from kdb'
expect '^hello from kdb$'

run_gdb G9 "monitor without kdb" "--no-monitor" -ex 'monitor md 0x1000'
expect 'monitor commands are not available until kdb is built in'

run_gdb G10 "raw packets: qOffsets, unknown, bad input" "" \
	-ex 'maint packet qOffsets' -ex 'maint packet qFooBar' -ex 'maint packet m3000,4' \
	-ex 'maint packet mzz' -ex 'maint packet Z0,ffffffff81001000,1' -ex 'maint packet p99' \
	-ex 'maint packet qXfer:features:read:nope.xml:0,10' -ex 'detach'
expect 'received: "Text=0;Data=0;Bss=0"'
expect 'received: ""'
expect 'received: "E0e"'
expect 'received: "E16"'
expect 'received: "E.01.in the debugger'"'"'s own code or data'
expect 'received: "E02"'
expect 'Remote target\) detached|Ending remote debugging'

echo "real gdb tests: $((tests)) run, $fails failed checks"
[ "$fails" -eq 0 ]
