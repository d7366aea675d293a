# gpu-trace fleet over many hosts' recordings: the report benchmark's trace
# (bench:JOBS:EXEC_PCT:SEED, each seed its own +-3% per job) copied under
# Hive-style host=nodeNN folders, one host planted 30% slower on the
# hardware. Needs no root.
# shellcheck shell=bash
# NO_ROOT

# fleet_hosts DIR N [SLOW]: hosts node00..node(N-1), each its own seed; SLOW at 130%
fleet_hosts() {
	local dir=$WORK/$1 n=$2 slow=${3:-} i name pct
	rm -rf "$dir"
	for ((i = 0; i < n; i++)); do
		name=$(printf 'node%02d' "$i")
		pct=100
		[ "$name" = "$slow" ] && pct=130
		mkdir -p "$dir/host=$name" &&
			"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" "bench:2000:$pct:$((i + 1))" \
				"$dir/host=$name/trace.dat" > /dev/null || return 1
	done
}

test_fleet_names_the_slow_host_and_only_it() {
	fleet_hosts fleet16 16 node07 || { WHY="make-fixture failed"; return 1; }
	"$GT" fleet --format json "$WORK/fleet16" > "$WORK/f16.json" 2> "$WORK/f16.err" ||
		{ WHY="fleet failed: $(cat "$WORK/f16.err")"; return 1; }
	expect "the JSON does not name node07 alone, on every ring, for exec and total" python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "gpu-trace-fleet/1" and d["files"] == 16 and d["files_failed"] == 0, d["files"]
assert [h["name"] for h in d["hosts"]] == ["node%02d" % i for i in range(16)]
assert all(h["from"] == "path" and h["files"] == 1 for h in d["hosts"])
rings = ["comp_1.0.0", "comp_1.1.0", "gfx_0.0.0", "sdma0", "sdma1"]
assert sorted((o["host"], o["ring"]) for o in d["outliers"]) == [("node07", r) for r in rings], d["outliers"]
assert d["noise"]["correction"] == "holm" and d["noise"]["tests"] == 16 * 5 * 6, d["noise"]
for r in d["rows"]:
    assert r["jobs"] == 400 and r["files"] == 1, r
    st = {s["stage"]: s for s in r["stages"]}
    if r["host"] == "node07":
        assert r["called"] == ["exec", "total"], r
        assert st["exec"]["p"] < 0.001 and st["exec"]["z"] > 5, st["exec"]
        # 30% slower on the hardware: its p50 about 1.3x the fleet median
        assert 1.25 < st["exec"]["p50_ns"] / st["exec"]["fleet_p50_ns"] < 1.35, st["exec"]
    else:
        assert r["called"] == [] and not any(s["called"] for s in r["stages"]), r
        assert all(s["p"] is None or s["p"] > 0.05 for s in r["stages"]), r
# rows sorted by host, then ring
keys = [(r["host"], r["ring"]) for r in d["rows"]]
assert keys == sorted(keys) and len(keys) == 80' "$WORK/f16.json" || return 1
	"$GT" fleet "$WORK/fleet16" > "$WORK/f16.txt" || { WHY="text fleet failed"; return 1; }
	expect "the text does not name node07 in one line per ring with its ratio and p" \
		[ "$(grep -cE '^  node07 [a-z0-9_.]+: p(50|99) exec 1\.[23][0-9]x, p(50|99) total 1\.[23][0-9]x the fleet median, p < 0\.001; its jobs waited behind no other process.s$' "$WORK/f16.txt")" = 5 ] || return 1
	expect "another host named in the text" not grep -qE '^  node(0[0-689]|1[0-9]) [^ ]+: ' "$WORK/f16.txt" || return 1
	expect "the noise line does not say Holm over 480 tests" \
		grep -q '^noise .*Holm-corrected over 480 host x ring x stage tests at p < 0\.05' "$WORK/f16.txt" || return 1
	expect "node07's exec cell not starred in the gfx table" \
		grep -qE '^  node07 +1 +400 .* [0-9.]+/[0-9.]+\* +[0-9.]+/[0-9.]+\*$' "$WORK/f16.txt" || return 1
	"$GT" fleet --format csv "$WORK/fleet16" > "$WORK/f16.csv" || { WHY="csv fleet failed"; return 1; }
	expect "the CSV's rows or called cells" python3 -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 16 * 5 * 6, len(rows)
called = sorted((r["host"], r["ring"], r["stage"]) for r in rows if r["called"] == "1")
assert called == sorted(("node07", g, s) for g in ["comp_1.0.0", "comp_1.1.0", "gfx_0.0.0", "sdma0", "sdma1"] for s in ["exec", "total"]), called
assert all(r["host_from"] == "path" for r in rows)' "$WORK/f16.csv" || return 1
}

