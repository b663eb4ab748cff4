#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# check-early.sh BUILD DIR... - early code must never reach the allocator.
#
# The boundary is a property of the link, not of symbol names: the objects
# of the given directories (early/, earlyio/*), of the debugger code that
# runs early (core/ except core/late/, gdbstub/, kdb/, lib/, arch/x86/) and
# the "object" entries of tools/check-early.allow are partial-linked
# (ld -r) into BUILD/check-early.o.  Calls between them resolve; every
# symbol still undefined is a way out of the allocator-free code and must
# be an entry of tools/check-early.allow ("data" entries must not be
# functions).  So early code cannot reach kzalloc through a kernel
# function: that function is undefined here and not on the list.
# Exit 1 naming each offending symbol and the objects that use it.
# Environment: EARLY_ALLOW=FILE (another allow-list, for tests).
set -u
build=$1; shift
here=$(cd "$(dirname "$0")" && pwd)
allow=${EARLY_ALLOW:-$here/check-early.allow}
LD=${LD:-ld}
alloc='^(kmalloc|kzalloc|kcalloc|krealloc|kfree|malloc|calloc|realloc|free|alloc_pages|__get_free_pages|__get_free_page|free_pages|free_page|memblock_alloc[a-z_]*|memblock_free|kthread_create|kthread_run)$'

fail() { echo "check-early: $*" >&2; exit 1; }
[ -r "$allow" ] || fail "allow-list $allow not found"

objs=""
for dir in "$@" core gdbstub kdb lib arch/x86; do
	[ -d "$build/k/$dir" ] || continue
	for obj in "$build/k/$dir"/*.o; do
		src=${obj#"$build"/k/}
		# no stale leftovers of deleted sources (*.gen.o: generated at build time)
		case $obj in *.gen.o) ;; *) [ -e "${src%.o}" ] || continue ;; esac
		[ -e "$obj" ] && objs="$objs $obj"
	done
done
[ -n "$objs" ] || fail "no objects found under $build/k: run make first"

# "object SRC" entries join the checked set; "data NAME" entries may stay undefined.
extra=$(awk '$1 == "object" { print $2 }' "$allow")
data=$(awk '$1 == "data" { print $2 }' "$allow")
bad_lines=$(grep -vE '^[[:space:]]*(#|$)|^(object|data)[[:space:]]+[^[:space:]]+[[:space:]]*$' "$allow")
[ -z "$bad_lines" ] || fail "$allow: not 'object SRC' or 'data NAME': $bad_lines"
for src in $extra; do
	obj="$build/k/$src.o"
	[ -e "$obj" ] || fail "$allow: object $src: $obj not built"
	objs="$objs $obj"
done

out="$build/check-early.o"
# shellcheck disable=SC2086
$LD -r -z noexecstack -o "$out" $objs || fail "ld -r of the early objects failed"
undef=$(nm -u "$out" | awk '{ print $2 }' | sort -u)

status=0
for sym in $undef; do
	if printf '%s\n' "$data" | grep -qxF "$sym"; then
		continue
	fi
	users=""
	for obj in $objs; do
		nm -u "$obj" | awk '{ print $2 }' | grep -qxF "$sym" && users="$users ${obj#"$build"/k/}"
	done
	if printf '%s\n' "$sym" | grep -qE "$alloc"; then
		echo "check-early: allocator symbol $sym referenced by:$users" >&2
	else
		echo "check-early: $sym (used by:$users) is outside the allocator-free code and" \
		     "not in $(basename "$allow") (a kernel function may allocate)" >&2
	fi
	status=1
done

# A "data" entry must not be a function anywhere in the kernel.
all=$(find "$build/k" -name '*.o' ! -path "$out")
for sym in $data; do
	printf '%s\n' "$undef" | grep -qxF "$sym" || continue
	# shellcheck disable=SC2086
	def=$(readelf -sW $all 2>/dev/null | awk -v s="$sym" \
		'/^File: / { f = $2 } $8 == s && $4 == "FUNC" && $7 != "UND" { print f }')
	if [ -n "$def" ]; then
		echo "check-early: $sym is a function ($def), not data: list its" \
		     "source as 'object' in $(basename "$allow")" >&2
		status=1
	fi
done

n=$(echo $objs | wc -w)
[ "$status" -eq 0 ] && echo "check-early: $n early/debugger objects, linked together, reach" \
	"nothing outside them but $(printf '%s\n' "$undef" | grep -c .) allow-listed symbols"
exit $status
