# gpu-trace report --format parquet: every fixture scenario's tables read by
# DuckDB and hyparquet (tests/parquet/fetch.sh installs both from npm into a
# cache) with every value equal to the JSON report's; the directory's rules
# (-o DIR, --force, 0640); the queries docs/parquet.md shows, run by DuckDB
# over a fleet of copies with one slow host. Needs no root.
# shellcheck shell=bash
# NO_ROOT

PQ_DIR=$ROOT_DIR/tests/parquet

# pq_fixtures: every scenario into $WORK/pq-fx/NAME.dat, and kfd-snapshot's
# copy with a page of zeros as kfd-zeroed.dat; the files' number in PQ_N, the
# scenarios' in PQ_SCENARIOS
pq_fixtures() {
	local s
	PQ_N=0
	mkdir -p "$WORK/pq-fx"
	for s in $("$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" list | awk '{ print $1 }'); do
		[ -f "$WORK/pq-fx/$s.dat" ] ||
			"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" "$s" "$WORK/pq-fx/$s.dat" ||
			{ WHY="make-fixture $s failed"; return 1; }
		PQ_N=$((PQ_N + 1))
	done
	PQ_SCENARIOS=$PQ_N
	# a damaged copy: its loss of unknown count in the hosts table
	command -v trace-cmd > /dev/null || { WHY="trace-cmd is not installed (its dump finds the page to zero)"; return 77; }
	[ -f "$WORK/pq-fx/kfd-zeroed.dat" ] ||
		zeroed_copy "$WORK/pq-fx/kfd-snapshot.dat" "$WORK/pq-fx/kfd-zeroed.dat" || return 1
	PQ_N=$((PQ_N + 1))
}

