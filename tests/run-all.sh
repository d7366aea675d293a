#!/usr/bin/env bash
# The whole test suite, as `make check` and CI run it:
#   lib/'s include rules (tests/check-layers.sh), the
#   unit tests (CUnit, plain and ASan+UBSan), then the integration suite with
#   the plain and the ASan+UBSan binary, then the fresh install (a bare
#   debootstrapped Debian 12 runs the README's first command), then the flight
#   recorder's systemd unit (tests/service: a booted systemd-nspawn), then srun
#   --gpu-trace on a real Slurm (tests/slurm), then the kernel
#   lab (tests/vm: real GPU-driver events from Debian kernels under qemu); the
#   integration suite's report part (tests/integration/run.sh: the files that
#   never touch tracefs) runs in the background from the start to the end.
#   Ends with "N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/.."
what=${1:-all}
pass=0
fail=0
skipped=0
# The python3 Debian installed (make deps), never the first one on the caller's PATH: a
# pyenv or conda python3 there is another interpreter with other modules, and pyenv's
# shim costs 0.7 s a call, of which the suite makes hundreds
if [ -x /usr/bin/python3 ]; then
	pybin=$(mktemp -d /tmp/gt-python.XXXXXX)
	ln -s /usr/bin/python3 "$pybin/python3"
	trap 'rm -rf "$pybin"' EXIT
	export PATH="$pybin:$PATH"
fi
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
export ASAN_OPTIONS="fast_unwind_on_malloc=0:malloc_context_size=30:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

unit() {
	local bin=$1 log line
	log=$(mktemp)
	"$bin" > "$log" 2>&1
	local rc=$?
	cat "$log"
	# CUnit: "tests  Total  Ran  Passed  Failed  Inactive"
	line=$(awk '$1 == "tests" { print $3, $4, $5 }' "$log")
	# a suite that cannot run here says "SKIP <suite>: why" instead of registering
	skipped=$((skipped + $(grep -c '^SKIP ' "$log")))
	rm -f "$log"
	set -- $line
	if [ $# = 3 ]; then
		pass=$((pass + $2))
		fail=$((fail + $3))
	fi
	# a sanitizer report after the summary, or a crash before it (no summary:
	# the tests after it never ran), fails the run without a failed test
	if [ $rc != 0 ] && { [ $# != 3 ] || [ "$3" = 0 ]; }; then
		echo "not ok - $bin exited $rc (sanitizer or crash)"
		fail=$((fail + 1))
	fi
}

suite() {
	local log counts began=$SECONDS
	log=$(mktemp)
	"$@" 2>&1 | tee "$log"
	# what makes the suite long, in CI's log too
	echo "# $*: $((SECONDS - began)) s, $SECONDS s since the suite began"
	counts=$(tail -1 "$log")
	rm -f "$log"
	if [[ $counts =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed(,\ ([0-9]+)\ skipped)? ]]; then
		pass=$((pass + BASH_REMATCH[1]))
		fail=$((fail + BASH_REMATCH[2]))
		skipped=$((skipped + ${BASH_REMATCH[4]:-0}))
	else
		echo "not ok - $* did not finish"
		fail=$((fail + 1))
	fi
}

case $what in
layers | all)
	suite tests/check-layers.sh
	;;
esac
case $what in
unit | all)
	unit build/normal/unit-tests
	unit build/asan/unit-tests
	;;
esac
case $what in
integration | all)
	# the report part (files that never touch tracefs) of each binary runs beside the
	# recording part, which has tracefs to itself; its lines follow the recording part's
	# (each within 40 minutes: a hang shows as that part not finishing, with its log)
	logs=$(mktemp -d /tmp/gt-report-part.XXXXXX)
	# a process group of its own: an interrupted run takes all of it down
	setsid -w bash -c '
		timeout -k 10 2400 tests/integration/run.sh ./gpu-trace report > "$1/plain" 2>&1
		timeout -k 10 2400 tests/integration/run.sh build/asan/gpu-trace report > "$1/asan" 2>&1
	' report-part "$logs" &
	report_part=$!
	trap 'kill -- -"$report_part" 2> /dev/null; rm -rf "$logs" "${pybin:-}"' EXIT
	suite tests/integration/run.sh ./gpu-trace record
	suite tests/integration/run.sh build/asan/gpu-trace record
	;;
esac
# the fresh install and the lab run while the report part may still: the fresh
# install's demo records on this tracefs, now free; the lab's guests have their own
case $what in
fresh | all)
	suite tests/fresh-install/run.sh
	;;
esac
# the flight recorder's unit under a booted systemd; it records on this tracefs too
case $what in
service | all)
	suite tests/service/run.sh
	;;
esac
# srun --gpu-trace on a real Slurm: two nodes' recorders on this tracefs
case $what in
slurm | all)
	suite tests/slurm/run.sh
	;;
esac
case $what in
vm | all)
	suite tests/vm/run.sh ./gpu-trace
	;;
esac
case $what in
integration | all)
	wait "$report_part"
	for b in plain asan; do
		echo "# the report part of the $b binary, run beside the recording part:"
		suite cat "$logs/$b"
	done
	rm -rf "$logs"
	;;
esac
echo "$pass passed, $fail failed, $skipped skipped"
[ "$fail" = 0 ]
