# gpu-trace report on fixture files built from real kernel formats, on v7 files
# and on bad input. Needs no root and never touches tracefs (run.sh runs these
# files beside the ones that record; report on a recording is in test-record.sh).
# shellcheck shell=bash
# NO_ROOT

MAKE_FIXTURE=$ROOT_DIR/build/make-fixture
FORMATS=$ROOT_DIR/tests/fixtures/formats
PLUGIN_DIR=$ROOT_DIR/build/plugins

fixture() { "$MAKE_FIXTURE" "$FORMATS" "$1" "$WORK/$1.dat" && echo "$WORK/$1.dat"; }

# json FILE PYTHON-EXPR: prints the expression over the parsed report (d)
json() {
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}

ring_lat() { json "$1" "[r for r in d['rings'] if r['name']=='$2'][0]['latency_ns']['$3']['$4']"; }

# A stage never measured (the deps scenario has no submit events) is null in
# JSON and empty in CSV: a 0 would read as 0 us to a script
test_report_unmeasured_stages_are_null() {
	local f
	f=$(fixture deps) || { WHY="make-fixture failed"; return 1; }
	"$GT" report --format json "$f" > "$WORK/un.json" || { WHY="report json failed"; return 1; }
	expect "JSON: $(ring_lat "$WORK/un.json" gfx_0.0.0 submit_to_queue p50), not None" \
		[ "$(ring_lat "$WORK/un.json" gfx_0.0.0 submit_to_queue p50)" = None ] &&
		[ "$(ring_lat "$WORK/un.json" gfx_0.0.0 submit_to_queue count)" = 0 ] || return 1
	expect "JSON: a measured stage lost its value" [ "$(ring_lat "$WORK/un.json" gfx_0.0.0 queue_to_run p50)" = 10000 ] || return 1
	"$GT" report --format csv "$f" > "$WORK/un.csv" || { WHY="report csv failed"; return 1; }
	expect "CSV: $(grep -m1 'submit->queue' "$WORK/un.csv")" grep -q '^gfx_0.0.0,.*,submit->queue,0,,,,,,,0,0,0,0,0,0,0,0,0000:03:00.0,0,0,0$' "$WORK/un.csv"
}

test_report_two_rings_numbers() {
	local f
	f=$(fixture two-rings) || { WHY="make-fixture failed"; return 1; }
	"$GT" report --format json "$f" > "$WORK/tr.json" 2> "$WORK/tr.err" ||
		{ WHY="report failed: $(cat "$WORK/tr.err")"; return 1; }
	# gfx: exec 500 and 300 us, job 2 waited 390 us behind job 1, totals 520/720
	expect "gfx exec p50" [ "$(ring_lat "$WORK/tr.json" gfx_0.0.0 exec p50)" = 300000 ] || return 1
	expect "gfx exec max" [ "$(ring_lat "$WORK/tr.json" gfx_0.0.0 exec max)" = 500000 ] || return 1
	expect "gfx run->hw max" [ "$(ring_lat "$WORK/tr.json" gfx_0.0.0 run_to_hw max)" = 390000 ] || return 1
	expect "gfx total avg" [ "$(ring_lat "$WORK/tr.json" gfx_0.0.0 total avg)" = 620000 ] || return 1
	expect "sdma0 total" [ "$(ring_lat "$WORK/tr.json" sdma0 total max)" = 110000 ] || return 1
	expect "gfx busy 800 us" [ "$(json "$WORK/tr.json" "[r for r in d['rings'] if r['name']=='gfx_0.0.0'][0]['busy_ns']")" = 800000 ] || return 1
	expect "slowest first is job 50:2" [ "$(json "$WORK/tr.json" "d['slowest'][0]['fence']")" = 50:2 ] || return 1
	expect "process hipapp 3 jobs" [ "$(json "$WORK/tr.json" "d['processes'][0]['comm'], d['processes'][0]['jobs']")" = "hipapp 3" ]
}

# Before 4.16 (recordings of 4.11 kernels are public): amdgpu's own
# scheduler (gpu_sched:amd_sched_*), fences of driver amd_sched, ring_name a
# pointer with the ring named only in timeline. Every job finishes on its ring.
test_report_pre_4_16_amdgpu() {
	local f
	f=$(fixture amd-sched-4.11) || { WHY="make-fixture failed"; return 1; }
	"$GT" report --format json --jobs "$f" > "$WORK/old.json" 2> "$WORK/old.err" ||
		{ WHY="report failed: $(cat "$WORK/old.err")"; return 1; }
	expect "jobs by ring: $(json "$WORK/old.json" "sorted((j['ring'], j['fence'], j['unfinished']) for j in d['jobs'])")" \
		[ "$(json "$WORK/old.json" "sorted((j['ring'], j['fence'], j['unfinished']) for j in d['jobs'])")" = \
		"[('gfx', '20:1', False), ('gfx', '20:2', False), ('sdma0', '22:1', False), ('sdma1', '23:1', False)]" ] || return 1
	# gfx jobs also joined the scheduler's own queue event (by fence pointer)
	expect "gfx job 20:2 queued at 452 us" \
		[ "$(json "$WORK/old.json" "[j['queue_ns'] for j in d['jobs'] if j['fence']=='20:2'][0]")" = 1000452000 ] || return 1
	expect "sdma0 exec 40 us, done by its amd_sched fence" \
		[ "$(json "$WORK/old.json" "[(j['latency_ns']['exec'], j['done_from_fence']) for j in d['jobs'] if j['fence']=='22:1'][0]")" = "(40000, True)" ]
}

# Every output of report on every fixture as trace-cmd converts it (v7 zstd,
# v7 uncompressed): each exits 0 or 2 (no GPU events), never on a signal or an
# error (as gpu-trace wrote them, v6: test_outputs_byte_identical). --events on
# trace-cmd's v7 files with function_graph records crashed (libtracecmd's graph
# printer reading ahead through a handle our stream reader bypasses).
test_every_output_on_every_file() {
	local s f v out rc bad='' runs=0
	for s in $("$MAKE_FIXTURE" "$FORMATS" list | cut -d' ' -f1); do
		f=$(fixture "$s") || { WHY="make-fixture $s failed"; return 1; }
		set --
		if command -v trace-cmd > /dev/null; then
			for v in zstd none; do
				# trace-cmd itself crashes on option8-text: keep bash's notice out
				{ (trace-cmd convert -i "$f" -o "${f%.dat}-v7$v.dat" --file-version 7 \
					--compression "$v") > /dev/null 2>&1; } 2> /dev/null &&
					set -- "$@" "${f%.dat}-v7$v.dat"
			done
		fi
		for f in "$@"; do
			for out in "" "--jobs" "--events" "--format csv" "--format json" \
				"--format perfetto -o $WORK/o.pftrace" "--format html -o $WORK/o.html"; do
				# shellcheck disable=SC2086 # the options are words
				"$GT" report $out "$f" > "$WORK/out.txt" 2>&1
				rc=$?
				[ $rc = 0 ] || [ $rc = 2 ] || bad="$bad ${f##*/} ${out:-text}: exit $rc;"
				runs=$((runs + 1))
				rm -f "$WORK/o.pftrace" "$WORK/o.html"
			done
		done
	done
	[ "$runs" != 0 ] || { WHY="trace-cmd convert made no v7 file"; return 77; }
	expect "only $runs reports ran" [ "$runs" -ge 100 ] || return 1
	expect "${bad:-}" [ -z "$bad" ]
}

# 5.10 (Debian 11; many GPU clusters still run 5.x): the scheduler's events
# carry the ring's name as a pointer, and job ids count per ring, so a job is
# found by its fence. The same jobs as on 6.12 must come out, number for number.
test_report_5_10_formats() {
	local a b q
	a=$(fixture two-rings) || { WHY="make-fixture failed"; return 1; }
	b=$(fixture two-rings-5.10) || { WHY="make-fixture 5.10 failed"; return 1; }
	q="sorted((j['ring'], j['fence'], j['latency_ns']['exec'], j['latency_ns']['total'], j['unfinished']) for j in d['jobs'])"
	"$GT" report --format json --jobs "$a" > "$WORK/a.json" || { WHY="report 6.12 failed"; return 1; }
	"$GT" report --format json --jobs "$b" > "$WORK/b.json" || { WHY="report 5.10 failed"; return 1; }
	expect "5.10: $(json "$WORK/b.json" "$q") vs 6.12: $(json "$WORK/a.json" "$q")" \
		[ "$(json "$WORK/b.json" "$q")" = "$(json "$WORK/a.json" "$q")" ] || return 1
	expect "5.10 rings: $(json "$WORK/b.json" "sorted(set(j['ring'] for j in d['jobs']))")" \
		[ "$(json "$WORK/b.json" "sorted(set(j['ring'] for j in d['jobs']))")" = "['gfx_0.0.0', 'sdma0']" ]
}

# 5.10 without an ioctl to each job: kernel jobs on sdma0 (buffer moves) and an
# app's gfx job that waits for one. The scheduler's events name their ring by
# an address alone: amdgpu's run names it, the first job's too, and the gfx
# job's dependency wait (its id and ring address) is its own.
test_report_5_10_kernel_jobs() {
	local f q out
	f=$(fixture kernel-jobs-5.10) || { WHY="make-fixture failed"; return 1; }
	q="[(j['ring'], j['fence'], j['waits'], j['dep_fences'], j['latency_ns']['dep_wait']) for j in d['jobs']]"
	"$GT" report --format json --jobs "$f" > "$WORK/k.json" || { WHY="report failed"; return 1; }
	out=$(json "$WORK/k.json" "$q")
	expect "jobs: $out" [ "$out" = "[('sdma0', '60:1', 0, [], 0), ('sdma0', '60:2', 0, [], 0), ('gfx_0.0.0', '50:1', 1, ['60:2'], 89000)]" ] || return 1
	out=$("$GT" report "$f" | grep '^ring ')
	expect "rings: $out" [ "$(grep -c . <<< "$out")" = 2 ] || return 1
	expect "rings: $out" not grep -q unnamed <<< "$out" || return 1
	# --events: each scheduler line names its ring by the address, two rings two addresses
	"$GT" report --events "$f" > "$WORK/k.events" || { WHY="report --events failed"; return 1; }
	out=$(grep -E ' (drm_sched_job|drm_run_job): ' "$WORK/k.events")
	expect "scheduler lines without their ring's address: $out" \
		[ "$(grep -c . <<< "$out")" = 6 ] && [ "$(grep -cE ': +ring=0x[0-9a-f]+ job=' <<< "$out")" = 6 ] || return 1
	expect "ring addresses: $out" [ "$(grep -oE 'ring=0x[0-9a-f]+' <<< "$out" | sort -u | grep -c .)" = 2 ]
}

# 6.1, two GPUs: their gfx_0.0.0 rings share the name and their schedulers the
# ids, each one's job 5 in flight at once: four whole jobs, each with its own
# thread's submit and queue (the thread joins ioctl and queue, the fence splits);
# and each one's sdma0 job 3, with no ioctl, queued by its own rank's thread:
# both whole, each with the fence amdgpu's run gave its own run
test_report_two_gpus_6_1_keep_their_jobs() {
	local f q out
	f=$(fixture two-gpus-6.1) || { WHY="make-fixture failed"; return 1; }
	q="sorted((j['fence'], j['pid'], j['unfinished'], j['latency_ns']['submit_to_queue'], j['latency_ns']['total']) for j in d['jobs'])"
	"$GT" report --format json --jobs "$f" > "$WORK/g2.json" || { WHY="report failed"; return 1; }
	out=$(json "$WORK/g2.json" "$q")
	expect "jobs: $out" [ "$out" = "[('50:5', 4242, False, 2000, 60000), ('50:6', 4242, False, 2000, 60000), ('70:5', 4243, False, 2000, 49000), ('70:6', 4243, False, 2000, 50000), ('90:3', 4242, False, None, 60000), ('91:3', 4243, False, None, 49000)]" ]
}

# A file's strings reach a terminal: a comm or ring name holding escape
# sequences must come out escaped in every text output (compare's too), and
# JSON escapes them.
test_report_escapes_what_a_terminal_obeys() {
	local f out bad=
	f=$(fixture escapes) || { WHY="make-fixture failed"; return 1; }
	# --ring nosuch: the message naming the file's rings went to stderr raw
	for out in "" "--jobs" "--events" "--format csv" "--format json --jobs" "--ring nosuch"; do
		# shellcheck disable=SC2086 # the options are words
		"$GT" report $out "$f" > "$WORK/esc.out" 2>&1
		# ESC, BEL, or C2 9B (U+009B) anywhere is a terminal obeying the file
		if LC_ALL=C grep -q $'[\x1b\x07]\|\xc2\x9b' "$WORK/esc.out"; then
			bad="$bad ${out:-text}"
		fi
	done
	for out in "" "--format json"; do
		# shellcheck disable=SC2086
		"$GT" compare $out "$f" "$f" > "$WORK/esc.out" 2>&1
		LC_ALL=C grep -q $'[\x1b\x07]\|\xc2\x9b' "$WORK/esc.out" && bad="$bad compare${out:+ $out}"
	done
	expect "control characters passed in:$bad" [ -z "$bad" ] || return 1
	"$GT" report --jobs "$f" > "$WORK/esc.txt" 2>&1
	expect "the escaped comm is not shown: $(grep -m1 4242 "$WORK/esc.txt")" \
		grep -qF '\x1b]0;owned\x07x' "$WORK/esc.txt" || return 1
	expect "the C1 CSI is not shown as \\u009b" grep -qF 'sdma\u009b2J' "$WORK/esc.txt"
}

# Bytes that are no UTF-8 (a lone 0xff, a raw 0x9b: CSI where a terminal takes
# 8-bit controls) made the whole JSON unreadable by strict parsers and reached
# the text report; a comm starting with = was a formula in a spreadsheet.
test_report_bytes_that_are_no_utf8() {
	local f out bad= j
	f=$(fixture bad-bytes) || { WHY="make-fixture failed"; return 1; }
	for out in "" "--jobs" "--events" "--format csv --jobs"; do
		# shellcheck disable=SC2086 # the options are words
		"$GT" report $out "$f" > "$WORK/bb.out" 2>&1
		python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$WORK/bb.out" 2> /dev/null ||
			bad="$bad ${out:-text}"
	done
	"$GT" compare "$f" "$f" > "$WORK/bb.out" 2>&1
	python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$WORK/bb.out" 2> /dev/null ||
		bad="$bad compare"
	expect "bytes that are no UTF-8 passed in:$bad" [ -z "$bad" ] || return 1
	"$GT" report --jobs "$f" > "$WORK/bb.txt" 2>&1
	expect "the comm is not shown escaped: $(grep -m1 4242 "$WORK/bb.txt")" \
		grep -qF '=cmd\xff\x9b2J' "$WORK/bb.txt" || return 1
	j=$("$GT" report --format json --jobs "$f" | python3 -c '
import json, sys
d = json.loads(sys.stdin.buffer.read().decode("utf-8", "strict"))
print(ascii(sorted({j["comm"] for j in d["jobs"]})), ascii(sorted({j["ring"] for j in d["jobs"]})))')
	expect "JSON: $j" [ "$j" = "['=cmd\ufffd\ufffd2J'] ['gfx\ufffd\ufffd2J\ufffd', 'sdma\ufffd\ufffd\ufffd']" ] || return 1
	"$GT" report --format csv --jobs "$f" > "$WORK/bb.csv"
	expect "the formula reaches CSV: $(grep -m1 4242 "$WORK/bb.csv")" \
		grep -q ",4242,\"'=cmd" "$WORK/bb.csv"
}

# bench_v7 NAME [JOBS]: $WORK/NAME.dat (JOBS jobs, default 300, on five CPUs,
# many pages each) and trace-cmd's zstd v7 conversion $WORK/NAME7.dat, for
# tests that damage them
bench_v7() {
	command -v trace-cmd > /dev/null && command -v zstd > /dev/null ||
		{ WHY="needs trace-cmd and zstd"; return 77; }
	"$MAKE_FIXTURE" "$FORMATS" "bench:${2:-300}" "$WORK/$1.dat" > /dev/null || { WHY="make-fixture failed"; return 1; }
	trace-cmd convert -i "$WORK/$1.dat" -o "$WORK/${1}7.dat" --file-version 7 --compression zstd > /dev/null 2>&1 ||
		{ WHY="trace-cmd convert failed"; return 1; }
}

# One damaged page past a CPU's first: libtracecmd (v6) stopped reading that
# CPU there and report said "lost none" over the rest; the zstd v7 reader
# handed the page to kbuffer, which read past it. Both are one line now.
test_report_refuses_a_damaged_page() {
	local f g rc
	bench_v7 dp || return
	for f in "$WORK/dp.dat" "$WORK/dp7.dat"; do
		"$GT" report "$f" > /dev/null 2>&1 || { WHY="${f##*/} intact is refused"; return 1; }
		python3 "$ROOT_DIR/tests/tools/damage-page.py" "$f" 0 3 > /dev/null ||
			{ WHY="cannot damage ${f##*/}"; return 1; }
		"$GT" report "$f" > "$WORK/dp.out" 2> "$WORK/dp.err"
		rc=$?
		expect "${f##*/}: a damaged page reported as fine (exit $rc, $(grep '^records' "$WORK/dp.out"))" [ $rc = 125 ] || return 1
		expect "${f##*/}: not one line naming CPU 0: $(cat "$WORK/dp.err")" \
			[ "$(grep -c . "$WORK/dp.err")" = 1 ] && grep -q "CPU 0.*damaged\|damaged: CPU 0" "$WORK/dp.err" || return 1
	done
}

# A zstd v7 file our stream reader does not take (here: a DATE option, whose
# time offset only libtracecmd applies) is read by libtracecmd, which hands
# kbuffer every page past the first chunk unchecked. Every page is checked
# first now: a damaged one in a later chunk is one line and 125.
test_report_checks_pages_libtracecmd_decompresses() {
	local rc
	# 3000 jobs: CPU 0 holds several 10-page chunks
	bench_v7 lc 3000 || return
	python3 - "$WORK/lc7.dat" << 'EOP' || { WHY="cannot give the file a DATE option"; return 1; }
import struct, sys
path = sys.argv[1]
d = bytearray(open(path, "rb").read())
at = d.index(b"\0", 10) + 1 + 6                    # magic, version; endian, long size, page size
at = d.index(b"\0", at) + 1                          # compression
at = d.index(b"\0", at) + 1                          # its version
nxt = struct.unpack_from("<Q", d, at)[0]
while nxt:
    sid, flags, name, size = struct.unpack_from("<HHIQ", d, nxt)
    i, end, nxt = nxt + 16, nxt + 16 + size, 0
    while i < end:
        oid, osize = struct.unpack_from("<HI", d, i)
        if oid == 9:                                   # the version text becomes a date
            struct.pack_into("<H", d, i, 1)
            open(path, "wb").write(d)
            sys.exit(0)
        if oid == 0:
            nxt = struct.unpack_from("<Q", d, i + 6)[0] if osize == 8 else 0
            break
        i += 6 + osize
sys.exit("no version option")
EOP
	"$GT" report "$WORK/lc7.dat" > /dev/null 2> "$WORK/lc.err" ||
		{ WHY="the intact file with a DATE option is refused: $(cat "$WORK/lc.err")"; return 1; }
	# a page past the first chunk whose chunk still compresses into its old size
	for rc in $(seq 10 59) none; do
		python3 "$ROOT_DIR/tests/tools/damage-page.py" "$WORK/lc7.dat" 0 "$rc" > /dev/null 2>&1 && break
	done
	expect "cannot damage a page past the first chunk" [ "$rc" != none ] || return 1
	"$GT" report "$WORK/lc7.dat" > "$WORK/lc.out" 2> "$WORK/lc.err"
	rc=$?
	expect "a damaged page past the first chunk reported as fine (exit $rc, $(grep '^records' "$WORK/lc.out"))" \
		[ $rc = 125 ] || return 1
	expect "not one line naming CPU 0's compressed data: $(cat "$WORK/lc.err")" \
		[ "$(grep -c . "$WORK/lc.err")" = 1 ] && grep -q "damaged in CPU 0's compressed data" "$WORK/lc.err"
}

# chunk_refused NAME DAMAGE TEXT: NAME7.dat's CPU 0 given damage-page.py's DAMAGE;
# report must refuse it with exit 125 and one line holding TEXT
chunk_refused() {
	local rc
	python3 "$ROOT_DIR/tests/tools/damage-page.py" "$WORK/${1}7.dat" 0 "$2" > /dev/null ||
		{ WHY="damage-page.py cannot make $2"; return 1; }
	"$GT" report "$WORK/${1}7.dat" > /dev/null 2> "$WORK/$1.err"
	rc=$?
	expect "the damaged chunk ($2) was read (exit $rc)" [ $rc = 125 ] || return 1
	expect "not one line naming the chunk: $(cat "$WORK/$1.err")" \
		[ "$(grep -c . "$WORK/$1.err")" = 1 ] && grep -q "$3" "$WORK/$1.err"
}

# A decompression bomb: a few hundred bytes of zstd that claim 16 MB in one
# chunk (trace-cmd writes 10 pages a chunk) were decompressed as they came,
# chunk by chunk and CPU by CPU. Refused before anything is allocated.
test_report_refuses_a_decompression_bomb() {
	bench_v7 bomb || return
	chunk_refused bomb bomb:16 'claims a compressed chunk of 16777216 bytes'
}

# A chunk claiming more compressed bytes than zstd makes of its size (here
# the rest of its CPU's data): refused by the chunk's header, not read into memory.
test_report_refuses_a_chunk_longer_than_zstd_makes() {
	# 30000 jobs: after its second chunk, CPU 0 holds more than zstd makes of one
	bench_v7 long 30000 || return
	chunk_refused long long 'longer than zstd makes of its size'
}

# hip_names N FILE: a HIP log of N dispatches, each of a new kernel name,
# every other one from one process (many names) and the rest each from a new
# process (many processes): a log any workload can write
hip_names() {
	python3 - "$1" "$2" << 'EOP'
import sys
n, out = int(sys.argv[1]), open(sys.argv[2], "w")
for i in range(n):
    pid = 1000 if i % 2 else 2000 + i
    head = ":4:rocvirtual.cpp           :905 : %010d us: [pid:%d tid: 0x00001] " % (1000 + i, pid)
    out.write(head + "ShaderName : kernel_%d\n" % i)
    out.write(head + "SWq=0x1, HWq=0x2, id=%d, Dispatch Header = 0xb02 (type=2, barrier=1, acquire=1, "
              "release=1), setup=3, grid=[1, 1, 1], workgroup=[1, 1, 1], private_seg_size=0, "
              "group_seg_size=0, kernel_obj=0x7f00aa000000, kernarg_address=0x1, completion_signal=0x0, "
              "correlation_id=0, rptr=0, wptr=0\n" % i)
EOP
}

# A HIP log's processes and kernel names were found by linear search: an 8 MB
# log took 25 s. Time is noise here, so the check is a ratio: 4x the names
# must cost well under 16x (quadratic) the time; linear is 4x. Each size's
# fastest of three, in turns: this file runs beside the recording tests, and a
# busy moment then lands on both sizes or on neither.
test_report_hip_log_is_linear() {
	local f n t1=999 t4=999 t i
	f=$(fixture two-rings) || { WHY="make-fixture failed"; return 1; }
	n=40000
	hip_names $n "$WORK/names1.log" && hip_names $((4 * n)) "$WORK/names4.log" ||
		{ WHY="cannot write the logs"; return 1; }
	for i in 1 2 3; do
		t=$( { /usr/bin/time -f %e timeout 300 "$GT" report --hip-log "$WORK/names1.log" "$f" > /dev/null; } 2>&1 | tail -1)
		[ -n "$t" ] && python3 -c "import sys; sys.exit(float(sys.argv[1]) >= float(sys.argv[2]))" "$t" "$t1" && t1=$t
		t=$( { /usr/bin/time -f %e timeout 300 "$GT" report --hip-log "$WORK/names4.log" "$f" > /dev/null; } 2>&1 | tail -1)
		[ -n "$t" ] && python3 -c "import sys; sys.exit(float(sys.argv[1]) >= float(sys.argv[2]))" "$t" "$t4" && t4=$t
	done
	expect "report did not finish the logs ($t1 s, $t4 s)" [ "${t4%%.*}" -lt 300 ] && [ "${t1%%.*}" -lt 300 ] || return 1
	# a floor of 0.05 s for the small one: below it the ratio is noise
	expect "4x the names took $t4 s against $t1 s: more than 8x" \
		python3 -c "import sys; a, b = max(float(sys.argv[1]), 0.05), float(sys.argv[2]); sys.exit(b > 8 * a)" "$t1" "$t4"
}

# report checked the file, then reopened it by path for libtracecmd, its
# probe, the stream reader and the CPU windows: a file swapped in between
# passed the checks and was read unchecked. The path is opened once now.
test_report_opens_the_file_once() {
	local f s n
	command -v strace > /dev/null || { WHY="strace is not installed (sudo make deps check installs it)"; return 77; }
	for s in two-rings option8-text; do
		f=$(fixture "$s") || { WHY="make-fixture failed"; return 1; }
		# LeakSanitizer does not run under ptrace: off for the traced runs only
		ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" \
			strace -f -qq -e trace=open,openat -o "$WORK/open.trace" "$GT" report "$f" > /dev/null 2>&1 ||
			{ WHY="report $s under strace failed"; return 1; }
		n=$(grep -cF "\"$f\"" "$WORK/open.trace")
		expect "$s: the path was opened $n times: $(grep -F "\"$f\"" "$WORK/open.trace" | head -3 | tr '\n' ' ')" [ "$n" = 1 ] || return 1
	done
	f=$(fixture two-rings)
	trace-cmd convert -i "$f" -o "$WORK/once7.dat" --file-version 7 --compression zstd > /dev/null 2>&1 || return 0
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" \
		strace -f -qq -e trace=open,openat -o "$WORK/open.trace" "$GT" report "$WORK/once7.dat" > /dev/null 2>&1
	n=$(grep -cF "\"$WORK/once7.dat\"" "$WORK/open.trace")
	expect "v7: the path was opened $n times" [ "$n" = 1 ]
}

