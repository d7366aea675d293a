#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-initramfs.sh NAME GPU_TRACE OUT: an uncompressed cpio for kernel NAME
# with busybox, gpu-trace and the libraries it links, the probes, the mock
# module, and the GPU modules with everything they depend on, decompressed
# (busybox insmod reads plain .ko) and listed in load order.
# Uncompressed because under TCG the kernel's own gunzip costs more than the
# bigger image does.
set -euo pipefail

name=${1:?usage: build-initramfs.sh NAME GPU_TRACE OUT}
gpu_trace=${2:?usage: build-initramfs.sh NAME GPU_TRACE OUT}
out=${3:?usage: build-initramfs.sh NAME GPU_TRACE OUT}
here=$(cd "$(dirname "$0")" && pwd)
cache=${VM_CACHE:-${HOME:-/root}/.cache/gpu-trace/vm}
tree=$cache/kernels/$name
want_modules="gpu-sched amdgpu vgem virtio-gpu"

busybox=/bin/busybox
if [ ! -x "$busybox" ] || ldd "$busybox" > /dev/null 2>&1; then
	echo "build-initramfs: no static busybox: apt-get install busybox-static" >&2
	exit 1
fi

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,dev,proc,sys,tmp,run,out,etc,lib/modules,sys/kernel/tracing}

cp "$busybox" "$stage/bin/busybox"
cp "$here/guest-init.sh" "$stage/init"
chmod 755 "$stage/init"
mkdir -p "$stage/lab"
cp "$here/guest-soak.sh" "$stage/lab/soak.sh"
cp "$gpu_trace" "$stage/bin/gpu-trace"
# trace-cmd, to time the same function_graph set-up against gpu-trace's
if command -v trace-cmd > /dev/null; then
	cp "$(command -v trace-cmd)" "$stage/bin/trace-cmd"
fi
for probe in kfd-probe drm-probe mock-client dmabuf-probe nvidia-client vblank-client flip-client; do
	cc -O2 -Wall -Wextra -Werror -I "$here/include" -o "$stage/bin/$probe" "$here/$probe.c"
done
# util-linux's unshare (busybox's makes no time namespace): top in one
unshare=$(command -v unshare) || { echo "build-initramfs: no unshare: apt-get install util-linux" >&2; exit 1; }
cp "$unshare" "$stage/bin/unshare-time"
# bash and the experiment script, for the lab's experiment on the mock driver
cp "$(command -v bash)" "$stage/bin/bash"
cp "$here/../../scripts/gpu-trace-experiment" "$stage/lab/gpu-trace-experiment"
echo "root:x:0:0:root:/:/bin/sh" > "$stage/etc/passwd"
echo "root:x:0:" > "$stage/etc/group"

# the shared libraries (and the loader) exactly as the host has them
for bin in "$stage/bin/"*; do
	[ "$bin" = "$stage/bin/busybox" ] && continue
	ldd "$bin" | grep -o '/[^ ]*' | while read -r lib; do
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done
done

# module dependencies from depmod run on the unpacked tree
release=$(basename "$(ls -d "$tree/root/usr/lib/modules/"* "$tree/root/lib/modules/"* 2> /dev/null | head -n1)")
moddir=$tree/root/lib/modules/$release
[ -d "$moddir" ] || moddir=$tree/root/usr/lib/modules/$release
if [ ! -f "$moddir/modules.dep" ]; then
	base=$tree/depmod-root
	rm -rf "$base"
	mkdir -p "$base/lib/modules"
	ln -s "$moddir" "$base/lib/modules/$release"
	depmod -b "$base" "$release"
fi

declare -A loaded=()
order=()
add_module() {	# path relative to moddir, dependencies first
	local path=$1 dep
	[ -n "${loaded[$path]:-}" ] && return
	loaded[$path]=1
	for dep in $(grep -E "^$path:" "$moddir/modules.dep" | cut -d: -f2); do
		add_module "$dep"
	done
	order+=("$path")
}
module_path() {
	grep -E "/$1\\.ko(\\.xz|\\.zst|\\.gz)?:" "$moddir/modules.dep" | cut -d: -f1 | head -n1  || true
}
for m in $want_modules; do
	path=$(module_path "$m")
	[ -n "$path" ] || { echo "build-initramfs: $name has no module $m" >&2; exit 1; }
	add_module "$path"
done
# the results disk: virtio_pci is built in on some kernels, a module on others;
# xe (6.8+) and i915 for their event formats (no Intel GPU: they load and bind nothing)
# vkms (build-module.sh builds it from the kernel's source): what it needs loads at boot,
# vkms itself in its scenario alone (its CRTC 0 beside the others' only there)
vkms_deps=
[ ! -f "$tree/vkms.ko" ] || vkms_deps=$(modinfo -F depends "$tree/vkms.ko" | tr ',' ' ') || vkms_deps=
for m in virtio_pci virtio_blk xe i915 $vkms_deps; do
	path=$(module_path "$m")
	[ -z "$path" ] || add_module "$path"
done
for path in "${order[@]}"; do
	ko=$(basename "$path")
	case $ko in
	*.xz)	xz -dc "$moddir/$path" > "$stage/lib/modules/${ko%.xz}"; ko=${ko%.xz} ;;
	*.zst)	zstd -qdc "$moddir/$path" > "$stage/lib/modules/${ko%.zst}"; ko=${ko%.zst} ;;
	*.gz)	gzip -dc "$moddir/$path" > "$stage/lib/modules/${ko%.gz}"; ko=${ko%.gz} ;;
	*)	cp "$moddir/$path" "$stage/lib/modules/$ko" ;;
	esac
	echo "$ko" >> "$stage/lib/modules/load-order"
done
# formats-only kernels (run.sh) have no mock module built
for ko in gt_mock_sched.ko gt_kfd_node.ko gt_nvidia.ko gt_vblank.ko vkms.ko; do
	[ ! -f "$tree/$ko" ] || cp "$tree/$ko" "$stage/lib/modules/"
done

(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$out.tmp"
mv "$out.tmp" "$out"
echo "$out"
