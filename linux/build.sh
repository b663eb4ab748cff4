#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# linux/build.sh OUT: `make linux`.  A Linux 6.1 kernel with ekdb built in
# (docs/linux.md): Debian's linux-source-6.1, the patch series
# linux/patches/*.patch, the config fragment linux/ekdb.config, and this
# tree's debugger folders compiled by Kbuild (kernel/debug/ekdb/src is a
# symbolic link to this tree).  Leaves OUT/bzImage, OUT/vmlinux (symbolic
# links into the cache), OUT/vmlinux-gdb.py and OUT/scripts (Linux's gdb
# helpers, links into the cache) and OUT/initramfs.cpio.gz (busybox).
#
# The cache, $LINUX_CACHE (default ~/.cache/ekdb-linux), holds per source
# version: pristine/ (the extracted tarball), src/ (pristine + the series:
# hard links, a patched file is a copy), obj/ (Kbuild's O=, kept between
# builds so a change rebuilds only what it touches) and out/KEY/, where KEY
# hashes the series, the fragment and the debugger's sources: an unchanged
# tree is not built again.  One build at a time per cache (flock).
# LINUX_JOBS (default: nproc), LINUX_NICE (default 10).
#
# linux/build.sh --is-cached: exit 0 when the cache holds the kernel of this
# tree as it is now (nothing to build), 1 otherwise; builds nothing.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
TREE=$(cd "$HERE/.." && pwd)
IS_CACHED=
if [ "${1:-}" = --is-cached ]; then
	IS_CACHED=1
else
	OUT=${1:?usage: linux/build.sh OUT | linux/build.sh --is-cached}
	mkdir -p "$OUT"
	OUT=$(cd "$OUT" && pwd)
	EKDB_EXTRA_DEPS="$(sed -n 's/^LINUX_DEPS="\(.*\)"$/\1/p' "$TREE/tools/deps.sh")" "$TREE/tools/deps.sh"
fi
TARBALL=/usr/src/linux-source-6.1.tar.xz
VER=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null) || { [ -n "$IS_CACHED" ] && exit 1; }
CACHE=${LINUX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ekdb-linux}/$VER

