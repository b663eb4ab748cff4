#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# check-early.sh BUILD DIR... - early code must never reach the allocator.
#
# (a) no object compiled from the given directories (early/, earlyio/*)
#     may reference an allocator symbol (nm -u);
# (b) the same for the debugger code that runs early: core/ (except
#     core/late/), gdbstub/, kdb/, lib/, arch/x86/.
# Exit 1 with the offending object and symbol named.
set -u
build=$1; shift
deny='^(kmalloc|kzalloc|kcalloc|krealloc|kfree|malloc|calloc|realloc|free|alloc_pages|__get_free_pages|__get_free_page|free_pages|free_page|memblock_alloc[a-z_]*|memblock_free|kthread_create|kthread_run)$'
status=0
checked=0
for dir in "$@" core gdbstub kdb lib arch/x86; do
	[ -d "$build/k/$dir" ] || continue
	for obj in "$build/k/$dir"/*.o; do
		[ -e "$obj" ] || continue
		checked=$((checked + 1))
		bad=$(nm -u "$obj" | awk '{print $2}' | grep -E "$deny" || true)
		if [ -n "$bad" ]; then
			echo "check-early: $obj references allocator symbol(s): $(echo $bad)" >&2
			status=1
		fi
	done
done
if [ "$checked" -eq 0 ]; then
	echo "check-early: no objects found under $build/k: run make first" >&2
	exit 1
fi
[ "$status" -eq 0 ] && echo "check-early: $checked early/debugger objects are allocator-free"
exit $status
