# Files as a hostile sender or a damaged disk makes them (tests/tools/hostile-dat.py),
# through every mode of report and compare: a correct result or one clear line,
# never a crash (>= 126), never "lost none" with exit 0 on damage, never more than
# 300 MB of memory, never a partial file left behind.
# NO_ROOT
# shellcheck shell=bash

HOSTILE=$ROOT_DIR/tests/tools/hostile-dat.py
HOSTILE_FORMATS=$ROOT_DIR/tests/fixtures/formats

# hostile_base NAME SCENARIO: $WORK/hostile-NAME.dat from make-fixture, and its zstd v7 copy
hostile_base() {
	"$ROOT_DIR/build/make-fixture" "$HOSTILE_FORMATS" "$2" "$WORK/hostile-$1.dat" > /dev/null &&
		trace-cmd convert -i "$WORK/hostile-$1.dat" -o "$WORK/hostile-${1}7.dat" \
			--file-version 7 --compression zstd > /dev/null 2>&1
}

# hostile_make OUT KIND IN: the crafted file, or WHY set and 1
hostile_make() {
	python3 "$HOSTILE" "$2" "$WORK/hostile-$3.dat" "$WORK/$1.dat" > /dev/null 2> "$WORK/$1.why" ||
		{ WHY="hostile-dat.py $2 on $3: $(cat "$WORK/$1.why")"; return 1; }
}

# The crafted files: NAME KIND BASE, and whether report may read it whole (read),
# must say the file is damaged in its output (damaged), or refuse it (refused)
HOSTILE_FILES="
fmt-2g       field:print:ip:offset=2147483648 hk        refused
fmt-300k     field:print:ip:offset=300000     hk        refused
fmt-past     field:print:ip:offset=2000       hk        read
fld-seqno    field:amdgpu_cs_ioctl:seqno:offset=2000 small read
fmt-hex      printfmt:print:\"%s\",__print_hex(REC->buf,REC->ip) hk read
fmt-array    printfmt:print:\"%s\",__print_array(REC->buf,REC->ip,8) hk read
fmt-index    printfmt:print:\"%d\",REC->buf[REC->ip] hk read
fmt-div      printfmt:print:\"%d\",REC->ip/REC->common_flags hk read
fmt-star     printfmt:print:\"%*d\",REC->ip,REC->ip hk read
fmt-width    printfmt:print:\"%100000000d\",REC->ip hk read
chunks       chunks:0:1                       bench7    refused
overlap6     overlap:0:1                      bench     refused
overlap7     overlap:0:1                      bench7    refused
back6        ts-back:1:3                      bench     damaged
back7        ts-back:1:3                      bench7    damaged
wrap6        ts-wrap:1:3:200000               bench     damaged
wrap7        ts-wrap:1:3:200000               bench7    damaged
wraplast     ts-wrap:1:1                      bench     damaged
bomb1024     bomb:1024:4:64                   small7    refused
bomb4m       bomb:4:4096:64                   small7    refused
bomb8x4m     bomb:8:4096:64                   small7    refused
bomb16m      bomb:2:16384:64                  small7    refused
bombsame     bomb:1024:4:64:same              small7    refused
"

HOSTILE_MODES="summary events jobs json csv perfetto html parquet events-o compare-good compare-same"

# hostile_run NAME MODE: report or compare of $WORK/NAME.dat in one mode, into
# $WORK/h-MODE.{out,err,rss,rc}; -o files go to $WORK/h-out-MODE/
hostile_run() {
	local f=$WORK/$1.dat good=$WORK/hostile-bench.dat o=$WORK/h-$2 d=$WORK/h-out-$2
	rm -rf "$d"
	mkdir -p "$d"
	case $2 in
	summary) set -- report "$f" ;;
	events) set -- report --events --no-pager "$f" ;;
	jobs) set -- report --jobs --no-pager "$f" ;;
	json) set -- report --format json "$f" ;;
	csv) set -- report --format csv "$f" ;;
	perfetto) set -- report --format perfetto -o "$d/x.pftrace" "$f" ;;
	html) set -- report --format html -o "$d/x.html" "$f" ;;
	parquet) set -- report --format parquet -o "$d/tables" "$f" ;;
	events-o) set -- report --events -o "$d/x.txt" "$f" ;;
	compare-good) set -- compare "$good" "$f" ;;
	compare-same) set -- compare "$f" "$f" ;;
	esac
	/usr/bin/time -f '%M' -o "$o.rss" timeout 120 "$GT" "$@" > "$o.out" 2> "$o.err"
	echo $? > "$o.rc"
}

