#!/usr/bin/env bash
# The flight recorder's CPU cost on this machine (BENCHMARKS.md): record
# --flight-recorder reading a steady stream of events at each rate (paced
# getppid calls of build/storm, each one sys_enter_getppid record, as a GPU's
# jobs are a steady stream of records), its own CPU time (utime + stime of
# /proc/PID/stat) over the stream's seconds. 60,000 records a second is
# 10,000 GPU jobs a second at six records a job (queue, run, done and their
# fences). These records are not GPU events: the join decodes none of them,
# so this is the reading and keeping of pages; the lab's figure
# (tests/vm/check-results.py, the mock's jobs under TCG) has the join's share.
#   [sudo] bench/flight-cost.sh [SECONDS] [RATE...]   (default 10 s; 0 6000 60000 120000)
set -u
cd "$(dirname "$0")/.." || exit 1
GT=./gpu-trace
ST=build/storm
[ -x "$GT" ] && [ -x "$ST" ] || { echo "make gpu-trace build/storm first" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "needs root (tracefs): sudo bench/flight-cost.sh" >&2; exit 1; }
secs=${1:-10}
shift
rates=${*:-0 6000 60000 120000}
hz=$(getconf CLK_TCK)

# shellcheck disable=SC2046 # the fields of stat, split on purpose
ticks() { set -- $(cut -d')' -f2- "/proc/$1/stat"); echo $(( ${12} + ${13} )); }
now_cs() { read -r up _ < /proc/uptime; echo "${up%.*}${up#*.}"; }

printf '%-12s %-10s %-12s %s\n' "records/s" "jobs/s" "recorder CPU" "lost"
for rate in $rates; do
	d=$(mktemp -d "${TMPDIR:-/tmp}/gpu-trace-flight-cost.XXXXXX")
	"$GT" record --flight-recorder=64M -e dma_fence -e syscalls:sys_enter_getppid \
		-o "$d" 2> "$d/log" &
	pid=$!
	for ((i = 0; i < 200; i++)); do grep -qs 'triggers:' "$d/log" && break; sleep 0.05; done
	c0=$(ticks $pid)
	t0=$(now_cs)
	if [ "$rate" = 0 ]; then
		sleep "$secs"
	else
		"$ST" $((rate * secs)) getppid "$rate" > /dev/null
	fi
	c1=$(ticks $pid)
	t1=$(now_cs)
	# a dump of what it holds says whether the kernel lost any of the stream
	kill -USR1 $pid
	for ((i = 0; i < 200; i++)); do grep -q 'dumped ' "$d/log" && break; sleep 0.05; done
	kill -TERM $pid
	wait $pid
	lost=$("$GT" report --format json "$d"/gpu-trace-*-signal.dat 2> /dev/null |
		python3 -c 'import json,sys; l = json.load(sys.stdin)["lost"]; print(l["in_band"])' 2> /dev/null)
	awk -v c=$((c1 - c0)) -v hz="$hz" -v cs=$((t1 - t0)) -v r="$rate" -v lost="${lost:-?}" \
		'BEGIN { printf "%-12d %-10d %-12s %s\n", r, r / 6, sprintf("%.2f%%", c / hz / (cs / 100) * 100), lost }'
	rm -rf "$d"
done
