#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tools/kdb-compare/setup.sh [DIR]: a Linux 6.1 kernel with kdb and a static
# busybox in DIR (default /tmp/kdb-compare-linux), for kdb_compare.py.
#
# Debian's packaged 6.1 kernels are built without CONFIG_KGDB, so this builds
# one from Debian's linux-source-6.1 (apt archive) with linux-kdb.config
# (allnoconfig + serial console, initramfs, SMP, kgdb/kdb). Needs gcc, make,
# flex, bison, bc, libelf-dev (KDB_COMPARE_DEPS in tools/deps.sh, installed
# here); 20-60 min on 2 cores, depending on the load.
# Idempotent: what exists is kept.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=${1:-/tmp/kdb-compare-linux}
EKDB_EXTRA_DEPS="$(sed -n 's/^KDB_COMPARE_DEPS="\(.*\)"$/\1/p' "$HERE/../deps.sh")" "$HERE/../deps.sh"
mkdir -p "$DIR"
cd "$DIR"
if [ ! -d linux ]; then
	ls linux-source-6.1_*.deb >/dev/null 2>&1 || apt-get download linux-source-6.1
	rm -rf src && dpkg-deb -x linux-source-6.1_*.deb src
	tar -C src -xaf src/usr/src/linux-source-6.1.tar.xz
	mv src/linux-source-6.1 linux && rm -rf src
fi
if [ ! -x busybox ]; then
	ls busybox-static_*.deb >/dev/null 2>&1 || apt-get download busybox-static
	rm -rf bb && dpkg-deb -x busybox-static_*.deb bb
	cp bb/bin/busybox busybox && rm -rf bb
fi
if [ ! -f build/arch/x86/boot/bzImage ]; then
	mkdir -p build
	make -C linux O="$DIR/build" ARCH=x86_64 KCONFIG_ALLCONFIG="$HERE/linux-kdb.config" allnoconfig >/dev/null
	for opt in KGDB KGDB_SERIAL_CONSOLE KGDB_KDB SMP MODULES; do
		grep -q "^CONFIG_$opt=y" build/.config || { echo "setup.sh: CONFIG_$opt did not stick" >&2; exit 1; }
	done
	nice make -C linux O="$DIR/build" ARCH=x86_64 -j"$(nproc)" bzImage
fi
ls -l build/arch/x86/boot/bzImage busybox