# hostile_judge NAME MODE WHAT: what one mode did with NAME, as "; why" when wrong
hostile_judge() {
	local name=$1 mode=$2 what=$3 o=$WORK/h-$2 rc rss n
	rc=$(cat "$o.rc")
	rss=$(tail -1 "$o.rss")
	if [ "$rc" -ge 126 ] || [ "$rc" = 124 ]; then
		echo "; $name $mode: exit $rc ($(tail -1 "$o.err"))"
		return
	fi
	[ -n "$rss" ] && [ "$rss" -lt 307200 ] || echo "; $name $mode: peak RSS $rss KB"
	n=$(find "$WORK/h-out-$mode" -name '.*partial*' | wc -l)
	[ "$n" = 0 ] || echo "; $name $mode: a partial file left"
	case $what in
	refused)
		[ "$rc" = 125 ] && [ "$(grep -c . "$o.err")" = 1 ] &&
			grep -q 'damaged\|exhaust memory\|busy' "$o.err" ||
			echo "; $name $mode: not refused in one line (exit $rc: $(head -2 "$o.err" | tr '\n' '|'))"
		;;
	damaged)
		# read (exit 0), but never as fine: "lost none" is the defect
		if [ "$rc" != 0 ]; then
			echo "; $name $mode: exit $rc ($(tail -1 "$o.err"))"
		elif grep -q '^lost     none' "$o.out"; then
			echo "; $name $mode: lost none on a damaged file"
		elif ! grep -q "is damaged: CPU 1's time\|is damaged: CPU 0's time" "$o.err"; then
			echo "; $name $mode: no line says it is damaged ($(head -1 "$o.err"))"
		fi
		;;
	read)
		[ "$rc" = 0 ] || [ "$rc" = 2 ] || echo "; $name $mode: exit $rc ($(tail -1 "$o.err"))"
		;;
	esac
}

test_hostile_files_every_mode() {
	local name kind base what mode bad="" pids
	command -v trace-cmd > /dev/null && command -v zstd > /dev/null ||
		{ WHY="needs trace-cmd and zstd (sudo make deps check installs them)"; return 77; }
	hostile_base hk hip-kfd && hostile_base bench bench:3000 && hostile_base small two-rings ||
		{ WHY="cannot make the base files"; return 1; }
	while read -r name kind base what; do
		[ -n "$name" ] || continue
		hostile_make "$name" "$kind" "$base" || return 1
		# a file's modes side by side: each its own output, memory measured alone
		pids=()
		for mode in $HOSTILE_MODES; do
			hostile_run "$name" "$mode" &
			pids+=($!)
		done
		wait "${pids[@]}"
		for mode in $HOSTILE_MODES; do
			bad="$bad$(hostile_judge "$name" "$mode" "$what")"
		done
	done <<< "$HOSTILE_FILES"
	expect "${bad#; }" [ -z "$bad" ]
}

