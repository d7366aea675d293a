# record on the real kernel: counts, cmdlines, clock, buffer, fallbacks.
# shellcheck shell=bash

test_help_and_version() {
	"$GT" --help > "$WORK/h" || { WHY="--help failed"; return 1; }
	expect "--help lists record" grep -q 'record' "$WORK/h" || return 1
	"$GT" help record > "$WORK/h" || { WHY="help record failed"; return 1; }
	expect "help record documents --preset" grep -q -- '--preset P' "$WORK/h" || return 1
	expect "help record documents exit status" grep -q 'Exit status' "$WORK/h" || return 1
	"$GT" --version | grep -Eq '^gpu-trace [0-9]+\.[0-9]+' || { WHY="bad --version"; return 1; }
	"$GT" nosuch 2> "$WORK/e"
	expect "unknown command exits 125" [ $? = 125 ] || return 1
	expect "unknown command: one line" [ "$(count_lines "$WORK/e")" = 1 ]
}

# A workload of a few processes; every count must agree three ways.
test_counts_agree_with_libtracecmd_and_trace_cmd() {
	local out=$WORK/counts.dat n lib tc
	"$GT" record -e sched:sched_switch -e sched:sched_process_exec -e sched:sched_process_fork \
		-e syscalls:sys_enter_getppid -o "$out" -- \
		sh -c 'for i in 1 2 3 4 5; do /bin/true; done; sleep 0.2' 2> "$WORK/counts.err"
	expect "record failed: $(tail -1 "$WORK/counts.err")" [ $? = 0 ] || return 1
	n=$(reported_events "$WORK/counts.err")
	lib=$(dat_field "$out" records)
	tc=$(trace_cmd_events "$out")
	expect "no events recorded" [ "${n:-0}" -gt 10 ] || return 1
	expect "gpu-trace said $n, libtracecmd read $lib" [ "$n" = "$lib" ] || return 1
	expect "gpu-trace said $n, trace-cmd report printed $tc" [ "$n" = "$tc" ] || return 1
	# five children exec'd /bin/true: all followed through event-fork
	[ "$(trace-cmd report -i "$out" 2>/dev/null | grep -c 'sched_process_exec:.*filename=/bin/true')" = 5 ] ||
		{ WHY="children not followed (expected 5 exec of /bin/true)"; return 1; }
	expect "lost line missing" grep -q '^lost: 0 events' "$WORK/counts.err"
}

test_cmdlines_name_the_workload() {
	local out=$WORK/comm.dat
	"$GT" record -e sched:sched_switch -o "$out" -- sleep 0.2 2> "$WORK/comm.err" ||
		{ WHY="record failed"; return 1; }
	expect "the workload's pid is not named sleep in the file" \
		grep -Eq '^comm [0-9]+ sleep$' <("$INSPECT" "$out")
}

# A wrapper that execs the program (taskset, numactl, env, nice): the file names
# the workload's pid after the program it ended as, never the wrapper's argv[0].
test_cmdlines_name_the_program_a_wrapper_ran() {
	local out=$WORK/wrap.dat
	"$GT" record -e sched:sched_switch -o "$out" -- env sh -c 'exec sleep 0.2' 2> "$WORK/wrap.err" ||
		{ WHY="record failed: $(tail -1 "$WORK/wrap.err")"; return 1; }
	expect "the workload's pid is named $(grep -E '^comm [0-9]+ (env|sh|sleep)$' <("$INSPECT" "$out") | tr '\n' ' '), not sleep" \
		grep -Eq '^comm [0-9]+ sleep$' <("$INSPECT" "$out") || return 1
	expect "the wrapper's name kept" not grep -Eq '^comm [0-9]+ env$' <("$INSPECT" "$out")
}

test_file_records_clock_and_granted_buffer() {
	local out=$WORK/clock.dat said
	"$GT" record -e sched:sched_switch -o "$out" -- true 2> "$WORK/clock.err" ||
		{ WHY="record failed"; return 1; }
	expect "clock is not mono" [ "$(dat_field "$out" clock)" = mono ] || return 1
	said=$(sed -n 's/^buffer: \([0-9]*\) KB per CPU.*/\1/p' "$WORK/clock.err")
	expect "buffer line missing" [ -n "$said" ] || return 1
	expect "file says $(dat_field "$out" buffer_kb) KB, record said $said" \
		[ "$(dat_field "$out" buffer_kb)" = "$said" ] || return 1
	expect "cpu count" [ "$(dat_field "$out" cpus)" = "$(nproc --all)" ] || return 1
	trace-cmd report -i "$out" > /dev/null 2> "$WORK/tc.err"
	expect "trace-cmd warns about the file: $(head -1 "$WORK/tc.err")" [ ! -s "$WORK/tc.err" ]
}

test_clock_option() {
	local out=$WORK/clk.dat
	"$GT" record -C mono_raw -e sched:sched_switch -o "$out" -- true 2> /dev/null ||
		{ WHY="record -C mono_raw failed"; return 1; }
	expect "clock mono_raw not stored" [ "$(dat_field "$out" clock)" = mono_raw ] || return 1
	"$GT" record -C sundial -e sched:sched_switch -o "$out.2" -- true 2> "$WORK/clk.err"
	expect "unknown clock accepted" [ $? = 125 ] || return 1
	expect "unknown clock: one line" [ "$(count_lines "$WORK/clk.err")" = 1 ] || return 1
	# the instance is removed by then: the clocks themselves, not its file
	expect "unknown clock: the clocks not listed: $(cat "$WORK/clk.err")" \
		grep -q "its clocks are: .*\bmono\b" "$WORK/clk.err" || return 1
	expect "unknown clock: names a removed instance's file" not grep -q instances/ "$WORK/clk.err"
}