# A v7 options section flagged compressed (libtracecmd reads such sections)
# made report skip every check that needs the options: a bomb behind it was
# read as a file with 1440 of its 1800 records, exit 0. Compressed options
# are read now: the same file is refused, one without the bomb reads whole.
test_report_reads_compressed_options() {
	local rc
	bench_v7 co || return
	cp "$WORK/co7.dat" "$WORK/cobomb7.dat"
	python3 "$ROOT_DIR/tests/tools/compress-options.py" "$WORK/co7.dat" > /dev/null &&
		python3 "$ROOT_DIR/tests/tools/damage-page.py" "$WORK/cobomb7.dat" 0 bomb:16 > /dev/null &&
		python3 "$ROOT_DIR/tests/tools/compress-options.py" "$WORK/cobomb7.dat" > /dev/null ||
		{ WHY="cannot make the files"; return 1; }
	"$GT" report "$WORK/co7.dat" > "$WORK/co.txt" 2>&1 || { WHY="compressed options refused: $(tail -1 "$WORK/co.txt")"; return 1; }
	expect "not every record read: $(grep '^records' "$WORK/co.txt")" grep -q '^records  1800 ' "$WORK/co.txt" || return 1
	"$GT" report "$WORK/cobomb7.dat" > /dev/null 2> "$WORK/cobomb.err"
	rc=$?
	expect "the bomb behind compressed options was read (exit $rc)" [ $rc = 125 ] || return 1
	expect "not one line naming the chunk: $(cat "$WORK/cobomb.err")" grep -q 'claims a compressed chunk' "$WORK/cobomb.err"
}

# A trace-cmd fork wrote option 8 (upstream's 4-byte CPU count) as 1 KB of
# pid/tgid text: report said "CPU 4's data should end at byte 2332139347583659161"
# and libtracecmd could not open it. Now the option is skipped with a note, a
# copy without it is what libtracecmd reads, and the jobs join.
test_report_misfit_option() {
	local f
	f=$(fixture option8-text) || { WHY="make-fixture failed"; return 1; }
	"$GT" report "$f" > "$WORK/o8.txt" 2>&1 || { WHY="report failed: $(head -2 "$WORK/o8.txt")"; return 1; }
	expect "no note: $(head -3 "$WORK/o8.txt" | tr '\n' '|')" \
		grep -qx "note     option 8 (CPU count) holds 1024 bytes where its meaning needs 4 bytes: skipped (another writer's use of the id, or damage)" "$WORK/o8.txt" || return 1
	expect "not 4 jobs: $(grep '^jobs' "$WORK/o8.txt")" grep -q '^jobs     4 finished, 0 unfinished' "$WORK/o8.txt" || return 1
	expect "json skipped_options" [ "$("$GT" report --format json "$f" | python3 -c 'import json,sys; print(json.load(sys.stdin)["skipped_options"])')" = "[{'id': 8, 'size': 1024}]" ] || return 1
	"$GT" report --events "$f" > "$WORK/o8.ev" 2>&1 || { WHY="--events failed: $(tail -1 "$WORK/o8.ev")"; return 1; }
	expect "--events: $(grep -c . "$WORK/o8.ev") lines" [ "$(grep -c 'amdgpu_sched_run_job:' "$WORK/o8.ev")" = 4 ]
}

# --force -o on a device node or FIFO replaced it with a regular file: the
# report was written under a temp name and renamed over it (as root, over
# /dev/null). It is refused in one line, the node left alone, nothing left
# behind; stdout still takes the page.
test_report_force_never_replaces_a_device() {
	local f out rc
	f=$(fixture competing) || { WHY="make-fixture failed"; return 1; }
	mkfifo "$WORK/fifo" || { WHY="mkfifo failed"; return 1; }
	set -- "$WORK/fifo"
	mknod "$WORK/null" c 1 3 2> /dev/null && set -- "$@" "$WORK/null"
	for out in "$@"; do
		"$GT" report --format html --force -o "$out" "$f" > "$WORK/force.out" 2>&1
		rc=$?
		expect "exit $rc on $out: $(cat "$WORK/force.out")" [ $rc = 125 ] || return 1
		expect "not one line: $(cat "$WORK/force.out")" [ "$(grep -c 'not a file: -o writes a file in its place' "$WORK/force.out")" = 1 ] || return 1
		expect "$out was replaced: $(ls -l "$out")" [ -p "$out" ] || [ -c "$out" ] || return 1
	done
	expect "left behind: $(ls -A "$WORK" | grep partial)" [ -z "$(ls -A "$WORK" | grep partial)" ] || return 1
	"$GT" report --format html "$f" > "$WORK/stdout.html" 2> /dev/null
	expect "no page on stdout" grep -q '</html>' "$WORK/stdout.html"
}

# A page of zeros amid a CPU's data (a damaged copy) lost its records: report
# said "records 101" and "lost none" (trace-cmd is silent too). Now a DAMAGED
# line, one line on stderr, JSON's lost.zeroed_pages, and the loss counted as
# events lost in unknown number. The CPU's data is found by trace-cmd dump.
test_report_zeroed_page_is_damage() {
	local f z rc
	command -v trace-cmd > /dev/null || { WHY="trace-cmd is not installed (its dump finds the page)"; return 77; }
	f=$(fixture kfd-snapshot) || { WHY="make-fixture failed"; return 1; }
	z=$WORK/zeroed.dat
	zeroed_copy "$f" "$z" || return 1
	"$GT" report "$z" > "$WORK/zeroed.txt" 2> "$WORK/zeroed.err"
	rc=$?
	expect "exit $rc: $(cat "$WORK/zeroed.err")" [ $rc = 0 ] || return 1
	expect "no DAMAGED line: $(sed -n 4,6p "$WORK/zeroed.txt" | tr '\n' '|')" \
		grep -q "^DAMAGED  1 page of zeros amid CPU 1's data (after 1\.[0-9]*): the records it held are lost, their number unknown$" "$WORK/zeroed.txt" || return 1
	expect "said lost none" grep -q '^LOST ' "$WORK/zeroed.txt" || return 1
	expect "stderr: $(cat "$WORK/zeroed.err")" [ "$(grep -c "is damaged: 1 page of zeros amid CPU 1's data" "$WORK/zeroed.err")" = 1 ] || return 1
	"$GT" report --format json "$z" 2> /dev/null | python3 -c 'import json, sys
d = json.load(sys.stdin)["lost"]
z = d["zeroed_pages"]
assert z["pages"] == 1 and z["cpu"] == 1 and z["after_ns"] > 0 and d["in_band_unknown"], d' ||
		{ WHY="JSON lost.zeroed_pages"; return 1; }
	"$GT" report --format json "$f" 2> /dev/null | python3 -c 'import json, sys
assert json.load(sys.stdin)["lost"]["zeroed_pages"] is None' || { WHY="the file as made has zeroed pages"; return 1; }
}

# A file whose times an option moves (trace-cmd record --date here; --tsc2nsec
# and a guest's time shift alike) is read through libtracecmd, not our own
# reader: the same records as the file without the option, at the times
# trace-cmd report shows. A page of zeros in a copy of it was "lost none"
# there (libtracecmd reads it as an empty page); now the same DAMAGED line,
# stderr line and loss as through our reader.
test_report_zeroed_page_through_libtracecmd() {
	local f z rc first
	command -v trace-cmd > /dev/null || { WHY="trace-cmd is not installed (its dump finds the page)"; return 77; }
	f=$(fixture kfd-date-offset) || { WHY="make-fixture failed"; return 1; }
	"$GT" report "$f" > "$WORK/date.txt" 2> "$WORK/date.err" || { WHY="report failed: $(head -2 "$WORK/date.err")"; return 1; }
	expect "not kfd-snapshot's 143 records: $(grep '^records' "$WORK/date.txt")" \
		grep -q '^records  143 (GPU 0, function 0) from ' "$WORK/date.txt" || return 1
	first=$(trace-cmd report -i "$f" 2> /dev/null | grep -m1 -oE ' [0-9]+\.[0-9]{6}: ' | tr -d ' :')
	expect "trace-cmd report printed no time" [ -n "$first" ] || return 1
	expect "not trace-cmd's first time $first: $(grep '^records' "$WORK/date.txt")" \
		grep -q "^records  143 .* from $first to " "$WORK/date.txt" || return 1
	expect "said lost: $(sed -n 4,6p "$WORK/date.txt" | tr '\n' '|')" grep -q '^lost     none$' "$WORK/date.txt" || return 1
	z=$WORK/date-zeroed.dat
	zeroed_copy "$f" "$z" || return 1
	"$GT" report "$z" > "$WORK/date-zeroed.txt" 2> "$WORK/date-zeroed.err"
	rc=$?
	expect "exit $rc: $(cat "$WORK/date-zeroed.err")" [ $rc = 0 ] || return 1
	expect "no DAMAGED line: $(sed -n 4,6p "$WORK/date-zeroed.txt" | tr '\n' '|')" \
		grep -q "^DAMAGED  1 page of zeros amid CPU 1's data (after [0-9]*\.[0-9]*): the records it held are lost, their number unknown$" "$WORK/date-zeroed.txt" || return 1
	expect "said lost none" grep -q '^LOST ' "$WORK/date-zeroed.txt" || return 1
	expect "stderr: $(cat "$WORK/date-zeroed.err")" [ "$(grep -c "is damaged: 1 page of zeros amid CPU 1's data" "$WORK/date-zeroed.err")" = 1 ] || return 1
	"$GT" report --format json "$z" 2> /dev/null | python3 -c 'import json, sys
d = json.load(sys.stdin)["lost"]
z = d["zeroed_pages"]
assert z["pages"] == 1 and z["cpu"] == 1 and z["after_ns"] > 6 * 10**18 and d["in_band_unknown"], d' ||
		{ WHY="JSON lost.zeroed_pages"; return 1; }
}

# trace-cmd split keeps a recording's BUFFER options but none of the instances'
# pages. report reads the top buffer, as trace-cmd report does, and says so: a
# note in the summary, one line on stderr, instances_absent in JSON; the top
# buffer's every record read (trace-cmd's count) and its jobs as two-rings'.
test_report_split_copy() {
	local f tc
	f=$(fixture split-copy) || { WHY="make-fixture failed"; return 1; }
	"$GT" report "$f" > "$WORK/split.txt" 2> "$WORK/split.err" ||
		{ WHY="report failed: $(head -2 "$WORK/split.err")"; return 1; }
	expect "no note: $(head -3 "$WORK/split.txt" | tr '\n' '|')" \
		grep -qx "note     2 buffer instances named whose pages the file does not hold (a trace-cmd split, or a recording cut short before them): only the top buffer is read" "$WORK/split.txt" || return 1
	expect "stderr: $(cat "$WORK/split.err")" [ "$(grep -c 'names 2 buffer instances whose pages it does not hold' "$WORK/split.err")" = 1 ] || return 1
	expect "not 3 jobs: $(grep '^jobs' "$WORK/split.txt")" grep -q '^jobs     3 finished, 0 unfinished' "$WORK/split.txt" || return 1
	"$GT" report --format json "$f" > "$WORK/split.json" 2> /dev/null || { WHY="json failed"; return 1; }
	expect "json instances_absent" [ "$(json "$WORK/split.json" 'd["instances_absent"]')" = 2 ] || return 1
	expect "json: the top buffer's CPU stats not one a CPU" [ "$(json "$WORK/split.json" 'len(d["lost"]["cpus"]) == d["cpus"]')" = True ] || return 1
	"$GT" report --format json "$(fixture two-rings)" > "$WORK/two-rings.json" 2> /dev/null || { WHY="json of two-rings failed"; return 1; }
	expect "two-rings says instances_absent 0" [ "$(json "$WORK/two-rings.json" 'd["instances_absent"]')" = 0 ] || return 1
	expect "not two-rings' jobs" [ "$(json "$WORK/split.json" '[(j["ring"], j["fence"], j["latency_ns"]) for j in d["jobs"]]')" = \
		"$(json "$WORK/two-rings.json" '[(j["ring"], j["fence"], j["latency_ns"]) for j in d["jobs"]]')" ] || return 1
	command -v trace-cmd > /dev/null || { WHY="trace-cmd is not installed: its record count not compared"; return 77; }
	tc=$(trace-cmd report "$f" 2> /dev/null | grep -c ': ')
	expect "records: ours $(json "$WORK/split.json" 'd["records"]'), trace-cmd's $tc" \
		[ "$(json "$WORK/split.json" 'd["records"]')" = "$tc" ]
}

# Overwrite-mode files: CPU 1 (runs, fences) keeps only its last second, the
# submitter's CPU 0 its first two. report names each CPU's window, never says
# "lost none", and flags the jobs before CPU 1's start L (v6 and v7 zstd) but
# for one whose every event is on CPU 0: complete where it lies.
test_report_cpu_skew() {
	local f g
	f=$(fixture cpu-skew) || { WHY="make-fixture failed"; return 1; }
	set -- "$f"
	if command -v trace-cmd > /dev/null; then
		g=${f%.dat}-v7.dat
		trace-cmd convert -i "$f" -o "$g" --file-version 7 --compression zstd > /dev/null 2>&1 &&
			set -- "$f" "$g"
	fi
	for f in "$@"; do
		"$GT" report "$f" > "$WORK/sk.txt" 2>&1 || { WHY="report ${f##*/} failed"; return 1; }
		expect "${f##*/}: says lost none" not grep -q '^lost     none' "$WORK/sk.txt" || return 1
		expect "${f##*/}: no coverage line: $(head -6 "$WORK/sk.txt" | tr '\n' '|')" \
			grep -q '^coverage cpu0 1.100000-3.500010, cpu1 3.000000-3.980000$' "$WORK/sk.txt" || return 1
		expect "${f##*/}: no uncounted loss" \
			grep -q "^LOST     overwritten: cpu1's records start 1.900000 s after .*jobs outside 3.000000-3.980000 that lack a stage are flagged L" "$WORK/sk.txt" || return 1
		expect "${f##*/}: the evidence: $(grep '^LOST     overwritten' "$WORK/sk.txt")" \
			grep -q "^LOST     overwritten: .*overwrite mode: the file's stats count 2500 events overwritten on it)" "$WORK/sk.txt" || return 1
		"$GT" report --format json --jobs "$f" > "$WORK/sk.json" || { WHY="json failed"; return 1; }
		expect "${f##*/}: flags $(json "$WORK/sk.json" "[(j['fence'], j['lost'], j['unfinished']) for j in d['jobs']]")" \
			[ "$(json "$WORK/sk.json" "sorted((j['fence'], j['lost'], j['unfinished']) for j in d['jobs'])")" = \
			"[('70:1', True, True), ('70:2', True, True), ('70:3', False, False), ('70:4', False, False), ('71:1', False, False)]" ] || return 1
		expect "${f##*/}: json coverage" [ "$(json "$WORK/sk.json" "d['coverage']['skewed'], d['coverage']['late_cpu'], d['coverage']['from_ns'], d['coverage']['late_evidence']")" = "True 1 3000000000 overrun" ] || return 1
	done
	# a CPU that starts 17 ms late with stats saying it overran nothing was idle: nothing
	# lost, no job flagged (as trace-cmd writes it: no buffer size to judge by)
	f=$(fixture idle-cpu) || { WHY="make-fixture failed"; return 1; }
	"$GT" report "$f" > "$WORK/ic.txt" 2>&1
	expect "idle-cpu: $(sed -n 5,7p "$WORK/ic.txt" | tr '\n' '|')" grep -q '^lost     none' "$WORK/ic.txt" || return 1
	expect "idle-cpu: flagged L" grep -q '^jobs     4 finished, 1 unfinished (U), 0 touched by lost events (L)$' "$WORK/ic.txt" || return 1
	"$GT" report --format json "$f" > "$WORK/ic.json"
	expect "idle-cpu: json coverage" [ "$(json "$WORK/ic.json" "d['coverage']['skewed'], d['coverage']['late_evidence']")" = "False None" ] || return 1
	# a file whose CPUs start together keeps "lost none" and no coverage line
	f=$(fixture two-rings) || { WHY="make-fixture failed"; return 1; }
	"$GT" report "$f" > "$WORK/tr.txt" 2>&1
	expect "two-rings: not lost none" grep -q '^lost     none' "$WORK/tr.txt" || return 1
	expect "two-rings: a coverage line" not grep -q '^coverage' "$WORK/tr.txt"
}

test_report_dependencies_and_clients() {
	local f
	f=$(fixture deps) || { WHY="make-fixture failed"; return 1; }
	"$GT" report --format json --jobs "$f" > "$WORK/dp.json" || { WHY="report failed"; return 1; }
	expect "B's dependency wait is not 480 us" \
		[ "$(json "$WORK/dp.json" "[j for j in d['jobs'] if j['fence']=='200:1'][0]['latency_ns']['dep_wait']")" = 480000 ] || return 1
	"$GT" report --format json "$f" > "$WORK/dp2.json" || { WHY="report failed"; return 1; }
	expect "sdma0 waits" [ "$(json "$WORK/dp2.json" "[r for r in d['rings'] if r['name']=='sdma0'][0]['waits']")" = 1 ] || return 1
	expect "clients" [ "$(json "$WORK/dp2.json" "sorted((c['client_id'], c['jobs']) for c in d['clients'])")" = "[(7, 1), (9, 2)]" ]
}

test_report_lost_and_unfinished_flagged() {
	local f
	f=$(fixture lost-window) || { WHY="make-fixture failed"; return 1; }
	"$GT" report "$f" > "$WORK/lw.txt" || { WHY="report failed"; return 1; }
	expect "lost window not in the header" grep -q '^LOST     cpu0 40, cpu1 0; 40 dropped in 1 window' "$WORK/lw.txt" || return 1
	expect "lost job not counted" grep -q '1 touched by lost events (L)' "$WORK/lw.txt" || return 1
	f=$(fixture unfinished) || { WHY="make-fixture failed"; return 1; }
	"$GT" report --jobs "$f" > "$WORK/uf.txt" || { WHY="report failed"; return 1; }
	expect "unfinished job not flagged U with no invented exec/total" \
		grep -Eq '^gfx_0\.0\.0 +80:2 .* - +- +- +- +U$' "$WORK/uf.txt"
}

test_report_kfd_queues() {
	local f
	f=$(fixture kfd-graph) || { WHY="make-fixture failed"; return 1; }
	"$GT" report --queues "$f" > "$WORK/kq.txt" || { WHY="report failed"; return 1; }
	expect "create with steps and durations" \
		grep -q 'hipapp *create *at 1.001000 80.000 us: allocate_doorbell 2.000, allocate_mqd 10.000, init_mqd 3.000, map_queues_cpsch 40.000' "$WORK/kq.txt" || return 1
	expect "doorbell note" grep -q 'doorbell writes never enter the kernel' "$WORK/kq.txt" || return 1
	f=$(fixture kfd-function) || { WHY="make-fixture failed"; return 1; }
	"$GT" report --queues "$f" > "$WORK/kf.txt" || { WHY="report failed"; return 1; }
	expect "function tracer: order only" grep -q 'order only' "$WORK/kf.txt" || return 1
	expect "function tracer create" grep -q 'create *at 1.001001 - (no end): pqm_create_queue, create_queue_cpsch, allocate_doorbell' "$WORK/kf.txt"
}

test_report_filters() {
	local f rc
	f=$(fixture two-rings) || { WHY="make-fixture failed"; return 1; }
	"$GT" report --jobs --ring sdma0 "$f" > "$WORK/fr.txt" || { WHY="--ring failed"; return 1; }
	expect "--ring sdma0 kept $(grep -c '^[gs]' "$WORK/fr.txt") rows" [ "$(grep -c '^sdma0 ' "$WORK/fr.txt")" = 1 ] && ! grep -q '^gfx' "$WORK/fr.txt" || return 1
	"$GT" report --jobs --min-latency 600us "$f" > "$WORK/fm.txt" || { WHY="--min-latency failed"; return 1; }
	expect "--min-latency 600us" [ "$(grep -c '^gfx_0.0.0 *50:2 ' "$WORK/fm.txt")" = 1 ] && [ "$(grep -Ec '^(gfx|sdma)' "$WORK/fm.txt")" = 1 ] || return 1
	"$GT" report --jobs --from 1.000250 --to 1.000350 "$f" > "$WORK/ft.txt" || { WHY="--from/--to failed"; return 1; }
	expect "--from/--to keeps job 60:1 only" [ "$(grep -c '^sdma0 *60:1 ' "$WORK/ft.txt")" = 1 ] && [ "$(grep -c '^gfx' "$WORK/ft.txt")" = 0 ] || return 1
	"$GT" report "$f" --jobs --ring sdma0 > "$WORK/fa.txt" || { WHY="options after the file refused"; return 1; }
	expect "options after the file differ from before it" cmp -s "$WORK/fr.txt" "$WORK/fa.txt" || return 1
	"$GT" report --jobs --comm nobody "$f" > "$WORK/fc.txt" 2> "$WORK/fc.err" || { WHY="--comm failed"; return 1; }
	expect "--comm nobody kept jobs" [ "$(grep -Ec '^(gfx|sdma)' "$WORK/fc.txt")" = 0 ] || return 1
	# filters that leave nothing say so, and what there is instead
	expect "--comm nobody: silent: $(cat "$WORK/fc.err")" \
		grep -q "no job of .* matched the filters (3 left out)" "$WORK/fc.err" || return 1
	# a ring the file does not have is a wrong option: one line and 125, not 0,
	# and no report (it printed the whole summary, then said 125)
	"$GT" report --ring gfx0 "$f" > "$WORK/fn.out" 2> "$WORK/fn.err"
	rc=$?
	expect "--ring gfx0 exits $rc (a script cannot tell it matched nothing)" [ $rc = 125 ] || return 1
	expect "--ring gfx0 printed a report: $(head -3 "$WORK/fn.out" | tr '\n' '|')" [ ! -s "$WORK/fn.out" ] || return 1
	"$GT" report --format csv --ring gfx0 "$f" > "$WORK/fn.out" 2> /dev/null
	expect "--format csv --ring gfx0 printed a report" [ ! -s "$WORK/fn.out" ] || return 1
	"$GT" report --jobs --ring gfx0 "$f" > "$WORK/fn.out" 2> /dev/null
	expect "--jobs --ring gfx0 printed the table's head" [ ! -s "$WORK/fn.out" ] || return 1
	"$GT" report --format json --ring gfx0 "$f" > "$WORK/fn.json" 2> /dev/null
	expect "--format json --ring gfx0: not the error alone: $(head -c 300 "$WORK/fn.json")" python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert "rings" not in d and "has no ring named" in d["error"], d' "$WORK/fn.json" || return 1
	expect "--ring gfx0: the rings not named: $(cat "$WORK/fn.err")" \
		grep -q "has no ring named 'gfx0'; its rings: gfx_0.0.0, sdma0$" "$WORK/fn.err" || return 1
	expect "--ring gfx0: not one line: $(cat "$WORK/fn.err")" [ "$(grep -c . "$WORK/fn.err")" = 1 ] || return 1
	"$GT" report --workload-only "$f" > /dev/null 2> "$WORK/fw.err" || { WHY="--workload-only failed"; return 1; }
	expect "--workload-only on a file without one: silent: $(cat "$WORK/fw.err")" \
		grep -q "names no workload" "$WORK/fw.err" || return 1
	"$GT" report --jobs --ring sdma0 "$f" > /dev/null 2> "$WORK/fs.err"
	expect "a filter that matched said something: $(cat "$WORK/fs.err")" [ ! -s "$WORK/fs.err" ] || return 1
	"$GT" report --format csv --jobs --pid 4242 "$f" > "$WORK/fp.csv" || { WHY="--pid failed"; return 1; }
	expect "csv: 3 jobs of pid 4242" [ "$(python3 -c "import csv,sys; print(sum(1 for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith('#') and l.strip()) if r.get('pid')=='4242'))" "$WORK/fp.csv")" = 3 ]
}

# trace-cmd and gpu-trace print the same lines through the same decoders
test_plugins_in_trace_cmd() {
	local s f
	# split-copy names instances it does not hold: trace-cmd's buffer column of two spaces
	for s in two-rings deps pointer-reuse amdgpu-triple lost-window split-copy; do
		f=$(fixture "$s") || { WHY="make-fixture $s failed"; return 1; }
		TRACEEVENT_PLUGIN_DIR=$PLUGIN_DIR trace-cmd report -i "$f" > "$WORK/tc.txt" 2> /dev/null ||
			{ WHY="trace-cmd report $s failed"; return 1; }
		expect "$s: no plugin line in trace-cmd report" grep -Eq '(queued \(in queue|submitted by ioctl|done on hardware)' "$WORK/tc.txt" || return 1
		"$GT" report --events "$f" > "$WORK/ev.txt" || { WHY="report --events $s failed"; return 1; }
		diff <(sed 's/ *$//' "$WORK/ev.txt") <(grep -v '^cpus=' "$WORK/tc.txt" | sed 's/ *$//') > "$WORK/ev.diff" ||
			{ WHY="$s: --events differs from trace-cmd report: $(head -4 "$WORK/ev.diff" | tr '\n' ' ')"; return 1; }
	done
	# without our plugins trace-cmd falls back to the kernel's print fmt
	trace-cmd report -N -i "$WORK/deps.dat" 2> /dev/null | grep -q 'dev=0000:03:00.0, fence=100:1, ring=gfx_0.0.0' ||
		{ WHY="trace-cmd without plugins does not print the kernel format"; return 1; }
}

# function_graph as trace-cmd report draws it: the duration column, a call
# whose next record is its return folded into one "f();" line. --events
# printed every record alone ("} /* f: 113.688 us */").
test_function_graph_as_trace_cmd() {
	local s f
	command -v trace-cmd > /dev/null || { WHY="trace-cmd is not installed"; return 77; }
	for s in kfd-graph hip-kfd; do
		f=$(fixture "$s") || { WHY="make-fixture $s failed"; return 1; }
		"$GT" report --events "$f" > "$WORK/fg.txt" 2> /dev/null
		expect "$s: no leaf folded" grep -Eq 'funcgraph_entry: +[ +!#$] +[0-9.]+ us +\|  +[a-z_0-9]+\(\);$' "$WORK/fg.txt" || return 1
		expect "$s: no call opened" grep -Eq 'funcgraph_entry: +\|  +[a-z_0-9]+\(\) \{$' "$WORK/fg.txt" || return 1
		TRACEEVENT_PLUGIN_DIR=$PLUGIN_DIR trace-cmd report -i "$f" 2> /dev/null | grep -v '^cpus=' > "$WORK/fg.tc"
		diff <(sed 's/ *$//' "$WORK/fg.txt") <(sed 's/ *$//' "$WORK/fg.tc") > "$WORK/fg.diff" ||
			{ WHY="$s: --events differs from trace-cmd report: $(head -4 "$WORK/fg.diff" | tr '\n' ' ')"; return 1; }
	done
}

test_report_reads_v7() {
	local f
	f=$(fixture two-rings) || { WHY="make-fixture failed"; return 1; }
	trace-cmd convert -i "$f" -o "$WORK/v7.dat" --file-version 7 --compression zstd > /dev/null 2>&1 ||
		{ WHY="trace-cmd convert unavailable"; return 77; }
	"$GT" report --format json "$WORK/v7.dat" > "$WORK/v7.json" || { WHY="report of v7 failed"; return 1; }
	expect "v7 version" [ "$(json "$WORK/v7.json" "d['version']")" = 7 ] || return 1
	expect "v7 numbers differ from v6" [ "$(ring_lat "$WORK/v7.json" gfx_0.0.0 total avg)" = 620000 ]
}

# bad_report NAME FILE: exit 125, one line naming the file
bad_report() {
	"$GT" report "$2" > /dev/null 2> "$WORK/bad.err"
	local rc=$?
	expect "$1: exit $rc, want 125" [ $rc = 125 ] || return 1
	expect "$1: $(count_lines "$WORK/bad.err") lines: $(head -3 "$WORK/bad.err" | tr '\n' '|')" [ "$(count_lines "$WORK/bad.err")" = 1 ] || return 1
	expect "$1: does not start with 'gpu-trace report:'" grep -q '^gpu-trace report: ' "$WORK/bad.err"
}

test_report_bad_input() {
	local f size cut
	f=$(fixture two-rings) || { WHY="make-fixture failed"; return 1; }
	: > "$WORK/empty.dat"
	bad_report "empty file" "$WORK/empty.dat" || return 1
	head -c 20000 /dev/urandom > "$WORK/random.dat"
	bad_report "random bytes" "$WORK/random.dat" || return 1
	printf '\027\010\104tracing6\000' > "$WORK/hdr.dat"
	bad_report "v6 magic only" "$WORK/hdr.dat" || return 1
	size=$(stat -c %s "$f")
	# cut inside the header, the formats, kallsyms/cmdlines, the CPU table, the data
	for cut in 40 300 2000 $((size / 2)) $((size - 4096)) $((size - 1)); do
		head -c "$cut" "$f" > "$WORK/cut.dat"
		bad_report "truncated at $cut of $size" "$WORK/cut.dat" || return 1
	done
	bad_report "a directory" "$WORK" || return 1
	bad_report "missing file" "$WORK/none.dat" || return 1
	"$GT" report --format yaml "$f" 2> "$WORK/bad.err" > /dev/null
	expect "bad --format accepted" [ $? = 125 ] || return 1
	"$GT" report --events --format json "$f" 2> "$WORK/bad.err" > /dev/null
	expect "--events --format json accepted" [ $? = 125 ] || return 1
	# --events printed every record under --min-latency and said nothing
	"$GT" report --events --min-latency 300us "$f" 2> "$WORK/bad.err" > /dev/null
	expect "--events --min-latency accepted" [ $? = 125 ] || return 1
	# numbers past what a nanosecond count holds, inf and nan: refused, not
	# wrapped (--min-latency 18446744074s listed every job, nan too)
	local a rc
	for a in "--min-latency 18446744074s" "--min-latency 18446744073709551615" \
		"--min-latency inf" "--min-latency nan" "--from nan" "--from 1e30" \
		"--to +inf" "--ts-offset nans" "--ts-offset infs" "--ts-offset 1e19s"; do
		# shellcheck disable=SC2086 # the option and its value are words
		"$GT" report --jobs "$f" $a > "$WORK/bad.out" 2> "$WORK/bad.err"
		rc=$?
		expect "$a: exit $rc, $(head -c 300 "$WORK/bad.out" "$WORK/bad.err" | tr '\n' '|')" \
			[ $rc = 125 ] && [ ! -s "$WORK/bad.out" ] && [ "$(wc -l < "$WORK/bad.err")" = 1 ] || return 1
	done
}

# make install puts the plugins where libtraceevent looks for them
# gpu-trace(1) names every plugin make install puts in place
test_man_page_names_every_plugin() {
	local p missing=
	for p in "$ROOT_DIR"/plugins/plugin_*.c; do
		p=$(basename "$p" .c).so
		grep -q "$p" "$ROOT_DIR/man/gpu-trace.1" || missing="$missing $p"
	done
	expect "gpu-trace(1) does not name:$missing" [ -z "$missing" ]
}

test_install_puts_plugins_in_libtraceevent_dir() {
	local dest=$WORK/destdir dir
	dir=$(pkg-config --variable=libdir libtraceevent)/traceevent/plugins
	make -s -C "$ROOT_DIR" install DESTDIR="$dest" PREFIX=/usr > "$WORK/inst.log" 2>&1 ||
		{ WHY="make install failed: $(tail -2 "$WORK/inst.log")"; return 1; }
	expect "no plugin_gpu_scheduler.so in $dir" [ -f "$dest$dir/plugin_gpu_scheduler.so" ] || return 1
	expect "gpu-trace not installed" [ -x "$dest/usr/bin/gpu-trace" ] || return 1
	expect "man page not installed" [ -f "$dest/usr/share/man/man1/gpu-trace-report.1" ] || return 1
	expect "bash completion not installed" [ -f "$dest/usr/share/bash-completion/completions/gpu-trace" ] || return 1
	"$MAKE_FIXTURE" "$FORMATS" deps "$WORK/inst.dat" || { WHY="make-fixture failed"; return 1; }
	TRACEEVENT_PLUGIN_DIR=$dest$dir trace-cmd report -i "$WORK/inst.dat" 2> /dev/null |
		grep -q 'fence=200:1 waits for fence 100:1 (unsignalled)' ||
		{ WHY="the installed plugins are not used by trace-cmd"; return 1; }
}

# capped CMD...: at most 60 s and 1 GB (address space; under ASan, which
# reserves terabytes of it, resident memory)
capped() {
	case $GT in
	*/asan/*) ASAN_OPTIONS="${ASAN_OPTIONS:-}:hard_rss_limit_mb=1024" timeout 60 "$@" ;;
	*) (ulimit -v 1048576 && exec timeout 60 "$@") ;;
	esac
}

# Every input the fuzzer once broke report with (tests/fuzz/crashers) stays fixed:
# a clean exit (0, 2 no GPU events, 125 bad input) with at most one line of
# error, within a time and memory cap, no signal, no sanitizer report.
test_fuzz_crashers_stay_fixed() {
	local f rc n=0
	for f in "$ROOT_DIR"/tests/fuzz/crashers/*; do
		[ -f "$f" ] || continue
		n=$((n + 1))
		capped "$GT" report "$f" > /dev/null 2> "$WORK/fz.err"
		rc=$?
		case $rc in
		0 | 2 | 125) ;;
		*) WHY="${f##*/}: exit $rc: $(grep -m1 -E 'ERROR|runtime error|Sanitizer' "$WORK/fz.err")"; return 1 ;;
		esac
		expect "${f##*/}: more than one line of error: $(head -3 "$WORK/fz.err" | tr '\n' '|')" \
			[ "$(grep -c . "$WORK/fz.err")" -le 1 ] || return 1
	done
	expect "no crashers to replay" [ $n -gt 0 ]
}

