# gpu-trace report --format parquet: every fixture scenario's tables read by
# DuckDB and hyparquet (tests/parquet/fetch.sh installs both from npm into a
# cache) with every value equal to the JSON report's; the directory's rules
# (-o DIR, --force, 0640); the queries docs/parquet.md shows, run by DuckDB
# over a fleet of copies with one slow host. Needs no root.
# shellcheck shell=bash
# NO_ROOT

PQ_DIR=$ROOT_DIR/tests/parquet

# pq_fixtures: every scenario into $WORK/pq-fx/NAME.dat; their number in PQ_N
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
	# 9 tables, each read by both readers
	ok=$(grep -c '^ok - ' "$WORK/pq-check.txt")
	expect "not every table of the $PQ_N scenarios checked by both readers ($ok of $((PQ_N * 18)))" \
		[ "$ok" = $((PQ_N * 18)) ] || return 1
	expect "fewer than 40 scenarios ($PQ_N)" [ "$PQ_N" -ge 40 ]
}

test_parquet_directory_rules() {
	local d=$WORK/pq-rules mode
	pq_fixtures || return
	"$GT" report --format parquet "$WORK/pq-fx/deps.dat" > /dev/null 2> "$WORK/pq-noo.err"
	expect "no -o: not refused as a wrong option (125)" [ $? = 125 ] || return 1
	expect "no -o: not told to give -o DIR" grep -q 'give -o DIR' "$WORK/pq-noo.err" || return 1
	"$GT" report --format parquet -o "$d" "$WORK/pq-fx/deps.dat" "$WORK/pq-fx/host-clock.dat" 2> "$WORK/pq-rules.err" ||
		{ WHY="report failed: $(cat "$WORK/pq-rules.err")"; return 1; }
	expect "the note does not name the directory" grep -q "wrote 18 Parquet files under $d" "$WORK/pq-rules.err" || return 1
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
