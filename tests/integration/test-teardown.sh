# Whatever ends a record, tracefs is back as it was.
# shellcheck shell=bash

# Start a record with a long workload, send SIG once it is recording.
record_then_signal() {
	local sig=$1 out=$2 pid
	"$GT" record -e sched:sched_switch -e syscalls:sys_enter_getppid -o "$out" -- sleep 10 2> "$WORK/sig.err" &
	pid=$!
	workload_running "$pid" sleep || printf 'never started its workload; '
	kill "-$sig" "$pid"
	wait "$pid"
	echo $?
}

test_teardown_after_normal_end() {
	tracefs_snapshot > "$WORK/snap.before"
	"$GT" record -e sched:sched_switch -o "$WORK/n.dat" -- true 2> /dev/null || { WHY="record failed"; return 1; }
	same_as_before "a normal record"
}

test_teardown_after_workload_segfault() {
	tracefs_snapshot > "$WORK/snap.before"
	"$GT" record -e sched:sched_switch -o "$WORK/sv.dat" -- sh -c 'kill -SEGV $$' 2> /dev/null
	expect "segfault status 139 became $?" [ $? = 139 ] || return 1
	expect "no file after a crashing workload" trace-cmd report -i "$WORK/sv.dat" > /dev/null 2>&1 || return 1
	same_as_before "a segfaulting workload"
}

# teardown_after SIG STATUS: record is signalled mid-run; the workload got
# the signal too and died of it (STATUS), the recording is kept and tracefs
# is as it was
teardown_after() {
	local sig=$1 want=$2 rc
	tracefs_snapshot > "$WORK/snap.before"
	rc=$(record_then_signal "$sig" "$WORK/sig-$sig.dat")
	expect "SIG$sig: status $rc, want $want" [ "$rc" = "$want" ] || return 1
	if ! trace-cmd report -i "$WORK/sig-$sig.dat" > /dev/null 2> "$WORK/sig.report"; then
		WHY="SIG$sig: the recording was not kept: trace-cmd: $(tail -1 "$WORK/sig.report"); record said: $(tail -3 "$WORK/sig.err" | tr '\n' ' ')"
		return 1
	fi
	same_as_before "SIG$sig"
}

# A file of the instance held open while record tears down (a reader closing its
# pipe, a workload between its go and its exec, another tool reading ours): the
# kernel refuses the instance's removal while it is (EBUSY). record waits for it
# to be let go, instead of leaving the instance for gpu-trace reset.
test_teardown_while_a_file_of_the_instance_is_open() {
	local pid i holder rc
	tracefs_snapshot > "$WORK/snap.before"
	"$GT" record -e sched:sched_switch -o "$WORK/busy.dat" -- sleep 10 2> "$WORK/busy.err" &
	pid=$!
	for i in $(seq 50); do
		[ -d "$TFS/instances/gpu-trace-$pid" ] && grep -q '^events:' "$WORK/busy.err" 2> /dev/null && break
		sleep 0.1
	done
	[ -d "$TFS/instances/gpu-trace-$pid" ] || { kill "$pid"; wait "$pid"; WHY="no instance gpu-trace-$pid"; return 1; }
	# held for a second past the signal
	(exec 9< "$TFS/instances/gpu-trace-$pid/per_cpu/cpu0/trace_pipe_raw" && sleep 1.5) &
	holder=$!
	sleep 0.3
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	wait "$holder"
	expect "SIGINT with the instance held: status $rc, want 130; record said: $(tail -2 "$WORK/busy.err" | tr '\n' ' ')" \
		[ "$rc" = 130 ] || return 1
	if grep -q 'cannot remove' "$WORK/busy.err"; then
		WHY="record left the instance: $(grep -m1 'cannot remove' "$WORK/busy.err")"
		return 1
	fi
	same_as_before "an instance file held at teardown"
}

test_teardown_after_sigint() {
	teardown_after INT 130
}

