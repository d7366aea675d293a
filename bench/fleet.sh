#!/usr/bin/env bash
# Fleet benchmark (BENCHMARKS.md): 64 recordings of the report benchmark's trace
# (bench:JOBS:EXEC_PCT:SEED, each host its own seed's +-3% per job) under Hive-style
# host=nodeNN folders, node41 planted 30% slower on the hardware, read by
#   gpu-trace fleet -j 1          (one file at a time)
#   gpu-trace fleet -j N          (N = the CPUs online, the default)
#   gpu-trace report, 64 times    (one after another: what a script does today)
# and gpu-trace fleet -j N over 16, 32 and 64 of the files, to show the peak RSS
# flat as the files grow; wall time and peak RSS (/usr/bin/time) of each, in one
# run of the script, and who the summary named.
#   [BENCH_RUNS=N] bench/fleet.sh [JOBS] [DIR]   (JOBS per file, default 200000:
#                                                 1.2M events, 62 MB a file)
set -u
cd "$(dirname "$0")/.." || exit 1
JOBS=${1:-200000}
DIR=${2:-${TMPDIR:-/tmp}/gpu-trace-fleet-bench}
GT=./gpu-trace
MK=build/make-fixture
HOSTS=64
SLOW=node41
[ -x "$GT" ] && [ -x "$MK" ] || { echo "bench: build first: make gpu-trace build/make-fixture"; exit 1; }
[ -x /usr/bin/time ] || { echo "bench: needs /usr/bin/time (apt-get install time)"; exit 1; }
mkdir -p "$DIR"
N=$(nproc)
RUNS=${BENCH_RUNS:-1}

for ((i = 0; i < HOSTS; i++)); do
	h=$(printf 'node%02d' "$i")
	f=$DIR/fleet/host=$h/trace.dat
	pct=100
	[ "$h" = "$SLOW" ] && pct=130
	# the file's size and slowness in its name's folder: a rerun reuses only its own
	if [ ! -s "$f" ] || [ "$(cat "$DIR/fleet/host=$h/made" 2> /dev/null)" != "$JOBS:$pct" ]; then
		mkdir -p "$DIR/fleet/host=$h" &&
			"$MK" tests/fixtures/formats "bench:$JOBS:$pct:$((i + 1))" "$f" > /dev/null &&
			echo "$JOBS:$pct" > "$DIR/fleet/host=$h/made" || exit 1
	fi
done
mapfile -t FILES < <(printf '%s\n' "$DIR"/fleet/host=node*/trace.dat | sort)

# measure CMD...: "seconds peak_rss_kb cpu_seconds" of the fastest of RUNS runs (RSS: the
# largest; CPU: user + system of it and its children, the fastest run's)
measure() {
	local i best='' rss=0 t m u s cpu=0 rc
	for ((i = 0; i < RUNS; i++)); do
		/usr/bin/time -f '%e %M %U %S' -o "$DIR/time.out" "$@" > "$DIR/out.txt" 2> "$DIR/err.out"
		rc=$?
		[ $rc = 0 ] || { echo "bench: $1 ${2:-} failed ($rc): $(head -2 "$DIR/err.out")" >&2; echo "0 0 0"; return; }
		read -r t m u s <<< "$(tail -1 "$DIR/time.out")"
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then
			best=$t
			cpu=$(echo "$u + $s" | bc)
		fi
		[ "$m" -le "$rss" ] || rss=$m
	done
	echo "$best $rss $cpu"
}

# reports FILE...: one gpu-trace report after another (peak RSS: the largest one's)
reports() {
	local f
	for f; do "$GT" report "$f" > /dev/null || return 1; done
}
export -f reports
export GT

cat "${FILES[@]}" > /dev/null
mb=$(( $(stat -c %s "${FILES[0]}") / 1048576 ))
echo "# fleet benchmark, $(uname -r), $N CPUs online, $HOSTS files of $JOBS jobs ($mb MB each) in $DIR/fleet"
echo "# load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-40s %6s %9s %9s %12s %10s  %s\n" run files "time (s)" "CPU (s)" "peak RSS MB" "vs reports" named
read -r rt rm rc <<< "$(measure bash -c 'reports "$@"' _ "${FILES[@]}")"
row() {	# NAME FILES TIME RSS CPU NAMED
	printf "%-40s %6s %9s %9s %12.1f %10s  %s\n" "$1" "$2" "$3" "$5" "$(echo "$4 / 1024" | bc -l)" \
		"$(echo "scale=2; $rt / $3" | bc -l 2> /dev/null || echo -)" "$6"
}
named() { sed -n 's/^  \(node[0-9]*\) [^ ]*: .*/\1/p' "$DIR/out.txt" | sort | uniq -c | awk '{ printf "%s%s x%s", (NR > 1 ? ", " : ""), $2, $1 }'; }
row "gpu-trace report x $HOSTS (sequential)" "$HOSTS" "$rt" "$rm" "$rc" "-"
read -r t m c <<< "$(measure "$GT" fleet -j 1 "$DIR/fleet")"
row "gpu-trace fleet -j 1" "$HOSTS" "$t" "$m" "$c" "$(named)"
cp "$DIR/out.txt" "$DIR/j1.txt"
read -r t m c <<< "$(measure "$GT" fleet -j "$N" "$DIR/fleet")"
row "gpu-trace fleet -j $N" "$HOSTS" "$t" "$m" "$c" "$(named)"
cmp -s "$DIR/out.txt" "$DIR/j1.txt" && same=yes || same=NO
for n in 16 32 64; do
	read -r t m c <<< "$(measure "$GT" fleet -j "$N" "${FILES[@]:0:$n}")"
	row "gpu-trace fleet -j $N (files as named)" "$n" "$t" "$m" "$c" "$(named)"
done
echo "# -j 1 and -j $N outputs identical: $same; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# target (issue 48): fleet -j N faster than $HOSTS sequential reports by about the CPUs ($N);"
echo "# peak RSS flat from 16 to 64 files; named: $SLOW alone, on each of its 5 rings"
