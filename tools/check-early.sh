#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# check-early.sh BUILD DIR... - early code must never reach the allocator.
#
# The boundary is a property of the link, not of symbol names: the objects
# of the given directories (early/, io/*), of the debugger code that
# runs early (core/ but not core/late/, the full lifetime's: the late
# init, its allocation and the drivers' takeover; core/handoff.c, the
# loader's record, runs early and is checked; gdbstub/, kdb/, lib/,
# arch/x86/) and
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

# Who uses what: "object symbol" lines, one nm per object.
uses="$out.uses"
for obj in $objs; do
	nm -u "$obj" | awk -v o="${obj#"$build"/k/}" '{ print o, $2 }'
done >"$uses"

status=0
for sym in $undef; do
	if printf '%s\n' "$data" | grep -qxF "$sym"; then
		continue
	fi
	users=$(awk -v s="$sym" '$2 == s { printf " %s", $1 }' "$uses")
	if printf '%s\n' "$sym" | grep -qE "$alloc"; then
		echo "check-early: allocator symbol $sym referenced by:$users" >&2
	else
		echo "check-early: $sym (used by:$users) is outside the allocator-free code and" \
		     "not in $(basename "$allow") (a kernel function may allocate)" >&2
	fi
	status=1
done

# A "data" entry must not be a function anywhere in the kernel.
funcs="$out.funcs"
# shellcheck disable=SC2046
readelf -sW $(find "$build/k" -name '*.o') 2>/dev/null |
	awk '/^File: / { f = $2 } $4 == "FUNC" && $7 != "UND" { print f, $8 }' >"$funcs"
for sym in $data; do
	printf '%s\n' "$undef" | grep -qxF "$sym" || continue
	def=$(awk -v s="$sym" '$2 == s { print $1 }' "$funcs")
	if [ -n "$def" ]; then
		echo "check-early: $sym is a function ($def), not data: list its" \
		     "source as 'object' in $(basename "$allow")" >&2
		status=1
	fi
done

n=$(echo $objs | wc -w)
[ "$status" -eq 0 ] || exit 1
[ -n "${EARLY_SELFTEST:-}" ] && exit 0
echo "check-early: $n early/debugger objects, linked together, reach" \
	"nothing outside them but $(printf '%s\n' "$undef" | grep -c .) allow-listed symbols"

# Self-test: the same objects plus one early object that reaches kzalloc
# through a kernel function (sched_create_idle) must fail, and so must one
# calling kmalloc directly.
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
cp -R "$build/k" "$tmp/k"
for body in 'struct task_struct *sched_create_idle(unsigned int);
void *early_selftest(void); void *early_selftest(void) { return sched_create_idle(1); }' \
	    'void *kmalloc(unsigned long);
void *early_selftest(void); void *early_selftest(void) { return kmalloc(8); }'; do
	printf '%s\n' "$body" | ${CC:-gcc} -ffreestanding -c -x c - -o "$tmp/k/early/selftest.gen.o" ||
		fail "self-test: cannot compile the probe object"
	if EARLY_SELFTEST=1 "$0" "$tmp" "$@" 2>"$tmp/err" ||
	   ! grep -q "early/selftest.gen.o" "$tmp/err"; then
		cat "$tmp/err" >&2
		fail "self-test: a probe reaching the allocator was NOT caught"
	fi
done
echo "check-early: self-test ok (a call to kzalloc through sched_create_idle, and to kmalloc, are caught)"