# libtracecmd crashing as it opens a damaged file (report opens each file once, in a
# child it watches; a sanitizer build tries each open in a probe child first): the
# file it crashed on named in one line, 125, no output file, and the same for compare.
test_libtracecmd_crash_names_the_file() {
	local good crash=$ROOT_DIR/tests/fuzz/crashers/crash-libtracecmd-in-the-probe-child-a.dat rc want
	good=$(fixture two-rings) || { WHY="make-fixture failed"; return 1; }
	case $GT in
	*/asan/*) want="libtracecmd (crashes|cannot) read(ing)? $crash " ;;	# ASan ends the probe child
	*) want="libtracecmd crashes reading $crash " ;;
	esac
	# first (the output not made yet), then after a good file (the output begun)
	for order in "$crash $good" "$good $crash"; do
		# shellcheck disable=SC2086 # two names, no spaces in them
		"$GT" report --format perfetto -o "$WORK/crash.pftrace" $order > "$WORK/crash.out" 2> "$WORK/crash.err"
		rc=$?
		expect "report $order: exit $rc, want 125" [ $rc = 125 ] || return 1
		expect "report $order: not one line naming the file: $(tr '\n' '|' < "$WORK/crash.err")" \
			[ "$(count_lines "$WORK/crash.err")" = 1 ] &&
			grep -Eq "^gpu-trace report: $want" "$WORK/crash.err" || return 1
		expect "report $order: an output file or output left" \
			[ ! -e "$WORK/crash.pftrace" ] && [ ! -s "$WORK/crash.out" ] || return 1
		expect "report $order: a partial file left" \
			[ -z "$(find "$WORK" -maxdepth 1 -name '*.partial-*')" ] ||
			return 1
	done
	"$GT" compare "$good" "$crash" > "$WORK/crash.out" 2> "$WORK/crash.err"
	rc=$?
	expect "compare exit $rc, want 125" [ $rc = 125 ] || return 1
	expect "compare: not one line naming the file: $(tr '\n' '|' < "$WORK/crash.err")" \
		[ "$(count_lines "$WORK/crash.err")" = 1 ] && grep -Eq "^gpu-trace compare: $want" "$WORK/crash.err"
}

# A report with -o ended by a signal while it writes removed nothing: its private file
# (.NAME.partial-XXXXXX) stayed beside the name it was for. Held at the open of a HIP
# log that is a FIFO (read once the output is begun), it is sent SIGTERM, then SIGHUP:
# it dies of the signal and leaves neither file. One whose SIGHUP is ignored (nohup)
# lives on through a SIGHUP, then ends on SIGTERM the same way.
test_report_killed_leaves_no_partial_file() {
	local f pid rc sig i ign
	f=$(fixture two-rings) || { WHY="make-fixture failed"; return 1; }
	mkfifo "$WORK/held.fifo" || { WHY="mkfifo failed"; return 1; }
	for sig in TERM HUP ignored-HUP; do
		ign=
		[ $sig != ignored-HUP ] || { ign=HUP; sig=TERM; }
		(if [ -n "$ign" ]; then trap '' "$ign"; fi; exec "$GT" report --format json -o "$WORK/killed.json" \
			--hip-log "$WORK/held.fifo" "$f" > /dev/null 2> "$WORK/killed.err") &
		pid=$!
		for ((i = 0; i < 500; i++)); do
			[ -z "$(find "$WORK" -maxdepth 1 -name '.killed.json.partial-*')" ] || break
			sleep 0.02
		done
		if [ $i = 500 ]; then
			kill -KILL $pid 2> /dev/null
			wait $pid
			expect "$sig: the report made no partial file while held (test is void)" false
			return 1
		fi
		if [ -n "$ign" ]; then
			kill -HUP $pid
			sleep 0.5
			expect "a report whose SIGHUP is ignored ended on one" [ -d "/proc/$pid" ] || return 1
		fi
		kill -$sig $pid
		# ended (gone, or a zombie until the shell reaps it), or killed after 10 s
		for ((i = 0; i < 500; i++)); do
			[ -e "/proc/$pid" ] && [ "$(awk '{ print $3 }' "/proc/$pid/stat" 2> /dev/null)" != Z ] || break
			sleep 0.02
		done
		[ $i != 500 ] || kill -KILL $pid
		wait $pid
		rc=$?
		expect "$sig: the report did not end" [ $i != 500 ] || return 1
		expect "$sig: exit $rc, want $((128 + $(kill -l $sig)))" [ $rc = $((128 + $(kill -l $sig))) ] || return 1
		expect "$sig: a partial file left: $(find "$WORK" -maxdepth 1 -name '.killed.json.partial-*')" \
			[ -z "$(find "$WORK" -maxdepth 1 -name '.killed.json.partial-*')" ] || return 1
		expect "$sig: an output file left" [ ! -e "$WORK/killed.json" ] || return 1
	done
}

# The same as a person ends it: Ctrl-C in a terminal (tmux), which signals the whole
# foreground group (the guard's watcher and the child that reports): exit 130, no file.
# (The pane's shell traps SIGINT to live on and say the exit; its children get the default.)
test_report_ctrl_c_in_a_terminal_leaves_no_partial_file() {
	local s=gt-rep-$$ f i
	command -v tmux > /dev/null || { WHY="tmux not installed (sudo make deps)"; return 77; }
	f=$(fixture two-rings) || { WHY="make-fixture failed"; return 1; }
	mkfifo "$WORK/ctrlc.fifo" || { WHY="mkfifo failed"; return 1; }
	tmux new-session -d -s "$s" -x 150 -y 20 \
		"trap true INT; '$GT' report --format json -o '$WORK/ctrlc.json' --hip-log '$WORK/ctrlc.fifo' '$f'; echo REPORT-EXIT=\$?; sleep 60" ||
		{ WHY="tmux failed"; return 1; }
	for ((i = 0; i < 500; i++)); do
		[ -z "$(find "$WORK" -maxdepth 1 -name '.ctrlc.json.partial-*')" ] || break
		sleep 0.02
	done
	tmux send-keys -t "$s" C-c
	pane_when "$s" "$WORK/ctrlc.screen" 'REPORT-EXIT='
	tmux kill-session -t "$s" 2> /dev/null
	expect "the report made no partial file while held (test is void)" [ $i != 500 ] || return 1
	expect "Ctrl-C: $(tr '\n' '|' < "$WORK/ctrlc.screen")" grep -q 'REPORT-EXIT=130' "$WORK/ctrlc.screen" || return 1
	expect "Ctrl-C left a partial file" [ -z "$(find "$WORK" -maxdepth 1 -name '.ctrlc.json.partial-*')" ] || return 1
	expect "Ctrl-C left an output file" [ ! -e "$WORK/ctrlc.json" ]
}

# processes_made LOG: the processes (not threads) an strace -f LOG says were made
processes_made() { grep -E 'clone3?\(|v?fork\(' "$1" | grep -vc CLONE_THREAD; }

# The guard's point: libtracecmd opens each file once. The crash test above would pass
# with every open tried in a probe child first as well, so count the processes: one
# (the watched child) for compare of two files and for a one-file report; a sanitizer
# build keeps a probe child per file.
test_report_and_compare_open_each_file_once() {
	local f n
	command -v strace > /dev/null || { WHY="needs strace (make deps installs it)"; return 77; }
	f=$(fixture two-rings) || { WHY="make-fixture failed"; return 1; }
	# LeakSanitizer cannot run under ptrace
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" \
		strace -f -qq -e trace=clone,clone3,fork,vfork -o "$WORK/st.log" "$GT" compare "$f" "$f" > /dev/null 2>&1 ||
		{ WHY="compare under strace failed"; return 1; }
	n=$(processes_made "$WORK/st.log")
	case $GT in
	*/asan/*) expect "ASan compare made $n processes, want a probe child per file" [ "$n" -ge 2 ] ;;
	*) expect "compare of two files made $n processes, want 1 (each file opened once)" [ "$n" = 1 ] ;;
	esac || return 1
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" \
		strace -f -qq -e trace=clone,clone3,fork,vfork -o "$WORK/st.log" "$GT" report "$f" > /dev/null 2>&1 ||
		{ WHY="report under strace failed"; return 1; }
	n=$(processes_made "$WORK/st.log")
	case $GT in
	*/asan/*) expect "ASan report made $n processes, want a probe child" [ "$n" -ge 1 ] ;;
	*) expect "report of one file made $n processes, want 1" [ "$n" = 1 ] ;;
	esac
}

# A format with field types no decoder knows (a future kernel's): decoding goes by name.
test_report_unknown_field_types() {
	local fmt=$WORK/fmt f
	rm -rf "$fmt"
	cp -r "$FORMATS" "$fmt"
	f=$fmt/linux-6.12/gpu_scheduler/drm_sched_job/format
	# a field of an unknown struct type and an array of them, after the known ones
	sed -i 's/^\(\tfield:int hw_job_count;.*\)$/\1\n\tfield:struct mystery_t blob;\toffset:48;\tsize:16;\tsigned:0;\n\tfield:struct mystery_t list[2];\toffset:64;\tsize:32;\tsigned:0;/' "$f"
	grep -q 'mystery_t blob' "$f" || { WHY="could not edit the format"; return 1; }
	"$MAKE_FIXTURE" "$fmt" two-rings "$WORK/unknown.dat" || { WHY="make-fixture failed"; return 1; }
	"$GT" report --format json "$WORK/unknown.dat" > "$WORK/unknown.json" 2> "$WORK/unknown.err" ||
		{ WHY="report failed: $(cat "$WORK/unknown.err")"; return 1; }
	expect "numbers changed with unknown fields" [ "$(ring_lat "$WORK/unknown.json" gfx_0.0.0 total avg)" = 620000 ] || return 1
	"$GT" report --events "$WORK/unknown.dat" > /dev/null || { WHY="--events failed"; return 1; }
	trace-cmd report -i "$WORK/unknown.dat" > /dev/null 2>&1 || { WHY="trace-cmd cannot read it either"; return 1; }
}

# A file over 2 GB whose last CPU's data is missing: offsets past 2^31 are read
# right and the missing data is named, without reading gigabytes.
test_report_2gb_file_missing_a_cpu() {
	local f
	f=$(fixture two-rings) || { WHY="make-fixture failed"; return 1; }
	python3 - "$f" "$WORK/big.dat" <<'PY' || { WHY="could not build the sparse file"; return 1; }
import struct, sys
src = open(sys.argv[1], "rb").read()
at = src.index(b"flyrecord\0") + 10
cpu0_off, cpu0_size = struct.unpack_from("<QQ", src, at)
new0 = 2 * 1024**3 + 4096                      # CPU 0's pages moved past 2 GB
table = struct.pack("<QQQQ", new0, cpu0_size, new0 + cpu0_size, 8192)
out = open(sys.argv[2], "wb")
out.write(src[:at] + table + src[at + 32:cpu0_off])
out.seek(new0)
out.write(src[cpu0_off:cpu0_off + cpu0_size])  # CPU 1's 8 KB never written
out.close()
PY
	expect "the test file is not over 2 GB" [ "$(stat -c %s "$WORK/big.dat")" -gt 2147483648 ] || { rm -f "$WORK/big.dat"; return 1; }
	timeout 60 "$GT" report "$WORK/big.dat" > /dev/null 2> "$WORK/big.err"
	local rc=$?
	rm -f "$WORK/big.dat"
	expect "exit $rc, want 125" [ $rc = 125 ] || return 1
	expect "CPU 1's missing data not named: $(cat "$WORK/big.err")" \
		grep -Eq "truncated: CPU 1's data should end at byte 2147[0-9]{6} but the file has 2147[0-9]{6} bytes" "$WORK/big.err"
}

# Cut a v6 file at every section boundary (and one byte into each section):
# each cut is named as truncated, never read as a shorter valid trace.
test_report_truncated_at_every_section() {
	local f off n=0
	f=$(fixture kfd-graph) || { WHY="make-fixture failed"; return 1; }
	python3 - "$f" > "$WORK/bounds" <<'PY' || { WHY="could not walk the file"; return 1; }
import struct, sys
d = open(sys.argv[1], "rb").read()
p = d.index(b"\0", 10) + 1 + 2 + 4          # magic, version, endian, long size, page size
b = [p]
def u(n):
    global p
    v = int.from_bytes(d[p:p + n], "little"); p += n; return v
def skip(n):                                 # a size field, then that many bytes
    global p
    size = u(n); p += size
def cstr():
    global p
    p = d.index(b"\0", p) + 1
for _ in range(2):                           # header_page, header_event
    cstr(); skip(8); b.append(p)
for _ in range(u(4)):                        # ftrace formats
    skip(8)
b.append(p)
for _ in range(u(4)):                        # event systems
    cstr()
    for _ in range(u(4)):
        skip(8)
b.append(p)
skip(4); b.append(p)                       # kallsyms
skip(4); b.append(p)                       # printk formats
skip(8); b.append(p)                       # cmdlines
ncpu = u(4); p += 10
while True:                                  # options
    i = u(2)
    if i == 0:
        break
    skip(4)
b.append(p)
table = p + 10
p += 10 + 16 * ncpu; b.append(p)             # flyrecord table
for c in range(ncpu):
    off, size = struct.unpack_from("<QQ", d, table + 16 * c)
    if size:
        b.append(off + size // 2)            # inside the CPU's pages
for x in b:
    print(x)
    print(x + 1)
PY
	while read -r off; do
		head -c "$off" "$f" > "$WORK/cut.dat"
		bad_report "cut at $off" "$WORK/cut.dat" || return 1
		grep -q 'truncated' "$WORK/bad.err" || { WHY="cut at $off: not said to be truncated: $(cat "$WORK/bad.err")"; return 1; }
		n=$((n + 1))
	done < "$WORK/bounds"
	expect "only $n cuts" [ $n -ge 20 ]
}

test_report_v7_header_only() {
	# magic, "7", little endian, long 8, page 4096, "none" compression, no options
	printf '\027\010\104tracing7\000\000\010\000\020\000\000none\000\000\000\000\000\000\000\000\000\000' > "$WORK/v7hdr.dat"
	bad_report "v7 header only" "$WORK/v7hdr.dat"
}

# A report that cannot be written is an error, as in git and perf: never exit 0.
test_report_write_error_is_an_error() {
	local f rc
	f=$(fixture two-rings) || { WHY="make-fixture failed"; return 1; }
	"$GT" report --jobs "$f" > /dev/full 2> "$WORK/full.err"
	rc=$?
	expect "report to /dev/full exited $rc, want 125" [ "$rc" = 125 ] || return 1
	expect "not one line saying why: $(cat "$WORK/full.err")" \
		[ "$(count_lines "$WORK/full.err")" = 1 ] && grep -q 'No space left' "$WORK/full.err" || return 1
	# Perfetto's trace goes out on a writing thread of its own: its failure is said all the same
	f=$(fixture bench:20000) || { WHY="make-fixture failed"; return 1; }
	"$GT" report --format perfetto "$f" > /dev/full 2> "$WORK/full.err"
	rc=$?
	expect "perfetto to /dev/full exited $rc, want 125" [ "$rc" = 125 ] || return 1
	expect "perfetto: not one line saying why: $(cat "$WORK/full.err")" \
		[ "$(count_lines "$WORK/full.err")" = 1 ] && grep -q 'No space left' "$WORK/full.err"
}

# A recording's workload, as report shows it (fixture: tests/fixture/scenarios.c "competing")
test_report_marks_the_workload() {
	local f
	f=$(fixture competing) || { WHY="make-fixture failed"; return 1; }
	"$GT" report "$f" > "$WORK/cw.txt" || { WHY="report failed"; return 1; }
	expect "no workload line" grep -q '^workload llama: 2 tasks' "$WORK/cw.txt" || return 1
	expect "ring does not say whose jobs the workload waited behind" \
		grep -q '^  workload: 2 of 7 jobs; they waited 0.290 ms behind 3 jobs of 1 other process (6000 rival)$' "$WORK/cw.txt" || return 1
	"$GT" report --jobs --workload-only "$f" > "$WORK/cwj.txt" || { WHY="report --workload-only failed"; return 1; }
	expect "--workload-only: $(grep -c ' W$' "$WORK/cwj.txt") W jobs of $(($(count_lines "$WORK/cwj.txt") - 1))" \
		[ "$(grep -c ' W$' "$WORK/cwj.txt")" = 2 ] && [ "$(count_lines "$WORK/cwj.txt")" = 3 ] || return 1
	expect "job W1's wait behind the rival" grep -Eq '^gfx_0\.0\.0 +100:4 .* 290\.000 +3 +- +- W$' "$WORK/cwj.txt" || return 1
	"$GT" report --jobs --format csv "$f" > "$WORK/cw.csv" || { WHY="csv failed"; return 1; }
	expect "csv: workload and behind columns" grep -q '^gfx_0.0.0,100:4,5002,llama,.*,1,290000,3,1,W,,0,0000:03:00.0,0,,,$' "$WORK/cw.csv"
}

# report keeps its memory flat by unmapping what it has read, but must not
# throw the file out of the page cache: trace-cmd report or a second report
# after it would read it from disk again.
test_report_leaves_the_file_in_the_page_cache() {
	local f=$WORK/cache.dat res size rss base
	command -v fincore > /dev/null || { WHY="fincore (util-linux) not installed"; return 77; }
	"$MAKE_FIXTURE" "$FORMATS" bench:100000 "$f" || { WHY="make-fixture failed"; return 1; }
	sync "$f"
	cat "$f" > /dev/null
	/usr/bin/time -f '%M' -o "$WORK/cache.rss" "$GT" report "$f" > /dev/null ||
		{ WHY="report failed"; return 1; }
	res=$(fincore -b -n -o PAGES "$f" | tr -d ' ')
	size=$((($(stat -c %s "$f") + 4095) / 4096))
	expect "only $res of $size pages still cached after report" [ "$((res * 10))" -ge "$((size * 9))" ] || return 1
	# flat: the same binary on a file twice the size keeps (nearly) the same peak; a
	# tiny file's peak says nothing (the reading pipe's batches and the pages mapped
	# ahead are a fixed 15 MB or so whatever the file). ASan's quarantine keeps up to
	# 256 MB of freed memory, so memory is the plain binary's to show
	case $GT in */asan/*) return 0 ;; esac
	"$MAKE_FIXTURE" "$FORMATS" bench:200000 "$WORK/cache2.dat" || { WHY="make-fixture failed"; return 1; }
	/usr/bin/time -f '%M' -o "$WORK/cache2.rss" "$GT" report "$WORK/cache2.dat" > /dev/null 2>&1
	rss=$(tail -1 "$WORK/cache.rss")
	base=$(tail -1 "$WORK/cache2.rss")
	expect "peak RSS ${rss} KB for a $((size * 4)) KB file, ${base} KB for one twice the size: not flat" \
		[ "$((base - rss))" -lt "$((size * 4 / 8))" ]
}

# trace-cmd's default files (v7, zstd) read chunk by chunk: the same report as
# the v6 original, every record in the same order, and memory that does not
# grow with the file (libtracecmd 3.1.6 keeps every decompressed chunk).
test_report_v7_zstd_same_and_flat() {
	local v6=$WORK/z6.dat v7=$WORK/z7.dat f rss size
	"$MAKE_FIXTURE" "$FORMATS" bench:100000 "$v6" || { WHY="make-fixture failed"; return 1; }
	trace-cmd convert -i "$v6" -o "$v7" --file-version 7 --compression zstd > /dev/null 2>&1 ||
		{ WHY="trace-cmd convert failed"; return 77; }
	/usr/bin/time -f '%M' -o "$WORK/z7.rss" "$GT" report "$v7" > "$WORK/z7.txt" ||
		{ WHY="report of the v7 file failed"; return 1; }
	/usr/bin/time -f '%M' -o "$WORK/z6.rss" "$GT" report "$v6" > "$WORK/z6.txt" ||
		{ WHY="report of the v6 file failed"; return 1; }
	expect "v7 summary differs from v6: $(diff <(sed 1d "$WORK/z6.txt") <(sed 1d "$WORK/z7.txt") | head -3 | tr '\n' ' ')" \
		cmp -s <(sed 1d "$WORK/z6.txt") <(sed 1d "$WORK/z7.txt") || return 1
	# against the v6 file in the same run (a sanitizer's own memory dwarfs both)
	rss=$(tail -1 "$WORK/z7.rss")
	size=$(tail -1 "$WORK/z6.rss")
	expect "peak RSS ${rss} KB on the v7 file, ${size} KB on the same as v6: grows with the file" \
		[ "$((rss * 2))" -lt "$((size * 3))" ] || return 1
	# lost events and the workload buffer instance survive the conversion
	for f in lost-window competing; do
		"$MAKE_FIXTURE" "$FORMATS" "$f" "$WORK/$f.dat" &&
			trace-cmd convert -i "$WORK/$f.dat" -o "$WORK/$f-7.dat" --file-version 7 --compression zstd > /dev/null 2>&1 ||
			{ WHY="$f: fixture or convert failed"; return 1; }
		expect "$f: --events of v7 and v6 differ" \
			cmp -s <("$GT" report --events "$WORK/$f.dat") <("$GT" report --events "$WORK/$f-7.dat") || return 1
	done
	# cut anywhere, compressed chunks included: one line and 125, or a report
	size=$(stat -c %s "$WORK/lost-window-7.dat")
	for ((f = 0; f < size; f += 61)); do
		head -c "$f" "$WORK/lost-window-7.dat" > "$WORK/cut7.dat"
		"$GT" report "$WORK/cut7.dat" > /dev/null 2> "$WORK/cut7.err"
		case $? in
		0 | 2 | 125) ;;
		*) WHY="cut at $f: exit $? $(head -2 "$WORK/cut7.err" | tr '\n' ' ')"; return 1 ;;
		esac
	done
}

# The records fuzz target's kept inputs (its seeds, and anything it ever broke)
# replayed through the same code without libFuzzer, plain and under ASan+UBSan.
# replay_inputs NAME DIR...: every file in DIRs once through build/*/replay-NAME
# (a fuzz target's entry point built with gcc, plain or sanitized as $GT is)
replay_inputs() {
	local name=$1 bin=$ROOT_DIR/build/normal/replay-$1 files=() f n rc
	shift
	case $GT in */asan/*) bin=$ROOT_DIR/build/asan/replay-$name ;; esac
	[ -x "$bin" ] || { WHY="$bin not built (make check builds it)"; return 1; }
	for f in "$@"; do
		[ -f "$f" ] && files+=("$f")
	done
	expect "no kept inputs to replay" [ ${#files[@]} -gt 0 ] || return 1
	GT_FIXTURES=$ROOT_DIR/tests/fixtures timeout 600 "$bin" "${files[@]}" > "$WORK/replay.out" 2> "$WORK/replay.err"
	rc=$?
	expect "replay exited $rc: $(grep -m1 -E 'ERROR|runtime error|Sanitizer' "$WORK/replay.err")" [ $rc = 0 ] || return 1
	n=$(sed -n 's/^replayed \([0-9]*\) inputs$/\1/p' "$WORK/replay.out")
	expect "replayed ${n:-none} of ${#files[@]}" [ "${n:-0}" = ${#files[@]} ]
}

# fuzz-text's seeds and crashers (HIP lines, KFD snapshot lines, HIP capture)
test_fuzz_text_inputs_replay() {
	replay_inputs text "$ROOT_DIR"/tests/fuzz/text-seeds/* "$ROOT_DIR"/tests/fuzz/crashers-text/*
}

# fuzz-formats' seeds and crashers (hostile format text and a record)
test_fuzz_formats_inputs_replay() {
	replay_inputs formats "$ROOT_DIR"/tests/fuzz/formats-seeds/* "$ROOT_DIR"/tests/fuzz/crashers-formats/*
}

# fuzz-output's inputs (report and compare themselves, every format and
# section): seeds made from every fixture now, and the kept crashers
test_fuzz_output_inputs_replay() {
	python3 "$ROOT_DIR/tests/tools/output-seeds.py" "$MAKE_FIXTURE" "$FORMATS" "$WORK/output-seeds" > /dev/null ||
		{ WHY="output-seeds.py failed"; return 1; }
	replay_inputs output "$WORK"/output-seeds/* "$ROOT_DIR"/tests/fuzz/crashers-output/*
}

test_fuzz_records_inputs_replay() {
	replay_inputs records "$ROOT_DIR"/tests/fuzz/records-seeds/* "$ROOT_DIR"/tests/fuzz/crashers-records/*
}

# one of a thing is singular: "1 job", "1 ring", never "1 jobs"
test_report_counts_read_as_english() {
	local f out
	f=$(fixture amd-sched-4.11) || { WHY="make-fixture failed"; return 1; }
	out=$("$GT" report "$f" 2>&1)
	expect "no 'ring sdma0: 1 job,' line: $(echo "$out" | grep '^ring' | head -2 | tr '\n' '|')" \
		grep -q '^ring sdma0: 1 job, ' <<< "$out" || return 1
	"$GT" report --format perfetto -o "$WORK/one.pftrace" "$(fixture hip-kfd)" > /dev/null 2> "$WORK/one.note"
	expect "perfetto note: $(cat "$WORK/one.note")" grep -q ' on 1 ring;' "$WORK/one.note" || return 1
	expect "a number followed by a plural of 1 somewhere: $(grep -E '(^|[^0-9.])1 (jobs|rings|slices|flows|lines|dispatches)\b' <<< "$out$(cat "$WORK/one.note")" | head -2)" \
		not grep -qE '(^|[^0-9.])1 (jobs|rings|slices|flows|lines|dispatches)\b' <<< "$out$(cat "$WORK/one.note")" || return 1
}

# Root's pager gets an environment of its own: under sudo -E (or env_keep)
# LESSSECURE_ALLOW=shell (less >= 643), LESSKEY, LESSEDIT, VISUAL or EDITOR
# would each have made `!sh` or `v` in the pager a root shell.
test_report_root_pager_environment() {
	local f s=gt-penv-$$ pid less env bad
	[ "$(id -u)" = 0 ] || { WHY="needs root: the pager is narrowed for root only"; return 77; }
	command -v tmux > /dev/null || { WHY="tmux not installed (sudo make deps)"; return 77; }
	[ -x /usr/bin/less ] || { WHY="less not installed"; return 77; }
	f=$(fixture bench:300) || { WHY="make-fixture failed"; return 1; }
	tmux new-session -d -s "$s" -x 100 -y 20 \
		"env LESSSECURE_ALLOW=shell LESSKEY=/tmp/k LESSKEYIN=/tmp/k LESSEDIT=vi VISUAL=vi EDITOR=vi LESSOPEN='|id' SHELL=/bin/sh LESS=+!id TERM=xterm-256color COLUMNS='\$(id)' '$GT' report --jobs '$f'; sleep 60" ||
		{ WHY="tmux failed"; return 1; }
	pane_when "$s" "$WORK/penv.screen" '^RING '
	pid=$(tmux list-panes -t "$s" -F '#{pane_pid}')
	less=$(pgrep -x less -s "$(ps -o sid= -p "$pid" | tr -d ' ')" | head -1)
	env=$(tr '\0' '\n' < "/proc/$less/environ" 2> /dev/null | cut -d= -f1 | sort | tr '\n' ' ')
	tmux send-keys -t "$s" q
	tmux kill-session -t "$s" 2> /dev/null
	expect "no less found in the pane (pid $pid)" [ -n "$less" ] || return 1
	bad=$(echo "$env" | tr ' ' '\n' | grep -vxE 'TERM|LANG|LANGUAGE|LC_ALL|LC_CTYPE|LC_MESSAGES|COLUMNS|LINES|PATH|HOME|LESS|LESSSECURE|LESSHISTFILE|' | tr '\n' ' ')
	expect "the root pager's environment holds $bad(all: $env)" [ -z "$bad" ] || return 1
	expect "TERM was not kept: $env" grep -qw TERM <<< "$env"
}

# --jobs on a terminal, as perf report: the columns that fit, in a pager; a
# pipe and --wide get every column
test_report_jobs_fit_the_terminal() {
	local f s=gt-jobs-$$ long
	command -v tmux > /dev/null || { WHY="tmux not installed (sudo make deps)"; return 77; }
	command -v less > /dev/null || { WHY="less not installed"; return 77; }
	f=$(fixture bench:300) || { WHY="make-fixture failed"; return 1; }
	tmux new-session -d -s "$s" -x 100 -y 20 \
		"'$GT' report --jobs '$f'; echo REPORT-EXIT=\$?; sleep 60" || { WHY="tmux failed"; return 1; }
	pane_when "$s" "$WORK/jobs.screen" '^RING '
	sleep 0.5
	tmux capture-pane -p -t "$s" > "$WORK/jobs.screen"
	tmux send-keys -t "$s" q
	pane_when "$s" "$WORK/jobs.quit" 'REPORT-EXIT='
	tmux kill-session -t "$s" 2> /dev/null
	long=$(awk 'length($0) > 100' "$WORK/jobs.screen" | head -1)
	expect "a line wider than the 100-column terminal: $long" [ -z "$long" ] || return 1
	expect "the narrow table lost who and how long: $(head -1 "$WORK/jobs.screen")" \
		grep -q '^RING  *JOB  *COMM .*TOTAL_us FLAGS$' "$WORK/jobs.screen" || return 1
	expect "the listing did not wait in a pager (REPORT-EXIT before q)" \
		not grep -q 'REPORT-EXIT=' "$WORK/jobs.screen" || return 1
	expect "q in the pager did not end report with 0: $(grep REPORT-EXIT "$WORK/jobs.quit")" \
		grep -q 'REPORT-EXIT=0' "$WORK/jobs.quit" || return 1
	# a pipe, or --wide: every column, as scripts read them
	expect "a pipe lost columns" grep -q ' SUBMIT .* HW_START .* BEHIND IOCTL .* FLAGS$' <<< "$("$GT" report --jobs "$f" | head -1)" || return 1
	# no pager: straight to the terminal, the footnote under the table; --wide: every column
	f=$(fixture deps) || { WHY="make-fixture failed"; return 1; }
	tmux new-session -d -s "$s" -x 100 -y 30 \
		"'$GT' report --jobs --no-pager '$f'; '$GT' report --jobs --wide --no-pager '$f'; echo REPORT-EXIT=\$?; sleep 60"
	pane_when "$s" "$WORK/jobs.nopager" 'REPORT-EXIT='
	tmux capture-pane -p -J -t "$s" > "$WORK/jobs.joined"
	tmux kill-session -t "$s" 2> /dev/null
	expect "--no-pager waited for a key" grep -q 'REPORT-EXIT=0' "$WORK/jobs.nopager" || return 1
	expect "no footnote naming the columns left out: $(cat "$WORK/jobs.nopager" | head -8 | tr '\n' '|')" \
		grep -q "^(7 of 21 columns, to fit the terminal's 100; --wide or a pipe shows all)$" "$WORK/jobs.nopager" || return 1
	expect "--wide on a terminal lost columns" grep -q '^RING .* SUBMIT .* BEHIND IOCTL .* FLAGS$' "$WORK/jobs.joined"
}

# amdgpu's user-mode queues (7.x), from the real 7.3 formats: each queue's
# states, its fences emit -> signaled, what it waited for, in every format
test_report_user_queues() {
	local f out
	f=$(fixture userq) || { WHY="make-fixture failed"; return 1; }
	out=$("$GT" report "$f")
	expect "no user-queue section: $(echo "$out" | tail -5 | tr '\n' '|')" \
		grep -q '^User queues (amdgpu, 3; work reaches these queues through a doorbell, with no scheduler job: no event marks when the hardware picked it up' <<< "$out" || return 1
	expect "llama's compute queue: $(grep 'doorbell 0x10' <<< "$out")" \
		grep -q '^  0000:03:00.0 compute queue, doorbell 0x10, client 7, 4242 llama: created at 1.000000 (20.000 us)$' <<< "$out" || return 1
	expect "its states" grep -q '^    states: unmapped 0.040 ms (1x), mapped 2.160 ms (2x), preempted 0.300 ms (1x), hung 0.500 ms (1x); at the end hung$' <<< "$out" || return 1
	expect "its work: $(grep '    work' <<< "$out" | head -1)" \
		grep -q '^    work: 4 fences emitted, 3 signaled (emit->signaled p50 590.000, p99 600.000, max 600.000 us), 1 pending at the end; 800.000 us not mapped while work was pending$' <<< "$out" || return 1
	expect "its dependency wait" grep -q '^    dependency waits: 1 (p50 300.000, max 300.000 us)$' <<< "$out" || return 1
	expect "the failed create" grep -q '^  ? gfx queue, doorbell 0x18, 5000 vkcube: create at 1.000050 failed: EINVAL$' <<< "$out" || return 1
	expect "the queue from before the file" \
		grep -q '^  0000:03:00.0 sdma queue, doorbell 0x20, client 7: created before the file, destroyed at 1.002990$' <<< "$out" || return 1
	expect "--queues lacks them" grep -q '^User queues' <<< "$("$GT" report --queues "$f")" || return 1
	expect "JSON" python3 -c 'import json, sys
d = json.load(sys.stdin)["user_queues"]
q = d["queues"][0]
assert d["records"] == 18 and len(d["queues"]) == 3, d["records"]
assert q["state_at_end"] == "hung" and q["states"]["preempted"] == {"ns": 300000, "entered": 1}, q
assert q["fences_emitted"] == 4 and q["fences_signaled"] == 3 and q["unmapped_pending_ns"] == 800000, q
assert q["emit_to_signaled"]["max_ns"] == 600000 and q["dependency_wait"]["count"] == 1, q
assert d["queues"][1]["result"] == -22 and d["queues"][1]["destroyed_ns"] is None' < <("$GT" report --format json "$f") || return 1
	expect "CSV" grep -q '^0000:03:00.0,compute,16,7,4242,llama,1000000000,0,,hung,40000,2160000,300000,500000,0,4,3,1,800000,590000,600000,1,300000$' \
		<<< "$("$GT" report --format csv "$f")" || return 1
	# a file of a kernel without them: JSON says null, text says nothing
	f=$(fixture deps) || { WHY="make-fixture failed"; return 1; }
	expect "user queues in a file without them" not grep -q 'User queues' <<< "$("$GT" report "$f")" || return 1
	expect "JSON user_queues not null without the formats" python3 -c 'import json, sys
assert json.load(sys.stdin)["user_queues"] is None' < <("$GT" report --format json "$f")
}

# Enforce isolation (7.3 formats): each owner switch with the job it was for,
# how long that job waited for the previous owner's work and whose work it
# was, the cleaner shader; per ring, the switches before its jobs; the I flag.
test_report_owner_switches() {
	local f out
	f=$(fixture isolation) || { WHY="make-fixture failed"; return 1; }
	out=$("$GT" report "$f")
	expect "no owner-switch line for gfx: $(grep -A2 '^ring gfx' <<< "$out" | tr '\n' '|')" \
		grep -q "^  owner switches (enforce isolation): 3 before its jobs; the workload's 2 waited 0.390 ms in all for the previous owner's work; cleaner shader ran 3 times$" <<< "$out" || return 1
	expect "comp_1.0.0's line" \
		grep -q '^  owner switches (enforce isolation): 1 before its jobs; cleaner shader ran 1 time$' <<< "$out" || return 1
	expect "no section: $(echo "$out" | tail -8 | tr '\n' '|')" \
		grep -q '^Owner switches (enforce isolation): 4, cleaner shader ran 4 times (a job whose owner' <<< "$out" || return 1
	# L2 waited 100 us with its own ring idle: the rival's compute job held it
	expect "L2's switch: $(grep '100:2' <<< "$out" | tail -1)" \
		grep -Eq '^  1\.000601 +gfx_0\.0\.0 +6000 rival +5000 llama +100:2 +100\.000  yes +301:1 of 6000 rival on comp_1\.0\.0$' <<< "$out" || return 1
	expect "the first switch, from the kernel" \
		grep -Eq '^  1\.000005 +gfx_0\.0\.0 +kernel +6000 rival +300:1 +1\.000  yes +-$' <<< "$out" || return 1
	expect "jobs after a switch not flagged I" \
		[ "$("$GT" report --jobs --wide --no-pager "$f" | awk '$NF ~ /I/' | wc -l)" = 4 ] || return 1
	expect "JSON summary" python3 -c 'import json, sys
d = json.load(sys.stdin)
s = d["owner_switches"]
assert d["schema"] == "gpu-trace-report/13", d["schema"]
assert s["seen"] == 4 and s["cleaner_shaders"] == 4 and len(s["switches"]) == 4, s
w = s["switches"][3]
assert w["from"]["comm"] == "rival" and w["to"] == {"owner": "0xffff888130000000", "kind": "client", "pid": 5000, "comm": "llama"}, w
assert w["job"] == "100:2" and w["wait_ns"] == 100000 and w["workload"], w
assert w["waited_for"] == {"fence": "301:1", "pid": 6000, "ring": "comp_1.0.0"}, w
assert s["switches"][0]["from"]["kind"] == "kernel" and s["switches"][0]["waited_for"] is None
r = {x["name"]: x["owner_switches"] for x in d["rings"]}
assert r["gfx_0.0.0"] == {"jobs": 3, "waited_jobs": 2, "wait_ns": 390000, "cleaner_shaders": 3}, r' \
		< <("$GT" report --format json "$f") || return 1
	expect "JSON jobs" python3 -c 'import json, sys
jobs = {j["fence"]: j["owner_switch"] for j in json.load(sys.stdin)["jobs"]}
assert jobs["100:1"] == {"at_ns": 1000012000, "wait_ns": 290000} and jobs["100:3"] is None, jobs' \
		< <("$GT" report --jobs --format json "$f") || return 1
	out=$("$GT" report --format csv "$f")
	expect "CSV switch row" \
		grep -q '^1000601000,gfx_0.0.0,0xffff888120000000,6000,0xffff888130000000,5000,100:2,5000,1,1000701000,100000,301:1,6000,comp_1.0.0,1000701000$' <<< "$out" || return 1
	expect "CSV ring columns" grep -q '^gfx_0.0.0,4,.*,3,2,390000,3,0,0,0,0,0000:03:00.0,0,0,0$' <<< "$out" || return 1
	expect "CSV jobs column" grep -q '^gfx_0.0.0,100:1,.*,WI,290000,0,0000:03:00.0,0,,,$' <<< "$("$GT" report --jobs --format csv "$f")" || return 1
	# a file without the events: nothing in text, null in JSON
	f=$(fixture deps) || { WHY="make-fixture failed"; return 1; }
	expect "owner switches in a file without them" not grep -q 'wner switches' <<< "$("$GT" report "$f")" || return 1
	expect "JSON owner_switches not null without the events" python3 -c 'import json, sys
assert json.load(sys.stdin)["owner_switches"] is None' < <("$GT" report --format json "$f")
}

# A ring timeout on 6.1 as the kernel logged it: the jobs in flight (flag H)
# with how long they had run, the process blamed, the GPU reset after it
# with its register dumps; a soft recovery; in every format.
test_report_hangs() {
	local f out
	f=$(fixture hang) || { WHY="make-fixture failed"; return 1; }
	out=$("$GT" report "$f")
	expect "no hang section: $(echo "$out" | tail -12 | tr '\n' '|')" \
		grep -q "^GPU hangs and resets: 2 ring timeouts (1 soft-recovered), 1 GPU reset in the kernel's log$" <<< "$out" || return 1
	expect "the gfx timeout" grep -q '^  1.010015 gfx_0.0.0 timed out (signaled seq 41, emitted seq 43); the kernel names llama pid 4242 (thread llama pid 4243)$' <<< "$out" || return 1
	expect "the hung job on the hardware" \
		grep -Eq '^      100:1 +4242 llama +on the hardware 10000\.000 us \(since 1\.000015\)$' <<< "$out" || return 1
	expect "the job behind it" \
		grep -Eq '^      101:1 +6000 rival +sent to the ring 1\.000025, waiting behind it 9990\.000 us$' <<< "$out" || return 1
	expect "the reset" grep -q '^    then GPU reset at 1.010016 on 0000:03:00.0: succeeded after 275.000 us (ret 0), 3 register dumps$' <<< "$out" || return 1
	expect "the soft recovery" grep -q '^  1.020000 sdma0 timed out, soft-recovered$' <<< "$out" || return 1
	expect "the ring's line" \
		[ "$(grep -c '^  timed out 1 time (GPU hangs and resets below); the jobs in flight then are flagged H$' <<< "$out")" = 2 ] || return 1
	expect "jobs in flight not flagged H" \
		[ "$("$GT" report --jobs --wide --no-pager "$f" | awk '$NF ~ /H/' | wc -l)" = 3 ] || return 1
	expect "JSON" python3 -c 'import json, sys
d = json.load(sys.stdin)
h = d["hangs"]
t = h["timeouts"][0]
assert t["ring"] == "gfx_0.0.0" and t["signaled_seq"] == 41 and t["process"]["pid"] == 4242, t
assert t["jobs_in_flight"] == 2 and t["jobs"][0]["on_hardware_ns"] == 10000000 and t["jobs"][1]["on_hardware_ns"] is None, t
assert t["gpu_reset"] == 0 and h["resets"][0] == {"begin_ns": 1010016000, "end_ns": 1010291000, "dev": "0000:03:00.0", "succeeded": True, "result": 0, "register_dumps": 3}, h["resets"]
assert h["timeouts"][1]["soft_recovered"] and h["timeouts"][1]["gpu_reset"] is None
assert [r["timeouts"] for r in d["rings"]] == [1, 1]' < <("$GT" report --format json "$f") || return 1
	expect "JSON jobs" python3 -c 'import json, sys
j = {x["fence"]: x["in_flight_at_timeout"] for x in json.load(sys.stdin)["jobs"]}
assert j == {"100:1": True, "101:1": True, "200:1": False, "201:1": True}, j' < <("$GT" report --jobs --format json "$f") || return 1
	out=$("$GT" report --format csv "$f")
	expect "CSV hang rows" grep -q '^1010015000,,gfx_0.0.0,0,41,43,llama,4242,2,100:1,4242,llama,10000000,,0,amdgpu,,,$' <<< "$out" || return 1
	expect "CSV reset row" grep -q '^1010016000,1010291000,0000:03:00.0,1,0,3$' <<< "$out" || return 1
	# a user queue the driver marked hung is listed with them
	f=$(fixture userq) || { WHY="make-fixture failed"; return 1; }
	expect "the hung user queue" grep -q '^  1.002500 user queue 0000:03:00.0 compute, doorbell 0x10 (4242 llama) hung for 500.000 us (to the file.s end)$' \
		<<< "$("$GT" report "$f")" || return 1
	# xe: the log line and the tracepoint of one timeout are one hang; a tracepoint alone another
	f=$(fixture xe-hang) || { WHY="make-fixture failed"; return 1; }
	out=$("$GT" report "$f")
	expect "xe's timeout: $(grep -A1 ' xe ' <<< "$out" | tr '\n' '|')" \
		grep -q '^  1.005012 xe GuC queue 5 (GT0) on 0000:00:02.0 timed out (job seqno 18, lrc seqno 18); the kernel names llama pid 4242$' <<< "$out" || return 1
	expect "xe's timeouts counted as ring timeouts" \
		grep -q "^GPU hangs and resets: 0 ring timeouts, 2 xe job timeouts, 0 GPU resets in the kernel's log; 1 xe job given an error (the last: GuC queue 2 seqno 7, error -125)$" <<< "$out" || return 1
	# xe names queue 5's scheduler rcs5: its jobs in flight; queue 2 has no ring in the file
	expect "xe's jobs in flight on rcs5: $(grep -A3 'GuC queue 5' <<< "$out" | tr '\n' '|')" \
		grep -q '^    in flight on its scheduler ring rcs5: 2 jobs (flagged H)$' <<< "$out" || return 1
	expect "the job on the hardware" grep -Eq '^      40:1 +4242 llama +on the hardware 5000\.000 us \(since 1\.000012\)$' <<< "$out" || return 1
	expect "queue 2's jobs claimed" \
		grep -q '^    in flight: not known (no scheduler ring named for GuC id 2, as rcs2 or ccs2, in the file)$' <<< "$out" || return 1
	expect "rcs5's line" grep -q '^  timed out 1 time (GPU hangs' <<< "$(grep -A1 '^ring rcs5' <<< "$out")" || return 1
	expect "xe JSON" python3 -c 'import json, sys
t = json.load(sys.stdin)["hangs"]["timeouts"]
assert len(t) == 2 and t[0]["driver"] == "xe" and t[0]["process"] == {"comm": "llama", "pid": 4242, "thread": None, "tid": None}, t
assert t[0]["xe"] == {"guc_id": 5, "gt": 0, "seqno": 18, "lrc_seqno": 18, "logged": True, "traced": True,
                      "sched_ring": "rcs5"}, t[0]
assert t[0]["jobs_in_flight"] == 2 and [j["job"] for j in t[0]["jobs"]] == ["40:1", "40:2"], t[0]
assert t[1]["xe"]["guc_id"] == 2 and not t[1]["xe"]["logged"] and t[1]["process"] is None, t[1]
assert t[1]["xe"]["sched_ring"] is None and t[1]["jobs_in_flight"] == 0, t[1]' \
		< <("$GT" report --format json "$f") || return 1
	expect "xe CSV" grep -q '^1005012000,0000:00:02.0,GuC queue 5,0,,,llama,4242,2,40:1,4242,llama,5000000,,,xe,5,18,18$' \
		<<< "$("$GT" report --format csv "$f")" || return 1
	# a file without the kernel's log: JSON null, nothing in text
	f=$(fixture deps) || { WHY="make-fixture failed"; return 1; }
	expect "hangs in a file without them" not grep -q 'GPU hangs' <<< "$("$GT" report "$f")" || return 1
	expect "JSON hangs not null without the log" python3 -c 'import json, sys
assert json.load(sys.stdin)["hangs"] is None' < <("$GT" report --format json "$f")
}

# trace-cmd 2.x wrote v6 with an empty trace clock option and the clock's text after the CPU
# table, where libtracecmd reads it: the clock is the file's, the option no damage
test_report_tracecmd2_clock() {
	local f out
	f=$(fixture tracecmd-2) || { WHY="make-fixture failed"; return 1; }
	out=$("$GT" report "$f" 2>&1)
	expect "the clock: $(grep '^cpus' <<< "$out")" grep -q '^cpus     2   clock mono   ' <<< "$out" || return 1
	expect "a note on the option: $(grep '^note' <<< "$out")" not grep -q '^note' <<< "$out" || return 1
	expect "JSON clock and options" python3 -c 'import json, sys
d = json.load(sys.stdin)
assert d["clock"] == "mono" and d["skipped_options"] == [], (d["clock"], d["skipped_options"])' \
		< <("$GT" report --format json "$f") || return 1
	expect "jobs read" grep -q '^jobs     4 finished' <<< "$out"
}

# Page flips (the page-flips scenario, numbers worked out in tests/fixture/scenarios.c): each
# flip's event paired with the DRM_IOCTL_MODE_PAGE_FLIP that asked for it (a refused one, an
# atomic commit and the DRM core's own event with no file not), the vblanks it missed counted
# by the count's steps from the ask's return (a lost vblank record still one missed), an event
# before its ask returned paired too, the ask without an event said; in every format
test_report_page_flips() {
	local f out
	f=$(fixture page-flips) || { WHY="make-fixture failed"; return 1; }
	out=$("$GT" report "$f")
	expect "crtc 0: $(grep '^  crtc 0' <<< "$out")" grep -q '^  crtc 0: 10 vblanks at 60.00 Hz .*, 1 not seen in 1 gap .*; events: 0 queued, 5 delivered, 5 with no queue event in the file (1 of them the DRM core.s own, for commits that asked for none); .*; page flips: 4 paired with their DRM_IOCTL_MODE_PAGE_FLIP, 1 presented after the vblank due (2 vblanks missed in all); asked -> presented p50 16416.000 us, p99 49448.000 us, max 49448.000 us$' <<< "$out" || return 1
	expect "the unpaired ask" grep -q '^  1 of 5 page flips asked (DRM_IOCTL_MODE_PAGE_FLIP) with no flip.s event in the file' <<< "$out" || return 1
	expect "page flip JSON" python3 -c 'import json, sys
v = json.load(sys.stdin)["vblanks"]
assert (v["flip_asks"], v["flip_asks_unpaired"]) == (5, 1), v
z = v["crtcs"][0]
assert (z["unmatched"], z["core_events"], z["flips_asked"], z["flips_late"], z["flips_late_vblanks"]) == (5, 1, 4, 1, 2), z
assert z["flip_present"] == {"count": 4, "p50_ns": 16416000, "p99_ns": 49448000, "max_ns": 49448000}, z' \
		< <("$GT" report --format json "$f") || return 1
	expect "page flip CSV" grep -q '^0,0,10,59.999,16667000,1,1,0,5,0,0,5,28000,29000,29000,1,4,1,2,16416000,49448000,49448000$' \
		<<< "$("$GT" report --format csv "$f")" || return 1
	"$GT" report --format perfetto -o "$WORK/pf.pftrace" "$f" 2> /dev/null || { WHY="perfetto failed"; return 1; }
	pf_decode < "$WORK/pf.pftrace" > "$WORK/pf.txt" || { WHY="protoc cannot decode it"; return 1; }
	expect "Perfetto: on time" [ "$(grep -cF 'name: "page flip presented at the vblank due"' "$WORK/pf.txt")" = 3 ] || return 1
	expect "Perfetto: late" [ "$(grep -cF 'name: "page flip presented 2 vblanks after the one due"' "$WORK/pf.txt")" = 1 ] || return 1
	expect "Perfetto: the core's own" [ "$(grep -cF 'name: "vblank event delivered (the DRM core' "$WORK/pf.txt")" = 1 ] || return 1
	# --events: each delivery's client, or none (the core's own)
	out=$("$GT" report --events "$f" | grep drm_vblank_event_delivered)
	expect "--events: $out" [ "$(grep -c ' client=0xffff888001230000$' <<< "$out")" = 4 ] &&
		[ "$(grep -c "(the DRM core's own: no client)$" <<< "$out")" = 1 ] || return 1
	# without the workload's ioctls (--no-cpu-side): flips counted, none paired, nothing said
	expect "the vblank fixture pairs nothing" not grep -q 'page flips' <<< "$("$GT" report "$(fixture vblank)")"
}

# Display timing (the vblank scenario, numbers worked out in tests/fixture/scenarios.c): per
# CRTC the refresh rate, vblanks not seen, events late against the vblank asked for, and the
# delay from the vblank to the delivery; in every format
test_report_vblanks() {
	local f out
	f=$(fixture vblank) || { WHY="make-fixture failed"; return 1; }
	out=$("$GT" report "$f")
	expect "crtc 0: $(grep '^  crtc 0' <<< "$out")" grep -q '^  crtc 0: 29 vblanks at 60.00 Hz (period p50 16667.000 us, p99 16667.000 us), 2 not seen in 1 gap .*; events: 4 queued, 5 delivered, 1 after the vblank asked for (2 vblanks late in all), 1 with no queue event in the file; delivered after the vblank p50 26.000 us, p99 28.000 us, max 28.000 us$' <<< "$out" || return 1
	expect "crtc 1" grep -q '^  crtc 1: 41 vblanks at 144.01 Hz' <<< "$out" || return 1
	expect "a fence-mode note on a file with no fences" not grep -q 'dma_fence init/emit' <<< "$out" || return 1
	expect "vblank JSON" python3 -c 'import json, sys
v = json.load(sys.stdin)["vblanks"]
c = {x["crtc"]: x for x in v["crtcs"]}
assert sorted(c) == [0, 1], c
z = c[0]
assert (z["vblanks"], z["gaps"], z["unseen"], z["queued"], z["delivered"], z["late"], z["late_vblanks"],
        z["unmatched"]) == (29, 1, 2, 4, 5, 1, 2, 1), z
assert z["delivery"] == {"count": 5, "p50_ns": 26000, "p99_ns": 28000, "max_ns": 28000}, z
assert z["backwards"] == 0 and z["high_prec"], z
assert abs(z["refresh_hz"] - 60.0) < 0.01 and abs(c[1]["refresh_hz"] - 144.009) < 0.01, c
assert c[1]["delivery"] == {"count": 0, "p50_ns": None, "p99_ns": None, "max_ns": None}, c[1]' \
		< <("$GT" report --format json "$f") || return 1
	expect "vblank CSV" grep -q '^0,0,29,59.999,16667000,1,2,4,5,1,2,1,26000,28000,28000,0,0,0,0,,,$' \
		<<< "$("$GT" report --format csv "$f")" || return 1
	# Perfetto: the events on the CRTC's track, each delivery said as the join matched it
	"$GT" report --format perfetto -o "$WORK/vbl.pftrace" "$f" 2> /dev/null || { WHY="perfetto failed"; return 1; }
	pf_decode < "$WORK/vbl.pftrace" > "$WORK/vbl.txt" || { WHY="protoc cannot decode it"; return 1; }
	expect "Perfetto: asked for" [ "$(grep -cF 'name: "vblank event asked for"' "$WORK/vbl.txt")" = 4 ] || return 1
	expect "Perfetto: on time" [ "$(grep -cF 'name: "vblank event delivered"' "$WORK/vbl.txt")" = 3 ] || return 1
	expect "Perfetto: late" [ "$(grep -cF 'name: "vblank event delivered 2 vblanks late"' "$WORK/vbl.txt")" = 1 ] || return 1
	expect "Perfetto: a page flip's" [ "$(grep -cF 'name: "vblank event delivered (none asked' "$WORK/vbl.txt")" = 1 ] || return 1
	expect "Perfetto: the CRTC's events track" grep -qF 'name: "vblank events crtc 0"' "$WORK/vbl.txt" || return 1
	# two devices' CRTC 0: each count a display of its own, in every format
	f=$(fixture vblank-two-displays) || { WHY="make-fixture failed"; return 1; }
	out=$("$GT" report "$f")
	expect "the second count: $(grep '^  crtc 0' <<< "$out" | tr '\n' ' ')" grep -q "^  crtc 0, count 2 (another device's CRTC 0, or its count reset): 20 vblanks at 75.00 Hz (period p50 13333.000 us, p99 13333.000 us); events: 0 queued, 0 delivered$" <<< "$out" || return 1
	expect "the first count" grep -q '^  crtc 0: 20 vblanks at 60.00 Hz .*; events: 1 queued, 1 delivered;' <<< "$out" || return 1
	expect "the page flip's count" grep -q "^  crtc 0, count 3 (another device's CRTC 0, or its count reset): 0 vblanks; events: 0 queued, 1 delivered, 1 with no queue event in the file$" <<< "$out" || return 1
	expect "no count going back" not grep -q 'went back' <<< "$out" || return 1
	expect "JSON displays" python3 -c 'import json, sys
c = json.load(sys.stdin)["vblanks"]["crtcs"]
assert [(x["crtc"], x["display"], x["vblanks"], x["first_seq"]) for x in c] == [(0, 0, 20, 1), (0, 1, 20, 23000), (0, 2, 0, 0)], c' \
		< <("$GT" report --format json "$f") || return 1
	expect "CSV displays" grep -q '^0,1,20,75.002,13333000,0,0,0,0,' <<< "$("$GT" report --format csv "$f")" || return 1
	"$GT" report --format perfetto -o "$WORK/vbl2.pftrace" "$f" 2> /dev/null || { WHY="perfetto failed"; return 1; }
	pf_decode < "$WORK/vbl2.pftrace" > "$WORK/vbl2.txt" || { WHY="protoc cannot decode it"; return 1; }
	expect "Perfetto: a track per count" grep -qF 'name: "vblank crtc 0 count 2"' "$WORK/vbl2.txt" || return 1
	# a file without vblank events: JSON null, no section
	f=$(fixture deps) || { WHY="make-fixture failed"; return 1; }
	expect "no display section" not grep -q '^Display' <<< "$("$GT" report "$f")" || return 1
	expect "JSON vblanks null" python3 -c 'import json, sys
assert json.load(sys.stdin)["vblanks"] is None' < <("$GT" report --format json "$f")
}

# record's host, GPU and clock markers (scenarios.c build_host_clock, numbers
# worked out there): the host, its GPUs, UTC from the narrowest clock pair, the
# drift from the first to the last, a pair whose end reads before its start
# not used; a file without them (a fixture's, trace-cmd's) has none.
test_report_host_clock() {
	local f out
	f=$(fixture host-clock) || { WHY="make-fixture failed"; return 1; }
	out=$("$GT" report "$f")
	expect "host line: $(grep '^host' <<< "$out")" grep -q '^host     node07 (machine-id 0123456789abcdef0123456789abcdef, boot 11111111-2222-3333-4444-555555555555)$' <<< "$out" || return 1
	expect "gpu lines: $(grep '^gpu ' <<< "$out" | tr '\n' ' ')" [ "$(grep -c '^gpu  ' <<< "$out")" = 2 ] || return 1
	expect "gpu line" grep -q '^gpu      card0 0000:03:00.0 amdgpu 0x1002:0x73bf uuid 8a1b2c3d4e5f6071$' <<< "$out" || return 1
	expect "utc line: $(grep '^utc' <<< "$out")" grep -q '^utc      the trace clock + 1799999998.999990000 s, within 1.000 us (3 clock pairs, drift -10101.0 ppm); the first record at 2027-01-15T07:59:59.999991000Z$' <<< "$out" || return 1
	expect "host JSON" python3 -c 'import json, sys
h = json.load(sys.stdin)["host"]
assert (h["name"], h["machine_id"], h["boot_id"]) == ("node07", "0123456789abcdef0123456789abcdef", "11111111-2222-3333-4444-555555555555"), h
assert [g["pci"] for g in h["gpus"]] == ["0000:03:00.0", "0000:83:00.0"] and h["gpus"][1]["uuid"] == "", h["gpus"]
c = h["clock"]
assert (c["pairs"], c["bad_pairs"], c["utc_offset_ns"], c["uncertainty_ns"]) == (3, 1, 1799999998999990000, 1000), c
assert c["first_record_utc_ns"] == 1799999999999991000 and abs(c["drift_ppm"] + 10101.01) < 0.01, c' \
		< <("$GT" report --format json "$f") || return 1
	# the markers are the host join's: not HIP log lines, and trace-cmd shows them as markers
	expect "a marker read as something else" not grep -q '^HIP' <<< "$out" || return 1
	f=$(fixture deps) || { WHY="make-fixture failed"; return 1; }
	expect "a host line without markers" not grep -q '^host\|^utc' <<< "$("$GT" report "$f")" || return 1
	expect "JSON host not null without markers" python3 -c 'import json, sys
assert json.load(sys.stdin)["host"] is None' < <("$GT" report --format json "$f")
}

# Two hosts' files on one axis with no --ts-offset: each moved by its UTC offset
# less the smaller one (node08's clock reads 5 s further from UTC), said per file;
# --ts-offset overrides; two files of one boot share a clock and stay as they are.
test_report_hosts_on_utc() {
	local a b
	a=$(fixture host-clock) || { WHY="make-fixture failed"; return 1; }
	b=$(fixture host-clock-b) || { WHY="make-fixture failed"; return 1; }
	"$GT" report --format html -o "$WORK/utc.html" "$a" "$b" 2> "$WORK/utc.err" ||
		{ WHY="html of two hosts failed: $(tail -1 "$WORK/utc.err")"; return 1; }
	expect "node08 not moved by 5 s: $(cat "$WORK/utc.err")" \
		grep -q "^gpu-trace report: $b (host node08) on UTC from its clock pair: moved by 5.000000000 s, within 1.000 us$" "$WORK/utc.err" || return 1
	expect "node07 not said" grep -q "^gpu-trace report: $a (host node07) on UTC from its clock pair: moved by 0.000000000 s" "$WORK/utc.err" || return 1
	expect "the page's offsets: $(grep -o '"offset_ns":[0-9-]*' "$WORK/utc.html" | tr '\n' ' ')" \
		[ "$(grep -o '"offset_ns":[0-9-]*' "$WORK/utc.html" | tr '\n' ' ')" = '"offset_ns":0 "offset_ns":5000000000 ' ] || return 1
	# Perfetto: node08's job 5 s later on the one axis
	"$GT" report --format perfetto -o "$WORK/utc.pftrace" "$a" "$b" 2> /dev/null || { WHY="perfetto failed"; return 1; }
	"$GT" report --format perfetto -o "$WORK/utc0.pftrace" "$a" "$b" --ts-offset 0s 2> "$WORK/utc0.err" ||
		{ WHY="perfetto --ts-offset failed"; return 1; }
	expect "--ts-offset did not override" not grep -q 'on UTC' "$WORK/utc0.err" || return 1
	expect "the two traces are the same" not cmp -s "$WORK/utc.pftrace" "$WORK/utc0.pftrace" || return 1
	"$GT" report --format html -o "$WORK/same.html" "$a" "$a" 2> "$WORK/same.err" || { WHY="html of one boot twice failed"; return 1; }
	expect "one boot's files moved: $(cat "$WORK/same.err")" not grep -q 'on UTC' "$WORK/same.err" || return 1
	expect "one boot's offsets" [ "$(grep -o '"offset_ns":[0-9-]*' "$WORK/same.html" | tr '\n' ' ')" = '"offset_ns":0 "offset_ns":0 ' ]
}

# Two hosts' files in one text or JSON report: each file's own report, in the order
# given, under a line naming it (text) or as an element of "files" (JSON), each with its
# host and its own UTC offset; one file's JSON is the same object as before.
test_report_several_hosts_text_json() {
	local a b out
	a=$(fixture host-clock) || { WHY="make-fixture failed"; return 1; }
	b=$(fixture host-clock-b) || { WHY="make-fixture failed"; return 1; }
	out=$("$GT" report "$a" "$b") || { WHY="text of two files failed"; return 1; }
	expect "file lines: $(grep '^==' <<< "$out" | tr '\n' ' ')" \
		[ "$(grep '^==' <<< "$out" | tr '\n' '|')" = "== $a (file 1 of 2) ==|== $b (file 2 of 2) ==|" ] || return 1
	expect "hosts in order: $(grep '^host' <<< "$out" | tr '\n' ' ')" \
		[ "$(grep -o '^host     node0[78]' <<< "$out" | tr '\n' '|')" = "host     node07|host     node08|" ] || return 1
	expect "each file's own summary" [ "$(grep -c '^ring gfx_0.0.0: 1 job' <<< "$out")" = 2 ] || return 1
	expect "JSON of two files" python3 -c 'import json, sys
d = json.load(sys.stdin)
assert d["schema"] == "gpu-trace-reports/1" and len(d["files"]) == 2, d.keys()
f = d["files"]
assert [x["schema"] for x in f] == ["gpu-trace-report/13"] * 2
assert [x["host"]["name"] for x in f] == ["node07", "node08"], [x["host"] for x in f]
assert f[1]["host"]["clock"]["utc_offset_ns"] - f[0]["host"]["clock"]["utc_offset_ns"] == 5000000000
assert [len(x["jobs"]) for x in f] == [1, 1]' < <("$GT" report --format json --jobs "$a" "$b") || return 1
	expect "one file's JSON wrapped" python3 -c 'import json, sys
assert json.load(sys.stdin)["schema"] == "gpu-trace-report/13"' < <("$GT" report --format json "$a")
}

# Several files, one of them damaged: a file that is truncated or no .dat is found
# before anything is written, wherever it comes; one whose damage shows only in its
# records (a damaged page) stops the run there with the JSON still one valid object,
# the file's entry holding the error. Either way exit 125 and one line naming the file.
test_report_several_files_one_damaged() {
	local a b fmt rc
	a=$(fixture host-clock) || { WHY="make-fixture failed"; return 1; }
	b=$(fixture host-clock-b) || { WHY="make-fixture failed"; return 1; }
	head -c 5000 "$b" > "$WORK/sd-truncated.dat"
	yes 'no trace here' | head -c 8192 > "$WORK/sd-garbage.dat"
	"$MAKE_FIXTURE" "$FORMATS" bench:300 "$WORK/sd-page.dat" > /dev/null || { WHY="make-fixture bench failed"; return 1; }
	python3 "$ROOT_DIR/tests/tools/damage-page.py" "$WORK/sd-page.dat" 0 3 > /dev/null ||
		{ WHY="cannot damage sd-page.dat"; return 1; }
	for b in sd-truncated sd-garbage sd-page; do
		for fmt in json text; do
			"$GT" report --format $fmt --jobs "$a" "$WORK/$b.dat" > "$WORK/sd.out" 2> "$WORK/sd.err"
			rc=$?
			expect "$fmt, $b.dat second: exit $rc" [ $rc = 125 ] || return 1
			expect "$fmt, $b.dat second: not one line naming it: $(cat "$WORK/sd.err")" \
				[ "$(grep -c . "$WORK/sd.err")" = 1 ] && grep -qF "$WORK/$b.dat" "$WORK/sd.err" || return 1
			if [ $b != sd-page ]; then
				expect "$fmt, $b.dat second: $(wc -c < "$WORK/sd.out") bytes written before it was refused" \
					[ ! -s "$WORK/sd.out" ] || return 1
			elif [ $fmt = json ]; then
				expect "json, a damaged page second: not valid JSON: $(tail -c 200 "$WORK/sd.out")" \
					python3 -m json.tool "$WORK/sd.out" > /dev/null || return 1
				expect "json, a damaged page second: the entries" python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
f = d["files"]
assert d["schema"] == "gpu-trace-reports/1" and len(f) == 2, d.keys()
assert "error" not in f[0] and len(f[0]["jobs"]) == 1, f[0].keys()
assert f[1]["file"] == sys.argv[2] and "damaged" in f[1]["error"], f[1]' "$WORK/sd.out" "$WORK/$b.dat" || return 1
			else
				expect "text, a damaged page second: the first file's jobs" \
					grep -q '^gfx_0.0.0  *100:1  *5000 train ' "$WORK/sd.out" || return 1
			fi
		done
	done
	# the damaged one first: its entry, and nothing after it
	"$GT" report --format json "$WORK/sd-page.dat" "$a" 2> /dev/null | python3 -c 'import json, sys
f = json.load(sys.stdin)["files"]
assert len(f) == 1 and "error" in f[0], f' || { WHY="json, a damaged page first: not one entry with its error"; return 1; }
	# one file: one object, closed with its error
	"$GT" report --format json --jobs "$WORK/sd-page.dat" 2> /dev/null | python3 -c 'import json, sys
d = json.load(sys.stdin)
assert d["schema"] == "gpu-trace-report/13" and "error" in d and d["jobs"], d.keys()' ||
		{ WHY="json, one file with a damaged page: not one object with its error"; return 1; }
	# -o: no file left; Perfetto reads each file for its clock first: nothing written either
	for fmt in json perfetto; do
		"$GT" report --format $fmt -o "$WORK/sd.$fmt" "$a" "$WORK/sd-page.dat" 2> "$WORK/sd.err"
		rc=$?
		expect "$fmt -o, a damaged page second: exit $rc, $(ls "$WORK/sd.$fmt" 2> /dev/null) left" \
			[ $rc = 125 ] && [ ! -e "$WORK/sd.$fmt" ] || return 1
		expect "$fmt -o: not one line naming the file: $(cat "$WORK/sd.err")" \
			[ "$(grep -c . "$WORK/sd.err")" = 1 ] && grep -qF "$WORK/sd-page.dat (file 2 of 2)" "$WORK/sd.err" || return 1
	done
}

# The CPU side (tests/fixture/scenarios.c build_cpu_side, numbers worked out there):
# each GPU ioctl's time split into on CPU, runnable behind whom, sleeping and
# interrupts, adding up to its duration; ioctl -> queued; every format, --events.
test_report_cpu_side() {
	local f out
	f=$(fixture cpu-side) || { WHY="make-fixture failed"; return 1; }
	out=$("$GT" report "$f")
	expect "cpu side header: $(grep '^CPU side' <<< "$out")" \
		grep -q '^CPU side: 3 GPU ioctls and 1 fence wait of 2 threads$' <<< "$out" || return 1
	expect "the wait on the job" grep -q '^    waited on the GPU: 1 fence wait, 142.000 us in all, the longest 142.000 us on 100:1 (gfx_0.0.0)$' <<< "$out" || return 1
	expect "AMDGPU_CS: $(grep 'AMDGPU_CS' <<< "$out")" grep -q '^    AMDGPU_CS x1 in 160.000 us (p50 160.000 us, p99 160.000 us): on CPU 34.4%, runnable 25.0% (behind 6000 rival 18.8%, after a wakeup 6.2%), sleeping 37.5% (uninterruptible 37.5%), interrupts 3.1%$' <<< "$out" || return 1
	expect "a CPU wait on the GPU" grep -q '^    DRM_IOCTL_SYNCOBJ_WAIT x1 in 150.000 us .*sleeping 90.0%' <<< "$out" || return 1
	expect "ioctl -> queued" grep -q '^    ioctl -> queued: 1 job, p50 70.000 us, p99 70.000 us, max 70.000 us: on CPU 50.0%, runnable 42.9%, sleeping 0.0%, interrupts 7.1%$' <<< "$out" || return 1
	expect "KFD" grep -q '^    AMDKFD_IOC_CREATE_QUEUE x1 in 20.000 us' <<< "$out" || return 1
	# of the 390 us from its first GPU call to its last, 195 on or waiting for a CPU and 142
	# waiting on the GPU (53 asleep otherwise: neither): neither side alone
	expect "the verdict: $(grep 'verdict' <<< "$out")" grep -q '^    verdict: mixed: 42.1% of its 337.000 us active (on or waiting for a CPU, or waiting on the GPU, from its first GPU call to its last) waiting on the GPU; its jobs reached the ring p50 70.000 us after their ioctl, 30.000 us of 70.000 us runnable (its ioctls. CPU taken longest by 6000 rival, 30.000 us)$' <<< "$out" || return 1
	expect "a verdict for a thread that queued nothing and waited for nothing" \
		[ "$(grep -c 'verdict' <<< "$out")" = 1 ] || return 1
	# the job's own row names the ioctl it was queued from, split as the thread's
	expect "the job's ioctl in JSON" python3 -c 'import json, sys
j = json.load(sys.stdin)["jobs"]
assert len(j) == 1 and j[0]["ioctl"] == {"name": "AMDGPU_CS", "cmd": 0xc0186444, "tid": 5000, "enter_ns": 1000010000,
    "to_queued_ns": 70000, "on_cpu_ns": 35000, "runnable_ns": 30000, "sleeping_ns": 0, "irq_ns": 5000}, j[0]["ioctl"]' \
		< <("$GT" report --jobs --format json "$f") || return 1
	expect "the job's ioctl in CSV" grep -q '^gfx_0.0.0,100:1,5000,.*,AMDGPU_CS,70000,30000$' \
		<<< "$("$GT" report --jobs --format csv "$f")" || return 1
	expect "the verdict in CSV" grep -q '^5000,llama,mixed,390000,337000,142000,1,70000,70000,30000,6000,30000$' \
		<<< "$("$GT" report --format csv "$f")" || return 1
	expect "cpu side JSON" python3 -c 'import json, sys
c = json.load(sys.stdin)["cpu_side"]
assert (c["ioctls"], c["jobs_queued"], c["driver"], c["scheduling"], c["interrupts"]) == (3, 1, "amdgpu", True, True), c
assert c["jobs_untracked"] == 0, c
t = {x["pid"]: x for x in c["threads"]}
cs = {r["name"]: r for r in t[5000]["ioctls"]}["AMDGPU_CS"]
assert cs["cmd"] == "0xc0186444" and cs["total_ns"] == 160000, cs
parts = cs["on_cpu_ns"] + cs["runnable_ns"] + cs["sleeping_ns"] + cs["irq_ns"]
assert parts == cs["total_ns"], (parts, cs)
assert (cs["on_cpu_ns"], cs["runnable_ns"], cs["sleeping_ns"], cs["uninterruptible_ns"], cs["irq_ns"]) == (55000, 40000, 60000, 60000, 5000), cs
assert cs["behind"] == [{"pid": 6000, "comm": "rival", "ns": 30000}] and cs["after_wakeup_ns"] == 10000, cs
q = t[5000]["to_queued"]
assert q["jobs"] == 1 and q["latency"]["p50_ns"] == 70000, q
assert q["on_cpu_ns"] + q["runnable_ns"] + q["sleeping_ns"] + q["irq_ns"] == q["total_ns"] == 70000, q
assert t[5001]["to_queued"] is None and t[5001]["ioctls"][0]["name"] == "AMDKFD_IOC_CREATE_QUEUE", t[5001]
w = t[5000]["fence_waits"]
assert w == {"count": 1, "total_ns": 142000, "unended": 0, "longest": {"ns": 142000, "fence": "100:1", "timeline": "gfx_0.0.0"}}, w
assert t[5001]["fence_waits"]["count"] == 0 and t[5001]["fence_waits"]["longest"] is None, t[5001]
v = t[5000]["verdict"]
assert v == {"kind": "mixed", "span_ns": 390000, "active_ns": 337000, "gpu_wait_ns": 142000, "jobs": 1, "to_queued_p50_ns": 70000,
             "to_queued_ns": 70000, "runnable_ns": 30000, "behind": {"pid": 6000, "comm": "rival", "ns": 30000}}, v
assert t[5001]["verdict"] is None, t[5001]' \
		< <("$GT" report --format json "$f") || return 1
	expect "cpu side CSV" grep -q '^5000,llama,AMDGPU_CS,1,160000,160000,160000,55000,40000,60000,60000,5000,6000,30000,0,0$' \
		<<< "$("$GT" report --format csv "$f")" || return 1
	# --events prints the records that were split
	out=$("$GT" report --events "$f")
	expect "--events: the ioctl's enter" grep -q 'sys_enter_ioctl.*cmd: 0xc0186444' <<< "$out" || return 1
	expect "--events: the switch" grep -q 'sched_switch: *llama:5000 \[120\] R ==> rival:6000' <<< "$out" || return 1
	# a file without the workload's CPU side: JSON null, no section
	f=$(fixture deps) || { WHY="make-fixture failed"; return 1; }
	expect "no CPU side section" not grep -q '^CPU side' <<< "$("$GT" report "$f")" || return 1
	expect "JSON cpu_side null" python3 -c 'import json, sys
assert json.load(sys.stdin)["cpu_side"] is None' < <("$GT" report --format json "$f")
}

# Intel i915 (tests/fixture/scenarios-i915.c, numbers worked out there): requests are jobs
# per engine from their own events; a preemption (out with completed?=0) is counted, not
# done; the CPU's waits on requests; 4.16's layout (ring ids) gives the same; every format.
test_report_i915() {
	local f out
	f=$(fixture i915) || { WHY="make-fixture failed"; return 1; }
	out=$("$GT" report "$f")
	expect "i915 jobs: $(grep '^jobs' <<< "$out")" \
		grep -q '^jobs     4 finished, 1 unfinished (U), 0 touched by lost events (L)$' <<< "$out" || return 1
	expect "rcs0's jobs" grep -q '^ring rcs0: 3 jobs, 0 unfinished, 0 lost' <<< "$out" || return 1
	expect "vcs0's jobs" grep -q '^ring vcs0: 2 jobs, 1 unfinished, 0 lost' <<< "$out" || return 1
	expect "the section's rcs0: $(grep -A3 '^Intel i915' <<< "$out" | tr '\n' '|')" \
		grep -Eq '^  rcs0 +3 +3 +3 +1 +0 +- +-$' <<< "$out" || return 1
	expect "the section's vcs0 and its CPU wait" \
		grep -Eq '^  vcs0 +2 +2 +1 +0 +1 +106\.000 +106\.000$' <<< "$out" || return 1
	expect "the source of the times" grep -q '^Intel i915 requests on 2 engines (in/out events' <<< "$out" || return 1
	expect "i915 JSON" python3 -c 'import json, sys
d = json.load(sys.stdin)
q = d["i915_requests"]
assert q["low_level"] and q["records"] == 37, q
e = {x["engine"]: x for x in q["engines"]}
assert e["rcs0"] == {"engine": "rcs0", "requests": 3, "ran": 3, "completed": 3, "preempted": 1,
                     "cpu_waits": 0, "cpu_wait_ns": 0, "cpu_wait_max_ns": 0}, e
assert e["vcs0"]["completed"] == 1 and e["vcs0"]["cpu_wait_ns"] == 106000, e
tot = sorted((j["ring"], j["fence"], j["latency_ns"]["total"]) for j in d["slowest"])
assert tot == [("rcs0", "11:1", 110000), ("rcs0", "11:2", 270000), ("rcs0", "12:1", 80000),
               ("vcs0", "20:1", 110000)], tot
# run at submit, the hardware start at the first in, exec the stints on the engine (11:2 was
# preempted: 125-180 and 260-300)
b = [j for j in d["slowest"] if j["fence"] == "11:2"][0]
assert (b["run_ns"], b["hw_start_ns"], b["latency_ns"]["exec"], b["latency_ns"]["run_to_hw"]) == \
       (1000032000, 1000125000, 95000, 93000), b
assert [r["busy_pct"] for r in d["rings"] if r["name"] == "rcs0"] == [88.0], d["rings"]
assert [r["dev"] for r in d["rings"]] == ["card0", "card0"], d["rings"]' < <("$GT" report --format json "$f") || return 1
	expect "i915 CSV" grep -q '^vcs0,2,2,1,0,1,106000,106000$' <<< "$("$GT" report --format csv "$f")" || return 1
	# --events: every stage decoded, the engine named, a preemption said as such
	out=$("$GT" report --events "$f")
	expect "--events: a preemption read as a completion: $(grep -m1 '11:2 out' <<< "$out")" \
		grep -Fq 'request 11:2 out on rcs0: preempted, not completed (completed?=0)' <<< "$out" || return 1
	expect "--events: the completion" grep -Eq 'i915_request_out: +request 11:2 out on rcs0: completed$' <<< "$out" || return 1
	expect "--events: execute raw: $(grep -m1 execute <<< "$out")" \
		grep -Eq 'i915_request_execute: request 11:1 execute on rcs0$' <<< "$out" || return 1
	expect "--events: the wait" grep -Eq 'i915_request_wait_begin: request 20:1 wait_begin on vcs0$' <<< "$out" || return 1
	out=$("$GT" report --format perfetto -o "$WORK/i915.pftrace" "$f" 2>&1)
	expect "i915 in Perfetto: $out" grep -q 'slices, 5 flows on 2 rings' <<< "$out" || return 1
	expect "Perfetto's engine tracks" python3 -c 'import sys
b = open(sys.argv[1], "rb").read()
assert b"rcs0" in b and b"vcs0" in b' "$WORK/i915.pftrace" || return 1
	# Debian's kernels build no low-level events: done at the fence's signal, else at retire
	f=$(fixture i915-6.1) || { WHY="make-fixture failed"; return 1; }
	expect "Debian 6.1's i915 JSON" python3 -c 'import json, sys
d = json.load(sys.stdin)
q = d["i915_requests"]
assert not q["low_level"], q
e = {x["engine"]: (x["requests"], x["ran"], x["completed"], x["cpu_waits"], x["cpu_wait_ns"]) for x in q["engines"]}
assert e == {"rcs0": (1, 0, 1, 0, 0), "vcs0": (1, 0, 1, 1, 127000)}, e
tot = sorted((j["ring"], j["fence"], j["latency_ns"]["total"], j["run_ns"]) for j in d["slowest"])
assert tot == [("rcs0", "30:1", 50000, None), ("vcs0", "40:1", 130000, None)], tot' \
		< <("$GT" report --format json "$f") || return 1
	out=$("$GT" report "$f")
	expect "the source said" grep -q '^Intel i915 requests on 2 engines (no in/out events' <<< "$out" || return 1
	expect "busy of rings without run times: $(grep '^ring' <<< "$out" | tr '\n' '|')" \
		grep -q '^ring rcs0: 1 job, 0 unfinished, 0 lost, busy -, ' <<< "$out" || return 1
	# GuC submission sends no in or out even with the low-level events built: the run is
	# guc_submit, the done the fence's signal
	f=$(fixture i915-guc) || { WHY="make-fixture failed"; return 1; }
	out=$("$GT" report "$f")
	expect "GuC: $(grep -A2 '^Intel' <<< "$out" | tr '\n' '|')" grep -Eq '^  rcs0 +1 +1 +1 +0 +0 ' <<< "$out" || return 1
	expect "GuC's source said" grep -q '^Intel i915 requests on 1 engine (no in/out events' <<< "$out" || return 1
	expect "GuC's job" grep -Eq '^  rcs0 +50:1 +2000 Xorg +5\.000 .* 65\.000 -$' <<< "$out" || return 1
	# more stints than a job keeps: exec and busy are all six, the fourth kept one grows to the
	# last out, and every output says the same
	f=$(fixture i915-preempted) || { WHY="make-fixture failed"; return 1; }
	expect "five preemptions in JSON" python3 -c 'import json, sys
d = json.load(sys.stdin)
j = d["slowest"][0]
assert j["hw_stints"] == [[1000020000, 1000030000], [1000040000, 1000050000],
                          [1000060000, 1000070000], [1000080000, 1000130000]], j["hw_stints"]
assert (j["hw_start_ns"], j["latency_ns"]["exec"], j["latency_ns"]["total"]) == (1000020000, 60000, 120000), j
assert d["i915_requests"]["engines"][0]["preempted"] == 5, d["i915_requests"]
assert [r["busy_pct"] for r in d["rings"]] == [46.154], d["rings"]' < <("$GT" report --format json "$f") || return 1
	out=$("$GT" report --format perfetto -o "$WORK/i915-stints.pftrace" "$f" 2>&1)
	expect "the kept stints in Perfetto: $out" grep -q ' 7 slices, 1 flow on 1 ring' <<< "$out" || return 1
	f=$(fixture i915-4.16) || { WHY="make-fixture failed"; return 1; }
	out=$("$GT" report "$f")
	expect "4.16's engines by ring id: $(grep '^ring' <<< "$out" | tr '\n' '|')" \
		grep -q '^ring vcs0: 1 job, 0 unfinished' <<< "$out" || return 1
	expect "4.16's preemption" grep -Eq '^  vcs0 +1 +1 +1 +1 ' <<< "$out" || return 1
	expect "4.16's totals" grep -Eq '^  rcs0 +3:10 +2000 Xorg .* 80\.000 +90\.000 -$' <<< "$out" || return 1
	expect "4.16's preempted exec: the stints 30-60 and 70-90" grep -Eq '^  vcs0 +5:1 +2100 ffmpeg .* 50\.000 +75\.000 -$' <<< "$out" || return 1
	# a file without i915: JSON null, no section
	f=$(fixture deps) || { WHY="make-fixture failed"; return 1; }
	expect "no i915 section" not grep -q 'i915' <<< "$("$GT" report "$f")" || return 1
	expect "JSON i915_requests null" python3 -c 'import json, sys
assert json.load(sys.stdin)["i915_requests"] is None' < <("$GT" report --format json "$f")
}

# Buffer moves (7.3): by direction, evictions out of VRAM, and how much moved
# while the workload's job waited on its dependency; in every format.
test_report_buffer_moves() {
	local f out
	f=$(fixture memory) || { WHY="make-fixture failed"; return 1; }
	out=$("$GT" report "$f")
	expect "no ring line: $(grep -A3 '^ring gfx' <<< "$out" | tr '\n' '|')" \
		grep -q "^  buffers moved while the workload's 1 job waited (queue->run, 0.392 ms in all): 112.0 MiB (Buffer moves below)$" <<< "$out" || return 1
	expect "no section: $(echo "$out" | tail -6 | tr '\n' '|')" \
		grep -q '^Buffer moves (amdgpu): 4 moves, 116.0 MiB from 1.000100 to 1.000800; 2 out of VRAM (evictions, 68.0 MiB); 2 buffers created (24.0 MiB)$' <<< "$out" || return 1
	expect "VRAM -> GTT" grep -Eq '^  VRAM -> GTT +2 moves +68\.0 MiB$' <<< "$out" || return 1
	expect "JSON" python3 -c 'import json, sys
d = json.load(sys.stdin)
m = d["buffer_moves"]
assert m["moves"] == 4 and m["bytes"] == 116 << 20 and m["evictions"] == 2 and m["created"] == 2, m
assert {"from": "GTT", "to": "VRAM", "moves": 1, "bytes": 32 << 20} in m["by_direction"], m
r = {x["name"]: x["moved_while_waiting"] for x in d["rings"]}
assert r["gfx_0.0.0"] == {"jobs": 1, "bytes": 112 << 20, "wait_ns": 392000}, r' < <("$GT" report --format json "$f") || return 1
	expect "JSON jobs" python3 -c 'import json, sys
j = {x["fence"]: x["moved_while_waiting_bytes"] for x in json.load(sys.stdin)["jobs"]}
assert j == {"300:1": 0, "100:1": 112 << 20, "100:2": 0}, j' < <("$GT" report --jobs --format json "$f") || return 1
	expect "CSV" grep -q '^VRAM,GTT,2,71303168$' <<< "$("$GT" report --format csv "$f")" || return 1
	expect "CSV jobs column" grep -q '^gfx_0.0.0,100:1,.*,117440512,0000:03:00.0,3145728,,,$' <<< "$("$GT" report --jobs --format csv "$f")" || return 1
	# none in the file: null, no section
	f=$(fixture deps) || { WHY="make-fixture failed"; return 1; }
	expect "buffer moves in a file without them" not grep -q 'Buffer moves' <<< "$("$GT" report "$f")" || return 1
	expect "JSON buffer_moves not null without them" python3 -c 'import json, sys
assert json.load(sys.stdin)["buffer_moves"] is None' < <("$GT" report --format json "$f")
}

# Page tables (7.3): updates by process, mappings, VMIDs and flushes by ring
# (amdgpu_vm_grab_id's string ring, not its u32 of the same name), and how
# much address space was updated while the workload's job waited; every format.
test_report_page_tables() {
	local f out
	f=$(fixture memory) || { WHY="make-fixture failed"; return 1; }
	out=$("$GT" report "$f")
	expect "no ring line: $(grep -A4 '^ring gfx' <<< "$out" | tr '\n' '|')" \
		grep -q "^  page tables updated while the workload's 1 job waited (queue->run, 0.392 ms in all): 3.0 MiB of GPU address space (Page tables below)$" <<< "$out" || return 1
	expect "no section: $(grep -A6 '^Page tables' <<< "$out" | tr '\n' '|')" \
		grep -q '^Page tables (amdgpu VM): 3 updates for 3.1 MiB of GPU address space, from 1.000004 to 1.000850; 1 buffer mapping (2.0 MiB), 1 unmapped (2.0 MiB); 3 VMIDs taken, 2 needing a flush; 2 flushes$' <<< "$out" || return 1
	expect "llama's updates" grep -Eq '^  llama \[5000\] +2 +3\.0 MiB$' <<< "$out" || return 1
	expect "the rival's updates" grep -Eq '^  rival \[6000\] +1 +64\.0 KiB$' <<< "$out" || return 1
	expect "gfx's VMIDs and flushes" grep -Eq '^  gfx_0\.0\.0 +2 +1 +1$' <<< "$out" || return 1
	expect "JSON" python3 -c 'import json, sys
d = json.load(sys.stdin)
v = d["page_tables"]
assert v["updates"] == 3 and v["updated_bytes"] == (3 << 20) + (64 << 10), v
assert v["mappings"] == 1 and v["mapped_bytes"] == 2 << 20 and v["unmapped_bytes"] == 2 << 20, v
assert v["vmids"] == 3 and v["vmids_needing_flush"] == 2 and v["flushes"] == 2, v
assert {"pid": 5000, "comm": "llama", "updates": 2, "bytes": 3 << 20} in v["by_process"], v
assert {"ring": "comp_1.0.0", "vmids": 1, "vmids_needing_flush": 1, "flushes": 1} in v["by_ring"], v
r = {x["name"]: x["page_tables_updated_while_waiting"] for x in d["rings"]}
assert r["gfx_0.0.0"] == {"jobs": 1, "bytes": 3 << 20, "wait_ns": 392000}, r
assert r["comp_1.0.0"]["jobs"] == 0, r' < <("$GT" report --format json "$f") || return 1
	expect "JSON jobs" python3 -c 'import json, sys
j = {x["fence"]: x["page_tables_updated_while_waiting_bytes"] for x in json.load(sys.stdin)["jobs"]}
assert j == {"300:1": 0, "100:1": 3 << 20, "100:2": 0}, j' < <("$GT" report --jobs --format json "$f") || return 1
	out=$("$GT" report --format csv "$f")
	expect "CSV processes" grep -q '^5000,llama,2,3145728$' <<< "$out" || return 1
	expect "CSV rings' flushes" grep -q '^gfx_0.0.0,2,1,1$' <<< "$out" || return 1
	expect "CSV ring row" grep -q '^gfx_0.0.0,2,.*,0000:03:00.0,1,3145728,392000$' <<< "$out" || return 1
	# Perfetto: the running counter and each flush on its track
	"$GT" report --format perfetto -o "$WORK/pt.pftrace" "$f" 2> /dev/null || { WHY="perfetto export failed"; return 1; }
	pf_decode < "$WORK/pt.pftrace" > "$WORK/pt.txt" || { WHY="protoc cannot decode it"; return 1; }
	expect "no page-table counter track" grep -q 'page tables updated (KiB, running)' "$WORK/pt.txt" || return 1
	expect "no flush instant" grep -q 'flush VMID 3 on gfx_0.0.0' "$WORK/pt.txt" || return 1
	expect "the counter's last value is not 3136 KiB" grep -q 'counter_value: 3136$' "$WORK/pt.txt" || return 1
	# none in the file: null, no section
	f=$(fixture deps) || { WHY="make-fixture failed"; return 1; }
	expect "page tables in a file without them" not grep -q 'Page tables' <<< "$("$GT" report "$f")" || return 1
	expect "JSON page_tables not null without them" python3 -c 'import json, sys
assert json.load(sys.stdin)["page_tables"] is None' < <("$GT" report --format json "$f")
}

# Shared buffers (7.3 dma_buf events): each buffer by inode with its exporter,
# importers and attached device, one exported before the file began; every format.
test_report_dma_bufs() {
	local f out
	f=$(fixture dma-buf) || { WHY="make-fixture failed"; return 1; }
	out=$("$GT" report "$f")
	expect "no section: $(grep -A3 '^Shared' <<< "$out" | tr '\n' '|')" \
		grep -q '^Shared buffers (dma-buf): 2 buffers, 1 exported here (8.0 MiB), 1 imported by another process than its exporter; 9 events$' <<< "$out" || return 1
	expect "inode 4711's row" grep -Eq '^  4711 +drm +8\.0 MiB llama \[5000\] +1 +1 rival \[6000\] +1 0000:c3:00\.0 +1$' <<< "$out" || return 1
	expect "inode 900's row (export before the file)" grep -Eq '^  900 +system +1\.0 MiB - +0 +1 llama \[5000\] +0 - +0$' <<< "$out" || return 1
	expect "JSON" python3 -c 'import json, sys
d = json.load(sys.stdin)["dma_bufs"]
assert d["events"] == 9 and d["exported"] == 1 and d["exported_bytes"] == 8 << 20 and d["shared"] == 1, d
b = {x["ino"]: x for x in d["buffers"]}
a = b[4711]
assert a["exporter"] == "drm" and a["size"] == 8 << 20 and a["export_ns"] == 1000010000, a
assert a["exported_by"] == {"pid": 5000, "comm": "llama"} and a["imported_by"] == [{"pid": 6000, "comm": "rival"}], a
assert (a["fds"], a["imports"], a["attaches"], a["detaches"], a["mmaps"], a["puts"]) == (1, 1, 1, 1, 1, 2), a
assert a["device"] == "0000:c3:00.0", a
assert b[900]["exported_by"] is None and b[900]["export_ns"] is None and b[900]["device"] is None, b[900]' \
		< <("$GT" report --format json "$f") || return 1
	out=$("$GT" report --format csv "$f")
	expect "CSV" grep -q '^4711,drm,8388608,1000010000,5000,1,1,1,1,1,0000:c3:00.0,1,2$' <<< "$out" || return 1
	expect "CSV: an export not in the file is empty" grep -q '^900,system,1048576,,,0,1,1,0,0,,0,0$' <<< "$out" || return 1
	"$GT" report --format perfetto -o "$WORK/db.pftrace" "$f" 2> /dev/null || { WHY="perfetto export failed"; return 1; }
	pf_decode < "$WORK/db.pftrace" > "$WORK/db.txt" || { WHY="protoc cannot decode it"; return 1; }
	expect "Perfetto: no attach instant" grep -q 'name: "dma-buf dynamic_attach"' "$WORK/db.txt" || return 1
	expect "Perfetto: the attach's device" grep -q 'string_value: "0000:c3:00.0"' "$WORK/db.txt" || return 1
	expect "Perfetto: the inode" grep -q 'uint_value: 4711' "$WORK/db.txt" || return 1
	f=$(fixture memory) || { WHY="make-fixture failed"; return 1; }
	expect "JSON dma_bufs not null without them" python3 -c 'import json, sys
assert json.load(sys.stdin)["dma_bufs"] is None' < <("$GT" report --format json "$f")
}

# Two GPUs whose rings share names (7.3): each ring stays with its device and
# says it; --dev keeps one device; every format names the device.
test_report_two_gpus() {
	local f out
	f=$(fixture two-gpus) || { WHY="make-fixture failed"; return 1; }
	out=$("$GT" report "$f")
	expect "devices line: $(grep '^devices' <<< "$out")" \
		grep -q '^devices  0000:03:00.0 (2 rings), 0000:c3:00.0 (1 ring)$' <<< "$out" || return 1
	expect "A's gfx ring (named first: keeps its name)" grep -q '^ring gfx_0.0.0: 2 jobs, .* busy 64.6%' <<< "$out" || return 1
	expect "B's gfx ring" grep -q '^ring gfx_0.0.0@c3:00.0: 1 job, .* busy 98.4%' <<< "$out" || return 1
	expect "a ring of one device keeps its name" grep -q '^ring sdma0: 1 job' <<< "$out" || return 1
	out=$("$GT" report --jobs --wide --no-pager --dev 0000:c3:00.0 "$f")
	expect "--dev kept other jobs: $(echo "$out" | tr '\n' '|')" \
		[ "$(grep -c '^gfx_0.0.0@c3:00.0 *400:1 ' <<< "$out")" = 1 ] && [ "$(grep -c '^[gs][fd]' <<< "$out")" = 1 ] || return 1
	"$GT" report --dev 0000:ff:00.0 "$f" > /dev/null 2> "$WORK/dev.err"
	expect "--dev of no device: silent: $(cat "$WORK/dev.err")" \
		grep -q "has no ring of device '0000:ff:00.0'" "$WORK/dev.err" || return 1
	expect "JSON" python3 -c 'import json, sys
d = json.load(sys.stdin)
r = {x["name"]: (x["ring"], x["dev"], x["jobs"]) for x in d["rings"]}
assert r == {"gfx_0.0.0": ("gfx_0.0.0", "0000:03:00.0", 2), "gfx_0.0.0@c3:00.0": ("gfx_0.0.0", "0000:c3:00.0", 1),
             "sdma0": ("sdma0", "0000:03:00.0", 1)}, r' < <("$GT" report --format json "$f") || return 1
	expect "JSON jobs" python3 -c 'import json, sys
assert {j["fence"]: j["dev"] for j in json.load(sys.stdin)["jobs"]}["400:1"] == "0000:c3:00.0"' \
		< <("$GT" report --jobs --format json "$f") || return 1
	expect "CSV" grep -q '^gfx_0.0.0@c3:00.0,400:1,.*,0000:c3:00.0,0,,,$' <<< "$("$GT" report --jobs --format csv "$f")" || return 1
	# a kernel whose events name no device: no devices line, JSON null
	f=$(fixture two-rings) || { WHY="make-fixture failed"; return 1; }
	expect "a devices line without devices" not grep -q '^devices' <<< "$("$GT" report "$f")" || return 1
	expect "JSON dev not null on 6.12" python3 -c 'import json, sys
assert all(r["dev"] is None for r in json.load(sys.stdin)["rings"])' < <("$GT" report --format json "$f")
}

# record's DRM fdinfo snapshots: client ids named by process (in the client
# table too), the driver's engine time beside the jobs' own, a difference said.
test_report_drm_clients() {
	local f out
	f=$(fixture fdinfo) || { WHY="make-fixture failed"; return 1; }
	out=$("$GT" report "$f")
	expect "the client table names processes: $(grep -A3 '^by DRM client' <<< "$out" | tr '\n' '|')" \
		grep -Eq '^  7 \(5000 llama\) +3 ' <<< "$out" || return 1
	expect "no section: $(echo "$out" | tail -6 | tr '\n' '|')" \
		grep -q "^DRM clients (record's /proc fdinfo snapshots, 2): 3 clients$" <<< "$out" || return 1
	expect "client 7's engine time agrees with its jobs between the snapshots: $(grep '^  client 7 ' <<< "$out")" \
		grep -Eq '^  client 7 +5000 llama +amdgpu +0000:03:00.0 +engine 0\.500 ms \(gfx 0\.500, compute 0\.000\) vs 0\.500 ms of its jobs on the hardware, over the 0\.001 s between its first and last snapshot; 3 jobs in the file, 0\.800 ms on the hardware; resident 514\.0 MiB$' <<< "$out" || return 1
	expect "client 11's difference not said" \
		grep -q '^  client 11 .*they differ by 5.000 ms: the events miss work the driver counted' <<< "$out" || return 1
	expect "JSON" python3 -c 'import json, sys
c = {x["client_id"]: x for x in json.load(sys.stdin)["drm_clients"]["clients"]}
assert c[7]["pid"] == 5000 and c[7]["comm"] == "llama" and c[7]["engine_ns"] == 500000, c[7]
assert c[7]["snapshots_ns"] == 999000 and c[7]["snapshots_hardware_ns"] == 500000, c[7]
assert c[7]["jobs"] == 3 and c[7]["jobs_hardware_ns"] == 800000, c[7]
assert c[11]["engine_ns"] == 5100000 and c[9]["jobs"] == 0, c' < <("$GT" report --format json "$f") || return 1
	expect "CSV" grep -q '^7,5000,llama,amdgpu,0000:03:00.0,2,500000,999000,500000,3,800000,538968064$' <<< "$("$GT" report --format csv "$f")" || return 1
	# 6.12: the events name no client; the engine time stands alone, said so
	f=$(fixture fdinfo-6.12) || { WHY="make-fixture failed"; return 1; }
	out=$("$GT" report "$f")
	expect "6.12: $(grep '^  client 4 ' <<< "$out")" grep -Eq '^  client 4 +4242 hipapp +amdgpu +0000:03:00.0 +engine 0\.830 ms over the 0\.001 s between its first and last snapshot; no job in the file carries a client id \(6\.17\+ kernels. scheduler events do\); resident 3\.0 MiB$' <<< "$out" || return 1
	expect "6.12 JSON: nothing known of its jobs is null" python3 -c 'import json, sys
c = json.load(sys.stdin)["drm_clients"]["clients"][0]
assert c["engine_ns"] == 830000 and c["snapshots_hardware_ns"] is None and c["jobs"] is None, c' < <("$GT" report --format json "$f") || return 1
	expect "6.12 CSV" grep -q '^4,4242,hipapp,amdgpu,0000:03:00.0,2,830000,999000,,,,3145728$' <<< "$("$GT" report --format csv "$f")" || return 1
	f=$(fixture deps) || { WHY="make-fixture failed"; return 1; }
	expect "JSON drm_clients not null without snapshots" python3 -c 'import json, sys
assert json.load(sys.stdin)["drm_clients"] is None' < <("$GT" report --format json "$f")
}

# record --preset nvidia's probes (the fixture from the lab stand-in's 7.3 and 6.1 formats):
# every format tells the same calls, interrupts, UVM passes and Xids; 6.1 reads no RM status.
test_report_nvidia() {
	local f out first
	f=$(fixture nvidia) || { WHY="make-fixture failed"; return 1; }
	out=$("$GT" report "$f")
	expect "summary line: $(grep '^NVIDIA' <<< "$out")" \
		grep -q '^NVIDIA: 12 ioctls by 2 processes, 5 interrupts on 2 lines, 4 UVM fault service passes, 2 Xids$' <<< "$out" || return 1
	expect "the RM control row" grep -Eq '^ +5000 python3 +RM_CONTROL +0x20800102 +4 +0 +0 +2100\.000 +9000\.000 +9000\.000 +15300\.000$' <<< "$out" || return 1
	expect "the control answered 0x1f counted" grep -Eq '^ +5000 python3 +RM_CONTROL +0x20801801 +1 +0 +1 ' <<< "$out" || return 1
	expect "an escape the driver does not name, failed" grep -Eq '^ +5000 python3 +0x5a +- +1 +1 +- ' <<< "$out" || return 1
	first=$(grep -A2 '^  slowest ioctls:' <<< "$out" | tail -n 1)
	expect "the slowest call first: $first" \
		grep -Eq '^ +1\.007600 +5000 python3 +RM_CONTROL +0x20800102 +9000\.000 +0 0x00000000$' <<< "$first" || return 1
	expect "irq 77: 4 ISRs, one not the device's, 3 bottom halves 500-600 us after" \
		grep -Eq '^ +77 +4 +0 +148\.2 +1 +3 +8\.000 +8\.000 +8\.000 +500\.000 +600\.000 +600\.000 ' <<< "$out" || return 1
	expect "the Xid with its text" grep -q '^  Xid 79 at 1.027000 on 0000:c1:00.0: GPU has fallen off the bus.$' <<< "$out" || return 1
	expect "no KFD advice for an NVIDIA file" not grep -q '^KFD queues' <<< "$out" || return 1
	expect "JSON" python3 -c 'import json, sys
d = json.load(sys.stdin)["nvidia"]
assert d["probes"] and d["statuses"] and d["commands"] and d["unmatched_returns"] == 1, d
r = {(x["pid"], x["escape_name"], x["command"]): x for x in d["ioctls"]}
c = r[(5000, "RM_CONTROL", "0x20800102")]
assert (c["calls"], c["p50_ns"], c["max_ns"], c["total_ns"], c["rm_errors"]) == (4, 2100000, 9000000, 15300000, 0), c
assert r[(5000, "RM_CONTROL", "0x20801801")]["rm_errors"] == 1
assert r[(5000, "RM_ALLOC", None)]["rm_errors"] is None
assert d["slowest"][0]["ns"] == 9000000 and d["slowest"][0]["status"] == "0x00000000"
p = d["processes"][0]
assert (p["pid"], p["opens"], p["closes"], p["mmaps"], p["mmap_failed"], p["mmap_bytes"]) == (5000, 1, 1, 2, 1, 65536), p
i = {x["irq"]: x for x in d["interrupts"]}
assert (i[78]["isrs"], i[78]["msix"], i[78]["bottom_halves"], i[78]["to_bh_max_ns"]) == (1, 1, 1, 399000), i[78]
u = {x["buffer"]: x for x in d["uvm"]}
assert u["replayable"]["passes"] == 3 and u["replayable"]["total_ns"] == 1200000 and u["non-replayable"]["max_ns"] == 150000, u
assert [(x["code"], x["dev"]) for x in d["xids"]] == [(13, "0000:c1:00.0"), (79, "0000:c1:00.0")], d["xids"]' \
		< <("$GT" report --format json "$f") || return 1
	out=$("$GT" report --format csv "$f")
	expect "CSV: the RM control row" grep -q '^5000,python3,42,RM_CONTROL,0x20800102,4,0,4,0,2100000,9000000,9000000,15300000$' <<< "$out" || return 1
	expect "CSV: irq 78" grep -q '^78,1,1,0,1,37.044,8000,8000,8000,8000,399000,399000,399000,399000,30000,30000,30000,30000$' <<< "$out" || return 1
	expect "CSV: the Xid, its text quoted where it must be" \
		grep -q '^1026000000,5000,13,0000:c1:00.0,"Graphics SM Warp Exception on (GPC 0, TPC 1, SM 0)"$' <<< "$out" || return 1
	f=$(fixture nvidia-6.1) || { WHY="make-fixture failed"; return 1; }
	out=$("$GT" report "$f")
	expect "6.1: says why no RM status" grep -q 'RM statuses not read (return probes read the caller.s parameters from 6.10 on)' <<< "$out" || return 1
	expect "6.1: no RM error counted" grep -Eq '^ +5000 python3 +RM_CONTROL +0x20801801 +1 +0 +- ' <<< "$out" || return 1
	expect "6.1 JSON: statuses false, rm_errors null" python3 -c 'import json, sys
d = json.load(sys.stdin)["nvidia"]
assert not d["statuses"] and all(r["rm_errors"] is None for r in d["ioctls"]), d' < <("$GT" report --format json "$f") || return 1
	f=$(fixture kfd-probes) || { WHY="make-fixture failed"; return 1; }
	expect "JSON nvidia null without NVIDIA events" python3 -c 'import json, sys
assert json.load(sys.stdin)["nvidia"] is None' < <("$GT" report --format json "$f")
}

# The benchmark's floor (bench/visit-records.c) reaches every record report reads: on a
# benchmark file, a file with lost events and one of two CPUs whose records interleave,
# each of its ways counts what report counts, and trace-cmd; report's own reader
# (stream) on the file's zstd v7 copy too, its chunks decompressed here and ahead (the
# small files' single chunks are read at the open: nothing ahead, said on stderr).
test_report_bench_floor_visits_every_record() {
	local f s want m
	for s in bench:3000 lost-window competing; do
		f=$WORK/floor-${s%%:*}.dat
		"$MAKE_FIXTURE" "$FORMATS" "$s" "$f" || { WHY="make-fixture $s failed"; return 1; }
		want=$("$GT" report "$f" | sed -n 's/^records  *\([0-9]*\) .*/\1/p')
		expect "$s: report counts no records" [ -n "$want" ] && [ "$want" -gt 0 ] || return 1
		expect "$s: pages visits $("$ROOT_DIR/build/visit-records" pages "$f"), report reads $want" \
			[ "$("$ROOT_DIR/build/visit-records" pages "$f")" = "records $want" ] || return 1
		expect "$s: libtracecmd visits $("$ROOT_DIR/build/visit-records" libtracecmd "$f"), report reads $want" \
			[ "$("$ROOT_DIR/build/visit-records" libtracecmd "$f")" = "records $want" ] || return 1
		expect "$s: trace-cmd reads another count" \
			[ "$(trace-cmd report -i "$f" 2> /dev/null | grep -v '^cpus=' | grep -vc 'EVENTS DROPPED')" = "$want" ] || return 1
		expect "$s: stream visits $("$ROOT_DIR/build/visit-records" stream "$f"), report reads $want" \
			[ "$("$ROOT_DIR/build/visit-records" stream "$f")" = "records $want" ] || return 1
		trace-cmd convert -i "$f" -o "${f%.dat}-v7.dat" --file-version 7 --compression zstd > /dev/null 2>&1 ||
			{ WHY="trace-cmd convert failed"; return 1; }
		for m in stream stream-ahead; do
			expect "$s v7: $m visits $("$ROOT_DIR/build/visit-records" $m "${f%.dat}-v7.dat"), report reads $want" \
				[ "$("$ROOT_DIR/build/visit-records" $m "${f%.dat}-v7.dat" 2> /dev/null)" = "records $want" ] || return 1
		done
	done
}

# The same records through every reader give the same report: v6 read by
# our stream, v7 stored plain, v7 with zstd, each with the decoding on a
# second thread and, pinned to one CPU, all on one; a file large enough for
# many pages and chunks per CPU.
test_report_readers_agree() {
	local f conv out ref
	f=$(fixture bench:20000) || { WHY="make-fixture failed"; return 1; }
	for conv in none zstd; do
		trace-cmd convert -i "$f" -o "$WORK/agree-$conv.dat" --file-version 7 --compression "$conv" \
			> /dev/null 2>&1 || { WHY="trace-cmd convert --compression $conv unavailable"; return 77; }
	done
	# the header names the file and its version: the rest must not differ
	"$GT" report --format csv "$f" | grep -v '^# file' > "$WORK/agree.ref" || { WHY="report failed"; return 1; }
	ref=$(wc -l < "$WORK/agree.ref")
	expect "a report of $ref lines is no comparison" [ "$ref" -gt 20 ] || return 1
	for out in "$f" "$WORK/agree-none.dat" "$WORK/agree-zstd.dat"; do
		for pin in "" "taskset -c 0"; do
			$pin "$GT" report --format csv "$out" | grep -v '^# file' > "$WORK/agree.out"
			expect "${pin:-both CPUs}: $(basename "$out") differs: $(diff "$WORK/agree.ref" "$WORK/agree.out" | head -3 | tr '\n' '|')" \
				cmp -s "$WORK/agree.ref" "$WORK/agree.out" || return 1
		done
	done
}

# report -o run.html (or .pftrace) without --format wrote the text summary
# into it, exit 0, no word: the extension picks the format now
test_report_output_extension_picks_the_format() {
	local f ext want got bad=
	f=$(fixture two-rings) || { WHY="make-fixture failed"; return 1; }
	for ext in html pftrace json csv txt HTML; do
		rm -f "$WORK/ext.$ext"
		"$GT" report -o "$WORK/ext.$ext" "$f" > /dev/null 2>&1 || { bad="$bad $ext(exit $?)"; continue; }
		case $ext in
		html | HTML) grep -q '<!DOCTYPE html>' "$WORK/ext.$ext" || bad="$bad $ext" ;;
		pftrace) [ "$(head -c 1 "$WORK/ext.$ext" | od -An -tx1 | tr -d ' ')" = 0a ] || bad="$bad $ext" ;;
		json) python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$WORK/ext.$ext" 2> /dev/null || bad="$bad $ext" ;;
		csv) grep -q '^# rings$' "$WORK/ext.$ext" || bad="$bad $ext" ;;
		txt) grep -q '^file ' "$WORK/ext.$ext" || bad="$bad $ext" ;;
		esac
	done
	expect "the extension did not pick the format:$bad" [ -z "$bad" ] || return 1
	# --format still wins over the name
	"$GT" report --format text -o "$WORK/given.html" "$f" > /dev/null 2>&1
	expect "--format text -o x.html is not text" grep -q '^file ' "$WORK/given.html"
}

