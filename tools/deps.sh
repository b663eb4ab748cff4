#!/bin/bash
# tools/deps.sh - make sure the Debian packages ekdb needs are installed.
#
# Idempotent and fast when everything is present (one dpkg-query call).
# When packages are missing: as root, run `apt-get update` once and
# `apt-get install -y --no-install-recommends` them; otherwise print the exact install command and
# exit 1.  Extra packages can be checked with EKDB_EXTRA_DEPS="pkg1 pkg2"
# (tools/kdb-compare/setup.sh asks for its KDB_COMPARE_DEPS below that way:
# what building a Linux kernel needs, only for that optional comparison;
# linux/build.sh for LINUX_DEPS).
set -euo pipefail

PKGS=(qemu-system-x86 ovmf gnu-efi gdb mtools dosfstools libcmocka-dev
      python3-pytest python3-pytest-xdist python3-pytest-timeout python3-pexpect
      clang lldb binutils gcc make socat
      console-setup-linux)
KDB_COMPARE_DEPS="flex bison bc libelf-dev xz-utils"
# `make linux` (linux/build.sh): Debian's Linux 6.1 source, what building it
# needs, and a static busybox for the initramfs.
LINUX_DEPS="linux-source-6.1 bc flex bison libelf-dev libssl-dev cpio xz-utils busybox-static"
# shellcheck disable=SC2206
[ -n "${EKDB_EXTRA_DEPS:-}" ] && PKGS+=(${EKDB_EXTRA_DEPS})

missing=()
# One query for all packages; unknown packages make dpkg-query complain on
# stderr and they simply do not show up as installed.
installed=$(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "${PKGS[@]}" 2>/dev/null || true)
for p in "${PKGS[@]}"; do
    if ! grep -qE "^${p} ii" <<<"$installed"; then
        missing+=("$p")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
    echo "deps: installing missing packages: ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
    # shellcheck disable=SC2086
    apt-get install -y --no-install-recommends "${missing[@]}"
    exit 0
fi

echo "deps: missing Debian packages: ${missing[*]}" >&2
echo "deps: install them as root with:" >&2
echo "  $cmd" >&2
exit 1
