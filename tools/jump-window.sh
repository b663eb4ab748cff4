#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# jump-window.sh KERNEL_ELF - the kernel's jump window (_start up to the
# debugger's takeover in x86_64_start_kernel, where no breakpoint can
# fire): its bounds, its instructions, and their count on the last line
# ("jump window: N instructions, B bytes").  docs/debugging-early-boot.md.
set -e
elf=${1:-build/kernel.elf}
start=$(nm "$elf" | awk '$3 == "__jump_window_start" { print $1 }')
end=$(nm "$elf" | awk '$3 == "__jump_window_end" { print $1 }')
if [ -z "$start" ] || [ -z "$end" ]; then
	echo "jump-window.sh: no __jump_window_start/__jump_window_end in $elf" >&2
	exit 1
fi
objdump -d --no-show-raw-insn --start-address=0x$start --stop-address=0x$end "$elf" |
	awk '/^ *[0-9a-f]+:\t/ { print; n++ } END { printf "%d\n", n > "/dev/stderr" }' 2>"${TMPDIR:-/tmp}/jw.$$"
n=$(cat "${TMPDIR:-/tmp}/jw.$$")
rm -f "${TMPDIR:-/tmp}/jw.$$"
echo "jump window: $n instructions, $(( 0x$(echo $end | tail -c 9) - 0x$(echo $start | tail -c 9) )) bytes (0x$start..0x$end)"
