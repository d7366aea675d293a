#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-module.sh NAME: build the mock scheduler module (and gt_kfd_node, the
# lab's GPU-node shim for amdkfd, gt_nvidia, its stand-in for nvidia.ko, and
# gt_vblank, its display, and vkms from the kernel's own source: fetch-vkms.sh)
# against kernel NAME's Debian headers (as fetched by fetch-kernel.sh) and
# print the mock .ko's path; the others land beside it.
#
# Debian's headers Makefile includes its -common tree by absolute path and
# names the compiler the kernel was built with.  Kernels built with bookworm's
# gcc-12 are built here with O= pointing at the unpacked tree; the others (7.3:
# gcc-14, kbuild tools needing glibc >= 2.38) in the trixie chroot, where the
# headers are linked in at the paths the Makefile expects.
set -euo pipefail

name=${1:?usage: build-module.sh 6.1|6.12|7.3}
here=$(cd "$(dirname "$0")" && pwd)
cache=${VM_CACHE:-${HOME:-/root}/.cache/gpu-trace/vm}
tree=$cache/kernels/$name
out=$tree/gt_mock_sched.ko

[ -f "$tree/.complete" ] || { echo "build-module: kernel $name is not fetched: run fetch-kernel.sh $name" >&2; exit 1; }
# vkms from the kernel's own source (Debian builds none): the lab's page flips.
# Without it (no linux-source package of this version) the lab says so and goes on.
vkms_src=$("$here/fetch-vkms.sh" "$name" 2> "$tree/vkms-fetch.log") || vkms_src=
# built from these very sources (by content: the cache is shared by every
# checkout on the machine, so file times say nothing)
inputs=$(cat "$here/mock-sched/"* "$0" ${vkms_src:+"$vkms_src/.complete"} | sha256sum | cut -d' ' -f1)
if [ -f "$out" ] && [ -f "$tree/gt_kfd_node.ko" ] && [ -f "$tree/gt_nvidia.ko" ] &&
   [ -f "$tree/gt_vblank.ko" ] &&
   { [ -z "$vkms_src" ] || [ -f "$tree/vkms.ko" ] || [ "$(cat "$tree/vkms.failed" 2> /dev/null)" = "$inputs" ]; } &&
   [ "$(cat "$out.inputs" 2> /dev/null)" = "$inputs" ]; then
	echo "$out"
	exit 0
fi

amd64=$(readlink -f "$tree/build")
common=$(ls -d "$tree/root/usr/src/linux-headers-"*-common)
# Debian keeps the release and the compiler in .kernelvariables
release=$(sed -n 's/^override KERNELRELEASE = //p' "$amd64/.kernelvariables")
compiler=$(sed -n 's/^CC = .*)gcc-\([0-9]*\)$/gcc-\1/p' "$amd64/.kernelvariables")
log=$tree/module-build.log

src=$tree/mock-src
rm -rf "$src" "$tree/vkms.ko" "$tree/vkms.failed"
mkdir -p "$src"
# vkms beside the mocks, in a directory of its own: a separate make, so that a vkms
# that does not build leaves the mocks built
if [ -n "$vkms_src" ]; then
	cp -r "$vkms_src" "$src/vkms"
	vkms_log=$tree/vkms-build.log
fi
cp "$here/mock-sched/gt_mock_sched.c" "$here/mock-sched/gt_kfd_node.c" "$here/mock-sched/gt_nvidia.c" \
	"$here/mock-sched/gt_vblank.c" \
	"$here/mock-sched/gt_nvidia_trace.h" "$here/mock-sched/gt_nvidia_abi.h" "$here/mock-sched/Kbuild" "$src/"
"$here/mock-sched/gen-compat.sh" "$common" > "$src/compat.h"

