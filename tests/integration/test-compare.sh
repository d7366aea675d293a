# gpu-trace compare on runs whose difference is known: the report benchmark's
# trace with every job's execution scaled (bench:JOBS:EXEC_PCT:SEED), each run
# with its own +-3% per job. Case B runs 30% longer on the hardware than A;
# A' is A again with other seeds. Needs no root.
# shellcheck shell=bash
# NO_ROOT

# cmp_case DIR PCT SEED...: one run per seed
cmp_case() {
	local dir=$WORK/$1 pct=$2 s
	shift 2
	mkdir -p "$dir"
	for s in "$@"; do
		mkdir -p "$dir/run$s" &&
			"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" "bench:2000:$pct:$s" \
				"$dir/run$s/trace.dat" > /dev/null || return 1
	done
}

# verdict JSON RING STAGE: what compare called it
verdict() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
r = [r for r in d["rings"] if r["name"] == sys.argv[2]][0]
print([s for s in r["stages"] if s["stage"] == sys.argv[3]][0]["verdict"])' "$@"
}

test_compare_finds_the_slower_stage_over_runs() {
	local ring stage
	cmp_case a 100 1 2 3 4 && cmp_case a2 100 5 6 7 8 && cmp_case b 130 9 10 11 12 ||
		{ WHY="make-fixture failed"; return 1; }
	"$GT" compare --format json "$WORK/a" "$WORK/b" > "$WORK/ab.json" 2> "$WORK/ab.err" ||
		{ WHY="compare failed: $(cat "$WORK/ab.err")"; return 1; }
	"$GT" compare --format json "$WORK/a" "$WORK/a2" > "$WORK/aa.json" ||
		{ WHY="compare A A' failed"; return 1; }
	expect "not four runs a side, noise over runs, p of a clean split" python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["a"]["runs"]) == 4 and len(d["b"]["runs"]) == 4 and d["noise"] == "runs"
st = [s for r in d["rings"] if r["name"] == "gfx_0.0.0" for s in r["stages"] if s["stage"] == "exec"][0]
assert abs(st["p"] - 2 / 70) < 1e-6, st' "$WORK/ab.json" || return 1
	for ring in gfx_0.0.0 comp_1.0.0 sdma1; do
		for stage in exec total; do
			expect "$ring $stage of B not called slower: $(verdict "$WORK/ab.json" $ring $stage)" \
				[ "$(verdict "$WORK/ab.json" $ring $stage)" = "B slower" ] || return 1
			expect "$ring $stage of A' called different from A: $(verdict "$WORK/aa.json" $ring $stage)" \
				[ "$(verdict "$WORK/aa.json" $ring $stage)" = same ] || return 1
		done
		for stage in queue_to_run submit_to_queue; do
			expect "$ring $stage (unchanged) called $(verdict "$WORK/ab.json" $ring $stage)" \
				[ "$(verdict "$WORK/ab.json" $ring $stage)" = same ] || return 1
		done
	done
	"$GT" compare "$WORK/a" "$WORK/b" > "$WORK/ab.txt" || { WHY="text compare failed"; return 1; }
	expect "the text table does not call exec slower" grep -Eq '^  exec .* B slower \(p 0\.029\)$' "$WORK/ab.txt" || return 1
	# each ring in one line, under its table; JSON says the same
	expect "no one-line verdict per ring: $(grep -c '=> ' "$WORK/ab.txt") lines" \
		[ "$(grep -c '^  => B slower: exec +[0-9.]*%, total +[0-9.]*%$' "$WORK/ab.txt")" = 5 ] || return 1
	"$GT" compare "$WORK/a" "$WORK/a2" > "$WORK/aa.txt"
	expect "A and A' not said unchanged per ring" [ "$(grep -c '^  => no change beyond noise$' "$WORK/aa.txt")" = 5 ] || return 1
	expect "the rings' JSON verdicts" python3 -c 'import json, sys
ab, aa = (json.load(open(f)) for f in sys.argv[1:3])
for r in ab["rings"]:
    assert r["verdict"] == "B slower" and r["slower"] == ["exec", "total"] and r["faster"] == [], r["name"]
for r in aa["rings"]:
    assert r["verdict"] == "same" and r["slower"] == r["faster"] == [], r["name"]
