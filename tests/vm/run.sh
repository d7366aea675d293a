#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh GPU_TRACE: the kernel lab.  For each kernel in VM_KERNELS (default
# "5.10 6.1 6.12 7.3"): fetch it, build the mock scheduler module against it,
# boot it under qemu with gpu-trace inside, and compare what gpu-trace
# recorded with the ground truth (check-results.py), VM_JOBS guests at once
# (default: one per CPU, at most 4).  Kernels in
# VM_FORMATS_ONLY (default 5.10) boot without the module: fresh boot, check
# and their formats only.  Results land in
# VM_RESULTS (default build/vm/<kernel>).  Ends with "N passed, N failed,
# N skipped"; what cannot run here says SKIP and why.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
gpu_trace=$(readlink -f "${1:-$root/gpu-trace}")
kernels=${VM_KERNELS:-5.10 6.1 6.12 7.3}
results=${VM_RESULTS:-$root/build/vm}
export VM_CACHE=${VM_CACHE:-${HOME:-/root}/.cache/gpu-trace/vm}
pass=0
fail=0
skipped=0

skip() {
	echo "SKIP - $1"
	skipped=$((skipped + 1))
}

missing=
[ "$(id -u)" = 0 ] || missing="root (the lab unpacks kernels and chroots)"
for tool in qemu-system-x86_64 cpio depmod xz; do
	command -v "$tool" > /dev/null || missing="${missing:+$missing, }$tool"
done
[ -x /bin/busybox ] || missing="${missing:+$missing, }busybox-static"
if [ -n "$missing" ]; then
	for k in $kernels; do
		skip "kernel lab $k: this machine lacks $missing (sudo make deps installs them)"
	done
	echo "$pass passed, $fail failed, $skipped skipped"
	exit 0
fi

mkdir -p "$results"
# Each guest runs on one host CPU (qemu's single TCG thread): with two or more,
# guests run side by side, the newest (longest) kernels first (VM_JOBS: how
# many at once; default the CPUs, at most 4: each guest takes 2 GB)
jobs=${VM_JOBS:-$(nproc 2> /dev/null || echo 1)}
[ "$jobs" -ge 1 ] 2> /dev/null || jobs=1
[ "$jobs" -le 4 ] || jobs=4
echo "# kernel lab: $gpu_trace in $kernels; cache $VM_CACHE; $jobs at a time"

# one_kernel K: everything of kernel K, its lines on standard output. What runs
# here beside another kernel's guest (unpacking packages, building the module, the
# checks' reports on both CPUs) runs at the lowest priority: a guest's jobs and
# timers are what its checks weigh, and a TCG guest short of its host CPU
# stretches every job of a run
one_kernel() {
	local k=$1 start append out
	start=$(date +%s)
	if ! nice -n 19 "$here/fetch-kernel.sh" "$k" > "$results/fetch-$k.log" 2>&1; then
		echo "SKIP - kernel lab $k: its Debian packages could not be had: $(tail -n1 "$results/fetch-$k.log")"
		return
	fi
	# 5.10: no compiler here builds modules for it (gcc-10); formats only
	append=
	case " ${VM_FORMATS_ONLY:-5.10} " in
	*" $k "*) append=gt_lab=formats ;;
	esac
	if [ -z "$append" ] && ! nice -n 19 "$here/build-module.sh" "$k" > "$results/module-$k.log" 2>&1; then
		echo "not ok - kernel lab $k: $(tail -n1 "$results/module-$k.log")"
		return
	fi
	if ! VM_APPEND=$append "$here/run-vm.sh" "$k" "$gpu_trace" "$results/$k" > "$results/vm-$k.log" 2>&1; then
		echo "not ok - kernel lab $k: $(tail -n1 "$results/vm-$k.log")"
		tail -n 20 "$results/$k/console.log" 2> /dev/null | sed 's/^/#   /'
		return
	fi
	out=$(nice -n 19 python3 "$here/check-results.py" "$k" "$results/$k" "$gpu_trace" \
		"$root/tests/fixtures/formats" 2>&1)
	echo "$out"
	grep -q '^not ok - ' <<< "$out" && tail -n 30 "$results/$k/console.log" | sed 's/^/#   /'
	echo "# $k: $(( $(date +%s) - start )) s in all (fetch, module, boot, checks)"
}

# the newest first: they take longest, the short ones fill in behind them
order=$(printf '%s\n' $kernels | sort -rV)
running=0
for k in $order; do
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
	one_kernel "$k" > "$results/lab-$k.out" 2>&1 &
	running=$((running + 1))
done
wait
# each kernel's lines together, in the order asked for
for k in $kernels; do
	out=$(cat "$results/lab-$k.out" 2> /dev/null)
	[ -n "$out" ] || out="not ok - kernel lab $k: it said nothing (see $results)"
	echo "$out"
	pass=$((pass + $(grep -c '^ok - ' <<< "$out")))
	fail=$((fail + $(grep -c '^not ok - ' <<< "$out")))
	skipped=$((skipped + $(grep -ci '^skip - ' <<< "$out")))
done
# the guests as hosts of their own: their recordings on one UTC axis
out=$(python3 "$here/check-hosts.py" "$results" "$gpu_trace" $kernels 2>&1 | grep -v 'passed, .* failed')
echo "$out"
pass=$((pass + $(grep -c '^ok - ' <<< "$out")))
fail=$((fail + $(grep -c '^not ok - ' <<< "$out")))
skipped=$((skipped + $(grep -ci '^skip - ' <<< "$out")))
echo "$pass passed, $fail failed, $skipped skipped"
[ "$fail" = 0 ]
