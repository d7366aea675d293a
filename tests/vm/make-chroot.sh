#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make-chroot.sh: a minimal Debian trixie tree under $VM_CACHE/trixie-chroot with
# gcc-14 and what linux-kbuild-7.3 needs.  7.3's kbuild tools are linked against
# glibc >= 2.38 and its modules must be built by the compiler that built the
# kernel, neither of which bookworm has.  Prints the tree; a rerun reuses it.
set -euo pipefail

cache=${VM_CACHE:-${HOME:-/root}/.cache/gpu-trace/vm}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
tree=$cache/trixie-chroot

if [ -f "$tree/.complete" ]; then
	echo "$tree"
	exit 0
fi
if ! command -v debootstrap > /dev/null; then
	echo "make-chroot: debootstrap is not installed: apt-get install debootstrap" >&2
	exit 1
fi
rm -rf "$tree"
mkdir -p "$cache"
debootstrap --variant=minbase \
	--include=gcc-14,make,libc6-dev,libelf1t64,libssl3t64,zlib1g,pahole,kmod \
	trixie "$tree" "$mirror" > "$cache/trixie-chroot.log" 2>&1 || {
	echo "make-chroot: debootstrap trixie failed; see $cache/trixie-chroot.log" >&2
	exit 1
}
touch "$tree/.complete"
echo "$tree"