if command -v "$compiler" > /dev/null && "$compiler" --version > /dev/null 2>&1; then
	make -C "$common" O="$amd64" M="$src" ARCH=x86 KERNELRELEASE="$release" \
		CC="$compiler" CONFIG_DEBUG_INFO_BTF_MODULES= modules > "$log" 2>&1 ||
		{ echo "build-module: $name: module build failed with $compiler; see $log" >&2; exit 1; }
	[ -z "$vkms_src" ] ||
		make -C "$common" O="$amd64" M="$src/vkms" ARCH=x86 KERNELRELEASE="$release" \
			CC="$compiler" CONFIG_DEBUG_INFO_BTF_MODULES= CONFIG_DRM_VKMS=m modules \
			> "$vkms_log" 2>&1 || echo "build-module: $name: vkms did not build; see $vkms_log" >&2
else
	# one trixie chroot for every kernel that needs it, and the lab runs guests side by
	# side (run.sh): its build tree is one kernel's at a time, held until this script ends
	mkdir -p "${VM_CACHE:-${HOME:-/root}/.cache/gpu-trace/vm}"
	exec 9> "${VM_CACHE:-${HOME:-/root}/.cache/gpu-trace/vm}/chroot.lock"
	flock 9
	chroot_dir=$("$here/make-chroot.sh")
	chroot "$chroot_dir" sh -c "command -v $compiler" > /dev/null ||
		{ echo "build-module: $name needs $compiler, which neither the host nor the trixie chroot has" >&2; exit 1; }
	# hard links into the chroot: no mounts to leak when a run is killed
	rm -rf "$chroot_dir/usr/src/"linux-headers-* "$chroot_dir/usr/lib/"linux-kbuild-* "$chroot_dir/build"
	cp -al "$tree/root/usr/src/"linux-headers-* "$chroot_dir/usr/src/"
	cp -al "$tree/root/usr/lib/"linux-kbuild-* "$chroot_dir/usr/lib/"
	mkdir -p "$chroot_dir/build"
	cp -a "$src" "$chroot_dir/build/mock"
	# objtool reads /proc; a private mount namespace takes the mount away with it
	unshare --mount --fork --pid --mount-proc="$chroot_dir/proc" \
		chroot "$chroot_dir" make -C "/usr/src/$(basename "$amd64")" M=/build/mock \
		CONFIG_DEBUG_INFO_BTF_MODULES= modules > "$log" 2>&1 ||
		{ echo "build-module: $name: module build failed in the trixie chroot; see $log" >&2; exit 1; }
	cp "$chroot_dir/build/mock/gt_mock_sched.ko" "$chroot_dir/build/mock/gt_kfd_node.ko" \
		"$chroot_dir/build/mock/gt_nvidia.ko" "$chroot_dir/build/mock/gt_vblank.ko" "$src/"
	if [ -n "$vkms_src" ]; then
		unshare --mount --fork --pid --mount-proc="$chroot_dir/proc" \
			chroot "$chroot_dir" make -C "/usr/src/$(basename "$amd64")" M=/build/mock/vkms \
			CONFIG_DEBUG_INFO_BTF_MODULES= CONFIG_DRM_VKMS=m modules > "$vkms_log" 2>&1 &&
			cp "$chroot_dir/build/mock/vkms/vkms.ko" "$src/vkms/" ||
			echo "build-module: $name: vkms did not build in the trixie chroot; see $vkms_log" >&2
	fi
fi
if [ -f "$src/vkms/vkms.ko" ]; then
	cp "$src/vkms/vkms.ko" "$tree/vkms.ko"
elif [ -n "$vkms_src" ]; then
	echo "$inputs" > "$tree/vkms.failed"	# not tried again until its inputs change
fi
cp "$src/gt_kfd_node.ko" "$tree/gt_kfd_node.ko"
cp "$src/gt_nvidia.ko" "$tree/gt_nvidia.ko"
cp "$src/gt_vblank.ko" "$tree/gt_vblank.ko"
cp "$src/gt_mock_sched.ko" "$out"
echo "$inputs" > "$out.inputs"
echo "$out"