test_parquet_every_fixture() {
	local rc ok
	pq_fixtures || return
	"$PQ_DIR/check-dats.sh" "$GT" "$WORK/pq-check" "$WORK"/pq-fx/*.dat > "$WORK/pq-check.txt"
	rc=$?
	case $rc in
	0) ;;
	77) WHY=$(tail -1 "$WORK/pq-check.txt"); return 77 ;;
	*) WHY="$(grep -m3 '^not ok' "$WORK/pq-check.txt" | cut -c1-300 | tr '\n' ' ')"; return 1 ;;
	esac
	# 10 tables, each read by both readers
	ok=$(grep -c '^ok - ' "$WORK/pq-check.txt")
	expect "not every table of the $PQ_N scenarios checked by both readers ($ok of $((PQ_N * 20)))" \
		[ "$ok" = $((PQ_N * 20)) ] || return 1
	expect "fewer than 40 scenarios ($PQ_SCENARIOS)" [ "$PQ_SCENARIOS" -ge 40 ]
}

test_parquet_directory_rules() {
	local d=$WORK/pq-rules mode
	pq_fixtures || return
	"$GT" report --format parquet "$WORK/pq-fx/deps.dat" > /dev/null 2> "$WORK/pq-noo.err"
	expect "no -o: not refused as a wrong option (125)" [ $? = 125 ] || return 1
	expect "no -o: not told to give -o DIR" grep -q 'give -o DIR' "$WORK/pq-noo.err" || return 1
	"$GT" report --format parquet -o "$d" "$WORK/pq-fx/deps.dat" "$WORK/pq-fx/host-clock.dat" 2> "$WORK/pq-rules.err" ||
		{ WHY="report failed: $(cat "$WORK/pq-rules.err")"; return 1; }
	expect "the note does not name the directory" grep -q "wrote 20 Parquet files under $d" "$WORK/pq-rules.err" || return 1
	expect "host-clock's jobs not in its host's folder" [ -f "$d/jobs/host=node07/host-clock.parquet" ] || return 1
	expect "deps (no host marker) not under host=unknown" [ -f "$d/rings/host=unknown/deps.parquet" ] || return 1
	mode=$(stat -c %a "$d/jobs/host=unknown/deps.parquet")
	expect "a table's mode is $mode, not 640" [ "$mode" = 640 ] || return 1
	expect "temporary files left behind" [ -z "$(find "$d" -name '.*')" ] || return 1
	"$GT" report --format parquet -o "$d" "$WORK/pq-fx/deps.dat" 2> "$WORK/pq-again.err"
	expect "an existing table replaced without --force" [ $? != 0 ] || return 1
	expect "not told to pass --force" grep -q 'pass --force' "$WORK/pq-again.err" || return 1
	"$GT" report --format parquet --force -o "$d" "$WORK/pq-fx/deps.dat" 2> "$WORK/pq-force.err" ||
		{ WHY="--force did not replace: $(cat "$WORK/pq-force.err")"; return 1; }
	mkdir -p "$WORK/pq-same"
	cp "$WORK/pq-fx/deps.dat" "$WORK/pq-same/deps.dat"
	"$GT" report --format parquet -o "$WORK/pq-twice" "$WORK/pq-fx/deps.dat" "$WORK/pq-same/deps.dat" 2> "$WORK/pq-twice.err"
	expect "two inputs of one host and name into one file: not refused" [ $? != 0 ] || return 1
	expect "two inputs of one name: not said why" grep -q 'are named deps' "$WORK/pq-twice.err" || return 1
	"$GT" report --format parquet -o "$WORK/pq-off" "$WORK/pq-fx/deps.dat" --ts-offset 1ms 2> "$WORK/pq-off.err"
	expect "--ts-offset: not refused as a wrong option (125)" [ $? = 125 ] || return 1
	: > "$WORK/pq-file"
	"$GT" report --format parquet -o "$WORK/pq-file" "$WORK/pq-fx/deps.dat" 2> "$WORK/pq-file.err"
	expect "-o a file: not refused" [ $? != 0 ] && grep -q 'is not a directory' "$WORK/pq-file.err"
}

# docs/parquet.md's DuckDB queries on a fleet of fixture copies: the answers the page says
test_parquet_documented_queries() {
	local readers out
	readers=$("$PQ_DIR/fetch.sh")
	case $? in
	0) ;;
	77) WHY="the Parquet readers: $readers"; return 77 ;;
	*) WHY="tests/parquet/fetch.sh failed: $readers"; return 1 ;;
	esac
	"$PQ_DIR/make-fleet.sh" "$GT" "$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" \
		"$WORK/pq-q" > "$WORK/pq-fleet.err" 2>&1 || { WHY="make-fleet.sh failed: $(tail -3 "$WORK/pq-fleet.err")"; return 1; }
	node "$PQ_DIR/queries.mjs" "$readers" "$ROOT_DIR/docs/parquet.md" "$WORK/pq-q/fleet" > "$WORK/pq-q.txt" ||
		{ WHY="$(grep -m2 'error' "$WORK/pq-q.txt" | tr '\n' ' ')"; return 1; }
	out=$WORK/pq-q.txt
	expect "not the five queries ($(cut -d: -f1 "$out" | tr '\n' ' '))" [ "$(wc -l < "$out")" = 5 ] || return 1
	expect "p99 per host: not node03 first at 1170 us, then node01 (its slower week), node02, node04" \
		grep -qx 'p99-per-host: \[{"host":"node03","jobs":"14","p99_total_ns":"1170000"},{"host":"node01","jobs":"21","p99_total_ns":"780000"},{"host":"node02","jobs":"14","p99_total_ns":"390000"},{"host":"node04","jobs":"14","p99_total_ns":"390000"}\]' "$out" || return 1
	expect "straggler: not node03 at 3 times the median in step-2" \
		grep -qx 'straggler-per-step: \[{"step":"step-1","straggler":"node01","p99_total_ns":"390000","times_the_median":1,"hosts":"4"},{"step":"step-2","straggler":"node03","p99_total_ns":"1170000","times_the_median":3,"hosts":"4"}\]' "$out" || return 1
	expect "waited behind whom: not llama behind rival on 4 hosts" \
		grep -qx 'waited-behind-whom: \[{"waited":"llama","behind":"rival","hosts":"4","jobs":"9","waited_ns":"3480000"}\]' "$out" || return 1
	expect "week against the last: not node01's 390 us against 780 us" \
		grep -qx 'week-against-last: \[{"host":"node01","week":"2027-01-11","jobs":"14","p99_total_ns":"390000","p99_week_before":"780000"}\]' "$out" || return 1
	expect "slowest KFD creates: not hipapp's 80 us on node02" \
		grep -qx 'slowest-kfd-creates: \[{"host":"node02","run":"kfd","pid":"4242","comm":"hipapp","root":"kfd_ioctl_create_queue","duration_ns":"80000"}\]' "$out"
}

# the jobs' LIST columns: docs/parquet.md's hw_stints queries on the i915 fixtures'
# tables, by DuckDB, with the answers the page gives; each LIST leaf's statistics
# count its null and empty lists as nulls (parquet_metadata)
test_parquet_nested_columns() {
	local readers out
	pq_fixtures || return
	readers=$("$PQ_DIR/fetch.sh")
	case $? in
	0) ;;
	77) WHY="the Parquet readers: $readers"; return 77 ;;
	*) WHY="tests/parquet/fetch.sh failed: $readers"; return 1 ;;
	esac
	"$GT" report --format parquet -o "$WORK/pq-stints" "$WORK/pq-fx/i915.dat" "$WORK/pq-fx/i915-preempted.dat" \
		2> "$WORK/pq-stints.err" || { WHY="report failed: $(cat "$WORK/pq-stints.err")"; return 1; }
	node "$PQ_DIR/queries.mjs" "$readers" "$ROOT_DIR/docs/parquet.md" "$WORK/pq-stints" "duckdb (preempted jobs)" \
		> "$WORK/pq-stints.txt" || { WHY="$(grep -m2 'error' "$WORK/pq-stints.txt" | tr '\n' ' ')"; return 1; }
	out=$WORK/pq-stints.txt
	expect "not the two hw_stints queries ($(cut -d: -f1 "$out" | tr '\n' ' '))" [ "$(wc -l < "$out")" = 2 ] || return 1
	expect "each stint: not i915's two and i915-preempted's four" \
		grep -qx 'each-stint: \[{"host":"unknown","run":"i915","ring":"rcs0","fence":"11:2","start_ns":"1000125000","end_ns":"1000180000","on_engine_ns":"55000"},{"host":"unknown","run":"i915","ring":"rcs0","fence":"11:2","start_ns":"1000260000","end_ns":"1000300000","on_engine_ns":"40000"},{"host":"unknown","run":"i915-preempted","ring":"rcs0","fence":"60:1","start_ns":"1000020000","end_ns":"1000030000","on_engine_ns":"10000"},{"host":"unknown","run":"i915-preempted","ring":"rcs0","fence":"60:1","start_ns":"1000040000","end_ns":"1000050000","on_engine_ns":"10000"},{"host":"unknown","run":"i915-preempted","ring":"rcs0","fence":"60:1","start_ns":"1000060000","end_ns":"1000070000","on_engine_ns":"10000"},{"host":"unknown","run":"i915-preempted","ring":"rcs0","fence":"60:1","start_ns":"1000080000","end_ns":"1000130000","on_engine_ns":"50000"}\]' "$out" || return 1
	expect "most preempted: not 60:1's four stints (60 us on the engine of 110), then 11:2's two (95 of 175)" \
		grep -qx 'most-preempted: \[{"host":"unknown","run":"i915-preempted","ring":"rcs0","fence":"60:1","stints":"4","on_engine_ns":"60000","span_ns":"110000"},{"host":"unknown","run":"i915","ring":"rcs0","fence":"11:2","stints":"2","on_engine_ns":"95000","span_ns":"175000"}\]' "$out" || return 1
	# shellcheck disable=SC2016 # JavaScript, not shell
	node --input-type=module -e '
		const [readers, file] = process.argv.slice(1);
		const R = await import(`${readers}/readers.mjs`);
		const con = await (await R.DuckDBInstance.create(":memory:")).connect();
		const r = await con.runAndReadAll(`SELECT path_in_schema AS p, num_values AS n, stats_null_count AS nulls,
			stats_min_value AS lo, stats_max_value AS hi FROM parquet_metadata(${"\x27" + file + "\x27"})
			WHERE path_in_schema LIKE \x27hw_stints,%\x27 OR path_in_schema LIKE \x27dep_fences,%\x27 ORDER BY column_id`);
		console.log(r.getRowObjectsJson().map((c) => `${c.p}: ${c.n} ${c.nulls} ${c.lo} ${c.hi}`).join("\n"));' \
		"$readers" "$WORK/pq-stints/jobs/host=unknown/i915.parquet" > "$WORK/pq-stints-meta.txt" ||
		{ WHY="parquet_metadata failed: $(head -c 300 "$WORK/pq-stints-meta.txt")"; return 1; }
	# i915: five jobs, one of two stints (4 null lists), every dep_fences empty (5)
	expect "the LIST leaves' levels, null counts, min/max are not: $(tr '\n' ';' < "$WORK/pq-stints-meta.txt")" \
		[ "$(tr '\n' ';' < "$WORK/pq-stints-meta.txt")" = "hw_stints, list, element, start_ns: 6 4 1000125000 1000260000;hw_stints, list, element, end_ns: 6 4 1000180000 1000300000;dep_fences, list, element: 5 5 null null;" ]
}

# past one row group: 66,000 jobs are two groups, each with its own statistics,
# and both readers still read every value as the JSON has it
test_parquet_row_groups() {
	local readers rc
	"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" bench:66000 "$WORK/pq-big.dat" > /dev/null ||
		{ WHY="make-fixture bench:66000 failed"; return 1; }
	"$PQ_DIR/check-dats.sh" "$GT" "$WORK/pq-big" "$WORK/pq-big.dat" > "$WORK/pq-big.txt"
	rc=$?
	case $rc in
	0) ;;
	77) WHY=$(tail -1 "$WORK/pq-big.txt"); return 77 ;;
	*) WHY="$(grep -m3 '^not ok' "$WORK/pq-big.txt" | cut -c1-300 | tr '\n' ' ')"; return 1 ;;
	esac
	expect "not 66000 jobs read by both" [ "$(grep -c '^ok - pq-big jobs by .*: 66000 rows$' "$WORK/pq-big.txt")" = 2 ] || return 1
	readers=$("$PQ_DIR/fetch.sh") || { WHY="fetch.sh: $readers"; return 1; }
	# shellcheck disable=SC2016 # JavaScript, not shell
	node --input-type=module -e '
		const [readers, file] = process.argv.slice(1);
		const R = await import(`${readers}/readers.mjs`);
		const con = await (await R.DuckDBInstance.create(":memory:")).connect();
		const r = await con.runAndReadAll(`SELECT row_group_num_rows AS n, stats_min_value AS lo, stats_max_value AS hi
			FROM parquet_metadata(${"\x27" + file + "\x27"}) WHERE path_in_schema = \x27done_ns\x27 ORDER BY row_group_id`);
		console.log(r.getRowObjectsJson().map((g) => `${g.n} ${g.lo} ${g.hi}`).join("\n"));' \
		"$readers" "$WORK/pq-big/tables/jobs/host=unknown/pq-big.parquet" > "$WORK/pq-groups.txt" ||
		{ WHY="parquet_metadata failed: $(head -c 300 "$WORK/pq-groups.txt")"; return 1; }
	expect "not two row groups of 65536 and 464 rows: $(tr '\n' ';' < "$WORK/pq-groups.txt")" \
		[ "$(cut -d' ' -f1 "$WORK/pq-groups.txt" | tr '\n' ' ')" = "65536 464 " ] || return 1
	expect "the groups' done_ns ranges overlap (no row group to skip)" \
		awk 'NR == 1 { hi = $3 } NR == 2 { exit !($2 > hi) }' "$WORK/pq-groups.txt"
}

# SIGTERM while the tables are written: no temporary file is left behind
# (report names each as it opens it; cmd/ removes it on a stop)
test_parquet_stop_leaves_no_temporary() {
	local pid rc d
	[ -f "$WORK/pq-big.dat" ] ||
		"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" bench:66000 "$WORK/pq-big.dat" > /dev/null ||
		{ WHY="make-fixture bench:66000 failed"; return 1; }
	for d in 0.05 0.2; do
		rm -rf "$WORK/pq-stop"
		"$GT" report --format parquet -o "$WORK/pq-stop" "$WORK/pq-big.dat" 2> /dev/null &
		pid=$!
		sleep "$d"
		kill -TERM "$pid" 2> /dev/null
		wait "$pid"
		rc=$?
		expect "stopped after $d s (exit $rc): temporary files left: $(find "$WORK/pq-stop" -name '.*' 2> /dev/null | head -3 | tr '\n' ' ')" \
			[ -z "$(find "$WORK/pq-stop" -name '.*' 2> /dev/null)" ] || return 1
	done
}