# The kernel refuses an impossible size; the ladder below it still records.
test_impossible_buffer_walks_down() {
	local out=$WORK/big.dat said
	"$GT" record -b 4000000000 -e sched:sched_switch -o "$out" -- true 2> "$WORK/big.err"
	expect "record failed: $(tail -1 "$WORK/big.err")" [ $? = 0 ] || return 1
	expect "no refusal reported" grep -q '4000000000 KB refused (ENOMEM)' "$WORK/big.err" || return 1
	said=$(sed -n 's/^buffer: \([0-9]*\) KB per CPU.*/\1/p' "$WORK/big.err")
	expect "granted size $said is not below the request" [ "${said:-0}" -gt 0 ] && [ "$said" -lt 4000000000 ] || return 1
	expect "file holds $(dat_field "$out" buffer_kb), not $said" [ "$(dat_field "$out" buffer_kb)" = "$said" ] || return 1
	expect "trace-cmd cannot read it" trace-cmd report -i "$out" > /dev/null 2>&1
}

# -b as people type it: KB (trace-cmd's unit), or with K, M or G; top reads it alike
test_buffer_size_with_a_unit() {
	local b want
	for b in 8M:8192 8MiB:8192 8192:8192 8192k:8192; do
		want=${b#*:}
		"$GT" record -b "${b%%:*}" -e sched:sched_switch -o "$WORK/unit-$want.dat" --force -- true \
			2> "$WORK/unit.err" || { WHY="record -b ${b%%:*} failed: $(tail -1 "$WORK/unit.err")"; return 1; }
		expect "-b ${b%%:*} was not $want KB: $(grep '^buffer:' "$WORK/unit.err")" \
			grep -q "(-b: $want KB ok" "$WORK/unit.err" || return 1
	done
	"$GT" top -b 1x -n 1 2> "$WORK/unit.err"
	expect "top -b 1x accepted" [ $? = 125 ] || return 1
	expect "top's -b message is not record's: $(cat "$WORK/unit.err")" \
		grep -q "^gpu-trace top: bad -b '1x': a size per CPU in KB" "$WORK/unit.err"
}

# record's marker is a print record whose text ends in a newline: --events
# lists it on one line, as every other record
test_events_listing_has_no_blank_lines() {
	"$GT" record -e sched:sched_process_exec -o "$WORK/mark.dat" -- true 2> /dev/null ||
		{ WHY="record failed"; return 1; }
	# the file holds no GPU event: --events lists it all and exits 2, as every mode does
	"$GT" report --events "$WORK/mark.dat" > "$WORK/mark.txt" 2> /dev/null
	expect "report --events exit $?, want 2 (no GPU events)" [ $? = 2 ] || return 1
	expect "the workload's marker not listed" grep -q 'print: .*gpu-trace workload: pids=' "$WORK/mark.txt" || return 1
	expect "$(grep -c '^$' "$WORK/mark.txt") blank lines in --events" [ "$(grep -c '^$' "$WORK/mark.txt")" = 0 ]
}

# Another live run's instances are its own business: record said so at every start
test_other_runs_not_announced() {
	local other
	"$GT" record -e sched:sched_switch -o "$WORK/other.dat" -- sleep 2 > /dev/null 2>&1 &
	other=$!
	for _ in $(seq 50); do [ -d "$TFS/instances/gpu-trace-$other" ] && break; sleep 0.1; done
	"$GT" record -e sched:sched_switch -o "$WORK/mine.dat" -- true 2> "$WORK/mine.err"
	local rc=$?
	wait "$other"
	expect "record beside another failed: $(tail -1 "$WORK/mine.err")" [ $rc = 0 ] || return 1
	expect "the other run was announced: $(grep -m1 'left alone' "$WORK/mine.err")" \
		not grep -q 'left alone' "$WORK/mine.err"
}

# No GPU driver: record, check and report tell one story, up front
test_no_gpu_driver_said_up_front() {
	if grep -qE '^(amdgpu|i915|xe|virtio_gpu|gpu_scheduler|gpu_sched|nouveau|msm|panfrost|v3d)$' \
		<(ls "$TFS/events"); then
		WHY="this kernel has a GPU driver's events"
		return 77
	fi
	"$GT" record -o "$WORK/nodrv.dat" -- true 2> "$WORK/nodrv.err" || { WHY="record failed"; return 1; }
	expect "record did not say the file holds no jobs: $(grep '^events' "$WORK/nodrv.err" | tr '\n' '|')" \
		grep -q "^events: no GPU driver's or scheduler's events on this kernel: the file will hold no GPU jobs" "$WORK/nodrv.err" || return 1
	"$GT" check > "$WORK/nodrv.check" 2>&1
	expect "check calls this kernel's GPU events OK: $(grep gpu-events "$WORK/nodrv.check")" \
		grep -q "^WARN gpu-events .*no GPU driver's or scheduler's events" "$WORK/nodrv.check" || return 1
	"$GT" report "$WORK/nodrv.dat" > /dev/null 2> "$WORK/nodrv.rep"
	expect "report's advice: $(cat "$WORK/nodrv.rep")" grep -q 'where the GPU driver is loaded' "$WORK/nodrv.rep"
}

test_default_ladder_reaches_a_rung() {
	"$GT" record -e sched:sched_switch -o "$WORK/lad.dat" -- true 2> "$WORK/lad.err" ||
		{ WHY="record failed"; return 1; }
	expect "ladder line: $(grep buffer: "$WORK/lad.err")" \
		grep -Eq '^buffer: [0-9]+ KB per CPU x [0-9]+ CPUs? = [0-9]+ MB \(ladder: 4096 KB ok' "$WORK/lad.err"
}

function_graph_usable() {
	grep -qw function_graph "$TFS/available_tracers" && grep -qw function "$TFS/current_tracer" 2>/dev/null
}

test_function_graph_falls_back_to_events() {
	if "$GT" list -t 2>/dev/null | grep -Eq '^  function_graph +available'; then
		WHY="this kernel permits function_graph: no fallback to see"
		return 77
	fi
	"$GT" record -p function_graph -e sched:sched_switch -o "$WORK/fg.dat" -- true 2> "$WORK/fg.err"
	expect "fallback must still record (rc $?)" [ $? = 0 ] || return 1
	expect "no fallback line" grep -q '^recording events only (no function_graph tracer)' "$WORK/fg.err" || return 1
	expect "no reason for function_graph" grep -q '^tracer function_graph: ' "$WORK/fg.err" || return 1
	"$GT" record --strict -p function_graph -e sched:sched_switch -o "$WORK/fg2.dat" -- true 2> "$WORK/fg2.err"
	expect "--strict did not fail" [ $? = 125 ] || return 1
	expect "--strict: one line" [ "$(count_lines "$WORK/fg2.err")" = 1 ] || return 1
	expect "--strict left a file" [ ! -e "$WORK/fg2.dat" ]
}

test_preset_names_missing_events() {
	"$GT" record --preset amd -e sched:sched_switch -o "$WORK/amd.dat" -- true 2> "$WORK/amd.err" ||
		{ WHY="record --preset amd failed: $(tail -1 "$WORK/amd.err")"; return 1; }
	if [ ! -d "$TFS/events/amdgpu" ]; then
		expect "missing amdgpu not named" grep -q '^events: not on this kernel, preset amd: .*amdgpu' "$WORK/amd.err" || return 1
		# all-gpu's 15 systems: three named and a count, not a list of fifteen
		"$GT" record -o "$WORK/all.dat" -- true 2> "$WORK/all.err"
		expect "all-gpu's missing systems: $(grep 'not on this kernel' "$WORK/all.err")" \
			grep -qE '^events: not on this kernel, preset all-gpu: [a-z_]+, [a-z_]+, [a-z_]+ and [0-9]+ more \(gpu-trace list names what is here\)$' "$WORK/all.err" || return 1
		# the system the kernel lacks, not the preset's pattern for it
		expect "the preset's glob in the message: $(grep 'not on this kernel' "$WORK/amd.err")" \
			not grep -q 'amdgpu_\[' "$WORK/amd.err" || return 1
	fi
	expect "trace-cmd cannot read it" trace-cmd report -i "$WORK/amd.dat" > /dev/null 2>&1 || return 1
	# the xe preset's several patterns of one system: a kernel without xe names it once
	if [ ! -d "$TFS/events/xe" ]; then
		"$GT" record --preset xe -e sched:sched_switch -o "$WORK/xe.dat" -- true 2> "$WORK/xe.err" ||
			{ WHY="record --preset xe failed: $(tail -1 "$WORK/xe.err")"; return 1; }
		expect "xe not named once: $(grep 'not on this kernel' "$WORK/xe.err")" \
			[ "$(sed -n 's/^events: not on this kernel, preset xe: //p' "$WORK/xe.err" | tr ',' '\n' | grep -c '^ *xe$')" = 1 ] || return 1
	fi
}

test_exit_status_is_the_workloads() {
	"$GT" record -e sched:sched_switch -o "$WORK/st.dat" -- sh -c 'exit 3' 2> /dev/null
	expect "exit 3 became $?" [ $? = 3 ] || return 1
	"$GT" record -e sched:sched_switch -o "$WORK/st2.dat" -- /nonexistent/cmd 2> "$WORK/st.err"
	expect "missing command: 127" [ $? = 127 ] || return 1
	# checked before any set-up: one line, naming the command whole
	expect "missing command: not one line naming it: $(tr '\n' '|' < "$WORK/st.err")" \
		[ "$(count_lines "$WORK/st.err")" = 1 ] && grep -q "^gpu-trace record: cannot run '/nonexistent/cmd'" "$WORK/st.err" || return 1
	"$GT" record -e sched:sched_switch -o "$WORK/st3.dat" -- /etc/passwd 2> "$WORK/st.err"
	expect "a file that is not a program: 126" [ $? = 126 ] || return 1
	expect "not a program: not one line naming it: $(tr '\n' '|' < "$WORK/st.err")" \
		[ "$(count_lines "$WORK/st.err")" = 1 ] && grep -q "cannot run '/etc/passwd': not an executable file" "$WORK/st.err" || return 1
	"$GT" record -e sched:sched_switch -o "$WORK/st4.dat" -- no-such-command-gt 2> "$WORK/st.err"
	expect "a name not in PATH: 127" [ $? = 127 ] || return 1
	expect "no file may be left" [ ! -e "$WORK/st2.dat" ] && [ ! -e "$WORK/st3.dat" ] && [ ! -e "$WORK/st4.dat" ]
}

# Which host and when: record marks the host (name, machine-id, boot id), its
# DRM devices (none here) and clock pairs; report puts the file on UTC within
# the stated uncertainty, and trace-cmd reads the file with no word about them.
test_record_host_and_clock() {
	local before after
	before=$(date +%s%N)
	"$GT" record -e sched:sched_process_exec -o "$WORK/host.dat" -- sleep 0.3 2> "$WORK/host.err" ||
		{ WHY="record failed: $(tail -1 "$WORK/host.err")"; return 1; }
	after=$(date +%s%N)
	"$GT" report --format json "$WORK/host.dat" > "$WORK/host.json" 2> /dev/null
	python3 - "$WORK/host.json" "$(uname -n)" "$(cat /etc/machine-id 2> /dev/null)" \
		"$(cat /proc/sys/kernel/random/boot_id)" "$before" "$after" > "$WORK/host.check" 2>&1 <<'PY' ||
import json, sys
h = json.load(open(sys.argv[1]))["host"]
name, machine, boot, before, after = sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6])
assert h and h["name"] == name[:64] and h["machine_id"] == machine and h["boot_id"] == boot, h
c = h["clock"]
# a pair at the start and one at the end, each narrower than a millisecond here
assert c and c["pairs"] >= 2 and c["bad_pairs"] == 0 and c["uncertainty_ns"] < 1000000, c
assert before - 1000000 <= c["first_record_utc_ns"] <= after + 1000000, (before, c, after)
PY
		{ WHY="$(tail -2 "$WORK/host.check" | tr '\n' ' ')"; return 1; }
	expect "no utc line: $("$GT" report "$WORK/host.dat" 2> /dev/null | grep '^host\|^utc' | tr '\n' ' ')" \
		grep -q '^utc      the trace clock + ' <("$GT" report "$WORK/host.dat" 2> /dev/null) || return 1
	if command -v trace-cmd > /dev/null; then
		trace-cmd report -i "$WORK/host.dat" > "$WORK/host.tc" 2> "$WORK/host.tcerr"
		expect "trace-cmd says something of the file: $(head -2 "$WORK/host.tcerr" | tr '\n' ' ')" \
			[ ! -s "$WORK/host.tcerr" ] || return 1
		expect "trace-cmd does not show the host marker" grep -q 'gpu-trace host: name=' "$WORK/host.tc" || return 1
	fi
}

