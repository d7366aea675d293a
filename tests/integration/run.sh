#!/usr/bin/env bash
# Integration suite: drives the built gpu-trace on this machine's tracefs.
#   tests/integration/run.sh BINARY [PART]
# PART: all (default); report, the files marked NO_ROOT, which never touch tracefs
# and so may run beside the rest; record, the rest (tracefs, recorded as found).
# Prints "ok/not ok/skip - name" per test and ends with "N passed, N failed, N skipped".
set -u
GT=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
PART=${2:-all}
case $PART in
all | report | record) ;;
*)
	echo "usage: run.sh BINARY [all|report|record]" >&2
	exit 2
	;;
esac
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$HERE/lib.sh"
export LSAN_OPTIONS="suppressions=$ROOT_DIR/tests/lsan.supp:print_suppressions=0:${LSAN_OPTIONS:-}"
export ASAN_OPTIONS="fast_unwind_on_malloc=0:malloc_context_size=30:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

WORK=$(mktemp -d /tmp/gt-it.XXXXXX)
chmod 0755 "$WORK"
trap 'cleanup_suite' EXIT

cleanup_suite() {
	local i
	# never leave what our runs created; never touch what was there before
	[ -n "${TRACEFS:-}" ] && for i in $(gt_instances); do
		grep -qx "$i" "$WORK/instances.before" 2>/dev/null || rmdir "$TFS/instances/$i" 2>/dev/null
	done
	rm -rf "$WORK"
}

ROOT=yes
if [ "$(id -u)" != 0 ]; then
	ROOT=
elif [ "$PART" != report ] && ! mountpoint -q "$TFS" && ! mount -t tracefs nodev "$TFS"; then
	echo "not ok - tracefs: cannot mount $TFS"
	echo "0 passed, 1 failed"
	exit 1
fi
# this run changes tracefs, so checks it is left as found: never the report part,
# which may run beside a part that records and must not take its instances for ours
TRACEFS=
[ -n "$ROOT" ] && [ "$PART" != report ] && TRACEFS=yes
# Tests that need the top-level buffer (--top-level, function_graph where
# only the top level has it) make the kernel allocate it if it never was:
# "7 (expanded: 1408)" reads 1410 from then on, the same buffer. The suite
# compares it in pages; fresh_boot_instance_record holds the strict line.
if [ -n "$TRACEFS" ]; then
	gt_instances > "$WORK/instances.before"
	SNAPSHOT_BUFFER_PAGES=1 tracefs_snapshot > "$WORK/suite.before"
fi
echo "# integration ($PART): $GT on $(uname -r)"

# First, before any test uses the top level: on a machine whose top-level
# buffer was never used since boot, a record in its own instance leaves
# tracefs byte for byte as found, that buffer included.
fresh_boot_instance_record() {
	local before v pages=
	before=$(cat "$TFS/buffer_size_kb")
	case $before in
	*expanded:*) ;;
	*)
		WHY="the top-level buffer was used since boot (reads $before): reboot to test this"
		return 77
		;;
	esac
	# the lab saw 6.1's kernel allocate the top-level buffer at an instance's
	# first event (one flag for all buffers) and 6.12+ not: before 6.12 that
	# allocation, to the size the kernel set aside, is the one change allowed
	v=$(uname -r)
	[ "$(printf '%s\n6.12\n' "${v%%-*}" | sort -V | head -1)" = 6.12 ] || pages=1
	SNAPSHOT_BUFFER_PAGES=$pages tracefs_snapshot > "$WORK/snap.before"
	"$GT" record -o "$WORK/fresh.dat" -- true > "$WORK/fresh.out" 2>&1 ||
		{ WHY="record failed: $(tail -1 "$WORK/fresh.out")"; return 1; }
	SNAPSHOT_BUFFER_PAGES=$pages same_as_before "a record in an instance on a never-used top-level buffer"
}
[ -n "$TRACEFS" ] && run_test fresh_boot_instance_record

for f in "$HERE"/test-*.sh; do
	# NO_ROOT files are the report part: they never touch tracefs
	if grep -q '^# NO_ROOT' "$f"; then
		[ "$PART" = record ] && continue
	else
		[ "$PART" = report ] && continue
	fi
	# files that record need root; report's tests run without it
	if [ -z "$ROOT" ] && ! grep -q '^# NO_ROOT' "$f"; then
		skip "${f##*/}" "needs root for tracefs (run: sudo make check)"
		continue
	fi
	# shellcheck source=/dev/null
	. "$f"
	for t in $(grep -o '^test_[a-z0-9_]*()' "$f" | tr -d '()'); do
		run_test "$t"
	done
done

if [ -n "$TRACEFS" ]; then
	SNAPSHOT_BUFFER_PAGES=1 tracefs_snapshot > "$WORK/suite.after"
	if diff -u "$WORK/suite.before" "$WORK/suite.after" > "$WORK/suite.diff"; then
		ok "suite left tracefs as it found it"
	else
		not_ok "suite left tracefs as it found it" "$(head -20 "$WORK/suite.diff" | tr '\n' ' ')"
	fi
fi
echo "$PASS passed, $FAIL failed, $SKIPPED skipped"
[ "$FAIL" = 0 ]
