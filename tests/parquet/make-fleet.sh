#!/usr/bin/env bash
# A fleet's tables for the queries of docs/parquet.md, from fixture scenarios:
#   tests/parquet/make-fleet.sh GPU_TRACE MAKE_FIXTURE FORMATS_DIR WORKDIR
# Four nodes, two steps each (step-1, step-2: copies of "fleet"), node03's
# step-2 three times as slow ("fleet-slow"); node01 also a week earlier,
# twice as slow ("fleet-last-week", run last-week); node02 also KFD queue
# creations ("kfd-graph", run kfd). The tables end in WORKDIR/fleet. The
# scenarios name node01 (node03 the slow one): the copies of node01's tables
# are placed under node02's and node04's folders, as their own runs would be.
set -eu
gt=$1 mkfx=$2 formats=$3 work=$4
rm -rf "$work/fleet" "$work/fleet-src"
mkdir -p "$work/fleet-src/a" "$work/fleet-src/b"
"$mkfx" "$formats" fleet "$work/fleet-src/a/step-1.dat"
cp "$work/fleet-src/a/step-1.dat" "$work/fleet-src/a/step-2.dat"
"$mkfx" "$formats" fleet-last-week "$work/fleet-src/a/last-week.dat"
"$mkfx" "$formats" kfd-graph "$work/fleet-src/a/kfd.dat"
cp "$work/fleet-src/a/step-1.dat" "$work/fleet-src/b/step-1.dat"
"$mkfx" "$formats" fleet-slow "$work/fleet-src/b/step-2.dat"
"$gt" report --format parquet -o "$work/fleet-src/a.tables" "$work/fleet-src/a/step-1.dat" \
	"$work/fleet-src/a/step-2.dat" "$work/fleet-src/a/last-week.dat" "$work/fleet-src/a/kfd.dat" 2> /dev/null
"$gt" report --format parquet -o "$work/fleet-src/b.tables" "$work/fleet-src/b/step-1.dat" \
	"$work/fleet-src/b/step-2.dat" 2> /dev/null
for t in "$work/fleet-src/a.tables"/*; do
	t=${t##*/}
	mkdir -p "$work/fleet/$t/host=node01" "$work/fleet/$t/host=node02" "$work/fleet/$t/host=node03" \
		"$work/fleet/$t/host=node04"
	cp "$work/fleet-src/a.tables/$t/host=node01"/step-*.parquet "$work/fleet/$t/host=node01/"
	cp "$work/fleet-src/a.tables/$t/host=node01/last-week.parquet" "$work/fleet/$t/host=node01/"
	cp "$work/fleet-src/a.tables/$t/host=node01"/step-*.parquet "$work/fleet/$t/host=node02/"
	cp "$work/fleet-src/a.tables/$t/host=unknown/kfd.parquet" "$work/fleet/$t/host=node02/"
	cp "$work/fleet-src/a.tables/$t/host=node01"/step-*.parquet "$work/fleet/$t/host=node04/"
	cp "$work/fleet-src/b.tables/$t/host=node01/step-1.parquet" "$work/fleet/$t/host=node03/"
	cp "$work/fleet-src/b.tables/$t/host=node03/step-2.parquet" "$work/fleet/$t/host=node03/"
done
