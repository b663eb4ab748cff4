#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# check-layers.sh BUILD - the debugger's folders include only what their
# layer may see (docs/layers.md).
#
# The check reads what the compiler really opened: the dependency files
# (gcc -MMD, BUILD/k/DIR/*.d for the kernel, BUILD/boot/ekdb/DIR/*.d for the
# loader's build of the same sources) list every header a source pulled
# in, directly or through another header, whatever the include path or a
# "../../" spelling.  Each rule below names folders and a pattern no header
# of theirs may match (no "|" inside a pattern: it separates the fields).
# Exit 1 naming each offending source and header.
#
# Rules, one a line: "FOLDERS|PATTERN|WHY" (PATTERN: an extended regex
# matched against the header's path relative to the tree, after ".."
# are folded).  A folder also covers its subfolders (core: core/late).
set -u
build=$1
here=$(cd "$(dirname "$0")/.." && pwd)

DEBUGGER_DIRS="core early io gdbstub kdb lib selftest"

RULES="
gdbstub kdb|^arch/|arch-neutral: the architecture is reached through <ekdb/arch.h>
$DEBUGGER_DIRS|^boot/|the loader is one host among three: the debugger sees no header of it
$DEBUGGER_DIRS|^/usr/include/efi/|GNU-EFI is the loader's: the debugger sees no header of it
core|^arch/x86/include/asm/regs_table[.]h$|the core reaches the register file through <ekdb/arch.h> (arch_dbg_reg_*)
core|^arch/x86/include/asm/fixup[.]h$|the core reaches fault-safe access through <ekdb/arch.h> (arch_dbg_probe_*)
core/late|^early/|the full core does not reach back into the early debugger: its options are core/opts.h
early selftest|^core/debug_core[.]h$|the core's insides are private: early/ and selftest/ reach it through core/core_early.h
"
# The hosts' rule: a host (the reference kernel, the loader's glue in
# boot/dbg/) starts and feeds the debugger through <ekdb/ekdb.h> and
# <ekdb/port.h> (ekdb_start(), the port table), never through the
# insides of core/ or early/ (docs/porting.md).
HOST_RULES="kernel-glue boot/dbg|^core/|a host reaches the debugger through <ekdb/ekdb.h> and <ekdb/port.h> only
kernel-glue boot/dbg|^early/|a host reaches the debugger through <ekdb/ekdb.h> and <ekdb/port.h> only"
# The porting interface's rule: the reference kernel is one host among
# three too; the debugger reaches it through <ekdb/port.h> (docs/porting.md).
KGLUE_RULES="$DEBUGGER_DIRS|^kernel-glue/|the reference kernel is a host: the debugger reaches it through <ekdb/port.h>"

fail() { echo "check-layers: $*" >&2; exit 1; }

