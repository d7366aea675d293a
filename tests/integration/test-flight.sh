# record --flight-recorder on this machine's tracefs: no GPU driver here, so
# dma_fence and the scheduler's events stand in (-e); the triggers a person or
# another tool pulls (SIGUSR1, a touched file, a period) are what this kernel
# can show. The lab (tests/vm) plants the GPU's own: a slow job, a ring timeout.
# shellcheck shell=bash

# flight_start LOG ARGS...: the recorder in the background ($FL its pid), once it watches
flight_start() {
	local log=$1 i
	shift
	"$GT" record --flight-recorder=4M -e dma_fence -e sched:sched_switch "$@" 2> "$log" &
	FL=$!
	for ((i = 0; i < 300; i++)); do
		grep -q 'triggers:' "$log" 2> /dev/null && return 0
		kill -0 $FL 2> /dev/null || break
		sleep 0.05
	done
	WHY="the flight recorder did not start: $(cat "$log")"
	return 1
}

# flight_wait_for LOG PATTERN: until the log says it (10 s at most)
flight_wait_for() {
	local i
	for ((i = 0; i < 200; i++)); do
		grep -q "$2" "$1" && return 0
		sleep 0.05
	done
	WHY="no '$2' in: $(cat "$1")"
	return 1
}

test_flight_signal_dump() {
	local d=$WORK/fl-signal f mode
	SNAPSHOT_BUFFER_PAGES=1 tracefs_snapshot > "$WORK/snap.before"
	flight_start "$WORK/fl.err" -o "$d" --after 300ms || return 1
	sleep 0.3
	kill -USR1 $FL
	flight_wait_for "$WORK/fl.err" 'dumped ' || { kill -TERM $FL; wait $FL; return 1; }
	kill -TERM $FL
	wait $FL
	expect "exit $? after SIGTERM, want 0: $(cat "$WORK/fl.err")" [ $? = 0 ] || return 1
	f=$(ls "$d"/gpu-trace-*-signal.dat 2> /dev/null)
	expect "want one signal dump, got: $(ls "$d")" [ "$(echo "$f" | grep -c .)" = 1 ] || return 1
	mode=$(stat -c %a "$f")
	expect "dump mode $mode, want 640 (a trace names every process)" [ "$mode" = 640 ] || return 1
	"$GT" report "$f" > "$WORK/fl.report" 2> /dev/null
	expect "report does not say the trigger: $(head -8 "$WORK/fl.report")" \
		grep -q '^trigger  signal at ' "$WORK/fl.report" || return 1
	expect "report does not name the flight recorder as the writer" \
		grep -q 'written by gpu-trace .* (flight recorder)' "$WORK/fl.report" || return 1
	expect "the dump holds no record before the trigger: $(grep '^records' "$WORK/fl.report")" \
		grep -q '^records  [1-9]' "$WORK/fl.report" || return 1
	if command -v trace-cmd > /dev/null; then
		trace-cmd report -i "$f" > "$WORK/fl.tc" 2> "$WORK/fl.tc.err"
		expect "trace-cmd report cannot read the dump: $(tail -2 "$WORK/fl.tc.err")" \
			grep -q 'gpu-trace trigger: cause=signal' "$WORK/fl.tc" || return 1
	fi
	SNAPSHOT_BUFFER_PAGES=1 same_as_before "the flight recorder stopped by SIGTERM"
}

# Two SIGUSR1s while a dump is due make one dump; --every 1s with --keep 2 keeps two
test_flight_folds_and_keeps() {
	local d=$WORK/fl-keep n i
	flight_start "$WORK/fk.err" -o "$d" --after 500ms --every 1s --keep 2 --duration 3.7 || return 1
	kill -USR1 $FL
	# the second once the first is taken (two signals before a turn are one to the kernel)
	for ((i = 0; i < 100; i++)); do
		grep -q '^flight recorder: signal.*; dumping in' "$WORK/fk.err" && break
		sleep 0.02
	done
	kill -USR1 $FL
	wait $FL
	expect "exit $?, want 0: $(cat "$WORK/fk.err")" [ $? = 0 ] || return 1
	n=$(grep -c 'dumped .*-signal.dat' "$WORK/fk.err")
	expect "two SIGUSR1s within --after made $n signal dumps, want 1: $(cat "$WORK/fk.err")" [ "$n" = 1 ] || return 1
	expect "the folded trigger is not said" grep -q 'more triggers folded in' "$WORK/fk.err" || return 1
	n=$(grep -c 'dumped .*-periodic.dat' "$WORK/fk.err")
	expect "want 3 periodic dumps in 3.7 s, got $n" [ "$n" = 3 ] || return 1
	n=$(find "$d" -name 'gpu-trace-*.dat' | wc -l)
	expect "--keep 2 left $n dumps: $(ls "$d")" [ "$n" = 2 ] || return 1
	expect "the newest dump was removed: $(ls "$d")" \
		[ -e "$(sed -n 's/.*dumped \(.*\.dat\) .*/\1/p' "$WORK/fk.err" | tail -1)" ] || return 1
}

