#!/usr/bin/env bash
# Each .dat's Parquet tables read by DuckDB and hyparquet, every value
# compared with the JSON report of the same file (check.mjs):
#   tests/parquet/check-dats.sh GPU_TRACE WORKDIR DAT...
# All inputs go through one report --format parquet (several inputs into one
# directory, as a fleet's are). Prints check.mjs's lines; exit 0 when every
# table of every input matched, 1 when one did not (or a report failed), 77
# with one line saying why when the readers cannot be had.
set -u
gt=$1 work=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
readers=$("$here/fetch.sh")
case $? in
0) ;;
77) echo "the Parquet readers: $readers"; exit 77 ;;
*) echo "tests/parquet/fetch.sh failed: $readers"; exit 1 ;;
esac
mkdir -p "$work" || exit 1
rm -rf "$work/tables"
"$gt" report --format parquet -o "$work/tables" "$@" 2> "$work/parquet.err"
rc=$?
# 2: none of the files has GPU events, their tables are written all the same
if [ $rc != 0 ] && [ $rc != 2 ]; then
	echo "not ok - report --format parquet exited $rc: $(head -c 400 "$work/parquet.err")"
	exit 1
fi
entries=()
i=0
for dat in "$@"; do
	i=$((i + 1))
	run=$(basename "$dat" .dat)
	"$gt" report --format json "$dat" > "$work/$i.summary.json" 2> /dev/null
	"$gt" report --format json --jobs "$dat" > "$work/$i.jobs.json" 2> /dev/null
	# the host folder its tables went to: the one holding this run's jobs
	host=
	for f in "$work/tables/jobs"/host=*/"$run.parquet"; do
		[ -f "$f" ] && host=${f%/*} && host=${host##*/} && break
	done
	[ -n "$host" ] || { echo "not ok - $dat: no $work/tables/jobs/host=*/$run.parquet"; exit 1; }
	entries+=("$(printf '{"dir": "%s", "host": "%s", "run": "%s", "summary": "%s", "jobs": "%s"}' \
		"$work/tables" "${host#host=}" "$run" "$work/$i.summary.json" "$work/$i.jobs.json")")
done
(IFS=,; echo "[${entries[*]}]") > "$work/manifest.json"
node "$here/check.mjs" "$readers" "$work/manifest.json"
