#!/usr/bin/env bash
# Event-storm benchmark (BENCHMARKS.md). One CPU makes N getppid() calls with
# syscalls:sys_enter_getppid/sys_exit_getppid enabled (2 events per call) while
#   - nothing traces                     (bare)
#   - a raw baseline recorder reads      (cat per_cpu/cpuN/trace_pipe_raw > file, per CPU)
#   - gpu-trace record -a reads          (default ladder buffer; no pid filter, as the baseline)
#   - gpu-trace record reads             (its default for a command: these non-GPU events in
#                                          the workload's instance, set_event_pid + event-fork)
#   - gpu-trace record --system-wide-events (as GPU events always are with a command: the main
#                                          instance, no pid filter, plus the pid-tree instance)
#   - gpu-trace top reads                (the same events as a live stream into the join,
#                                          --json every 0.5 s, until the command ends)
#   - trace-cmd record reads, if it runs (needs -d --no-filter here, exits 1)
# then record -- cmd with and without its CPU side (--no-cpu-side) in storms of
# getppid, of ioctls its filter refuses and of GPU-typed ioctls it keeps.
# Each is run ROUNDS times; medians are reported. Needs root. Leaves tracefs as found.
#   bench/event-storm.sh [CALLS] [ROUNDS]
set -u
cd "$(dirname "$0")/.."
CALLS=${1:-2000000}
ROUNDS=${2:-3}
TFS=/sys/kernel/tracing
GT=./gpu-trace
STORM=build/storm
CPU=$(($(nproc) - 1))
W=$(mktemp -d /tmp/gt-bench.XXXXXX)
EVENTS="syscalls/sys_enter_getppid syscalls/sys_exit_getppid"
[ "$(id -u)" = 0 ] || { echo "bench: needs root (sudo make bench)"; exit 1; }
[ -x "$GT" ] && [ -x "$STORM" ] || { echo "bench: build first: make gpu-trace build/storm"; exit 1; }

BASE=gt-bench-raw-$$
TCI=gt-bench-tc-$$
cleanup() {
	[ -d "$TFS/instances/$BASE" ] && rmdir "$TFS/instances/$BASE"
	[ -d "$TFS/instances/$TCI" ] && { echo 0 > "$TFS/instances/$TCI/events/enable"; rmdir "$TFS/instances/$TCI"; }
	rm -rf "$W"
}
trap cleanup EXIT

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

storm() { taskset -c "$CPU" "$STORM" "$CALLS"; }

run_bare() { storm; }

# The same instance set-up gpu-trace makes, read by plain cat.
run_raw() {
	local d=$TFS/instances/$BASE c e pids=() t read=0 lost=0
	mkdir "$d" || return 1
	echo 0 > "$d/tracing_on"
	echo 16384 > "$d/buffer_size_kb"
	echo mono > "$d/trace_clock"
	for e in $EVENTS; do echo 1 > "$d/events/$e/enable"; done
	for c in "$d"/per_cpu/cpu*; do
		cat "$c/trace_pipe_raw" > "$W/raw.${c##*cpu}" &
		pids+=($!)
	done
	echo 1 > "$d/tracing_on"
	t=$(storm)
	echo 0 > "$d/tracing_on"
	sleep 0.5
	for c in "$d"/per_cpu/cpu*; do
		read=$((read + $(awk '/^read events:/ { print $3 }' "$c/stats")))
		lost=$((lost + $(awk '/^overrun:/ { print $2 }' "$c/stats")))
	done
	kill "${pids[@]}" 2> /dev/null
	wait "${pids[@]}" 2> /dev/null
	for e in $EVENTS; do echo 0 > "$d/events/$e/enable"; done
	rmdir "$d"
	echo "$t $read $lost $(du -cb "$W"/raw.* | tail -1 | cut -f1)"
	rm -f "$W"/raw.*
}

run_gpu_trace_a() { GT_SCOPE=-a run_gpu_trace; }

run_gpu_trace_wide() { GT_SCOPE=--system-wide-events run_gpu_trace; }

run_gpu_trace() {
	local t out=$W/gt.dat
	t=$("$GT" record ${GT_SCOPE:-} -e syscalls:sys_enter_getppid -e syscalls:sys_exit_getppid -o "$out" -- \
		taskset -c "$CPU" "$STORM" "$CALLS" 2> "$W/gt.err") || { cat "$W/gt.err" >&2; return 1; }
	local n lost
	n=$(sed -n 's/^recorded \([0-9]*\) event.*/\1/p' "$W/gt.err")
	lost=$(awk '/^lost:/ { if ($2 == "0") print 0; else { s = 0; for (i = 3; i <= NF; i += 6) s += $i; print s } }' "$W/gt.err")
	echo "$t $n ${lost:-?} $(stat -c %s "$out")"
	rm -f "$out"
}

# top reads the same storm live; dma_fence (quiet here) makes it a GPU view
run_gpu_trace_top() {
	local t
	t=$("$GT" top -e dma_fence -e syscalls:sys_enter_getppid -e syscalls:sys_exit_getppid \
		--json -d 0.5 -- taskset -c "$CPU" "$STORM" "$CALLS" 2> "$W/top.err" | grep -E '^[0-9]+\.[0-9]+$') ||
		{ cat "$W/top.err" >&2; return 1; }
	echo "$t 0 ? 0"
}