# the change is of the values the p50 columns show
for r in ab["rings"]:
    for st in r["stages"]:
        a, b = st["a"]["compared_ns"], st["b"]["compared_ns"]
        assert a == 0 or abs(st["change"] - (b - a) / a) < 1e-4, (r["name"], st)' "$WORK/ab.json" "$WORK/aa.json" || return 1
	# three runs a side: no split of them reaches p < 0.05; the jobs decide, and it says so
	mkdir -p "$WORK/a-three" "$WORK/b-three"
	cp -r "$WORK/a/run1" "$WORK/a/run2" "$WORK/a/run3" "$WORK/a-three/" &&
		cp -r "$WORK/b/run9" "$WORK/b/run10" "$WORK/b/run11" "$WORK/b-three/"
	"$GT" compare --format json "$WORK/a-three" "$WORK/b-three" > "$WORK/three.json" ||
		{ WHY="compare 3x3 failed"; return 1; }
	expect "3 runs a side judged over runs" python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["noise"] == "jobs", d["noise"]
assert all("z" in st and "p" not in st for r in d["rings"] for st in r["stages"])' "$WORK/three.json" || return 1
	"$GT" compare "$WORK/a-three" "$WORK/b-three" > "$WORK/three.txt"
	expect "3 runs a side: no word that run-to-run noise is unmeasured" \
		grep -q '3 runs a side are too few to measure run-to-run noise (4 or more a side do)' "$WORK/three.txt"
}

# One run a side: the rank test over jobs, and it says what it cannot see.
test_compare_single_runs() {
	cmp_case s1 100 11 && cmp_case s2 100 12 && cmp_case s3 130 13 || { WHY="make-fixture failed"; return 1; }
	"$GT" compare --format json "$WORK/s1/run11/trace.dat" "$WORK/s3/run13/trace.dat" > "$WORK/s13.json" ||
		{ WHY="compare failed"; return 1; }
	expect "exec of the slower run not called slower" [ "$(verdict "$WORK/s13.json" gfx_0.0.0 exec)" = "B slower" ] || return 1
	"$GT" compare --format json "$WORK/s1/run11/trace.dat" "$WORK/s2/run12/trace.dat" > "$WORK/s12.json"
	expect "two runs of one case called different" [ "$(verdict "$WORK/s12.json" gfx_0.0.0 exec)" = same ] || return 1
	"$GT" compare "$WORK/s1/run11/trace.dat" "$WORK/s2/run12/trace.dat" > "$WORK/s12.txt"
	expect "single runs: no word that run-to-run noise is unseen" grep -q 'run-to-run noise is not seen' "$WORK/s12.txt" || return 1
	# B faster the other way round, and --min-change above the change silences it
	"$GT" compare --format json "$WORK/s3/run13/trace.dat" "$WORK/s1/run11/trace.dat" > "$WORK/s31.json"
	expect "the faster run not called faster" [ "$(verdict "$WORK/s31.json" gfx_0.0.0 exec)" = "B faster" ] || return 1
	"$GT" compare --min-change 50 --format json "$WORK/s1/run11/trace.dat" "$WORK/s3/run13/trace.dat" > "$WORK/s13m.json"
	expect "a 30% change called with --min-change 50" [ "$(verdict "$WORK/s13m.json" gfx_0.0.0 exec)" = same ] || return 1
	# ... but not called noise: beyond it, under --min-change, in the row, the
	# ring's line and JSON (it said "no change beyond noise")
	expect "JSON: exec not under_min_change" python3 -c 'import json, sys
r = [r for r in json.load(open(sys.argv[1]))["rings"] if r["name"] == "gfx_0.0.0"][0]
st = {s["stage"]: s for s in r["stages"]}
assert st["exec"]["under_min_change"] is True and st["dep_wait"]["under_min_change"] is False, st
assert r["verdict"] == "same" and "exec" in r["under_min_change"], r' "$WORK/s13m.json" || return 1
	"$GT" compare --min-change 50 "$WORK/s1/run11/trace.dat" "$WORK/s3/run13/trace.dat" > "$WORK/s13m.txt"
	expect "text: $(grep '=>' "$WORK/s13m.txt")" grep -q '^  => no change of --min-change 50% or more; beyond noise but under it: .*exec +30' "$WORK/s13m.txt" || return 1
	expect "text: the exec row: $(grep '^  exec' "$WORK/s13m.txt")" grep -q '^  exec .* under --min-change (z ' "$WORK/s13m.txt"
}

