#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# gpu-trace top in the kernel lab (BENCHMARKS.md): one guest (VM_KERNELS'
# first kernel, default 6.1) boots with gt_lab=soak (tests/vm/guest-soak.sh)
# and
#   - runs the mock scheduler's stress batch (RUNS x 64 jobs of 50 us on two
#     rings) with no tracing, under `gpu-trace record -- cmd`, under
#     `gpu-trace top -- cmd` and with hist triggers joining each job in the
#     kernel (what a top on the kernel's aggregation would cost at most),
#     ROUNDS interleaved rounds (default 3); the batch times itself; the last
#     recording is kept (stress-record.dat) for bench/report.sh --files;
#   - runs `gpu-trace top --json -d 5` for SECONDS over a steady stream from a
#     new process every 0.6 s, sampling top's resident set every 10 s.
# Prints the medians as ratios to the untraced batch, top's and the histogram's
# job counts against what was submitted, and top's memory over time.  Needs
# root and qemu.
#   bench/top-soak.sh [SECONDS] [RUNS] [ROUNDS]
set -u
cd "$(dirname "$0")/.." || exit 1
SECONDS_SOAK=${1:-600}
RUNS=${2:-1000}
ROUNDS=${3:-3}
case $ROUNDS in
'' | *[!0-9]* | 0) echo "top-soak: ROUNDS must be a number of rounds, 1 or more"; exit 1 ;;
esac
KERNEL=${VM_KERNELS:-6.1}
KERNEL=${KERNEL%% *}
OUT=${VM_RESULTS:-build/vm}/soak-$KERNEL
[ "$(id -u)" = 0 ] || { echo "top-soak: needs root (the lab unpacks kernels)"; exit 1; }
command -v qemu-system-x86_64 > /dev/null || { echo "top-soak: needs qemu (sudo make deps)"; exit 1; }
[ -x ./gpu-trace ] || { echo "top-soak: build first: make gpu-trace"; exit 1; }

tests/vm/fetch-kernel.sh "$KERNEL" > /dev/null || { echo "top-soak: kernel $KERNEL unavailable"; exit 1; }
tests/vm/build-module.sh "$KERNEL" > /dev/null || { echo "top-soak: mock module did not build"; exit 1; }
echo "# top-soak: kernel $KERNEL, ${SECONDS_SOAK} s soak, stress $RUNS x 64 jobs x $ROUNDS rounds; results in $OUT"
# a round of 10,000 runs took 400-500 s under TCG on the 2-CPU VM
VM_APPEND="gt_lab=soak gt_soak=$SECONDS_SOAK gt_stress_runs=$RUNS gt_stress_rounds=$ROUNDS" \
VM_TIMEOUT=$((SECONDS_SOAK + 1200 + ROUNDS * RUNS / 20)) \
	tests/vm/run-vm.sh "$KERNEL" ./gpu-trace "$OUT" > /dev/null || exit 1

python3 - "$OUT" "$RUNS" <<'PY'
import glob, json, os, statistics, sys

out, runs = sys.argv[1], int(sys.argv[2])
steps = dict(l.split() for l in open(os.path.join(out, "steps")))
failed = [s for s, rc in steps.items() if rc != "0"]
if failed:
    print("top-soak: steps failed:", " ".join(failed))
times = {}
for line in open(os.path.join(out, "stress.times")):
    mode, t0, t1 = line.split()
    times.setdefault(mode, []).append(float(t1) - float(t0))
bare = statistics.median(times["bare"])
print(f"\nstress batch: {runs} x 64 jobs, medians of {len(times['bare'])} rounds")
print(f"    {'mode':10} {'time (s)':>9} {'vs bare':>8}")
for mode in ("bare", "record", "top", "hist"):
    t = statistics.median(times.get(mode, [float("nan")]))
    print(f"    {mode:10} {t:9.2f} {t / bare:8.3f}")
for f in sorted(glob.glob(os.path.join(out, "stress-top-*.jsonl"))):
    last = [json.loads(l) for l in open(f)][-1]
    jobs = sum(r["since_start"]["jobs"] for r in last["rings"])
    print(f"    {os.path.basename(f)}: top counted {jobs} jobs of {runs * 64} submitted")
# the kernel's histogram: its hits are the jobs it joined queue -> run -> done
for f in sorted(glob.glob(os.path.join(out, "stress-hist-*.txt"))):
    text = open(f).read()
    hits = [int(l.split()[-1]) for l in text.splitlines() if l.strip().startswith("Hits:")]
    dropped = [int(l.split()[-1]) for l in text.splitlines() if l.strip().startswith("Dropped:")]
    print(f"    {os.path.basename(f)}: the histogram joined {hits[0] if hits else '?'} jobs of "
          f"{runs * 64}, dropped {dropped[0] if dropped else '?'}")

rss = []
for line in open(os.path.join(out, "soak.rss")) if os.path.exists(os.path.join(out, "soak.rss")) else []:
    w = line.split()
    if "VmRSS:" in w:
        rss.append((float(w[0]), int(w[w.index("VmRSS:") + 1]), int(w[w.index("VmHWM:") + 1])))
intervals = [json.loads(l) for l in open(os.path.join(out, "soak.jsonl"))]
if not rss or not intervals:
    print("\nsoak: no samples (too short?)")
    sys.exit(0)
t0 = rss[0][0]
print(f"\nsoak: {len(intervals)} intervals of 5 s, {len(rss)} samples of top's memory")
for t, r, hwm in rss[:: max(1, len(rss) // 8)] + [rss[-1]]:
    print(f"    {t - t0:6.0f} s  VmRSS {r:6d} kB  VmHWM {hwm:6d} kB")
jobs = sum(r["since_start"]["jobs"] for r in intervals[-1]["rings"])
pids = {p["pid"] for iv in intervals for p in iv["processes"]}
rows = max(len(iv["processes"]) for iv in intervals)
late = [r for t, r, _ in rss if t - t0 >= 60]
print(f"    jobs {jobs}, processes seen {len(pids)}, most rows in one interval {rows}")
if late:
    print(f"    after the first minute: VmRSS {min(late)}..{max(late)} kB "
          f"(growth {max(late) - late[0]} kB over {rss[-1][0] - t0 - 60:.0f} s)")
PY