# "SOURCE HEADER" for every header of the .d files under $1 (SOURCE: the
# object's path below $1 without .o; HEADER: relative to the tree, ".." folded).
deps_under() {
	# no stale leftovers of moved or deleted sources (an incremental build keeps their .d)
	find "$1" -name '*.d' | sort | while read -r d; do
		s=${d#"$1"/}
		[ -n "${LAYERS_SELFTEST:-}" ] || [ -e "$here/${s%.d}" ] && echo "$d"
	done | xargs -r awk -v top="$1/" -v here="$here/" '
	function fold(p,   n, i, k, part, out) {
		if (index(p, here) == 1) p = substr(p, length(here) + 1)
		n = split(p, part, "/"); k = 0
		for (i = 1; i <= n; i++) {
			if (part[i] == "..") { if (k > 0 && out[k] != "..") { k--; continue } }
			else if (part[i] == "." || (part[i] == "" && i > 1)) continue
			out[++k] = part[i]
		}
		p = out[1]; for (i = 2; i <= k; i++) p = p "/" out[i]
		return p
	}
	FNR == 1 { src = substr(FILENAME, length(top) + 1); sub(/\.d$/, "", src) }
	/^[^ ].*:/ && FNR > 1 && $0 !~ /\\$/ && NF == 1 { next }	# -MP phony targets
	{
		for (i = 1; i <= NF; i++) {
			w = $i
			if (w ~ /:$/ || w == "\\" || w !~ /\.h$/) continue
			print src, fold(w)
		}
	}'
}

nd=0
status=0
rules=$(printf '%s\n%s\n%s\n' "$RULES" "$KGLUE_RULES" "$HOST_RULES" | grep -v '^[[:space:]]*$')
# $build: the loader's own objects (boot/dbg/: its side of the port)
for top in "$build/k" "$build/boot/ekdb" "$build"; do
	[ -d "$top" ] || continue
	deps=$(deps_under "$top")
	rulefile=$(mktemp) || fail "mktemp"
	printf '%s\n' "$rules" >"$rulefile"
	while IFS='|' read -r dirs pat why; do
		for dir in $dirs; do
			bad=$(printf '%s\n' "$deps" | awk -v d="$dir/" 'index($1, d) == 1' | awk -v p="$pat" '$2 ~ p' | sort -u)
			[ -z "$bad" ] && continue
			printf '%s\n' "$bad" | while read -r src h; do
				echo "check-layers: ${top#"$build"/}/$src includes $h ($why)" >&2
			done
			status=1
		done
	done <"$rulefile"
	rm -f "$rulefile"
	for dir in $DEBUGGER_DIRS; do
		[ -d "$top/$dir" ] && nd=$((nd + $(find "$top/$dir" -name '*.d' | wc -l)))
	done
done

[ "$nd" -gt 0 ] || fail "no dependency files under $build/k: run make first"
# Source rules, "FOLDERS|REGEX|WHY": what the sources of a folder may not
# say (comment lines are skipped).  The core holds trap frames (struct
# pt_regs) but never reaches into one: the vector, the error code, the pc
# and the registers are arch_dbg_* hooks (<ekdb/arch.h>).  The early
# drivers do not read the page-table base to learn that the page tables
# changed: ekdb_io_map_get() / arch_dbg_mm_generation() tell them.
SRC_RULES="
core|regs->|reaches into the trap frame (arch_dbg_trap_*, arch_dbg_pc, arch_dbg_reg_*)
io early|read_cr3|reads the page-table base (ekdb_io_map_get, arch_dbg_mm_generation)
"
if [ -z "${LAYERS_SELFTEST:-}" ]; then
	srcrules=$(mktemp) || fail "mktemp"
	printf '%s\n' "$SRC_RULES" | grep -v '^[[:space:]]*$' >"$srcrules"
	while IFS='|' read -r dirs pat why; do
		for dir in $dirs; do
			hits=$(cd "$here" && find "$dir" -name '*.c' -exec grep -Hn -- "$pat" {} + |
			       grep -v '^[^:]*:[0-9]*:[[:space:]]*[*/]')
			[ -z "$hits" ] && continue
			printf '%s\n' "$hits" | sed "s|^|check-layers: $why: |" >&2
			status=1
		done
	done <"$srcrules"
	rm -f "$srcrules"
fi
# Linux's side of the port (linux/glue/, compiled by Linux's Kbuild, so no
# .d file here to read) is a host too: ekdb's headers as <ekdb/...> from
# include/, Linux's own, and its private glue.h; nothing quoted from the tree.
if [ -z "${LAYERS_SELFTEST:-}" ]; then
	hits=$(cd "$here" && find linux/glue -name '*.[ch]' -exec grep -Hn '^#include "' {} + 2>/dev/null |
	       grep -v '#include "glue\.h"')
	if [ -n "$hits" ]; then
		printf '%s\n' "$hits" | sed 's|^|check-layers: Linux'"'"'s side of the port includes a header of the tree (it may use <ekdb/...> only): |' >&2
		status=1
	fi
fi
# Each device of io/ has one public header (io/DEV/DEV.h or the named one
# below): a host and the running kernel's drivers include that, never the
# driver's other headers (docs/porting.md, "The devices").
IO_PUBLIC="io/serial/serial.h io/kbd/kbd.h io/vga/vga.h io/ehci-dbgp/ehci_dbgp.h io/xhci-dbc/xhci_dbc.h"
if [ -z "${LAYERS_SELFTEST:-}" ]; then
	for dir in kernel-glue boot; do
		(cd "$here" && find "$dir" -name '*.[ch]' -exec grep -Hn '^#include ".*io/' {} +) |
		while IFS= read -r hit; do
			inc=$(printf '%s\n' "$hit" | sed 's|.*#include "\(\.\./\)*\(io/[^"]*\)".*|\2|')
			case " $IO_PUBLIC " in
			*" $inc "*) ;;
			*) echo "check-layers: a host includes a device's private header (want one of: $IO_PUBLIC): $hit" >&2
			   echo bad ;;
			esac
		done | grep -q bad && status=1
	done
fi
# The host simulator of the unit tests is a host too (docs/porting.md): its
# files include nothing of core/ or early/ (the tests around it may).
if [ -z "${LAYERS_SELFTEST:-}" ]; then
	hits=$(cd "$here" && grep -Hn '^#include ".*\(core\|early\)/' tests/host/sim_*.[ch] 2>/dev/null)
	if [ -n "$hits" ]; then
		printf '%s\n' "$hits" | sed 's|^|check-layers: the host simulator reaches the debugger'"'"'s insides: |' >&2
		status=1
	fi
fi
[ "$status" -eq 0 ] || exit 1
[ -n "${LAYERS_SELFTEST:-}" ] && exit 0
echo "check-layers: $nd debugger sources include nothing their layer may not see" \
	"($(printf '%s\n' "$rules" | wc -l) rules, $(printf '%s\n' "$SRC_RULES" | grep -c '|') source rules)"

# Self-test: a kdb source that pulls in an arch header, a core source that
# pulls in a loader header, and a host (kernel-glue) source that pulls in
# the core's private header, through a "../" path, must all fail.
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
for probe in 'kdb|kdb/../arch/x86/include/asm/regs.h' 'core/late|core/late/../../boot/dbg/ldr_dbg.h' \
	     'kernel-glue|kernel-glue/../core/debug_core.h'; do
	dir=${probe%%|*}
	mkdir -p "$tmp/k/$dir"
	printf '%s: x.c include/ekdb/types.h \\\n %s\n' "$tmp/k/$dir/selftest.o" "${probe#*|}" \
		>"$tmp/k/$dir/selftest.c.d"
	if LAYERS_SELFTEST=1 "$0" "$tmp" 2>"$tmp/err" || ! grep -q "selftest.c includes" "$tmp/err"; then
		cat "$tmp/err" >&2
		fail "self-test: $dir including ${probe#*|} was NOT caught"
	fi
	rm -rf "$tmp/k"
done
echo "check-layers: self-test ok (kdb including an arch/x86 header, core/late a boot/ header, kernel-glue core/debug_core.h, are caught)"