test_system_wide_duration_and_attach() {
	local pid rpid i
	"$GT" record -a --duration 0.5 -e sched:sched_switch -o "$WORK/a.dat" 2> "$WORK/a.err" ||
		{ WHY="-a --duration failed"; return 1; }
	expect "-a recorded nothing" [ "$(dat_field "$WORK/a.dat" records)" -gt 0 ] || return 1
	expect "-a --duration: not told it ends by itself: $(grep '^recording' "$WORK/a.err")" \
		grep -q '^recording system-wide for 0.5 s; Ctrl-C ends it sooner' "$WORK/a.err" || return 1
	# a command --duration ended exits 143: said, or it reads as its own failure
	"$GT" record --duration 0.3 -e sched:sched_switch -o "$WORK/d.dat" -- sleep 5 2> "$WORK/d.err"
	expect "--duration: the command's status 143 not passed on" [ $? = 143 ] || return 1
	expect "--duration: not said: $(tail -1 "$WORK/d.err")" \
		grep -q '^--duration 0.3 s reached: the command (pid [0-9]*) was sent SIGTERM$' "$WORK/d.err" || return 1
	# alive until record has attached (and named it), however long a loaded
	# machine's set-up takes (a fixed 1.5 s was outlasted in CI)
	sh -c 'while [ ! -e "$1" ]; do sleep 0.05; done' _ "$WORK/p.stop" &
	pid=$!
	"$GT" record -P "$pid" -e sched:sched_switch -o "$WORK/p.dat" 2> "$WORK/p.err" &
	rpid=$!
	for ((i = 0; i < 1200; i++)); do
		grep -q '^recording the given pids' "$WORK/p.err" 2> /dev/null && break
		kill -0 "$rpid" 2> /dev/null || break
		sleep 0.05
	done
	touch "$WORK/p.stop"
	wait "$rpid" || { WHY="-P failed: $(tail -1 "$WORK/p.err")"; wait "$pid"; return 1; }
	wait "$pid"
	expect "-P: only the attached pid" [ "$("$INSPECT" "$WORK/p.dat" | grep -c '^comm ')" -ge 1 ] || return 1
	expect "-P pid not named" grep -q "^comm $pid sh$" <("$INSPECT" "$WORK/p.dat")
}