test_fleet_of_64_healthy_hosts_names_nobody() {
	fleet_hosts fleet64 64 || { WHY="make-fixture failed"; return 1; }
	"$GT" fleet --format json "$WORK/fleet64" > "$WORK/f64.json" 2> "$WORK/f64.err" ||
		{ WHY="fleet failed: $(cat "$WORK/f64.err")"; return 1; }
	expect "64 healthy hosts: someone named or rows missing" python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["files"] == 64 and len(d["hosts"]) == 64 and len(d["rows"]) == 64 * 5, len(d["rows"])
assert d["outliers"] == [] and d["noise"]["tests"] == 64 * 5 * 6, d["outliers"]
# the correction holds every host well above alpha
assert min(s["p"] for r in d["rows"] for s in r["stages"] if s["p"] is not None) > 0.05' "$WORK/f64.json" || return 1
	"$GT" fleet "$WORK/fleet64" > "$WORK/f64.txt" || { WHY="text fleet failed"; return 1; }
	expect "the text does not say none beyond noise" grep -qx 'outliers: none beyond noise' "$WORK/f64.txt" || return 1
	# the slow host planted among the 64 is found there too
	"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" bench:2000:130:99 \
		"$WORK/fleet64/host=node41/trace.dat" > /dev/null || { WHY="make-fixture failed"; return 1; }
	"$GT" fleet --format json "$WORK/fleet64" > "$WORK/f64s.json" || { WHY="fleet with node41 failed"; return 1; }
	expect "node41 among 64 not named alone" python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert {o["host"] for o in d["outliers"]} == {"node41"} and len(d["outliers"]) == 5, d["outliers"]' "$WORK/f64s.json" || return 1
}

test_fleet_output_is_the_same_for_any_jobs() {
	local fmt j
	[ -d "$WORK/fleet16" ] || fleet_hosts fleet16 16 node07 || { WHY="make-fixture failed"; return 1; }
	for fmt in text json csv; do
		"$GT" fleet -j 1 --format $fmt "$WORK/fleet16" > "$WORK/j1.$fmt" || { WHY="-j 1 failed"; return 1; }
		for j in 2 5; do
			"$GT" fleet --jobs $j --format $fmt "$WORK/fleet16" > "$WORK/j$j.$fmt" ||
				{ WHY="-j $j failed"; return 1; }
			expect "$fmt output of -j $j differs from -j 1" cmp -s "$WORK/j1.$fmt" "$WORK/j$j.$fmt" || return 1
		done
	done
}

test_fleet_leaves_out_a_damaged_file_and_says_so() {
	local dir=$WORK/damaged rc lines
	fleet_hosts damaged 6 || { WHY="make-fixture failed"; return 1; }
	# a truncated recording, a file that is no .dat, a link out of the folder
	head -c 3000 "$dir/host=node02/trace.dat" > "$dir/host=node02/cut.dat"
	echo 'not a trace' > "$dir/host=node03/notes.txt"
	echo 'not a trace either' > "$dir/host=node04/garbage.dat"
	"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" competing "$WORK/outside.dat" > /dev/null
	ln -s "$WORK/outside.dat" "$dir/host=node05/outside.dat"
	"$GT" fleet --format json "$dir" > "$WORK/dmg.json" 2> "$WORK/dmg.err"
	rc=$?
	expect "exit $rc, not 1, with files left out" [ "$rc" = 1 ] || return 1
	lines=$(grep -c '' "$WORK/dmg.err")
	expect "not one line per damaged file on stderr: $(cat "$WORK/dmg.err")" [ "$lines" = 2 ] || return 1
	expect "the cut file's line" grep -q "^gpu-trace fleet: $dir/host=node02/cut.dat is truncated: .*(left out; the other files are summed)$" "$WORK/dmg.err" || return 1
	expect "the garbage file's line" grep -q "garbage.dat.*(left out; the other files are summed)$" "$WORK/dmg.err" || return 1
	expect "the others not summed, or the link followed out" python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["files"] == 8 and d["files_failed"] == 2, (d["files"], d["files_failed"])
assert sorted(f["file"].rsplit("/", 2)[-2:][1] for f in d["failed"]) == ["cut.dat", "garbage.dat"], d["failed"]
assert [h["name"] for h in d["hosts"]] == ["node%02d" % i for i in range(6)], d["hosts"]
assert all(r["jobs"] == 400 for r in d["rows"]) and len(d["rows"]) == 30' "$WORK/dmg.json" || return 1
	"$GT" fleet "$dir" > "$WORK/dmg.txt" 2> /dev/null
	expect "the text header does not count the files left out" \
		grep -q '^fleet    8 files, 6 hosts .*; 2 files could not be read (said on standard error)$' "$WORK/dmg.txt" || return 1
}

