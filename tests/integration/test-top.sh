# gpu-trace top on this machine's tracefs: no GPU driver here, so the preset
# says so and exits 2; dma_fence (on every kernel) gives the live screen,
# driven in tmux as a person would, and the JSON stream.
# shellcheck shell=bash

test_top_without_gpu_events() {
	SNAPSHOT_BUFFER_PAGES=1 tracefs_snapshot > "$WORK/snap.before"
	"$GT" top -a -n 1 > "$WORK/top.out" 2> "$WORK/top.err"
	expect "exit $? without GPU driver events, want 2" [ $? = 2 ] || return 1
	expect "not one line naming what is missing and what to load: $(cat "$WORK/top.err")" \
		[ "$(count_lines "$WORK/top.err")" = 1 ] && grep -q 'missing: .*gpu_scheduler.*load the GPU driver' "$WORK/top.err" || return 1
	SNAPSHOT_BUFFER_PAGES=1 same_as_before "top without GPU events"
}

test_top_json_stream() {
	local n
	SNAPSHOT_BUFFER_PAGES=1 tracefs_snapshot > "$WORK/snap.before"
	"$GT" top -e dma_fence --json -n 3 -d 0.2 > "$WORK/top.json" 2> "$WORK/top.err" ||
		{ WHY="top --json failed: $(cat "$WORK/top.err")"; return 1; }
	n=$(python3 -c 'import json,sys
n = 0
for line in open(sys.argv[1]):
    d = json.loads(line)
    assert d["schema"] == "gpu-trace-top/2" and d["interval_s"] > 0.15 and "rings" in d
    n += 1
print(n)' "$WORK/top.json")
	expect "want 3 JSON intervals, got ${n:-unparsable}" [ "$n" = 3 ] || return 1
	SNAPSHOT_BUFFER_PAGES=1 same_as_before "top --json"
}

# Of dma_fence top enables only what the join reads, but fence events the user named
# (-e dma_fence:EVENT) were left off silently too: they are enabled as asked; the
# whole system's others are still left off.
test_top_keeps_fence_events_named() {
	local pid inst i state
	SNAPSHOT_BUFFER_PAGES=1 tracefs_snapshot > "$WORK/snap.before"
	"$GT" top -e dma_fence -e dma_fence:dma_fence_wait_start --json -n 25 -d 0.2 \
		> "$WORK/named.json" 2> "$WORK/named.err" &
	pid=$!
	inst=$TFS/instances/gpu-trace-$pid
	# an interval written: the events were set up before it
	for ((i = 0; i < 250; i++)); do
		[ ! -s "$WORK/named.json" ] || break
		sleep 0.02
	done
	state=$(for e in dma_fence_wait_start dma_fence_wait_end dma_fence_enable_signal dma_fence_signaled; do
		echo "$e=$(cat "$inst/events/dma_fence/$e/enable" 2> /dev/null)"
	done | tr '\n' ' ')
	kill -TERM $pid
	wait $pid
	expect "top wrote no interval: $(cat "$WORK/named.err")" [ $i != 250 ] || return 1
	expect "fence events enabled: $state" \
		[ "$state" = "dma_fence_wait_start=1 dma_fence_wait_end=0 dma_fence_enable_signal=0 dma_fence_signaled=1 " ] ||
		return 1
	SNAPSHOT_BUFFER_PAGES=1 same_as_before "top with named fence events"
}

test_top_screen_in_tmux() {
	local s=gt-top-$$ screen
	command -v tmux > /dev/null || { WHY="tmux not installed (sudo make deps)"; return 77; }
	SNAPSHOT_BUFFER_PAGES=1 tracefs_snapshot > "$WORK/snap.before"
	tmux new-session -d -s "$s" -x 150 -y 20 \
		"'$GT' top -e dma_fence -d 0.3; echo TOP-EXIT=\$?; sleep 60" || { WHY="tmux failed"; return 1; }
	pane_when "$s" "$WORK/top.screen" '^RING '
	tmux send-keys -t "$s" s
	pane_when "$s" "$WORK/top.sorted" 'sort busy'
	tmux send-keys -t "$s" q
	pane_when "$s" "$WORK/top.quit" 'TOP-EXIT='
	tmux kill-session -t "$s" 2> /dev/null
	screen=$(head -3 "$WORK/top.screen" | tr '\n' '|')
	expect "no header on the screen: $screen" grep -q '^gpu-trace top .*sort jobs/s .*q quit' "$WORK/top.screen" || return 1
	expect "no ring table: $screen" grep -q '^RING .*JOBS/S .*BUSY%' "$WORK/top.screen" || return 1
	expect "s did not change the sort key" grep -q 'sort busy' "$WORK/top.sorted" || return 1
	expect "q did not end top with 0: $(tail -3 "$WORK/top.quit" | tr '\n' '|')" grep -q 'TOP-EXIT=0' "$WORK/top.quit" || return 1
	expect "the last frame stayed on the screen after q" not grep -q '^RING ' "$WORK/top.quit" || return 1
	SNAPSHOT_BUFFER_PAGES=1 same_as_before "top in tmux, quit with q"
}

test_top_sigterm_restores_tracefs() {
	local pid i
	SNAPSHOT_BUFFER_PAGES=1 tracefs_snapshot > "$WORK/snap.before"
	"$GT" top -e dma_fence --json -d 0.2 > "$WORK/term.json" 2> /dev/null &
	pid=$!
	# once it draws (a sanitized build starts slowly), then SIGTERM
	for i in $(seq 75); do [ -s "$WORK/term.json" ] && break; sleep 0.2; done
	kill -TERM "$pid"
	wait "$pid"
	expect "top exited $? after SIGTERM" [ $? = 0 ] || return 1
	SNAPSHOT_BUFFER_PAGES=1 same_as_before "SIGTERM of top"
}

# Into a pipe, as top -b: frames one after another, no cursor codes
test_top_batch_into_a_pipe() {
	SNAPSHOT_BUFFER_PAGES=1 tracefs_snapshot > "$WORK/snap.before"
	"$GT" top -e dma_fence -n 2 -d 0.2 2> "$WORK/topb.err" | cat > "$WORK/topb.out"
	expect "top into a pipe failed: $(cat "$WORK/topb.err")" [ "${PIPESTATUS[0]}" = 0 ] || return 1
	expect "cursor codes in a pipe: $(grep -c $'\033' "$WORK/topb.out") lines" not grep -q $'\033' "$WORK/topb.out" || return 1
	expect "not 2 frames: $(grep -c '^RING ' "$WORK/topb.out")" [ "$(grep -c '^RING ' "$WORK/topb.out")" = 2 ] || return 1
	SNAPSHOT_BUFFER_PAGES=1 same_as_before "top into a pipe"
}

# record and top read their shared options from one table: the same words mean
# the same thing in both (a preset adds to -e; one preset per run)
test_top_and_record_share_options() {
	local cmd out
	for cmd in record top; do
		out=$("$GT" $cmd --preset drm --preset amd -a 2>&1)
		expect "$cmd took two presets (exit $?): $out" \
			[ "$(echo "$out" | wc -l)" = 1 ] && echo "$out" | grep -q "^gpu-trace $cmd: one --preset at a time (got drm and amd)" || return 1
		out=$("$GT" $cmd -b 1X -a 2>&1)
		expect "$cmd -b 1X: $out" grep -q "^gpu-trace $cmd: bad -b '1X'" <<< "$out" || return 1
		out=$("$GT" $cmd -P 0 2>&1)
		expect "$cmd -P 0: $out" grep -q "^gpu-trace $cmd: bad -P '0'" <<< "$out" || return 1
	done
	out=$("$GT" top --preset nvidia -a 2>&1)
	expect "top --preset nvidia (exit $?): $out" [ "$(echo "$out" | wc -l)" = 1 ] &&
		grep -q "^gpu-trace top: --preset nvidia: top follows GPU jobs, .*record --preset nvidia and report" <<< "$out" || return 1
	SNAPSHOT_BUFFER_PAGES=1 tracefs_snapshot > "$WORK/snap.before"
	"$GT" top --preset drm -e dma_fence --json -n 1 -d 0.2 > "$WORK/top-both.json" 2> "$WORK/top-both.err"
	expect "top --preset drm -e dma_fence refused (exit $?): $(cat "$WORK/top-both.err")" \
		grep -q '"schema":"gpu-trace-top/2"' "$WORK/top-both.json" || return 1
	SNAPSHOT_BUFFER_PAGES=1 same_as_before "top with a preset and -e"
}

# A ring timeout as the kernel logs it (a line written to /dev/kmsg, named
# for the test): top's JSON counts it live and names the ring. The line is
# written once top wrote an interval (its events were on before it: a fixed
# 0.5 s was too short for the sanitized build to arm under load), and top
# is stopped once an interval counts it, or after 20.
test_top_shows_a_hang_live() {
	local pid i rc
	[ -w /dev/kmsg ] || { WHY="/dev/kmsg not writable here"; return 77; }
	SNAPSHOT_BUFFER_PAGES=1 tracefs_snapshot > "$WORK/snap.before"
	"$GT" top -e dma_fence -e printk:console --json -n 20 -d 0.3 > "$WORK/top-hang.json" 2> "$WORK/top-hang.err" &
	pid=$!
	for ((i = 0; i < 500; i++)); do
		[ ! -s "$WORK/top-hang.json" ] || break
		sleep 0.02
	done
	echo "amdgpu 0000:ff:00.0: ring gpu-trace-test timeout, signaled seq=1, emitted seq=2" > /dev/kmsg
	for ((i = 0; i < 300; i++)); do
		grep -q '"last_timeout":{' "$WORK/top-hang.json" 2> /dev/null && break
		kill -0 "$pid" 2> /dev/null || break
		sleep 0.02
	done
	kill -TERM "$pid" 2> /dev/null
	wait "$pid"
	rc=$?
	expect "top failed (exit $rc): $(cat "$WORK/top-hang.err")" [ $rc = 0 ] || return 1
	expect "the last interval does not count the timeout: $(tail -1 "$WORK/top-hang.json" | head -c 400)" python3 -c 'import json, sys
d = json.loads(open(sys.argv[1]).read().splitlines()[-1])
assert d["timeouts"] >= 1 and d["last_timeout"]["ring"] == "gpu-trace-test", d' "$WORK/top-hang.json" || return 1
	SNAPSHOT_BUFFER_PAGES=1 same_as_before "top with a hang"
}

# top's reader (pages read in place from each CPU's trace_pipe_raw) on the
# kernel's own pages: markers written from two CPUs in rounds, the last
# one hundreds of pages and lopsided, come out once each, in order, each
# drain in time order across CPUs and none stamped after its cut, those
# after it held for the next; stamps on x86-tsc, far ahead of the cut,
# not held (tests/tools/live-read.c).
test_top_reader_reads_every_record() {
	local out rc
	[ -n "$ROOT" ] || { WHY="needs root (a tracefs instance)"; return 77; }
	SNAPSHOT_BUFFER_PAGES=1 tracefs_snapshot > "$WORK/snap.before"
	out=$("$ROOT_DIR/build/live-read" 60000 2>&1)
	rc=$?
	[ $rc = 77 ] && { WHY=$out; return 77; }
	expect "the live reader: $out" [ $rc = 0 ] || return 1
	case $out in
	*untested:*) skip "top_reader_far_ahead_stamps" "${out##*untested: }" ;;
	esac
	SNAPSHOT_BUFFER_PAGES=1 same_as_before "the live reader"
}

# In a time namespace (CRIU's restore, unshare -T) CLOCK_MONOTONIC is the
# kernel's moved by an offset, and the records are stamped on the kernel's:
# the reader's cuts take it back, or it would hold every record that long.
test_top_reader_in_a_time_namespace() {
	local out rc
	[ -n "$ROOT" ] || { WHY="needs root (a tracefs instance)"; return 77; }
	time_namespace_behind || return
	SNAPSHOT_BUFFER_PAGES=1 tracefs_snapshot > "$WORK/snap.before"
	out=$(unshare -T --fork --monotonic=-"$BEHIND" "$ROOT_DIR/build/live-read" 6000 2>&1)
	rc=$?
	[ $rc = 77 ] && { WHY=$out; return 77; }
	expect "the live reader $BEHIND s behind the kernel's clock: $out" [ $rc = 0 ] || return 1
	SNAPSHOT_BUFFER_PAGES=1 same_as_before "the live reader in a time namespace"
}
