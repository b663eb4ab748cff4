#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tools/bench.sh BUILD [EARLY_DIRS...] - `make bench`: raw 16550 line rate,
# ekdb's gdbstub vs QEMU's gdbstub with real gdb, static footprint.
# Prints a table (targets as PASS/MISS); exits 0 unless it cannot run.
# See docs/bench.md.  Extra options for bench/run.py: BENCH_FLAGS="...".
set -e
BUILD=${1:-build}
[ $# -gt 0 ] && shift
HERE=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-/usr/bin/python3}
for t in gdb qemu-system-x86_64 size nm; do
	command -v "$t" >/dev/null 2>&1 || { echo "bench: $t not found (make deps)" >&2; exit 2; }
done
if [ ! -f "$BUILD/kernel.elf" ] || [ ! -d "$BUILD/esp" ]; then
	echo "bench: $BUILD/kernel.elf or $BUILD/esp missing: run make first" >&2
	exit 2
fi
# shellcheck disable=SC2086
exec "$PY" "$HERE/bench/run.py" --build "$BUILD" --early-dirs "$@" $BENCH_FLAGS