test_fleet_names_hosts_by_marker_folder_or_file() {
	local dir=$WORK/names fx=$ROOT_DIR/tests/fixtures/formats
	mkdir -p "$dir/host=gpu-a/step1" "$dir/host=gpu-a/step2" "$dir/markers" "$dir/plain"
	"$ROOT_DIR/build/make-fixture" "$fx" bench:500:100:1 "$dir/host=gpu-a/step1/t.dat" > /dev/null &&
		"$ROOT_DIR/build/make-fixture" "$fx" bench:500:100:2 "$dir/host=gpu-a/step2/t.dat" > /dev/null &&
		"$ROOT_DIR/build/make-fixture" "$fx" host-clock "$dir/markers/a.dat" > /dev/null &&
		"$ROOT_DIR/build/make-fixture" "$fx" host-clock-b "$dir/markers/b.dat" > /dev/null &&
		"$ROOT_DIR/build/make-fixture" "$fx" competing "$dir/plain/rack3-n9.dat" > /dev/null ||
		{ WHY="make-fixture failed"; return 1; }
	"$GT" fleet --format json "$dir" > "$WORK/names.json" 2> "$WORK/names.err" ||
		{ WHY="fleet failed: $(cat "$WORK/names.err")"; return 1; }
	expect "the hosts' names or where they came from" python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
hosts = {h["name"]: (h["from"], h["files"]) for h in d["hosts"]}
assert hosts == {"gpu-a": ("path", 2), "node07": ("marker", 1), "node08": ("marker", 1), "rack3-n9": ("file", 1)}, hosts
rows = {(r["host"], r["ring"]): r for r in d["rows"]}
# two steps of one host add up: 100 jobs a ring each
assert rows[("gpu-a", "gfx_0.0.0")]["files"] == 2 and rows[("gpu-a", "gfx_0.0.0")]["jobs"] == 200
# whose jobs it waited behind, as report says it (competing: 0.290 ms behind 3 jobs of 6000 rival)
c = rows[("rack3-n9", "gfx_0.0.0")]
assert c["behind_ns"] == 290000 and c["behind_jobs"] == 3 and c["behind"] == [{"pid": 6000, "comm": "rival"}], c' "$WORK/names.json" || return 1
	"$GT" fleet "$dir" > "$WORK/names.txt"
	expect "the header does not count where names came from" \
		grep -q '^fleet    5 files, 4 hosts (named by: 2 record marker, 1 host= folder, 1 file name)' "$WORK/names.txt" || return 1
}

test_fleet_p50_p99_are_reports() {
	local dir=$WORK/same
	mkdir -p "$dir"
	"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" bench:6000:100:3 "$dir/one.dat" > /dev/null ||
		{ WHY="make-fixture failed"; return 1; }
	"$GT" fleet --format json "$dir" > "$WORK/same.json" && "$GT" report --format json "$dir/one.dat" > "$WORK/same-report.json" ||
		{ WHY="fleet or report failed"; return 1; }
	expect "fleet's jobs, busy or p50/p99 differ from report's" python3 -c 'import json, sys
f, r = (json.load(open(p)) for p in sys.argv[1:3])
rings = {x["name"]: x for x in r["rings"]}
for row in f["rows"]:
    rr = rings[row["ring"]]
    assert row["jobs"] == rr["jobs"] and row["busy_ns"] == rr["busy_ns"], (row, rr)
    assert abs(row["busy_pct"] - rr["busy_pct"]) < 0.01, (row["busy_pct"], rr["busy_pct"])
    lat = rr["latency"] if "latency" in rr else rr["latency_ns"]
    for s in row["stages"]:
        mine = lat[s["stage"]]
        assert s["p50_ns"] == mine["p50"] and s["p99_ns"] == mine["p99"], (row["ring"], s, mine)' "$WORK/same.json" "$WORK/same-report.json" || return 1
}

test_fleet_refuses_what_it_cannot_read() {
	local rc
	"$GT" fleet > /dev/null 2> "$WORK/e1.err"
	rc=$?
	expect "no input: exit $rc" [ "$rc" = 125 ] || return 1
	expect "no input: not one line" [ "$(grep -c '' "$WORK/e1.err")" = 1 ] || return 1
	"$GT" fleet "$WORK/no-such-dir" > /dev/null 2> "$WORK/e2.err"
	rc=$?
	expect "a missing folder: exit $rc, $(cat "$WORK/e2.err")" [ "$rc" = 125 ] &&
		grep -q '^gpu-trace fleet: cannot read .*no-such-dir: No such file or directory' "$WORK/e2.err" || return 1
	mkdir -p "$WORK/empty-fleet"
	"$GT" fleet "$WORK/empty-fleet" > /dev/null 2> "$WORK/e3.err"
	rc=$?
	expect "an empty folder: exit $rc" [ "$rc" = 125 ] && grep -q 'no .dat file under' "$WORK/e3.err" || return 1
	"$GT" fleet -j 0 "$WORK/empty-fleet" > /dev/null 2> "$WORK/e4.err"
	rc=$?
	expect "-j 0: exit $rc" [ "$rc" = 125 ] && grep -q "bad -j '0'" "$WORK/e4.err" || return 1
	"$GT" fleet --format xml "$WORK/empty-fleet" > /dev/null 2> "$WORK/e5.err"
	expect "--format xml accepted" grep -q "unknown --format 'xml'; use text, json or csv" "$WORK/e5.err" || return 1
	"$GT" fleet --help > "$WORK/help.txt" && grep -q '^usage: gpu-trace fleet' "$WORK/help.txt" ||
		{ WHY="--help"; return 1; }
}
