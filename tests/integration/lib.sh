# Helpers for the integration suite: real binary, real tracefs, no mocks.
# shellcheck shell=bash

PASS=0
FAIL=0
SKIPPED=0
TFS=${TFS:-/sys/kernel/tracing}
ROOT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
INSPECT=$ROOT_DIR/build/dat-inspect

ok() { echo "ok - $1"; PASS=$((PASS + 1)); }
not_ok() { echo "not ok - $1: $2"; FAIL=$((FAIL + 1)); }
skip() { echo "skip - $1: $2"; SKIPPED=$((SKIPPED + 1)); }

# Each test_* function returns 0 (pass), 1 (fail, reason in WHY) or 77 (skip).
run_test() {
	local name=$1 rc start=$SECONDS
	WHY=""
	"$name"
	rc=$?
	# GT_TEST_TIMES=FILE: seconds per test, to find what makes the suite long
	[ -n "${GT_TEST_TIMES:-}" ] && echo "$((SECONDS - start)) ${name#test_}" >> "$GT_TEST_TIMES"
	case $rc in
	0) ok "${name#test_}" ;;
	77) skip "${name#test_}" "$WHY" ;;
	*) not_ok "${name#test_}" "${WHY:-failed}" ;;
	esac
}

# expect COND-COMMAND... with WHY set from the message on failure
expect() {
	local msg=$1
	shift
	if ! "$@"; then
		WHY=$msg
		return 1
	fi
}

# Every tracefs file a record run may touch, plus options and instances.
tracefs_snapshot() {
	local f
	for f in current_tracer tracing_on trace_clock buffer_size_kb buffer_percent \
		set_event set_event_pid set_event_notrace_pid set_ftrace_filter \
		set_ftrace_notrace set_ftrace_pid set_graph_function max_graph_depth \
		tracing_cpumask saved_cmdlines_size tracing_thresh events/enable; do
		[ -e "$TFS/$f" ] || continue
		printf '== %s\n' "$f"
		if [ "$f" = buffer_size_kb ] && [ -n "${SNAPSHOT_BUFFER_PAGES:-}" ]; then
			buffer_pages
		else
			cat "$TFS/$f" 2>&1 | sed "s/^cat: .*: /cat: /"
		fi
	done
	for f in "$TFS"/options/*; do
		printf '%s=%s\n' "${f##*/}" "$(cat "$f" 2>/dev/null)"
	done
	printf '== instances\n'
	ls "$TFS/instances"
	for f in "$TFS"/events/*/enable; do
		printf '%s=%s\n' "$f" "$(cat "$f")"
	done | grep -v '=0$'
	printf '== uprobes\n'
	cat "$TFS/uprobe_events" 2>/dev/null
}

# The top-level buffer, once used, cannot go back to "7 (expanded: 1408)";
# a restore writes 1408 and the kernel rounds to whole pages.
buffer_pages() {
	local v
	v=$(cat "$TFS/buffer_size_kb")
	case $v in *expanded:*) v=${v##*expanded: }; v=${v%)} ;; esac
	echo "pages $(((v * 1024 + 4079) / 4080))"
}

# Compare tracefs now with $WORK/snap.before; WHY names the difference.
same_as_before() {
	tracefs_snapshot > "$WORK/snap.after"
	if ! diff -u "$WORK/snap.before" "$WORK/snap.after" > "$WORK/snap.diff"; then
		WHY="tracefs changed after $1: $(grep '^[-+][^-+]' "$WORK/snap.diff" | head -6 | tr '\n' ' ')"
		return 1
	fi
}

# nobody_dir NAME: $WORK/NAME, a directory nobody (65534) may write in, for
# records under SUDO_UID=65534 (their output is made with the user's rights)
nobody_dir() {
	mkdir -p "$WORK/$1" && chown 65534:65534 "$WORK/$1" && echo "$WORK/$1"
}

# tmux on a server of this suite's own (its socket in $WORK, removed with it):
# the report and record parts run side by side, and the default server exits
# when its last session is killed, so a session the other part made in that
# moment was refused ("server exited unexpectedly"), as Xvfb's reset refused
# KernelShark
tmux() { command tmux -S "$WORK/tmux.sock" "$@"; }

# pane_when SESSION FILE PATTERN: the tmux pane into FILE once PATTERN shows (15 s at most)
pane_when() {
	local i
	for i in $(seq 75); do
		tmux capture-pane -p -t "$1" > "$2" 2> /dev/null
		grep -q "$3" "$2" && return 0
		sleep 0.2
	done
	return 1
}

# workload_running PID COMM: waits (30 s at most) until record PID's workload
# runs as COMM. record starts its workload only once recording has begun; a
# signal before that ends record with nothing recorded, as it should, so a
# test of a signal mid-recording waits for this, not for a line of set-up
# (under load set-up outlasts any fixed sleep).
workload_running() {
	local i
	for i in $(seq 300); do
		ps -o comm= --ppid "$1" 2> /dev/null | grep -qx "$2" && return 0
		kill -0 "$1" 2> /dev/null || return 1
		sleep 0.1
	done
	return 1
}

# zeroed_copy DAT COPY: COPY is DAT with the second page of CPU 1's data all
# zeros (a damaged copy: its records lost, their number unknown); trace-cmd
# dump finds the data. 1 with WHY where it cannot
zeroed_copy() {
	local off
	off=$(trace-cmd dump --flyrecord "$1" 2> /dev/null | awk '/size of cpu 1]/ {print $1}')
	[ -n "$off" ] || { WHY="trace-cmd dump named no CPU 1 data in $1"; return 1; }
	cp "$1" "$2" && python3 -c 'import sys
with open(sys.argv[1], "r+b") as f:
    f.seek(int(sys.argv[2]) + 4096)
    f.write(bytes(4096))' "$2" "$off" || { WHY="cannot zero a page of $2"; return 1; }
}

# zeroed_kfd_snapshot COPY: the kfd-snapshot scenario's zeroed_copy; 77 with
# WHY without trace-cmd
zeroed_kfd_snapshot() {
	command -v trace-cmd > /dev/null || { WHY="trace-cmd is not installed (its dump finds the page)"; return 77; }
	"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" kfd-snapshot "$1.orig" > /dev/null ||
		{ WHY="make-fixture failed"; return 1; }
	zeroed_copy "$1.orig" "$1"
}

# time_namespace_behind: sets BEHIND to seconds a new time namespace's
# CLOCK_MONOTONIC can run behind the kernel's (the kernel refuses an offset
# that makes it negative: half the uptime, at most 100 s); 77 with WHY where
# unshare cannot make one
time_namespace_behind() {
	BEHIND=$(( $(cut -d. -f1 /proc/uptime) / 2 ))
	[ "$BEHIND" -gt 100 ] && BEHIND=100
	[ "$BEHIND" -ge 1 ] || { WHY="up for under 2 s: no offset a time namespace could take"; return 77; }
	unshare -T --fork --monotonic=-"$BEHIND" true 2> /dev/null ||
		{ WHY="no time namespaces here (unshare -T --monotonic, kernel 5.6+)"; return 77; }
}

# not COMMAND...: succeeds when the command fails (for expect)
not() { ! "$@"; }

count_lines() { grep -c '' "$1"; }

dat_field() { "$INSPECT" "$1" | awk -v k="$2" '$1 == k { print $2; exit }'; }

reported_events() { sed -n 's/^recorded \([0-9]*\) event.*/\1/p' "$1"; }