PATCHES=("$HERE"/patches/*.patch)
FRAGMENT=$HERE/ekdb.config
# What the kernel is made of, from this tree: the series, the fragment, and
# every file the Kbuild fragment compiles or generates from.
key_files() {
	(cd "$TREE" && find linux lib arch/x86 early io core gdbstub kdb include \
		kernel-glue/include debugger.mk tools/gen-kdb-cmds.py tools/gen_font.py \
		-type f ! -name '*.pyc' ! -name '*~' | LC_ALL=C sort)
}
KEY=$( (echo "$VER"; cd "$TREE" && key_files | xargs sha256sum) | sha256sum | cut -c1-16)
RESULT=$CACHE/out/$KEY
if [ -n "$IS_CACHED" ]; then
	[ -f "$RESULT/bzImage" ] && [ -f "$RESULT/vmlinux" ]
	exit
fi
mkdir -p "$CACHE"
exec 9>"$CACHE/lock"
flock 9

if [ ! -f "$RESULT/bzImage" ] || [ ! -f "$RESULT/vmlinux" ]; then
	if [ ! -d "$CACHE/pristine" ]; then
		echo "linux: extracting $TARBALL ($VER)"
		rm -rf "$CACHE/pristine.tmp" && mkdir "$CACHE/pristine.tmp"
		tar -C "$CACHE/pristine.tmp" -xaf "$TARBALL"
		mv "$CACHE/pristine.tmp/linux-source-6.1" "$CACHE/pristine"
		rmdir "$CACHE/pristine.tmp"
	fi
	SERIES=$(cat "${PATCHES[@]}" | sha256sum | cut -c1-16)
	if [ ! -d "$CACHE/src" ] || [ "$(cat "$CACHE/src.series" 2>/dev/null)" != "$SERIES" ]; then
		if [ ! -d "$CACHE/src" ]; then
			echo "linux: src/ = pristine/ (hard links)"
			cp -al "$CACHE/pristine" "$CACHE/src"
		fi
		# Undo the previous series file by file (fresh copies: new mtimes,
		# so Kbuild rebuilds what they touch), then apply this one.
		if [ -f "$CACHE/src.files" ]; then
			while read -r f; do
				rm -f "$CACHE/src/$f"
				[ -e "$CACHE/pristine/$f" ] && cp "$CACHE/pristine/$f" "$CACHE/src/$f"
			done < "$CACHE/src.files"
		fi
		rm -f "$CACHE/src.series" "$CACHE/src.files"
		for p in "${PATCHES[@]}"; do
			sed -n 's|^+++ b/||p' "$p" >> "$CACHE/src.files"
		done
		for p in "${PATCHES[@]}"; do
			echo "linux: applying $(basename "$p")"
			patch -s -p1 -d "$CACHE/src" --no-backup-if-mismatch < "$p"
		done
		echo "$SERIES" > "$CACHE/src.series"
	fi
	# The debugger's sources: this tree, whichever worktree runs the build.
	ln -sfn "$TREE" "$CACHE/src/kernel/debug/ekdb/src"

	MAKE=(nice -n "${LINUX_NICE:-10}" make -C "$CACHE/src" O="$CACHE/obj" ARCH=x86_64)
	if [ ! -f "$CACHE/obj/.config" ] || [ "$(cat "$CACHE/obj/.fragment" 2>/dev/null)" != "$(sha256sum < "$FRAGMENT")" ]; then
		echo "linux: configuring (allnoconfig + $(basename "$FRAGMENT"))"
		mkdir -p "$CACHE/obj"
		"${MAKE[@]}" -s KCONFIG_ALLCONFIG="$FRAGMENT" allnoconfig
		sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=y$/\1/p' "$FRAGMENT" | while read -r opt; do
			grep -qx "$opt=y" "$CACHE/obj/.config" ||
				{ echo "linux: $opt=y of $(basename "$FRAGMENT") did not stick" >&2; exit 1; }
		done
		sha256sum < "$FRAGMENT" > "$CACHE/obj/.fragment"
	fi
	echo "linux: building in $CACHE/obj (make -j${LINUX_JOBS:-$(nproc)} bzImage)"
	"${MAKE[@]}" -j"${LINUX_JOBS:-$(nproc)}" bzImage
	# Linux's gdb helpers (CONFIG_GDB_SCRIPTS: lx-dmesg, lx-ps, $lx_current())
	"${MAKE[@]}" scripts_gdb
	mkdir -p "$RESULT.tmp"
	cp "$CACHE/obj/arch/x86/boot/bzImage" "$CACHE/obj/vmlinux" "$RESULT.tmp/"
	rm -rf "$RESULT" && mv "$RESULT.tmp" "$RESULT"
	# Keep only this result: vmlinux is large.
	find "$CACHE/out" -mindepth 1 -maxdepth 1 ! -name "$KEY" -exec rm -rf {} +
fi
ln -sfn "$RESULT/bzImage" "$OUT/bzImage"
ln -sfn "$RESULT/vmlinux" "$OUT/vmlinux"
# gdb: source OUT/vmlinux-gdb.py (it finds its modules in OUT/scripts/gdb)
ln -sfn "$CACHE/obj/vmlinux-gdb.py" "$OUT/vmlinux-gdb.py"
ln -sfn "$CACHE/obj/scripts" "$OUT/scripts"

# The initramfs: busybox and an init that mounts /proc, /sys, /dev and
# runs a shell on the console.
if [ ! -f "$OUT/initramfs.cpio.gz" ] || [ "$0" -nt "$OUT/initramfs.cpio.gz" ]; then
	rm -rf "$OUT/initramfs" && mkdir -p "$OUT/initramfs/bin" "$OUT/initramfs/proc" \
		"$OUT/initramfs/sys" "$OUT/initramfs/dev"
	cp /bin/busybox "$OUT/initramfs/bin/busybox"
	ln -s busybox "$OUT/initramfs/bin/sh"
	cat > "$OUT/initramfs/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sysfs /sys
/bin/busybox mount -t devtmpfs devtmpfs /dev 2>/dev/null
echo "ekdb-linux: init running"
exec /bin/busybox sh
INIT
	chmod +x "$OUT/initramfs/init"
	(cd "$OUT/initramfs" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -9) \
		> "$OUT/initramfs.cpio.gz.tmp"
	mv "$OUT/initramfs.cpio.gz.tmp" "$OUT/initramfs.cpio.gz"
	rm -rf "$OUT/initramfs"
fi
ls -lL "$OUT/bzImage" "$OUT/vmlinux" "$OUT/initramfs.cpio.gz"