test_flight_trigger_file() {
	local d=$WORK/fl-file
	: > "$WORK/poke"
	flight_start "$WORK/ff.err" -o "$d" --after 100ms --trigger-file "$WORK/poke" || return 1
	sleep 0.2
	touch -d '+1 second' "$WORK/poke"
	flight_wait_for "$WORK/ff.err" 'dumped .*-file.dat' || { kill -TERM $FL; wait $FL; return 1; }
	kill -TERM $FL
	wait $FL
	expect "exit $?, want 0: $(cat "$WORK/ff.err")" [ $? = 0 ] || return 1
}

# A SIGKILLed recorder leaves its instance; the next start removes it, and its
# SIGTERM leaves tracefs as it was before the first
test_flight_sigkill_then_restart() {
	local first
	SNAPSHOT_BUFFER_PAGES=1 tracefs_snapshot > "$WORK/snap.before"
	flight_start "$WORK/k1.err" -o "$WORK/fl-kill" || return 1
	first=$FL
	kill -KILL $first
	wait $first 2> /dev/null
	expect "the killed recorder's instance is not there (nothing to clean?)" \
		[ -d "$TFS/instances/gpu-trace-$first" ] || return 1
	flight_start "$WORK/k2.err" -o "$WORK/fl-kill" || return 1
	expect "the next start left the killed one's instance" \
		[ ! -d "$TFS/instances/gpu-trace-$first" ] || { kill -TERM $FL; wait $FL; return 1; }
	kill -TERM $FL
	wait $FL
	expect "exit $?, want 0: $(cat "$WORK/k2.err")" [ $? = 0 ] || return 1
	SNAPSHOT_BUFFER_PAGES=1 same_as_before "a killed flight recorder, restarted and stopped"
}

test_flight_option_errors() {
	local args
	while IFS= read -r args; do
		eval "\"\$GT\" record $args" > /dev/null 2> "$WORK/fe.err"
		expect "record $args: exit $?, want 125 (record's own failure)" [ $? = 125 ] || return 1
		expect "record $args: not one line: $(cat "$WORK/fe.err")" \
			[ "$(count_lines "$WORK/fe.err")" = 1 ] || return 1
	done <<-'LIST'
		--trigger 'gfx:total>5ms' -a
		--flight-recorder -e dma_fence -- true
		--flight-recorder -e dma_fence -P 1
		--flight-recorder -e dma_fence --trigger 'gfx:total>5'
		--flight-recorder -e dma_fence --trigger 'gfx:speed>5ms'
		--flight-recorder -e dma_fence --after 2
		--flight-recorder -e dma_fence --every 100ms
		--flight-recorder -e dma_fence --keep 0
		--flight-recorder=12Q -e dma_fence
		--flight-recorder=100K -e dma_fence
		--flight-recorder -e dma_fence -p function_graph
		--flight-recorder -e dma_fence -l 'amdgpu_*'
		--flight-recorder -e dma_fence -C global
	LIST
}

# The dumps' directory is opened once: a path renamed and replaced by a
# symlink meanwhile does not move the dumps; a directory another user owns,
# or everyone may write, is refused (they could swap the dumps or plant
# names for --keep to delete).
test_flight_dump_directory_held() {
	local d=$WORK/fl-held victim=$WORK/fl-victim f rc
	mkdir -m 0777 "$WORK/fl-ww" "$WORK/fl-theirs"
	chown 65534 "$WORK/fl-theirs"
	for f in fl-ww fl-theirs; do
		"$GT" record --flight-recorder=4M -e dma_fence --duration 1 -o "$WORK/$f" > /dev/null 2> "$WORK/fh.err"
		rc=$?
		expect "-o a directory $f: exit $rc, want 125: $(cat "$WORK/fh.err")" [ "$rc" = 125 ] || return 1
		expect "-o $f: not one line saying why: $(cat "$WORK/fh.err")" \
			[ "$(count_lines "$WORK/fh.err")" = 1 ] && grep -Eq 'writable by everyone|belongs to uid 65534' "$WORK/fh.err" ||
			return 1
	done
	mkdir -m 0700 "$victim"
	flight_start "$WORK/fh.err" -o "$d" --after 100ms || return 1
	mv "$d" "$d.moved" && ln -s "$victim" "$d"
	kill -USR1 $FL
	flight_wait_for "$WORK/fh.err" 'dumped ' || { kill -TERM $FL; wait $FL; return 1; }
	kill -TERM $FL
	wait $FL
	expect "exit $?, want 0: $(cat "$WORK/fh.err")" [ $? = 0 ] || return 1
	expect "the dump followed the symlink put in the directory's place: $(ls -a "$victim")" \
		[ -z "$(ls -A "$victim")" ] || return 1
	f=$(ls "$d.moved"/gpu-trace-*-signal.dat 2> /dev/null)
	expect "the dump is not in the directory opened: $(ls -a "$d.moved")" [ -n "$f" ] || return 1
	expect "a partial file was left: $(ls -a "$d.moved")" \
		[ -z "$(ls -A "$d.moved" | grep partial)" ]
}