# Two hosts' files: each side names its host and where its run lies on UTC (node08's
# clock pairs put its run 5 s after node07's); files without markers name neither.
test_compare_names_hosts_and_utc() {
	local a=$WORK/ch-a.dat b=$WORK/ch-b.dat out
	"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" host-clock "$a" > /dev/null &&
		"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" host-clock-b "$b" > /dev/null || { WHY="make-fixture failed"; return 1; }
	out=$("$GT" compare "$a" "$b") || { WHY="compare failed"; return 1; }
	expect "A's line: $(grep '^A:' <<< "$out")" grep -qx "A: $a (1 run; host node07; on UTC 2027-01-15T07:59:59.999991000Z .. 2027-01-15T08:00:00.000991000Z, within 1.000 us)" <<< "$out" || return 1
	expect "B's line: $(grep '^B:' <<< "$out")" grep -qx "B: $b (1 run; host node08; on UTC 2027-01-15T08:00:04.999991000Z .. 2027-01-15T08:00:05.000991000Z, within 1.000 us)" <<< "$out" || return 1
	expect "JSON hosts and UTC" python3 -c 'import json, sys
d = json.load(sys.stdin)
assert d["schema"] == "gpu-trace-compare/3"
a, b = d["a"], d["b"]
assert (a["hosts"], b["hosts"], a["hosts_more"]) == (["node07"], ["node08"], False), (a, b)
assert b["utc"]["from_ns"] - a["utc"]["from_ns"] == 5000000000 and a["utc"]["uncertainty_ns"] == 1000, (a, b)' \
		< <("$GT" compare --format json "$a" "$b") || return 1
	cmp_case h1 100 11 || { WHY="make-fixture failed"; return 1; }
	out=$("$GT" compare "$WORK/h1/run11/trace.dat" "$WORK/h1/run11/trace.dat")
	expect "a host or UTC named without markers: $(grep '^A:' <<< "$out")" grep -qx "A: $WORK/h1/run11/trace.dat (1 run)" <<< "$out"
}

# Each side's lost events as report's LOST line counts them: lost-window's 40
# dropped in 1 window (compare said 41, the count plus the windows); a page of
# zeros (its number unknown) is 0+ in 1 window, lost_unknown in JSON.
test_compare_lost_events_as_report_counts() {
	local lw=$WORK/cl-lw.dat f=$WORK/cl-f.dat z=$WORK/cl-z.dat out
	command -v trace-cmd > /dev/null || { WHY="trace-cmd is not installed (its dump finds the page)"; return 77; }
	"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" lost-window "$lw" > /dev/null &&
		"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" kfd-snapshot "$f" > /dev/null ||
		{ WHY="make-fixture failed"; return 1; }
	expect "report's count: $("$GT" report "$lw" 2> /dev/null | grep '^LOST')" \
		grep -q '; 40 dropped in 1 window' < <("$GT" report "$lw" 2> /dev/null) || return 1
	out=$("$GT" compare "$lw" "$f" 2> /dev/null) || { WHY="compare failed"; return 1; }
	expect "line: $(grep '^lost' <<< "$out")" grep -qx "lost events: 40 / 0, in 1 / 0 windows of the data" <<< "$out" || return 1
	zeroed_copy "$f" "$z" || return 1
	out=$("$GT" compare "$f" "$z" 2> /dev/null) || { WHY="compare of the zeroed copy failed"; return 1; }
	expect "zeroed: $(grep '^lost' <<< "$out")" grep -qx "lost events: 0 / 0+, in 0 / 1 windows of the data" <<< "$out" || return 1
	expect "JSON" python3 -c 'import json, sys
d = json.load(sys.stdin)
a, b = d["a"], d["b"]
assert (a["lost_events"], a["lost_unknown"], a["lost_windows"]) == (0, False, 0), a
assert (b["lost_events"], b["lost_unknown"], b["lost_windows"]) == (0, True, 1), b' \
		< <("$GT" compare --format json "$f" "$z" 2> /dev/null)
}

