#!/bin/bash
# Every output of report on every fixture scenario, one sha256 a line:
#   tests/tools/outputs-digest.sh GPU_TRACE MAKE_FIXTURE FORMATS [SCENARIO|FILE.dat...]
# (every scenario make-fixture lists, then each one named: bench:N, a lab file)
# "SCENARIO MODE HASH EXIT": the hash of the output, its stderr and its exit status. Moving code
# must leave every line as it was (tests/fixtures/outputs.sha256; the test
# outputs_byte_identical); a change of output changes that file in the same commit.
set -u
GT=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
MF=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
FORMATS=$(cd "$3" && pwd)
shift 3
# files named relative to where we were called, before the cd below
extra=()
for f in "$@"; do
	if [ -f "$f" ]; then
		extra+=("$(cd "$(dirname "$f")" && pwd)/$(basename "$f")")
	else
		extra+=("$f")
	fi
done
set -- "${extra[@]}"
dir=$(mktemp -d /tmp/gt-digest.XXXXXX) || exit 2
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 2

# MODE-NAME ARGS...: the modes a user has, each on the same file name
MODES=(
	"text|"
	"jobs|--jobs --wide --no-pager"
	"rings|--rings"
	"queues|--queues"
	"json|--format json"
	"json-jobs|--format json --jobs"
	"csv|--format csv"
	"csv-jobs|--format csv --jobs"
	"html|--format html"
	"perfetto|--format perfetto -o out.pftrace"
	"parquet|--format parquet -o out.parquet"
	"events|--events --no-pager"
	"events-jobs|--events --jobs --wide --no-pager"
	"events-window|--events --no-pager --from +0.000002 --to +0.003"
	"workload|--workload-only --from +0.000001"
)

digest() {
	local name=$1 m mode args rc
	for m in "${MODES[@]}"; do
		mode=${m%%|*}
		args=${m#*|}
		rm -rf out.pftrace out.parquet
		# shellcheck disable=SC2086
		"$GT" report $args trace.dat > out 2> err < /dev/null
		rc=$?
		[ -f out.pftrace ] && cat out.pftrace >> out
		# the tables' directory: each file's name and bytes
		[ -d out.parquet ] && (cd out.parquet && find . -type f | LC_ALL=C sort |
			while read -r f; do echo "$f"; cat "$f"; done) >> out
		printf '%s %s %s %s\n' "$name" "$mode" \
			"$({ cat out; echo "== stderr"; cat err; echo "== exit $rc"; } | sha256sum | cut -c1-16)" \
			"$rc"
	done
}

for s in $("$MF" "$FORMATS" list | cut -d' ' -f1); do
	"$MF" "$FORMATS" "$s" trace.dat > /dev/null 2>&1 || { echo "$s make-fixture failed"; continue; }
	digest "$s"
done
for f in "$@"; do
	if [ -f "$f" ]; then
		cp "$f" trace.dat
	else
		"$MF" "$FORMATS" "$f" trace.dat > /dev/null 2>&1 || { echo "$f make-fixture failed"; continue; }
	fi
	digest "$(basename "$f")"
done
