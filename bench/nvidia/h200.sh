#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The real-driver check of record --preset nvidia (issue 45), for a machine with
# an NVIDIA GPU and its driver, run from the repository root:
#
#   here:     make gpu-trace && bench/nvidia/h200.sh --prepare
#             (builds cuda-load and copies gpu-trace's shared libraries into
#             build/nvidia: that folder is what the machine needs of this one)
#   there:    OUT=DIR bench/nvidia/h200.sh     (as root; the device tool's $OUT)
#
# There it says what the machine is (kernel, driver, tracefs, kprobes, lockdown),
# runs gpu-trace check and list, records cuda-load (a driver-API workload: PTX
# loaded by the driver, launches, synchronizations) with --preset nvidia, and
# reports the file in text, JSON and --events. Everything lands in $OUT; the last
# line says what worked. docs/report.md, "NVIDIA", keeps what it showed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
carry=$root/build/nvidia

if [ "${1:-}" = --prepare ]; then
	mkdir -p "$carry/lib"
	cc -std=gnu11 -O2 -Wall -Wextra -o "$carry/cuda-load" "$here/cuda-load.c" -ldl || exit 1
	# the libraries gpu-trace links that a CUDA image lacks (Debian 12's builds)
	ldd "$root/gpu-trace" | awk '/=> \// { print $3 }' |
		grep -E 'lib(tracefs|traceevent|tracecmd|zstd)\.so' |
		while read -r lib; do cp -L "$lib" "$carry/lib/"; done
	cp "$root/gpu-trace" "$carry/"
	echo "h200: build/nvidia ready ($(du -sh "$carry" | cut -f1)): carry it to the machine"
	exit 0
fi

OUT=${OUT:-/tmp/gpu-trace-h200}
mkdir -p "$OUT"
GT=$carry/gpu-trace
export LD_LIBRARY_PATH=$carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
log() { echo "$*" | tee -a "$OUT/summary.txt"; }
worked=()

{
	echo "== uname"; uname -a
	echo "== driver"; cat /proc/driver/nvidia/version 2>&1
	echo "== nvidia-smi"; nvidia-smi -L 2>&1
	echo "== modules"; grep -E '^nvidia' /proc/modules 2>&1
	echo "== tracefs"; grep tracefs /proc/mounts 2>&1
	echo "== kprobe_events"; ls -l /sys/kernel/tracing/kprobe_events 2>&1
	echo "== lockdown"; cat /sys/kernel/security/lockdown 2>&1
	echo "== nvidia symbols in kallsyms"; grep -c '\[nvidia\]' /proc/kallsyms 2>&1
} > "$OUT/machine.txt" 2>&1
log "h200: machine: $(uname -r), $(nvidia-smi -L 2>/dev/null | head -1 || echo 'no nvidia-smi')"

[ -x "$GT" ] || { log "h200: no $GT: run bench/nvidia/h200.sh --prepare where it was built and carry build/nvidia"; exit 1; }
"$GT" --version > "$OUT/version.txt" 2>&1 || { log "h200: gpu-trace does not run here: $(tail -1 "$OUT/version.txt")"; exit 1; }

"$GT" check > "$OUT/check.txt" 2>&1
log "h200: check exit $?: $(grep -ciE '^(ok|warn|fail)' "$OUT/check.txt") lines, $(grep -c '^FAIL' "$OUT/check.txt") FAIL"
"$GT" list --preset nvidia > "$OUT/list.txt" 2>&1
log "h200: list --preset nvidia exit $?: $(grep -c 'present' "$OUT/list.txt") present, $(grep -c 'missing' "$OUT/list.txt") missing"

"$carry/cuda-load" 2 5 > "$OUT/cuda-load-alone.txt" 2>&1
rc=$?
log "h200: cuda-load alone exit $rc: $(tail -1 "$OUT/cuda-load-alone.txt")"
[ $rc = 0 ] && worked+=("cuda-load")

"$GT" record --preset nvidia -o "$OUT/h200.dat" -- "$carry/cuda-load" 20 50 > "$OUT/record.txt" 2>&1
rc=$?
log "h200: record --preset nvidia exit $rc: $(tail -1 "$OUT/record.txt")"
[ $rc = 0 ] && worked+=("record")
if [ -s "$OUT/h200.dat" ]; then
	"$GT" report "$OUT/h200.dat" > "$OUT/report.txt" 2>&1
	log "h200: report exit $?: $(grep -A3 '^NVIDIA' "$OUT/report.txt" | head -4 | tr '\n' '|')"
	"$GT" report --format json -o "$OUT/report.json" "$OUT/h200.dat" > /dev/null 2>&1 &&
		worked+=("report")
	"$GT" report --events --no-pager "$OUT/h200.dat" 2> /dev/null | head -2000 > "$OUT/events.txt"
	# ioctls, ISR latency, UVM and Xids: what the issue asks to see sane
	python3 - "$OUT/report.json" > "$OUT/nvidia-check.txt" 2>&1 <<'PY' && worked+=("nvidia view")
import json, sys
d = json.load(open(sys.argv[1]))
n = d.get("nvidia")
assert n, "no nvidia section"
print("keys:", sorted(n))
for k in ("ioctls", "interrupts", "uvm", "xids"):
    v = n.get(k)
    print(k, json.dumps(v)[:600] if v is not None else None)
PY
	log "h200: nvidia view: $(head -1 "$OUT/nvidia-check.txt")"
fi
log "h200: worked: ${worked[*]:-nothing}"