trace_cmd_events() { trace-cmd report -i "$1" 2>/dev/null | grep -vc '^cpus='; }

# A Perfetto trace as text against Perfetto's field numbers (tests/perfetto/trace.proto), and back
pf_decode() {
	protoc --proto_path="$ROOT_DIR/tests/perfetto" --decode=gt.Trace "$ROOT_DIR/tests/perfetto/trace.proto"
}
pf_encode() {
	protoc --proto_path="$ROOT_DIR/tests/perfetto" --encode=gt.Trace "$ROOT_DIR/tests/perfetto/trace.proto"
}

gt_instances() { ls "$TFS/instances" | grep '^gpu-trace-' || true; }

# test_cgroup NAME: a cgroup2 cgroup made for a test, in CGROUP (77 when the
# machine has no writable cgroup2); with a process in it for the test's length,
# as a container's init (CGROUP_INIT). drop_test_cgroup removes both.
test_cgroup() {
	local mnt
	mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
	[ -n "$mnt" ] && [ -w "$mnt" ] || { WHY="no writable cgroup2 mount"; return 77; }
	CGROUP=$mnt/gpu-trace-$1-$$
	mkdir "$CGROUP" || { WHY="cannot make a cgroup under $mnt"; return 77; }
	CGROUP_INIT=
}

test_cgroup_init() {
	sh -c 'echo $$ > "$1/cgroup.procs"; exec sleep 60' _ "$CGROUP" &
	CGROUP_INIT=$!
	for _ in $(seq 50); do grep -qx "$CGROUP_INIT" "$CGROUP/cgroup.procs" && break; sleep 0.1; done
}

# Whatever is still in the cgroup the test started (a server just killed is
# still exiting, a workload's background child): rmdir fails while a process
# is in it, so end them and wait until it is empty.
drop_test_cgroup() {
	local p
	if [ -n "$CGROUP_INIT" ]; then
		kill "$CGROUP_INIT" 2> /dev/null
		wait "$CGROUP_INIT" 2> /dev/null
	fi
	for _ in $(seq 100); do
		rmdir "$CGROUP" 2> /dev/null && return 0
		[ -d "$CGROUP" ] || return 0
		for p in $(cat "$CGROUP/cgroup.procs" 2> /dev/null); do
			kill -KILL "$p" 2> /dev/null
		done
		sleep 0.1
	done
	echo "drop_test_cgroup: $CGROUP still holds $(cat "$CGROUP/cgroup.procs" 2> /dev/null | tr '\n' ' ')" >&2
	return 1
}