test_progress_line_on_a_terminal() {
	command -v script > /dev/null || { WHY="script(1) not installed"; return 77; }
	script -qec "$GT record -a --duration 1.2 -e sched:sched_switch -o $WORK/tty.dat" /dev/null > "$WORK/tty.out" 2>&1
	expect "no progress line with cpu0 and lost" grep -aq $'\r\[ *[0-9.]*s\] cpu0 [0-9]* ev [0-9.]* MB.*| lost 0' "$WORK/tty.out" || return 1
	# what the kernel holds counts: the readers take nothing from a big buffer until the end
	# (any line: each is mid-run, the last one cleared; a late turn labels 0.6 s, not 0.5)
	expect "the progress line counts no events during a run: $(grep -ao $'\r\[ *[0-9.]*s\][^\r]*' "$WORK/tty.out" | head -1)" \
		grep -aqE $'\r\[ *[0-9]+\.[0-9]s\] cpu[01] [1-9][0-9]* ev' "$WORK/tty.out" || return 1
	# a command shares the terminal: its lines stay whole, no status glued on
	script -qec "$GT record -e sched:sched_switch -o $WORK/tty2.dat -- sh -c 'sleep 0.8; echo workload line'" \
		/dev/null > "$WORK/tty2.out" 2>&1
	expect "the command's line not whole: $(grep -a 'workload line' "$WORK/tty2.out" | cat -v)" \
		grep -qx 'workload line' <(tr -d '\r' < "$WORK/tty2.out") || return 1
	expect "a status line on the command's terminal" [ "$(grep -ac $'\r\[' "$WORK/tty2.out")" = 0 ]
}

