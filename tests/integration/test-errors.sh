# Bad input: one line naming what failed, a non-zero status, no file.
# shellcheck shell=bash

# run_bad NAME ARGS...: must exit 125 with exactly one stderr line and no output
run_bad() {
	local name=$1 rc
	shift
	rm -f "$WORK/bad.dat"
	"$@" 2> "$WORK/bad.err" > /dev/null
	rc=$?
	expect "$name: exit $rc, want 125" [ $rc = 125 ] || return 1
	grep -v -e '^buffer' -e '^events' -e '^tracer' -e '^recording' "$WORK/bad.err" > "$WORK/bad.lines"
	expect "$name: $(count_lines "$WORK/bad.lines") error lines: $(tr '\n' '|' < "$WORK/bad.lines")" \
		[ "$(count_lines "$WORK/bad.lines")" = 1 ] || return 1
	expect "$name: error line does not start with 'gpu-trace record:'" \
		grep -q '^gpu-trace record: ' "$WORK/bad.lines" || return 1
	expect "$name: left an output file" [ ! -e "$WORK/bad.dat" ] || return 1
	expect "$name: left a partial file" [ -z "$(find "$WORK" -maxdepth 1 -name '*.partial-*')" ]
}

test_unknown_event() {
	run_bad "unknown event" "$GT" record -e no_such_system:nothing -o "$WORK/bad.dat" -- true || return 1
	expect "does not say how to list events" grep -q 'gpu-trace list -e' "$WORK/bad.err"
}

test_bad_filter() {
	run_bad "bad filter" "$GT" record -e sched:sched_switch -f 'prev_pid ===' -o "$WORK/bad.dat" -- true || return 1
	expect "does not name the format file" grep -q 'events/sched/sched_switch/format' "$WORK/bad.err"
}

test_unwritable_output() {
	run_bad "unwritable -o" "$GT" record -e sched:sched_switch -o /proc/no/such/dir/x.dat -- true
}

test_output_is_a_directory() {
	run_bad "-o directory" "$GT" record -e sched:sched_switch -o "$WORK" -- true
}

test_bad_options() {
	run_bad "unknown option" "$GT" record --frobnicate -- true || return 1
	run_bad "missing value" "$GT" record -e || return 1
	run_bad "bad -b" "$GT" record -b 12x -- true || return 1
	run_bad "-b unit not K, M or G" "$GT" record -b 1T -- true || return 1
	run_bad "-b over 2^40 KB" "$GT" record -b 1048577G -- true || return 1
	run_bad "nothing to record" "$GT" record -e sched:sched_switch || return 1
	run_bad "unknown preset" "$GT" record --preset nouveau -- true || return 1
	run_bad "unknown tracer" "$GT" record -p blk -- true || return 1
	run_bad "-P dead pid" "$GT" record -P 999999999 || return 1
	run_bad "-f without -e" "$GT" record -f 'pid == 1' -- true
}

# help for a command that does not exist lists every one there is, from the table
test_help_for_no_such_command() {
	local c
	"$GT" help nosuch > /dev/null 2> "$WORK/help.err"
	expect "help nosuch: exit $?, want 125" [ $? = 125 ] || return 1
	for c in record report compare fleet top check list reset; do
		expect "help nosuch does not list $c: $(cat "$WORK/help.err")" \
			grep -q "commands are .*\b$c\b" "$WORK/help.err" || return 1
	done
	expect "help nosuch: not one line" [ "$(count_lines "$WORK/help.err")" = 1 ]
}

test_not_root() {
	command -v setpriv > /dev/null || { WHY="setpriv not installed"; return 77; }
	run_bad "non-root" setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$GT" record -e sched:sched_switch -o "$WORK/bad.dat" -- true || return 1
	expect "does not say to use sudo" grep -q 'sudo' "$WORK/bad.err"
}
