#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-vm.sh NAME GPU_TRACE OUTDIR: boot Debian kernel NAME under qemu (TCG)
# with the lab's initramfs and unpack what the guest recorded into OUTDIR:
# mock-*.dat + mock-*.truth, kfd.dat, virtio.dat, formats/, steps, dmesg,
# console.log.  Exits non-zero when no results came back.
set -euo pipefail

name=${1:?usage: run-vm.sh NAME GPU_TRACE OUTDIR}
gpu_trace=${2:?usage: run-vm.sh NAME GPU_TRACE OUTDIR}
outdir=${3:?usage: run-vm.sh NAME GPU_TRACE OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
cache=${VM_CACHE:-${HOME:-/root}/.cache/gpu-trace/vm}
timeout=${VM_TIMEOUT:-900}
append=${VM_APPEND:-}	# more kernel command line: gt_lab=soak (bench/top-soak.sh), gt_lab=formats
export VM_CACHE=$cache

tree=$("$here/fetch-kernel.sh" "$name")
# gt_lab=formats guests load no module of ours
case " $append " in
*" gt_lab=formats "*) ;;
*) "$here/build-module.sh" "$name" > /dev/null ;;
esac
rm -rf "$outdir"
mkdir -p "$outdir"
"$here/build-initramfs.sh" "$name" "$gpu_trace" "$outdir/initramfs.cpio" > /dev/null

# One TCG thread: multi-threaded TCG now and then crashes or soft-locks while
# the kernel patches its own code (as it does when the function tracer starts).
truncate -s 1G "$outdir/results.img"	# sparse: the guest writes a tar onto it
start=$(date +%s)
start_ns=$(date +%s%N)
timeout "$timeout" qemu-system-x86_64 -accel tcg,thread=single -cpu max -smp 2 -m 2048 \
	-kernel "$tree/vmlinuz" -initrd "$outdir/initramfs.cpio" \
	-append "console=ttyS0 rdinit=/init panic=-1 oops=panic loglevel=4 mitigations=off${append:+ $append}" \
	-display none -monitor none -nic none -no-reboot \
	-serial "file:$outdir/console.log" \
	-drive "file=$outdir/results.img,format=raw,if=virtio" \
	-device virtio-gpu-pci > "$outdir/qemu.log" 2>&1 || {
	rc=$?
	echo "run-vm: $name: qemu exited $rc after $(( $(date +%s) - start )) s (124: timed out); see $outdir/console.log" >&2
}
echo "$(( $(date +%s) - start ))" > "$outdir/seconds"
# the host's UTC while the guest ran: its recordings' clock pairs must put them inside it
echo "$start_ns $(date +%s%N)" > "$outdir/host-utc"
rm -f "$outdir/initramfs.cpio"
tar -xf "$outdir/results.img" -C "$outdir" 2> /dev/null || true
rm -f "$outdir/results.img"
if [ ! -f "$outdir/steps" ]; then
	echo "run-vm: $name: the guest sent no results; see $outdir/console.log" >&2
	exit 1
fi
echo "$outdir"