# A buffer of two pages per CPU cannot keep up: the loss must be said and stored.
test_lost_events_reported() {
	local out=$WORK/lost.dat n lib drops try
	# the reader sometimes keeps up even so: a few tries before giving up
	for try in 1 2 3 4 5; do
		rm -f "$out"
		"$GT" record -b 8 -e syscalls:sys_enter_read -e syscalls:sys_enter_write -o "$out" -- \
			dd if=/dev/zero of=/dev/null bs=1 count=500000 2> "$WORK/lost.err"
		expect "record failed: $(tail -1 "$WORK/lost.err")" [ $? = 0 ] || return 1
		grep -q '^lost: 0 events' "$WORK/lost.err" || break
	done
	if grep -q '^lost: 0 events' "$WORK/lost.err"; then
		WHY="no loss with an 8 KB buffer: nothing to check on this machine"
		return 77
	fi
	expect "lost line without per-CPU counts" grep -Eq '^(.\[1m)?lost: cpu0 [0-9]+ \(overrun' "$WORK/lost.err" || return 1
	expect "in-band losses not kept in the file" [ "$(dat_field "$out" missed)" -gt 0 ] || return 1
	drops=$(trace-cmd report -i "$out" 2> /dev/null | grep -c 'EVENTS DROPPED')
	expect "trace-cmd report shows no EVENTS DROPPED" [ "$drops" -gt 0 ] || return 1
	n=$(reported_events "$WORK/lost.err")
	lib=$(dat_field "$out" records)
	expect "lossy: gpu-trace said $n, libtracecmd read $lib" [ "$n" = "$lib" ] || return 1
	expect "lossy: trace-cmd printed a different count" [ "$(($(trace_cmd_events "$out") - drops))" = "$n" ]
}

# In a private mount namespace, so the machine's own mount is not touched.
test_mounts_tracefs_when_unmounted() {
	command -v unshare > /dev/null || { WHY="unshare not installed"; return 77; }
	# every tracefs mount, /sys/kernel/debug/tracing's (automounted) too
	unshare -m sh -c "for m in \$(awk '\$3 == \"tracefs\" { print \$2 }' /proc/mounts); do umount \$m; done 2>/dev/null;
		grep -q ' tracefs ' /proc/mounts && exit 9;
		'$GT' record -e sched:sched_switch -o '$WORK/mnt.dat' -- true" 2> "$WORK/mnt.err"
	case $? in
	9) WHY="tracefs mounted elsewhere too: cannot unmount all in the namespace"; return 77 ;;
	0) ;;
	*) WHY="record failed without a mounted tracefs: $(tail -1 "$WORK/mnt.err")"; return 1 ;;
	esac
	expect "no line saying tracefs was mounted" grep -q '^tracefs: was not mounted; mounted it on' "$WORK/mnt.err" || return 1
	expect "the recording is unreadable" trace-cmd report -i "$WORK/mnt.dat" > /dev/null 2>&1
}

# Every option in a gpu-trace file is one trace-cmd knows: KernelShark, gpuvis
# and trace-cmd dump complain of unknown ones ("unknown option 18260").
test_no_unknown_options_in_the_file() {
	local out=$WORK/opts.dat
	"$GT" record -e sched:sched_switch -o "$out" -- true 2> /dev/null || { WHY="record failed"; return 1; }
	trace-cmd dump --options -i "$out" > "$WORK/opts.txt" 2>&1
	expect "trace-cmd dump: $(grep -i unknown "$WORK/opts.txt" | head -1)" \
		[ "$(grep -ci 'unknown option' "$WORK/opts.txt")" = 0 ] || return 1
	expect "the granted buffer size is not in the CPU stats" \
		grep -q '^buffer_size_kb: [0-9]' "$WORK/opts.txt"
}