# Lines that tell this user nothing: the advice to record AMD's KFD queues on a
# file of another GPU (virtio-gpu's), "its jobs are flagged W" with no job of
# the workload's. An AMD file keeps the advice.
test_report_no_advice_that_tells_nothing() {
	local v a
	v=$(fixture virtio) && a=$(fixture two-rings) || { WHY="make-fixture failed"; return 1; }
	expect "KFD advice on a virtio-gpu file: $("$GT" report "$v" 2>&1 | grep KFD)" \
		not grep -q 'KFD queues' <<< "$("$GT" report "$v" 2>&1)" || return 1
	expect "no KFD advice on an amdgpu file" grep -q '^KFD queues: no function records' <<< "$("$GT" report "$a" 2>&1)"
}

# JSON a script reads without surprises: a kernel address is a string (jq and
# JavaScript round 64-bit numbers: 0xffff888007000000 became ...896), and
# behind_other's count has one name and one type on jobs and rings
test_report_json_ids_and_counts() {
	local f out
	f=$(fixture two-rings) || { WHY="make-fixture failed"; return 1; }
	out=$("$GT" report --format json --jobs "$f" 2> /dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
bad = [j["fence_ptr"] for j in d["jobs"] if j["fence_ptr"] is not None and not (isinstance(j["fence_ptr"], str) and j["fence_ptr"].startswith("0x"))]
bad += [j["behind_other"] for j in d["jobs"] if not isinstance(j["behind_other"]["process_count"], int) or "processes" in j["behind_other"]]
print("bad", bad[:3]) if bad else print("ok", sum(1 for j in d["jobs"] if j["fence_ptr"]))')
	expect "jobs: $out" grep -q '^ok [1-9]' <<< "$out" || return 1
	f=$(fixture competing) || { WHY="make-fixture failed"; return 1; }
	out=$("$GT" report --format json "$f" 2> /dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(all(isinstance(r["behind_other"]["processes"], list) and r["behind_other"]["process_count"] == len(r["behind_other"]["processes"]) for r in d["rings"]))')
	expect "rings' behind_other: $out" [ "$out" = True ]
}

# Every man page reads as troff means it: a line starting with "." is a
# request (gpu-trace-compare.1 ended EXIT STATUS at "not a" when ".dat," began a line)
test_man_pages_have_no_troff_warnings() {
	local m bad=
	command -v groff > /dev/null || { WHY="groff is not installed"; return 77; }
	for m in "$ROOT_DIR"/man/*.1; do
		[ -z "$(groff -man -ww -z "$m" 2>&1)" ] || bad="$bad ${m##*/}: $(groff -man -ww -z "$m" 2>&1 | head -1)"
	done
	expect "troff warnings:$bad" [ -z "$bad" ]
}

# Ring figures under a filter are the kept jobs': --from 1.0004 --to 1.0006
# printed the whole trace's "busy 83.9%, max 4 in flight" for 2 jobs, --from 5
# "0 jobs ... busy 83.9%". Hand counts on competing (7 jobs on gfx_0.0.0):
#   window [1.0004, 1.0006]: llama 1.000425-500, rival 1.000500-600:
#     175 us of 200 us busy = 87.5%, both queued at once: 2
#   --comm rival: 4 jobs, 400 us of the 799 us trace = 50.1%, 3 queued at once
#   --min-latency 300us: 2 jobs, 200 us = 25.0%, 2 at once
# in text, JSON, CSV and the HTML page's data
test_report_ring_figures_follow_the_filter() {
	local f a want got bad=
	f=$(fixture competing) || { WHY="make-fixture failed"; return 1; }
	while IFS='|' read -r a want; do
		[ -n "$want" ] || continue
		[ "$a" != - ] || a=
		# shellcheck disable=SC2086 # the options are words
		got=$("$GT" report $a "$f" 2> /dev/null | sed -n 's/^ring gfx_0.0.0: \([0-9]*\) jobs\?, .*busy \([0-9.]*\)%, max \([0-9]*\) in flight.*/\1 \2 \3/p')
		[ "$got" = "$want" ] || bad="$bad; text $a: $got, not $want"
		# shellcheck disable=SC2086
		got=$("$GT" report --format json $a "$f" 2> /dev/null | python3 -c '
import json, sys
r = [r for r in json.load(sys.stdin)["rings"] if r["name"] == "gfx_0.0.0"][0]
print(r["jobs"], "%.1f" % r["busy_pct"], r["max_in_flight"])')
		[ "$got" = "$want" ] || bad="$bad; json $a: $got"
		# shellcheck disable=SC2086
		got=$("$GT" report --format csv $a "$f" 2> /dev/null | python3 -c '
import csv, sys
rows = [r for r in csv.DictReader(l for l in sys.stdin if l.strip() and not l.startswith("#")) if r.get("ring") == "gfx_0.0.0"]
r = rows[0]
print(r["jobs"], "%.1f" % float(r["busy_pct"]), r["max_in_flight"])')
		[ "$got" = "$want" ] || bad="$bad; csv $a: $got"
		# shellcheck disable=SC2086
		"$GT" report --format html -o "$WORK/filt.html" --force $a "$f" > /dev/null 2>&1
		got=$(python3 -c '
import json, re, sys
t = open(sys.argv[1]).read()
m = re.search(r"<script type=\"application/json\" class=\"gt-source\">(.*?)</script>", t, re.S)
d = json.loads(m.group(1))
r = [r for r in d["rings"] if r["name"] == "gfx_0.0.0"][0]
print(r["jobs"], "%.1f" % r["busy_pct"], r["max_in_flight"])' "$WORK/filt.html" 2>&1 | tail -1)
		[ "$got" = "$want" ] || bad="$bad; html $a: $got"
	done <<'EOT'
-|7 83.9 4
--from 1.0004 --to 1.0006|2 87.5 2
--from 5|0 0.0 0
--comm rival|4 50.1 3
--min-latency 300us|2 25.0 2
EOT
	# the count is every kept job, the unfinished one of them
	got=$("$GT" report "$(fixture unfinished)" 2> /dev/null | grep '^ring gfx_0.0.0')
	[[ $got == "ring gfx_0.0.0: 2 jobs, 1 unfinished, 0 lost, "* ]] || bad="$bad; unfinished: $got"
	expect "${bad#; }" [ -z "$bad" ]
}

# Who used the GPU: each process's (and DRM client's) jobs' hardware time and
# its share, per ring and in all. The processes' shares add up to the rings'
# busy time on every fixture, filtered or not; competing by hand: rival 400 us,
# the workload's two llama pids 195 and 75 us of gfx_0.0.0's 670 us.
test_report_gpu_time_by_process() {
	local s f out bad=
	for s in $("$MAKE_FIXTURE" "$FORMATS" list | cut -d' ' -f1); do
		f=$(fixture "$s") || { bad="$bad $s(make-fixture)"; continue; }
		for a in "" "--from +0.0002" "--comm rival"; do
			# shellcheck disable=SC2086 # the options are words
			out=$("$GT" report --format json $a "$f" 2> /dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
busy = sum(r["busy_ns"] or 0 for r in d.get("rings", []))  # null: no job with a hardware time
procs = sum(p["gpu_ns"] for p in d.get("processes", []))
by_ring = {}
for p in d.get("processes", []):
    for r in p["gpu_by_ring"]:
        by_ring[r["ring"]] = by_ring.get(r["ring"], 0) + r["gpu_ns"]
rings = {r["name"]: r["busy_ns"] for r in d.get("rings", []) if r["busy_ns"]}
print("ok" if busy == procs and by_ring == rings else "busy %d processes %d %s %s" % (busy, procs, rings, by_ring))' 2>&1)
			[ "$out" = ok ] || bad="$bad; $s $a: $out"
		done
	done
	expect "GPU time does not add up:${bad}" [ -z "$bad" ] || return 1
	out=$("$GT" report "$(fixture competing)" 2> /dev/null)
	expect "the ring's users: $(grep 'GPU time:' <<< "$out")" \
		grep -q '^  GPU time: 6000 rival 59.7%, 5002 llama 29.1%, 5000 llama 11.2%$' <<< "$out" || return 1
	expect "the process table: $(grep -A1 '^  6000 rival' <<< "$out" | head -1)" \
		grep -q '^  6000 rival  *4  *0.400  *59.7%' <<< "$out"
}

# Moving code never changes what a user sees: every mode's output, stderr and
# exit status on every fixture scenario and a benchmark file, as
# tests/fixtures/outputs.sha256 holds them. A change of output on purpose
# regenerates that file in the same commit (the command is in the message).
test_outputs_byte_identical() {
	local diffs
	"$ROOT_DIR/tests/tools/outputs-digest.sh" "$GT" "$MAKE_FIXTURE" "$FORMATS" bench:3000 \
		> "$WORK/outputs.sha256" 2> "$WORK/outputs.err" ||
		{ WHY="outputs-digest.sh failed: $(tail -1 "$WORK/outputs.err")"; return 1; }
	# each exits 0, or 2 (no GPU events): never on a signal or an error
	expect "exit status: $(awk '$4 != 0 && $4 != 2' "$WORK/outputs.sha256" | head -5 | tr '\n' ';')" \
		[ -z "$(awk '$4 != 0 && $4 != 2' "$WORK/outputs.sha256")" ] || return 1
	expect "only $(count_lines "$WORK/outputs.sha256") outputs" [ "$(count_lines "$WORK/outputs.sha256")" -ge 400 ] || return 1
	# an output changed, or one that was there is gone, or a new one came
	diffs=$(diff "$ROOT_DIR/tests/fixtures/outputs.sha256" "$WORK/outputs.sha256" | grep -c '^[<>]')
	[ "$diffs" = 0 ] && return 0
	WHY="$diffs lines differ from tests/fixtures/outputs.sha256 ($(diff "$ROOT_DIR/tests/fixtures/outputs.sha256" "$WORK/outputs.sha256" |
		awk '/^[<>]/ { printf "%s %s %s; ", $1, $2, $3 }' | head -c 300)); on purpose: tests/tools/outputs-digest.sh ./gpu-trace build/make-fixture tests/fixtures/formats bench:3000 > tests/fixtures/outputs.sha256"
	return 1
}

# bench/nvidia/cuda-load.c, the workload of the real-driver check (bench/nvidia/h200.sh), builds
# with -Werror and, on a machine without NVIDIA's driver, says so with 77; with the driver its
# sums must be right (0)
test_cuda_load_builds_and_says_what_is_missing() {
	local rc
	command -v cc > /dev/null || { WHY="no C compiler"; return 77; }
	cc -std=gnu11 -O2 -Wall -Wextra -Werror -o "$WORK/cuda-load" "$ROOT_DIR/bench/nvidia/cuda-load.c" -ldl \
		2> "$WORK/cuda-load.cc" || { WHY="it does not build: $(head -3 "$WORK/cuda-load.cc" | tr '\n' ' ')"; return 1; }
	"$WORK/cuda-load" 1 2 4096 > "$WORK/cuda-load.out" 2>&1
	rc=$?
	case $rc in
	77) expect "77 without saying why: $(cat "$WORK/cuda-load.out")" grep -q 'no NVIDIA driver here' "$WORK/cuda-load.out" ;;
	0) expect "0 without the sums: $(cat "$WORK/cuda-load.out")" grep -q 'the sums are right' "$WORK/cuda-load.out" ;;
	*) WHY="exit $rc: $(tail -2 "$WORK/cuda-load.out" | tr '\n' ' ')"; return 1 ;;
	esac
}

