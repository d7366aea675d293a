# Load: many short records stopped at random points leave nothing behind, and
# the workload inherits no descriptor of ours.
# shellcheck shell=bash

SOAK_CYCLES=${SOAK_CYCLES:-200}

test_workload_inherits_no_descriptors() {
	local base
	# whatever this shell passes down anyway is the baseline
	base=$(sh -c 'ls /proc/$$/fd' 2> /dev/null | tr '\n' ' ')
	"$GT" record -e sched:sched_switch -o "$WORK/fd.dat" -- sh -c 'ls /proc/$$/fd' > "$WORK/fd.out" 2> /dev/null ||
		{ WHY="record failed"; return 1; }
	expect "the workload has descriptors '$(tr '\n' ' ' < "$WORK/fd.out")', not '$base'" \
		[ "$(tr '\n' ' ' < "$WORK/fd.out")" = "$base" ]
}

test_soak_interrupted_records() {
	local i pid sig failed=0 rc children
	tracefs_snapshot > "$WORK/snap.before"
	for i in $(seq "$SOAK_CYCLES"); do
		rm -f "$WORK/soak.dat"
		case $((RANDOM % 3)) in
		0) sig=INT ;;
		1) sig=TERM ;;
		*) sig=HUP ;;
		esac
		"$GT" record -e sched:sched_switch -e syscalls:sys_enter_getppid -o "$WORK/soak.dat" -- sleep 2 \
			> /dev/null 2> "$WORK/soak.err" &
		pid=$!
		# anywhere from before set-up to mid-recording
		sleep "0.$((RANDOM % 30))"
		# its workload, if started: killed by pid below should it outlive record
		children=$(ps -o pid= --ppid "$pid")
		kill "-$sig" "$pid" 2> /dev/null
		wait "$pid"
		rc=$?
		# shellcheck disable=SC2086
		[ -n "$children" ] && kill $children 2> /dev/null
		if [ -n "$(gt_instances)" ]; then
			WHY="cycle $i ($sig, exit $rc): instance left: $(gt_instances); record said: $(tail -3 "$WORK/soak.err" | tr '\n' ' ')"
			failed=1
			break
		fi
		# interrupted: either no file at all or a complete one, never a torn one
		if [ -e "$WORK/soak.dat" ] && ! trace-cmd report -i "$WORK/soak.dat" > /dev/null 2>&1; then
			WHY="cycle $i ($sig, exit $rc): a truncated file under the requested name"
			failed=1
			break
		fi
		if [ -n "$(find "$WORK" -maxdepth 1 -name '.soak.dat.partial-*')" ]; then
			WHY="cycle $i ($sig): temp file left behind"
			failed=1
			break
		fi
	done
	[ $failed = 0 ] || return 1
	same_as_before "$SOAK_CYCLES interrupted records"
}