# The default preset takes the kernel's log system-wide (a hang's lines come
# from kworkers, never the workload's pids): a timeout line written to
# /dev/kmsg by another process while the workload sleeps is in the file, and
# report lists it.
test_kernel_log_recorded_system_wide() {
	local out=$WORK/klog.dat pid
	[ -w /dev/kmsg ] || { WHY="/dev/kmsg not writable here"; return 77; }
	"$GT" record -o "$out" -- sleep 2 2> "$WORK/klog.err" &
	pid=$!
	# the line once the recording is armed (its instance there, the command started):
	# a sanitizer's build takes longer than a fixed half second to get there
	for _ in $(seq 100); do
		[ -d "$TFS/instances/gpu-trace-$pid" ] && pgrep -P "$pid" -x sleep > /dev/null && break
		sleep 0.05
	done
	sleep 0.2
	echo "amdgpu 0000:ff:00.0: ring gpu-trace-test timeout, signaled seq=5, emitted seq=6" > /dev/kmsg
	wait "$pid"
	expect "record failed: $(tail -1 "$WORK/klog.err")" [ $? = 0 ] || return 1
	expect "scope does not name printk system-wide: $(grep '^scope' "$WORK/klog.err")" \
		grep -q '^scope: system-wide: .*printk' "$WORK/klog.err" || return 1
	expect "report does not list the timeout: $("$GT" report "$out" 2>&1 | grep -i 'hang\|timed' | head -3)" \
		grep -q '^  [0-9.]* gpu-trace-test on 0000:ff:00.0 timed out (signaled seq 5, emitted seq 6)$' \
		<<< "$("$GT" report "$out" 2> /dev/null)"
}

# record snapshots every DRM file's fdinfo; where no process has one open
# one line says so and the file gets no fdinfo buffer; on a machine with no
# DRM device at all that line told nobody anything and is not printed.
test_drm_fdinfo_snapshots_said() {
	local out=$WORK/fdinfo.dat
	"$GT" record -o "$out" -- true 2> "$WORK/fdinfo.err"
	expect "record failed: $(tail -1 "$WORK/fdinfo.err")" [ $? = 0 ] || return 1
	if [ ! -e /dev/dri ]; then
		expect "a line about DRM files on a machine without DRM devices: $(grep fdinfo "$WORK/fdinfo.err")" \
			not grep -q '^drm fdinfo' "$WORK/fdinfo.err" || return 1
		expect "an fdinfo buffer without DRM files" not grep -q 'drm-fdinfo' <<< "$(trace-cmd report --stat -i "$out" 2> /dev/null; trace-cmd report -i "$out" 2> /dev/null | head -50)"
	elif ! ls /proc/[0-9]*/fd/ -l 2> /dev/null | grep -q ' -> /dev/dri/'; then
		expect "no line saying there is no DRM file: $(grep fdinfo "$WORK/fdinfo.err")" \
			grep -q '^drm fdinfo: no process had a DRM file (/dev/dri) open; client ids cannot be named by process$' "$WORK/fdinfo.err" || return 1
		expect "an fdinfo buffer without DRM files" not grep -q 'drm-fdinfo' <<< "$(trace-cmd report --stat -i "$out" 2> /dev/null; trace-cmd report -i "$out" 2> /dev/null | head -50)"
	else
		expect "no fdinfo line: $(cat "$WORK/fdinfo.err")" grep -q '^drm fdinfo: ' "$WORK/fdinfo.err"
	fi
}

# A workload's comm with a newline ("x\n1 evil") split the kernel's
# saved_cmdlines into a line naming pid 1: the file named pid 1 "evil".
# The kernel's cache keeps names of pids long gone: earlier runs' hostile names are
# emptied from it first (saved_cmdlines_size written back as it is), so that the file
# is judged on this run's workload alone.
test_record_comm_with_a_newline_names_no_other_pid() {
	local size
	size=$(cat "$TFS/saved_cmdlines_size") && echo "$size" > "$TFS/saved_cmdlines_size" ||
		{ WHY="cannot empty the kernel's saved_cmdlines"; return 1; }
	"$GT" record -e sched:sched_switch -o "$WORK/nl.dat" -- python3 -c '
import ctypes, time
ctypes.CDLL(None).prctl(15, b"x\n1 evil", 0, 0, 0)
for i in range(5):
    time.sleep(0.02)' > "$WORK/nl.out" 2>&1 || { WHY="record failed: $(tail -1 "$WORK/nl.out")"; return 1; }
	trace-cmd dump --cmd-lines -i "$WORK/nl.dat" > "$WORK/nl.cmd" 2> /dev/null ||
		{ WHY="trace-cmd dump failed"; return 1; }
	expect "the file names a pid after the workload's comm: $(grep -x '[0-9]* evil' "$WORK/nl.cmd")" \
		not grep -qx '[0-9]* evil' "$WORK/nl.cmd" || return 1
	# and the workload itself is named, its newline as ?
	expect "the workload's own name is gone: $(grep 'x?1\|python' "$WORK/nl.cmd" | head -3)" \
		grep -qE '^ *[0-9]+ (x\?1 evil|python3)$' "$WORK/nl.cmd"
}