# xe: every exec queue is a ring of its own ("rcs5"); the xe engines section puts them
# back on their GT and engine class, counts the GuC's resets, errors and bans, and folds
# each queue's ring into its engine
test_report_xe_engines() {
	local f out
	f=$(fixture xe-engines) || { WHY="make-fixture failed"; return 1; }
	out=$("$GT" report "$f")
	expect "no xe engines section: $(tail -8 <<< "$out" | tr '\n' '|')" \
		grep -q '^Intel xe engines (one ring per exec queue' <<< "$out" || return 1
	# device, GT, engine, queues, created, resets, ran, errors, bans, timeouts, rings, jobs, busy
	expect "GT0's render: two queues (GuC id 6 reused after the copy queue), a reset: $(grep -A5 '^Intel xe' <<< "$out" | tr '\n' '|')" \
		grep -Eq '^  0000:00:02\.0 +0 rcs +2 +2 +1 +3 +0 +0 +0 +2 +3 +240\.000$' <<< "$out" || return 1
	expect "GT0's copy queue: its job's error and ban, its ring bcs6 kept apart from rcs6" \
		grep -Eq '^  0000:00:02\.0 +0 bcs +1 +1 +0 +1 +1 +1 +0 +1 +1 +50\.000$' <<< "$out" || return 1
	expect "GT1's video queue: GuC id 5 again, another GT" \
		grep -Eq '^  0000:00:02\.0 +1 vcs +1 +1 +0 +1 +0 +0 +0 +1 +1 +90\.000$' <<< "$out" || return 1
	expect "the compute queue made before the file, its class from its ring's name" \
		grep -Eq '^  0000:00:02\.0 +0 ccs +1 +0 +0 +1 +0 +0 +0 +1 +1 +10\.000$' <<< "$out" || return 1
	expect "xe engines JSON" python3 -c 'import json, sys
x = json.load(sys.stdin)["xe_engines"]
e = {(r["gt"], r["engine"]): r for r in x["engines"]}
assert sorted(e) == [(0, "bcs"), (0, "ccs"), (0, "rcs"), (1, "vcs")], sorted(e)
assert e[(0, "bcs")]["destroyed"] == 1 and e[(0, "bcs")]["errors"] == 1 and e[(0, "bcs")]["bans"] == 1, e
assert e[(0, "rcs")]["busy_ns"] == 240000 and e[(0, "rcs")]["rings"] == 2 and e[(0, "rcs")]["resets"] == 1, e
assert e[(0, "ccs")]["created"] == 0 and e[(0, "ccs")]["queues"] == 1, e' \
		< <("$GT" report --format json "$f") || return 1
	expect "xe engines CSV" grep -q '^0000:00:02.0,1,vcs,1,1,0,0,1,0,0,0,1,1,90000$' \
		<<< "$("$GT" report --format csv "$f")" || return 1
	# the filter reaches the rings folded in: the render jobs alone before 0.5 ms
	expect "--to: the rings' figures follow the filter" \
		grep -Eq '^  0000:00:02\.0 +0 rcs .* 2 +2 +200\.000$' <<< "$("$GT" report --to 1.000450 "$f")" || return 1
	# 6.12's job events name no GT: the timed-out queue's row has GT "-"
	f=$(fixture xe-hang-6.12) || { WHY="make-fixture failed"; return 1; }
	expect "6.12: no GT named, none made up" \
		grep -Eq '^  0000:00:02\.0 +- \? ' <<< "$("$GT" report "$f")" || return 1
	# a file without xe: JSON null, no section
	f=$(fixture deps) || { WHY="make-fixture failed"; return 1; }
	expect "an xe section without xe events" not grep -q 'Intel xe' <<< "$("$GT" report "$f")" || return 1
	expect "JSON xe_engines not null without xe" python3 -c 'import json, sys
assert json.load(sys.stdin)["xe_engines"] is None' < <("$GT" report --format json "$f")
}