run_trace_cmd() {
	local t out=$W/tc.dat n
	command -v trace-cmd > /dev/null || return 1
	t=$(trace-cmd record -d --no-filter -B "$TCI" -b 16384 -C mono -e syscalls:sys_enter_getppid \
		-e syscalls:sys_exit_getppid -o "$out" taskset -c "$CPU" "$STORM" "$CALLS" 2> "$W/tc.err" |
		grep -E '^[0-9]+\.[0-9]+$')
	[ -n "$t" ] && [ -s "$out" ] || return 1
	n=$(trace-cmd report -i "$out" 2> /dev/null | grep -c -e 'sys_getppid' -e 'sys_enter_getppid' -e 'sys_exit_getppid')
	echo "$t $n ? $(stat -c %s "$out")"
	[ -d "$TFS/instances/$TCI" ] && { echo 0 > "$TFS/instances/$TCI/events/enable"; rmdir "$TFS/instances/$TCI"; }
	rm -f "$out"
}

echo "# event storm: $CALLS getppid calls on CPU $CPU, $ROUNDS rounds, kernel $(uname -r), $(nproc) CPUs"
for kind in bare raw gpu_trace_a gpu_trace gpu_trace_wide gpu_trace_top trace_cmd; do
	: > "$W/$kind"
	for r in $(seq "$ROUNDS"); do
		"run_$kind" >> "$W/$kind" 2>> "$W/$kind.log" || { echo "# $kind: did not run ($(tail -1 "$W/$kind.log" 2>/dev/null))"; : > "$W/$kind"; break; }
	done
done

bare=$(cut -d' ' -f1 "$W/bare" | median)
raw_t=$(cut -d' ' -f1 "$W/raw" | median)
printf '%-12s %10s %12s %12s %10s %10s %14s\n' recorder "time (s)" events "events/s" "MB/s" lost "vs raw time"
for kind in bare raw gpu_trace_a gpu_trace gpu_trace_wide gpu_trace_top trace_cmd; do
	[ -s "$W/$kind" ] || continue
	t=$(cut -d' ' -f1 "$W/$kind" | median)
	if [ "$kind" = bare ]; then
		printf '%-12s %10.3f %12s %12s %10s %10s %14s\n' "$kind" "$t" - - - - -
		continue
	fi
	n=$(cut -d' ' -f2 "$W/$kind" | median)
	lost=$(cut -d' ' -f3 "$W/$kind" | sort -g | tail -1)
	bytes=$(cut -d' ' -f4 "$W/$kind" | median)
	printf '%-12s %10.3f %12s %12.0f %10.1f %10s %14.3f\n' "$kind" "$t" "$n" \
		"$(echo "$n / $t" | bc -l)" "$(echo "$bytes / 1048576 / $t" | bc -l)" "$lost" \
		"$(echo "$t / $raw_t" | bc -l)"
done
echo "# expected events: $((CALLS * 2)); bare run: ${bare}s"

# The CPU side's cost (issue 46): record -- cmd with it (the default) and without it
# (--no-cpu-side), in three storms: getppid (what it adds is the workload's sched and
# irq events), ioctls its in-kernel filter refuses (TCGETS: the cost of the check)
# and GPU-typed ioctls it keeps (every one recorded, enter and exit).
run_cpu_side() {	# STORM_KIND [record options]
	local kind=$1 t out=$W/cpu.dat n lost
	shift
	t=$("$GT" record "$@" -e sched:sched_process_exec -o "$out" -- \
		taskset -c "$CPU" "$STORM" "$CALLS" "$kind" 2> "$W/cpu.err") || { cat "$W/cpu.err" >&2; return 1; }
	n=$(sed -n 's/^recorded \([0-9]*\) event.*/\1/p' "$W/cpu.err")
	lost=$(awk '/^lost:/ { if ($2 == "0") print 0; else { s = 0; for (i = 3; i <= NF; i += 6) s += $i; print s } }' "$W/cpu.err")
	echo "$t $n ${lost:-?} $(stat -c %s "$out")"
	rm -f "$out"
}

echo
echo "# the CPU side: record -- cmd with it and with --no-cpu-side, $CALLS calls, $ROUNDS rounds"
printf '%-12s %12s %12s %12s %10s %14s\n' storm "off (s)" "on (s)" "on events" lost "on vs off"
for kind in getppid ioctl gpu-ioctl; do
	: > "$W/cpu-off"
	: > "$W/cpu-on"
	for _ in $(seq "$ROUNDS"); do
		run_cpu_side "$kind" --no-cpu-side >> "$W/cpu-off" 2>> "$W/cpu.log" &&
			run_cpu_side "$kind" >> "$W/cpu-on" 2>> "$W/cpu.log" ||
			{ echo "# $kind: did not run ($(tail -1 "$W/cpu.log"))"; continue 2; }
	done
	off=$(cut -d' ' -f1 "$W/cpu-off" | median)
	on=$(cut -d' ' -f1 "$W/cpu-on" | median)
	printf '%-12s %12.3f %12.3f %12s %10s %14.3f\n' "$kind" "$off" "$on" \
		"$(cut -d' ' -f2 "$W/cpu-on" | median)" "$(cut -d' ' -f3 "$W/cpu-on" | sort -g | tail -1)" \
		"$(echo "$on / $off" | bc -l)"
done