# Two records of one name (two terminals, a loop): the first to finish took
# trace.dat and the other's whole recording was deleted (exit 125). Both keep
# their data now: the later one as trace-1.dat, said in one line.
test_record_two_runs_of_one_name_keep_both() {
	local d=$WORK/twonames rc1 rc2
	mkdir -p "$d"
	# the long run's command lives until the short run has ended: it ends second
	# however slow either's set-up (a fixed 2 s could be outlasted)
	( cd "$d" && "$GT" record -e sched:sched_switch -- sh -c 'while [ ! -e "$1" ]; do sleep 0.05; done' _ "$d/long.stop" \
		> "$d/long.out" 2>&1; echo $? > "$d/long.rc" ) &
	sleep 0.5
	( cd "$d" && "$GT" record -e sched:sched_switch -- sleep 0.3 > "$d/short.out" 2>&1 )
	rc2=$?
	touch "$d/long.stop"
	wait
	rc1=$(cat "$d/long.rc")
	expect "exits $rc1 and $rc2: $(tail -1 "$d/long.out")" [ "$rc1" = 0 ] && [ "$rc2" = 0 ] || return 1
	expect "not both files: $(ls "$d")" [ -s "$d/trace.dat" ] && [ -s "$d/trace-1.dat" ] || return 1
	expect "the later run does not say where it went: $(grep -v '^buffer\|^events\|^scope\|^workload\|^drm' "$d/long.out")" \
		grep -q '^trace.dat was written by another run meanwhile (it is kept); this recording is trace-1.dat$' "$d/long.out" || return 1
	expect "the summary names the other file: $(grep '^recorded' "$d/long.out")" grep -q '^recorded .* -> trace-1.dat$' "$d/long.out" || return 1
	expect "trace-1.dat is not the longer run's: $(trace-cmd report -i "$d/trace-1.dat" 2> /dev/null | grep -m1 -o 'workload: .*')" \
		trace-cmd report -i "$d/trace-1.dat" 2> /dev/null | grep -q 'gpu-trace workload: pids=[0-9]* comm=sh$' || return 1
	find "$d" -name '.*partial*' | grep -q . && { WHY="a partial file left: $(find "$d" -name '.*partial*')"; return 1; }
	return 0
}

# record -a 2>&1 | head -2: head took its lines and went, and record, with no
# terminal and no --duration, never wrote again and so never saw the pipe
# close (10 minutes, 166 MB until Ctrl-C). It watches its output now.
test_record_ends_when_its_reader_goes() {
	local t0 t1 rc
	t0=$(date +%s%N)
	( timeout 60 "$GT" record -a -e sched:sched_switch -o "$WORK/gone.dat" 2>&1; echo $? > "$WORK/gone.rc" ) |
		head -2 > "$WORK/gone.head"
	t1=$(date +%s%N)
	rc=$(cat "$WORK/gone.rc")
	expect "record ran on after head exited: $(((t1 - t0) / 1000000)) ms, exit $rc" \
		[ "$rc" != 124 ] && [ $(((t1 - t0) / 1000000)) -lt 15000 ] || return 1
	expect "record exit $rc" [ "$rc" = 0 ] || return 1
	expect "head got no lines" [ "$(grep -c . "$WORK/gone.head")" = 2 ] || return 1
	expect "no file: $(ls "$WORK" | grep gone)" [ -s "$WORK/gone.dat" ] || return 1
	# it reads: 0, or 2 where it holds no GPU event (this machine's)
	"$GT" report --events "$WORK/gone.dat" > /dev/null 2>&1
	rc=$?
	case $rc in
	0 | 2) ;;
	*) WHY="the file does not read: exit $rc"; return 1 ;;
	esac
	expect "a gpu-trace instance left: $(gt_instances)" [ -z "$(gt_instances)" ]
}

# A workload without a GPU job of its own: its line said "its jobs are
# flagged W" over 0 jobs
test_record_workload_without_jobs_said_so() {
	"$GT" record -e sched:sched_switch -o "$WORK/wl-nojobs.dat" -- true > "$WORK/wl-nojobs.out" 2>&1 ||
		{ WHY="record failed: $(tail -2 "$WORK/wl-nojobs.out" | tr '\n' ' ')"; return 1; }
	"$GT" report "$WORK/wl-nojobs.dat" > "$WORK/wl-nojobs.txt" 2> /dev/null
	expect "the workload line: $(grep '^workload' "$WORK/wl-nojobs.txt")" \
		grep -q '^workload true: 1 task (the recorded command or -P and what they forked); no GPU job of its own$' "$WORK/wl-nojobs.txt"
}

# report on a recording of this machine that has no GPU event: exit 2 and one line
test_report_recorded_file_without_gpu_events() {
	[ "$(id -u)" = 0 ] || { WHY="recording needs root"; return 77; }
	"$GT" record -e sched:sched_switch -o "$WORK/nogpu.dat" -- true 2> /dev/null || { WHY="record failed"; return 1; }
	"$GT" report "$WORK/nogpu.dat" > "$WORK/nogpu.txt" 2> "$WORK/nogpu.err"
	expect "exit $?, want 2" [ $? = 2 ] || return 1
	expect "header missing" grep -q "^kernel   $(uname -s)" "$WORK/nogpu.txt" || return 1
	expect "not one line: $(cat "$WORK/nogpu.err")" [ "$(count_lines "$WORK/nogpu.err")" = 1 ] || return 1
	expect "does not say how to record" grep -q 'has no GPU events (looked for gpu_scheduler.*--preset amd' "$WORK/nogpu.err" || return 1
	# --events prints every record as trace-cmd report does, and says the same with the same status
	"$GT" report --events "$WORK/nogpu.dat" > "$WORK/nogpu-ev.txt" 2> "$WORK/nogpu-ev.err"
	expect "--events exit $?, want 2" [ $? = 2 ] || return 1
	expect "--events: not one line: $(cat "$WORK/nogpu-ev.err")" [ "$(count_lines "$WORK/nogpu-ev.err")" = 1 ] || return 1
	expect "--events does not say it" grep -q 'has no GPU events' "$WORK/nogpu-ev.err"
}