test_teardown_after_sigterm() {
	teardown_after TERM 143
}

# Ctrl-\ (SIGQUIT) ended record without its teardown: instance, probes and
# dynamic debug stayed until reset, the workload kept running.
test_teardown_after_sigquit() {
	teardown_after QUIT 131
}

# `record ... 2>&1 | head`: once head is gone, record's next line was death
# by SIGPIPE before the teardown.
test_teardown_when_the_reader_of_its_output_quits() {
	local rc
	tracefs_snapshot > "$WORK/snap.before"
	"$GT" record -e sched:sched_switch -o "$WORK/pipe.dat" -- sleep 1 2>&1 | head -c 1 > /dev/null
	rc=${PIPESTATUS[0]}
	expect "record died of SIGPIPE (status $rc)" [ "$rc" != 141 ] || return 1
	expect "the recording was not kept (status $rc)" trace-cmd report -i "$WORK/pipe.dat" > /dev/null 2>&1 || return 1
	same_as_before "its output's reader quitting"
}

# An error after events are enabled: the second -e has a bad filter.
test_teardown_after_error_half_way() {
	tracefs_snapshot > "$WORK/snap.before"
	"$GT" record -e sched:sched_switch -e sched:sched_wakeup -f 'no_such_field == 1' \
		-o "$WORK/half.dat" -- true 2> "$WORK/half.err"
	expect "bad filter accepted" [ $? = 125 ] || return 1
	expect "half-way error left a file" [ ! -e "$WORK/half.dat" ] || return 1
	same_as_before "an error half-way"
}

# A recording under nohup (SIGHUP ignored) is meant to outlive its terminal: record
# turned the ignored hang-up into a stop. It records on through a SIGHUP to the end of
# its command, and leaves tracefs as it found it.
test_record_under_nohup_outlives_a_hangup() {
	local pid rc
	SNAPSHOT_BUFFER_PAGES=1 tracefs_snapshot > "$WORK/snap.before"
	(trap '' HUP; exec "$GT" record -e sched:sched_switch -o "$WORK/nohup.dat" -- sleep 3) \
		> /dev/null 2> "$WORK/nohup.err" &
	pid=$!
	sleep 1
	kill -HUP $pid
	sleep 0.5
	expect "record under nohup ended on a SIGHUP: $(tail -1 "$WORK/nohup.err")" [ -d "/proc/$pid" ] &&
		[ "$(awk '{ print $3 }' "/proc/$pid/stat" 2> /dev/null)" != Z ] || { wait $pid; return 1; }
	wait $pid
	rc=$?
	expect "record exit $rc: $(tail -1 "$WORK/nohup.err")" [ $rc = 0 ] || return 1
	expect "record under nohup left no readable trace" trace-cmd report -i "$WORK/nohup.dat" > /dev/null 2>&1 || return 1
	SNAPSHOT_BUFFER_PAGES=1 same_as_before "a record under nohup"
}

# The top-level buffer is restored file by file (buffer size: to the page).
test_top_level_restored() {
	local rc
	SNAPSHOT_BUFFER_PAGES=1 tracefs_snapshot > "$WORK/snap.before"
	"$GT" record --top-level -C mono -e sched:sched_switch -o "$WORK/top.dat" -- true 2> "$WORK/top.err" ||
		{ WHY="--top-level record failed: $(tail -1 "$WORK/top.err")"; return 1; }
	expect "top-level record unreadable" trace-cmd report -i "$WORK/top.dat" > /dev/null 2>&1 || return 1
	SNAPSHOT_BUFFER_PAGES=1 same_as_before "a --top-level record" || return 1
	"$GT" record --top-level -e sched:sched_switch -o "$WORK/top2.dat" -- sleep 10 2> /dev/null &
	rc=$!
	sleep 1
	kill -INT "$rc"
	wait "$rc"
	SNAPSHOT_BUFFER_PAGES=1 same_as_before "SIGINT to a --top-level record"
}
