#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# check-port.sh [DIR...] - the debugger's folders include no header of a host.
#
# The debugger reaches the kernel, the loader and the host simulator only
# through the porting interface (include/ekdb/port.h, docs/porting.md).  The
# Makefile compiles these folders without -Ikernel-glue/include, so a
# <kernel/...> include already fails the build; this check also catches the
# ways around that: a relative path into kernel-glue/ or boot/, and the
# flag itself coming back into the debugger's compile line.
# Exit 1 naming each offending line.
set -u
cd "$(dirname "$0")/.." || exit 1
dirs=${*:-lib early earlyio core gdbstub kdb}
status=0

# 1. no include of a host header, by <kernel/...> or by a path into kernel-glue/ or boot/
bad=$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*([<"]kernel/|[<"][^>"]*(kernel-glue|boot)/)' \
	--include='*.c' --include='*.h' --include='*.S' $dirs)
if [ -n "$bad" ]; then
	echo "check-port: a debugger folder includes a host header (use <ekdb/port.h>):" >&2
	echo "$bad" >&2
	status=1
fi

# 2. the compile line of a debugger object has no include path into a host
#    (make -n prints the command of an object rebuilt from scratch)
for d in $dirs; do
	src=$(find "$d" -name '*.c' | sort | head -n 1)
	[ -n "$src" ] || continue
	line=$(make -n -B --no-print-directory "build/k/$src.o" 2>/dev/null | grep -- "-c $src")
	if [ -z "$line" ]; then
		echo "check-port: no compile line for $src" >&2
		status=1
	elif echo "$line" | grep -qE -- '-I *(kernel-glue|boot)'; then
		echo "check-port: $src is compiled with a host include path: $line" >&2
		status=1
	fi
done

[ $status -ne 0 ] || echo "check-port: $dirs: no host header, no host include path"
exit $status