# --events on a format whose field lies past its records' end: each such record
# printed field by field and marked, one line on stderr for the file, exit 0
test_hostile_events_damaged_records() {
	command -v trace-cmd > /dev/null || { WHY="needs trace-cmd"; return 77; }
	[ -f "$WORK/hostile-hk.dat" ] || hostile_base hk hip-kfd || { WHY="cannot make the base"; return 1; }
	hostile_make fmt-past field:print:ip:offset=2000 hk || return 1
	"$GT" report --events --no-pager "$WORK/fmt-past.dat" > "$WORK/fp.out" 2> "$WORK/fp.err" ||
		{ WHY="exit $?: $(cat "$WORK/fp.err")"; return 1; }
	expect "the damaged print records are not marked: $(grep -m1 'print:' "$WORK/fp.out")" \
		grep -q "print: *\[damaged: field ip past the record's end\] ip=<past the record's end> buf=:4:" "$WORK/fp.out" || return 1
	expect "not one line on stderr: $(cat "$WORK/fp.err")" [ "$(grep -c . "$WORK/fp.err")" = 1 ] || return 1
	expect "the line does not count them: $(cat "$WORK/fp.err")" \
		grep -q "fmt-past.dat: 9 records whose format reads past their end, printed field by field" "$WORK/fp.err" || return 1
	# the GPU events around them print as ever
	expect "the GPU events are gone" grep -q 'amdgpu_sched_run_job:' "$WORK/fp.out"
}

# A GPU event's field past its record's end is a miss, never a 0 the joins act on:
# i915-preempted's outs without completed? (5 preemptions and a completion) count as
# neither, two-rings' amdgpu_cs_ioctl without seqno makes no job 50:0 of two; the summary
# names them after the records line, JSON counts them, --events prints each record
field_misses_json() {
	python3 -c 'import json, sys
d = json.load(sys.stdin)
assert d["schema"] == "gpu-trace-report/13", d["schema"]
m = d["fields_outside_records"]
want = {"records": int(sys.argv[1]), "other_records": 0,
	"events": [{"event": sys.argv[2], "fields": [sys.argv[3]], "records": int(sys.argv[1])}]}
assert m == want, m
if sys.argv[2].startswith("i915:"):
	e = d["i915_requests"]["engines"]
	assert len(e) == 1 and e[0]["preempted"] == 0 and e[0]["completed"] == 1, e
' "$@"
}

