# gpu-trace check: one line per finding, exit 0/1/2, changes nothing.
# shellcheck shell=bash

test_check_lines_and_exit_status() {
	local rc
	tracefs_snapshot > "$WORK/snap.before"
	"$GT" check > "$WORK/check.txt" 2>&1
	rc=$?
	expect "exit $rc: root on a machine with tracefs can record (0 or 1)" [ $rc = 0 ] || [ $rc = 1 ] || return 1
	expect "a line without OK/WARN/FAIL: $(grep -Ev '^(OK|WARN|FAIL) ' "$WORK/check.txt" | head -1)" \
		[ -z "$(grep -Ev '^(OK|WARN|FAIL) ' "$WORK/check.txt")" ] || return 1
	expect "tracefs line" grep -Eq '^OK +tracefs +tracefs mounted at' "$WORK/check.txt" || return 1
	expect "every WARN has a fix" [ -z "$(grep '^WARN' "$WORK/check.txt" | grep -v '; fix: ')" ] || return 1
	for key in privileges lockdown function function_graph gpu-events kfd mod-amdgpu buffer pid-follow clock top-level instances; do
		grep -Eq "^(OK|WARN|FAIL) +$key " "$WORK/check.txt" || { WHY="no $key finding"; return 1; }
	done
	grep -q '^preset amd' <(grep -o 'preset amd.*' "$WORK/check.txt") || { WHY="no preset amd finding"; return 1; }
	# what a preset lacks is named as record names it: a system, never the preset's glob
	expect "a preset's glob in check's words: $(grep -o 'lacks .*[][*].*' "$WORK/check.txt" | head -1)" \
		not grep -q 'lacks .*amdgpu_\[' "$WORK/check.txt" || return 1
	# a system the preset takes by several patterns (xe's eight) is named once
	expect "a missing system named twice: $(grep -Eo 'preset [a-z0-9-]+: .*lacks.* ([a-z_]+), \1(,|;).*' "$WORK/check.txt" | head -1)" \
		not grep -Eq 'lacks (.*, )?([a-z_]+), (.*, )?\2[,;]' "$WORK/check.txt" || return 1
	# the tracer verdict agrees with what record does here
	if grep -q '^WARN function  *function tracer listed but refused' "$WORK/check.txt"; then
		"$GT" record -p function -e sched:sched_switch -o "$WORK/ck.dat" -- true 2> "$WORK/ck.err"
		expect "check says refused but record did not fall back" grep -q '^tracer function: refused' "$WORK/ck.err" || return 1
	fi
	same_as_before "gpu-trace check"
}

# WARN and FAIL in colour on a terminal, and never in a file or pipe
test_check_colours_only_a_terminal() {
	command -v script > /dev/null || { WHY="script(1) not installed"; return 77; }
	script -qec "$GT check" /dev/null > "$WORK/check.tty" 2>&1
	"$GT" check > "$WORK/check.pipe" 2>&1
	if grep -q '^WARN\|^FAIL' "$WORK/check.pipe"; then
		expect "no colour for WARN/FAIL on a terminal" grep -aq $'\033\[1;3[13]m\(WARN\|FAIL\)' "$WORK/check.tty" || return 1
	fi
	expect "colour codes in a file" not grep -q $'\033' "$WORK/check.pipe"
}

test_check_json() {
	local rc
	"$GT" check --json > "$WORK/check.json"
	rc=$?
	expect "json exit field differs from status $rc" \
		[ "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["exit"])' "$WORK/check.json")" = "$rc" ] || return 1
	expect "json findings" [ "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(all(f["status"] in ("OK","WARN","FAIL") for f in d["findings"]) and len(d["findings"]) > 10)' "$WORK/check.json")" = True ]
}

test_check_names_stale_instances() {
	local name=gpu-trace-999999998
	mkdir "$TFS/instances/$name" || { WHY="cannot create an instance"; return 1; }
	"$GT" check > "$WORK/check2.txt" 2>&1
	rmdir "$TFS/instances/$name"
	# another gpu-trace may be recording on this machine: its instance may be listed too
	expect "stale instance not named" grep -Eq "^WARN +instances +gpu-trace instances present: (.*, )?$name(, .*)?; fix: .*gpu-trace reset" "$WORK/check2.txt"
}

test_check_without_root() {
	command -v setpriv > /dev/null || { WHY="setpriv not installed"; return 77; }
	setpriv --reuid=65534 --regid=65534 --clear-groups "$GT" check > "$WORK/check3.txt" 2>&1
	expect "non-root: exit $?, want 2" [ $? = 2 ] || return 1
	expect "no FAIL privileges line" grep -Eq '^FAIL +privileges .*fix: run with sudo' "$WORK/check3.txt"
}

# Where nvidia.ko is not loaded (every machine here), check and list say why the NVIDIA
# probes cannot be set, name each function absent and the tracepoint missing, and a
# record with --preset nvidia says so in one line and records the rest; --strict fails.
test_check_list_explain_missing_nvidia() {
	local out
	if grep -q ' nvidia_unlocked_ioctl' /proc/kallsyms 2> /dev/null; then
		WHY="nvidia.ko (or a stand-in) is loaded here: the lab checks that case"
		return 77
	fi
	tracefs_snapshot > "$WORK/snap.before"
	out=$("$GT" check 2>&1)
	expect "check's nvidia line: $(grep nvidia-probes <<< "$out")" \
		grep -Eq '^WARN +nvidia-probes +NVIDIA probes \(--preset nvidia\) not possible: (this kernel has no kprobe_events|kprobe_events is not writable|nvidia\.ko is not loaded).*; fix: ' <<< "$out" || return 1
	out=$("$GT" list --preset nvidia 2>&1)
	expect "list: the tracepoint missing and why: $(grep nvidia_dev_xid <<< "$out")" \
		grep -Eq '^  nvidia:nvidia_dev_xid +missing \(nvidia\.ko is not loaded\)$' <<< "$out" || return 1
	expect "list: not 10 functions absent" [ "$(grep -Ec '^  kprobe [a-z_]+ +absent: nvidia(\.ko|-uvm) is not loaded$' <<< "$out")" = 10 ] || return 1
	"$GT" record --preset nvidia -o "$WORK/nv.dat" -- true > "$WORK/nv.out" 2>&1 ||
		{ WHY="record --preset nvidia failed: $(tail -1 "$WORK/nv.out")"; return 1; }
	expect "record's one line: $(grep 'nvidia probes' "$WORK/nv.out")" \
		grep -Eq '^nvidia probes: not used: .*; only nvidia:nvidia_dev_xid \(Xids\) where the driver has it$' "$WORK/nv.out" || return 1
	"$GT" record --preset nvidia --strict -o "$WORK/nv2.dat" -- true > "$WORK/nv2.out" 2>&1
	expect "--strict without the probes succeeded" [ $? != 0 ] || return 1
	expect "--strict's error: $(tail -1 "$WORK/nv2.out")" grep -q 'no NVIDIA probes: .*drop --strict' "$WORK/nv2.out" || return 1
	expect "--strict left an output" [ ! -e "$WORK/nv2.dat" ] || return 1
	same_as_before "check, list and record --preset nvidia without nvidia.ko"
}