test_compare_errors() {
	mkdir -p "$WORK/cmp-empty"
	"$GT" compare "$WORK/cmp-empty" "$WORK/cmp-empty" 2> "$WORK/ce1"
	expect "an empty directory accepted" [ $? = 125 ] || return 1
	expect "not one line" [ "$(grep -c '' "$WORK/ce1")" = 1 ] || return 1
	"$GT" compare "$WORK/nosuch.dat" "$WORK/cmp-empty" 2> "$WORK/ce2"
	expect "a missing input accepted" grep -q 'cannot read .*nosuch.dat' "$WORK/ce2" || return 1
	"$GT" compare only-one.dat 2> "$WORK/ce3"
	expect "one input accepted" grep -q 'takes two inputs' "$WORK/ce3" || return 1
	echo garbage > "$WORK/garbage.dat"
	"$GT" compare "$WORK/garbage.dat" "$WORK/garbage.dat" 2> "$WORK/ce4"
	expect "a foreign file accepted" [ $? = 125 ] || return 1
	"$GT" compare --min-change x a b 2> "$WORK/ce5"
	expect "a bad --min-change accepted" grep -q "bad --min-change 'x'" "$WORK/ce5" || return 1
	# runs without a GPU job (a kernel without the driver's events): a word and 2, not an empty table
	"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" kfd-function "$WORK/nojobs.dat" > /dev/null ||
		{ WHY="make-fixture failed"; return 1; }
	"$GT" compare "$WORK/nojobs.dat" "$WORK/nojobs.dat" > "$WORK/ce6.out" 2> "$WORK/ce6"
	expect "no jobs on either side: exit $?, want 2" [ $? = 2 ] || return 1
	expect "no jobs: not one line saying so: $(cat "$WORK/ce6")" \
		[ "$(grep -c '' "$WORK/ce6")" = 1 ] && grep -q 'holds a GPU job: nothing to compare' "$WORK/ce6" || return 1
	expect "no jobs: a table on stdout anyway" [ ! -s "$WORK/ce6.out" ]
}

# A ring of 2 jobs against 7 said "jobs on one side only: nothing to compare"
# (JSON "only one side") because one stage was measured on one side only: the
# ring's verdict is too few jobs, with the counts; stages keep their own.
test_compare_too_few_is_not_one_side() {
	local a b out j
	a=$WORK/cmp-two.dat
	b=$WORK/cmp-comp.dat
	"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" two-rings "$a" > /dev/null &&
		"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" competing "$b" > /dev/null ||
		{ WHY="make-fixture failed"; return 1; }
	out=$("$GT" compare "$a" "$b" 2>&1)
	expect "gfx_0.0.0's verdict: $(grep -A9 '^ring gfx_0.0.0' <<< "$out" | grep '=>')" \
		grep -q '^  => too few jobs to tell (5 a side at least; A has 2, B 7)$' <<< "$out" || return 1
	expect "sdma0 (A's alone) is not one side: $(grep -A9 '^ring sdma0' <<< "$out" | grep '=>')" \
		grep -q '^  => jobs on one side only: nothing to compare on this ring$' <<< "$out" || return 1
	j=$("$GT" compare --format json "$a" "$b" | python3 -c '
import json, sys
print(sorted((r["name"], r["verdict"]) for r in json.load(sys.stdin)["rings"]))')
	expect "JSON verdicts: $j" [ "$j" = "[('gfx_0.0.0', 'too few jobs'), ('sdma0', 'only one side')]" ]
}

# Jobs per run are a mean: pipelined's 4 and competing's 7 in one side's two
# runs said "jobs 5 / 5 per run" (rounded down); unfinished and lost-touched
# are every run's, and the line says so.
test_compare_jobs_per_run_not_rounded_down() {
	local out
	mkdir -p "$WORK/two-runs" &&
		"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" pipelined "$WORK/two-runs/a.dat" > /dev/null &&
		"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" competing "$WORK/two-runs/b.dat" > /dev/null ||
		{ WHY="make-fixture failed"; return 1; }
	out=$("$GT" compare "$WORK/two-runs" "$WORK/two-runs" 2>&1)
	expect "the ring line: $(grep '^ring' <<< "$out")" \
		grep -q '^ring gfx_0.0.0: jobs 5.5 / 5.5 per run, busy .*, unfinished 0 / 0 and lost-touched 0 / 0 in all runs$' <<< "$out"
}
