#!/bin/sh
# Run each cmocka test binary given on the command line; fail if any fails.
# Prints a total "N passed, N failed" line at the end.
set -u
pass=0; fail=0; failed=""
for t in "$@"; do
	if "$t"; then pass=$((pass + 1)); else fail=$((fail + 1)); failed="$failed $t"; fi
done
echo "host test binaries: $pass passed, $fail failed"
[ "$fail" -eq 0 ] || { echo "failed:$failed"; exit 1; }