test_hostile_fields_outside_records() {
	local out
	command -v trace-cmd > /dev/null || { WHY="needs trace-cmd"; return 77; }
	hostile_base i915p i915-preempted && hostile_base small two-rings ||
		{ WHY="cannot make the base files"; return 1; }
	hostile_make fld-i915 field:i915_request_out:completed:offset=2000 i915p &&
		hostile_make fld-cs field:amdgpu_cs_ioctl:seqno:offset=2000 small || return 1
	# the files as made: no such line, an empty count, 5 preemptions
	out=$("$GT" report "$WORK/hostile-i915p.dat") || { WHY="report failed"; return 1; }
	expect "a line on a whole file" [ "$(grep -c 'outside their records' <<< "$out")" = 0 ] || return 1
	expect "the whole file's preemptions" grep -Eq '^  rcs0 +1 +1 +1 +5 ' <<< "$out" || return 1
	"$GT" report --format json "$WORK/hostile-i915p.dat" | python3 -c 'import json, sys
m = json.load(sys.stdin)["fields_outside_records"]
assert m == {"records": 0, "events": [], "other_records": 0}, m' ||
		{ WHY="JSON of the whole file"; return 1; }
	# i915: six outs not used; no preemption of a 0 that is not in the record
	out=$("$GT" report "$WORK/fld-i915.dat") || { WHY="report failed on fld-i915"; return 1; }
	expect "no line names the misses: $(sed -n 5,6p <<< "$out" | tr '\n' '|')" \
		grep -qx 'note     fields outside their records: 6 (i915:i915_request_out completed x6); those events were not used' <<< "$out" || return 1
	expect "the line is not after records: $(sed -n 5,6p <<< "$out" | tr '\n' '|')" \
		grep -A1 '^records ' <<< "$out" | grep -q 'outside their records' || return 1
	expect "preemptions counted from a missing field: $(grep -A1 '^  engine' <<< "$out" | tail -1)" \
		grep -Eq '^  rcs0 +1 +1 +1 +0 ' <<< "$out" || return 1
	"$GT" report --format json "$WORK/fld-i915.dat" | field_misses_json 6 i915:i915_request_out completed ||
		{ WHY="JSON of fld-i915"; return 1; }
	# amdgpu: three submits not used; the scheduler's events still make each job, no 50:0
	out=$("$GT" report --jobs --no-pager "$WORK/fld-cs.dat") || { WHY="report --jobs failed on fld-cs"; return 1; }
	expect "jobs made of a missing seqno: $(awk '{print $2}' <<< "$out" | tr '\n' ' ')" \
		[ "$(awk 'NR > 1 {print $1, $2}' <<< "$out" | sort | tr '\n' '|')" = "gfx_0.0.0 50:1|gfx_0.0.0 50:2|sdma0 60:1|" ] || return 1
	out=$("$GT" report "$WORK/fld-cs.dat") || { WHY="report failed on fld-cs"; return 1; }
	expect "no line names the misses: $(sed -n 5,6p <<< "$out" | tr '\n' '|')" \
		grep -qx 'note     fields outside their records: 3 (amdgpu:amdgpu_cs_ioctl seqno x3); those events were not used' <<< "$out" || return 1
	"$GT" report --format json "$WORK/fld-cs.dat" | field_misses_json 3 amdgpu:amdgpu_cs_ioctl seqno ||
		{ WHY="JSON of fld-cs"; return 1; }
	# --events prints every record, the damaged ones field by field, and exits 0
	out=$("$GT" report --events --no-pager "$WORK/fld-i915.dat" 2> "$WORK/fld.err") ||
		{ WHY="--events exit $?: $(cat "$WORK/fld.err")"; return 1; }
	expect "--events lost records: $(grep -c . <<< "$out")" [ "$(grep -c . <<< "$out")" = 17 ] || return 1
	expect "--events does not mark the outs" \
		[ "$(grep -c "i915_request_out: *\[damaged: field completed past the record's end\].*completed=<past the record's end>" <<< "$out")" = 6 ] || return 1
	out=$("$GT" report --events --no-pager "$WORK/fld-cs.dat" 2> "$WORK/fld.err") ||
		{ WHY="--events exit $? on fld-cs: $(cat "$WORK/fld.err")"; return 1; }
	expect "--events does not mark the submits" \
		[ "$(grep -c "amdgpu_cs_ioctl: *\[damaged: field seqno past" <<< "$out")" = 3 ]
}

# Time stepping back within a CPU: the records set aside are counted as lost, the
# jobs then in flight flagged L, and every format says so (JSON: lost.damaged)
test_hostile_time_steps_back() {
	local j
	command -v trace-cmd > /dev/null || { WHY="needs trace-cmd"; return 77; }
	[ -f "$WORK/hostile-bench.dat" ] || hostile_base bench bench:3000 || { WHY="cannot make the base"; return 1; }
	hostile_make back6 ts-back:1:3 bench || return 1
	"$GT" report "$WORK/back6.dat" > "$WORK/b.out" 2> "$WORK/b.err" || { WHY="exit $?"; return 1; }
	expect "no DAMAGED line: $(head -6 "$WORK/b.out" | tr '\n' '|')" \
		grep -q "^DAMAGED  CPU 1's time steps back from 1.010526 to 0.001000: 71 records set aside, counted as lost" "$WORK/b.out" || return 1
	expect "not counted as lost: $(grep LOST "$WORK/b.out")" grep -q '^LOST .* 71 dropped in 1 window' "$WORK/b.out" || return 1
	expect "no job flagged L: $(grep '^jobs' "$WORK/b.out")" grep -q '^jobs .* [1-9][0-9]* touched by lost events (L)' "$WORK/b.out" || return 1
	j=$("$GT" report --format json "$WORK/back6.dat" 2> /dev/null |
		python3 -c 'import json,sys; d=json.load(sys.stdin)["lost"]; print(d["damaged"]["records"], d["damaged"]["cpu"], d["in_band"])')
	expect "json lost.damaged: $j" [ "$j" = "71 1 71" ] || return 1
	j=$("$GT" report --format json "$WORK/hostile-bench.dat" 2> /dev/null |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["lost"]["damaged"])')
	expect "json lost.damaged on an intact file: $j" [ "$j" = None ]
}