# trace-cmd extract -B of an instance that overran: its CPU stats follow the
# top buffer's after a "Buffer: NAME" stats line, and report counted them as
# more CPUs ("LOST cpu0 0, cpu1 0, cpu2 17296, cpu3 11441" on a 2-CPU
# machine). The LOST line names the file's CPUs and the instance by name, and
# JSON lists a CPU's stats once.
test_trace_cmd_extract_of_an_instance() {
	command -v trace-cmd > /dev/null || { WHY="trace-cmd is not installed"; return 77; }
	local inst=gt-test-extract-$$ out=$WORK/extract.dat rc=0
	mkdir "$TFS/instances/$inst" || { WHY="cannot make instance $inst"; return 1; }
	(
		d=$TFS/instances/$inst
		echo 4 > "$d/buffer_size_kb" && echo 1 > "$d/events/sched/sched_switch/enable" &&
			echo 1 > "$d/events/sched/sched_wakeup/enable" || exit 1
		for _ in $(seq 300); do sleep 0.001; done
		echo 0 > "$d/tracing_on"
		trace-cmd extract -B "$inst" -o "$out" > "$WORK/extract.log" 2>&1
	)
	rc=$?
	# trace-cmd extract -B removes the instance itself
	[ ! -d "$TFS/instances/$inst" ] || rmdir "$TFS/instances/$inst" ||
		{ WHY="cannot remove instance $inst"; return 1; }
	[ $rc = 0 ] || { WHY="trace-cmd extract failed: $(tail -2 "$WORK/extract.log" | tr '\n' '|')"; return 1; }
	"$GT" report "$out" > "$WORK/extract.txt" 2> "$WORK/extract.err"
	rc=$?
	expect "report exit $rc: $(head -2 "$WORK/extract.err")" [ $rc = 0 ] || [ $rc = 2 ] || return 1
	local cpus lostcpus
	cpus=$(awk '$1 == "cpus" {print $2}' "$WORK/extract.txt")
	lostcpus=$(grep '^LOST' "$WORK/extract.txt" | grep -o 'cpu[0-9]* ' | wc -l)
	grep -q '^LOST' "$WORK/extract.txt" || { WHY="the instance of 4 KB a CPU did not overrun: nothing to check"; return 77; }
	expect "LOST names $lostcpus CPUs of $cpus: $(grep '^LOST' "$WORK/extract.txt")" [ "$lostcpus" = "$cpus" ] || return 1
	expect "the instance's losses not named by it: $(grep '^LOST' "$WORK/extract.txt")" \
		grep -q "^LOST .*, $inst buffer [1-9][0-9]*;" "$WORK/extract.txt" || return 1
	"$GT" report --format json "$out" 2> /dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert len(d["lost"]["cpus"]) == d["cpus"], (d["cpus"], d["lost"]["cpus"])
assert d["lost"]["instance_lost"] > 0 and d["lost"]["instance_name"] == sys.argv[1], d["lost"]' "$inst" ||
		{ WHY="JSON lost: not one CPU each, or the instance's losses not its own"; return 1; }
}

# A recording with a command keeps the workload's events in its own buffer
# instance; trace-cmd report puts "workload: " before those lines and the
# column's width of spaces before the top buffer's. report --events left the
# column out, so no line said which buffer it came from; now every line is
# trace-cmd report's (through our plugins), the column included.
test_events_name_the_workload_buffer() {
	command -v trace-cmd > /dev/null || { WHY="trace-cmd is not installed"; return 77; }
	local out=$WORK/buffers.dat
	"$GT" record -e sched:sched_switch -e sched:sched_process_exec -o "$out" -- \
		sh -c 'for i in 1 2 3; do /bin/true; done' 2> "$WORK/buffers.err" ||
		{ WHY="record failed: $(tail -1 "$WORK/buffers.err")"; return 1; }
	"$GT" report --events "$out" > "$WORK/buffers.ev" 2> /dev/null
	TRACEEVENT_PLUGIN_DIR=$ROOT_DIR/build/plugins trace-cmd report -i "$out" 2> /dev/null |
		grep -v '^cpus=' > "$WORK/buffers.tc"
	expect "no workload buffer lines in trace-cmd's" grep -q '^workload: ' "$WORK/buffers.tc" || return 1
	diff <(sed 's/ *$//' "$WORK/buffers.ev") <(sed 's/ *$//' "$WORK/buffers.tc") > "$WORK/buffers.diff"
	expect "--events differs from trace-cmd report: $(head -4 "$WORK/buffers.diff" | tr '\n' ' ')" [ ! -s "$WORK/buffers.diff" ]
}
