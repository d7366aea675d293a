# scripts/gpu-trace-experiment on the real tracefs: cases x repetitions in
# interleaved order, the layout and manifest it promises, Ctrl-C keeping the
# finished runs, and its own error lines. The scripts are shellcheck-clean.
# shellcheck shell=bash

EXPERIMENT=$ROOT_DIR/scripts/gpu-trace-experiment

test_scripts_are_shellcheck_clean() {
	command -v shellcheck > /dev/null || { WHY="shellcheck not installed (sudo make deps)"; return 77; }
	shellcheck "$ROOT_DIR"/scripts/* > "$WORK/sc.out" 2>&1 ||
		{ WHY="$(head -5 "$WORK/sc.out" | tr '\n' ' ')"; return 1; }
}

test_experiment_cases_and_repetitions() {
	local d=$WORK/exp1/results/e1 rc
	mkdir -p "$WORK/exp1"
	(cd "$WORK/exp1" && "$EXPERIMENT" --gpu-trace "$GT" -n 3 --name e1 -r -e -r syscalls:sys_enter_getppid \
		-c fast='GT_CASE=fast' -c slow='GT_CASE=slow EXTRA=1' -- \
		sh -c 'echo "$GT_CASE ${EXTRA:-}" >> ../order; ls / > /dev/null') \
		> "$WORK/exp1.out" 2> "$WORK/exp1.err"
	rc=$?
	# no GPU driver here: every run fine, and compare had nothing to compare (2)
	expect "experiment exit $rc: $(tail -3 "$WORK/exp1.err" | tr '\n' ' ')" [ $rc = 2 ] || return 1
	# repetition r starts at case r: fast slow, slow fast, fast slow
	expect "not interleaved: $(tr '\n' ' ' < "$WORK/order")" \
		[ "$(tr '\n' ' ' < "$WORK/order")" = "fast  slow 1 slow 1 fast  fast  slow 1 " ] || return 1
	for c in fast slow; do
		for r in 1 2 3; do
			for f in trace.dat report.json record.log; do
				expect "$c/$r/$f missing or empty" [ -s "$d/$c/$r/$f" ] || return 1
			done
		done
	done
	expect "slow's env file" [ "$(tr '\n' ' ' < "$d/slow/2/env")" = "GT_CASE=slow EXTRA=1 " ] || return 1
	python3 - "$d/manifest.json" > "$WORK/exp1.check" <<'PY' || { WHY="$(cat "$WORK/exp1.check")"; return 1; }
import json, sys
m = json.load(open(sys.argv[1]))
assert m["schema"] == "gpu-trace-experiment/1" and m["repetitions"] == 3, m
assert [c["name"] for c in m["cases"]] == ["fast", "slow"], m["cases"]
assert len(m["runs"]) == 6 and all(r["status"] == 0 and r["ok"] for r in m["runs"]), m["runs"]
assert m["failed"] == 0, m
assert m["interrupted"] is False and m["kernel"] and m["gpu_trace"].startswith("gpu-trace "), m
assert [(r["case"], r["rep"]) for r in m["runs"]][:4] == [("fast", 1), ("slow", 1), ("slow", 2), ("fast", 2)]
PY
	# this machine has no GPU driver: the comparison at the end says there is nothing to compare
	expect "no comparison at the end: $(tail -n 2 "$WORK/exp1.out" "$WORK/exp1.err" | tr '\n' ' ')" \
		grep -q "^gpu-trace compare: neither .*results/e1/fast (3 runs) nor .*results/e1/slow (3 runs) holds a GPU job: nothing to compare" \
		"$WORK/exp1.out" || return 1
	expect "no compare-fast-slow.txt" [ -s "$d/compare-fast-slow.txt" ]
}

# A run whose command failed was recorded as "status":127 in the manifest and
# the experiment printed "== 1 runs" and exited 0: it names the run and exits 1
test_experiment_says_which_runs_failed() {
	local d=$WORK/exp3 rc
	mkdir -p "$d"
	(cd "$d" && "$EXPERIMENT" --gpu-trace "$GT" -n 2 --name bad -r -e -r sched:sched_switch \
		-c ok='X=1' -c bad='X=2' -- sh -c '[ "$X" = 1 ]') > "$d/out" 2> "$d/err"
	rc=$?
	expect "exit $rc after failed runs: $(tail -2 "$d/err" | tr '\n' ' ')" [ $rc = 1 ] || return 1
	expect "the failed runs are not named: $(tail -2 "$d/err" | tr '\n' ' ')" \
		grep -q '^== 2 of 4 runs failed: bad/1 (exit 1) bad/2 (exit 1)$' "$d/err" || return 1
	python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
assert m["failed"] == 2, m["failed"]
assert sorted((r["case"], r["ok"]) for r in m["runs"]) == [("bad", False)] * 2 + [("ok", True)] * 2, m["runs"]' \
		"$d/results/bad/manifest.json" 2> "$d/check" || { WHY="manifest: $(tail -1 "$d/check")"; return 1; }
}

test_experiment_ctrl_c_keeps_finished_runs() {
	local d=$WORK/exp2/results/e2 pid rc finished
	mkdir -p "$WORK/exp2"
	# SIGINT as at a terminal, also where the suite was started in the background
	# (a shell without job control starts it with SIGINT ignored: no trap can catch it)
	(cd "$WORK/exp2" && exec setsid env --default-signal=INT "$EXPERIMENT" --gpu-trace "$GT" -n 20 --name e2 -r -e -r sched:sched_process_exec \
		-c a='X=1' -- sleep 0.4) > /dev/null 2> "$WORK/exp2.err" &
	pid=$!
	# two runs finished, then ^C: the ASan binary on a loaded CI machine once took
	# more than the 10 s this waited (one run in the manifest); a minute now
	for _ in $(seq 1 600); do
		[ "$(find "$d" -name report.json 2> /dev/null | grep -c '')" -ge 2 ] && break
		sleep 0.1
	done
	finished=$(find "$d" -name report.json 2> /dev/null | grep -c '')
	kill -INT -- "-$pid" 2> /dev/null
	wait "$pid"
	rc=$?
	expect "not exit 130 after Ctrl-C: $rc" [ $rc = 130 ] || return 1
	expect "fewer than 2 runs finished in 60 s before ^C ($finished): nothing to check" \
		[ "$finished" -ge 2 ] || return 1
	python3 - "$d" > "$WORK/exp2.check" <<'PY' || { WHY="$(cat "$WORK/exp2.check")"; return 1; }
import json, os, sys
d = sys.argv[1]
m = json.load(open(os.path.join(d, "manifest.json")))
assert m["interrupted"] is True, m
n = len(m["runs"])
assert 2 <= n < 20, n
for r in m["runs"]:
    assert os.path.getsize(r["file"].replace("results/e2", d, 1)) > 0, r
# the run in progress was dropped: no directory without its manifest entry
dirs = sorted(os.listdir(os.path.join(d, "a")), key=int)
assert dirs == [str(i) for i in range(1, n + 1)], (dirs, n)
PY
	expect "no word on how to compare what finished" grep -q 'stopped early' "$WORK/exp2.err"
}

test_experiment_errors() {
	"$EXPERIMENT" -c 'bad name=X=1' -- true 2> "$WORK/xe1"
	expect "a bad case name accepted" [ $? = 125 ] || return 1
	expect "not one line" [ "$(grep -c '' "$WORK/xe1")" = 1 ] || return 1
	"$EXPERIMENT" -c a='notavar' -- true 2> "$WORK/xe2"
	expect "a case without VAR=value accepted" grep -q "is not VAR=value" "$WORK/xe2" || return 1
	"$EXPERIMENT" -c a='X=1' 2> "$WORK/xe3"
	expect "no command accepted" grep -q 'no command' "$WORK/xe3" || return 1
	"$EXPERIMENT" -n 0 -- true 2> "$WORK/xe4"
	expect "-n 0 accepted" grep -q "bad -n '0'" "$WORK/xe4" || return 1
	"$EXPERIMENT" --name 'a/b' -- true 2> "$WORK/xe5"
	expect "--name a/b accepted" grep -q "bad --name 'a/b'" "$WORK/xe5" || return 1
	"$EXPERIMENT" -e 'a/b' -- true 2> "$WORK/xe6"
	expect "the old -e spelling no longer read as the name" grep -q "bad -e 'a/b'" "$WORK/xe6" || return 1
	"$EXPERIMENT" --help | grep -q '^  --name NAME ' || { WHY="--help does not name --name"; return 1; }
	"$EXPERIMENT" --help | grep -q '^usage: gpu-trace-experiment' || { WHY="--help"; return 1; }
}

# The GEMM experiment: a case per size, the size in GT_GEMM_SIZE, the runtime's
# log on; without rocblas-bench or hipblaslt-bench it asks for a command.
test_gemm_experiment() {
	local d=$WORK/gemm/results/g
	mkdir -p "$WORK/gemm"
	(cd "$WORK/gemm" && "$ROOT_DIR/scripts/gpu-trace-gemm" --gpu-trace "$GT" -s 64,128 -n 1 --name g -- \
		sh -c 'echo "$GT_GEMM_SIZE" >> ../sizes; python3 "$1" 2' gemm "$ROOT_DIR/tests/tools/fake-hip.py") \
		> "$WORK/gemm.out" 2> "$WORK/gemm.err" || { WHY="gemm failed: $(tail -2 "$WORK/gemm.err")"; return 1; }
	expect "sizes given: $(tr '\n' ' ' < "$WORK/sizes")" [ "$(sort -n "$WORK/sizes" | tr '\n' ' ')" = "64 128 " ] || return 1
	expect "no m128 compared with m64" [ -s "$d/compare-m64-m128.txt" ] || return 1
	expect "the runtime's log not recorded" grep -q '"--hip-log"' "$d/manifest.json" || return 1
	expect "no HIP dispatches compared" grep -Eq '^ +1\.0 +1\.0 +[0-9.-]+ +[0-9.-]+  gemm_kernel_0$' "$d/compare-m64-m128.txt" || return 1
	if ! command -v rocblas-bench > /dev/null && ! command -v hipblaslt-bench > /dev/null; then
		"$ROOT_DIR/scripts/gpu-trace-gemm" -s 64 2> "$WORK/gemm2.err"
		expect "no bench tool and no command accepted" grep -q 'give the GEMM after --' "$WORK/gemm2.err"
	fi
}

# The workload in a container (tests/tools/fake-engine.sh as "docker": a cgroup
# made for the test, a pid namespace, only -e variables cross): the experiment
# passes the case's and the runtime's variables with exec -e, record follows
# the container's cgroup and reads the runtime's log from its /tmp with host pids.
test_experiment_in_a_container() {
	local cg d=$WORK/ctr/results/c pid
	command -v unshare > /dev/null || { WHY="unshare not installed"; return 77; }
	test_cgroup ctr || return
	cg=$CGROUP
	test_cgroup_init
	mkdir -p "$WORK/ctr/bin"
	# record runs it with root's environment, not ours: the container's cgroup
	# and init are written into it
	printf '#!/bin/sh\nGT_FAKE_CGROUP=%s GT_FAKE_INIT=%s exec %s "$@"\n' "$cg" "$CGROUP_INIT" \
		"$ROOT_DIR/tests/tools/fake-engine.sh" > "$WORK/ctr/bin/docker"
	chmod 0755 "$WORK/ctr/bin/docker"
	# record runs docker from root's PATH, never the caller's: the fake one is
	# mounted over /usr/local/sbin in a mount namespace of the test's own
	(cd "$WORK/ctr" && PATH=$WORK/ctr/bin:$PATH GT_FAKE_CGROUP=$cg GT_FAKE_INIT=$CGROUP_INIT \
		unshare -m sh -c 'mount --bind "$0" /usr/local/sbin && exec "$@"' "$WORK/ctr/bin" \
		"$EXPERIMENT" --gpu-trace "$GT" -n 1 --name=c --hip-log --container fake -r -e -r syscalls:sys_enter_getppid \
		-c one='GT_CASE=one' -- sh -c 'echo "case $GT_CASE"; sleep 0.4; exec python3 "$1" 3' _ "$ROOT_DIR/tests/tools/fake-hip.py") \
		> "$WORK/ctr.out" 2> "$WORK/ctr.err"
	local rc=$?
	drop_test_cgroup
	rm -f /tmp/gpu-trace-hip-*.log_1
	expect "experiment failed: $(tail -2 "$WORK/ctr.err" | tr '\n' ' ')" [ $rc = 0 ] || return 1
	expect "the case's variable did not cross: $(head -3 "$WORK/ctr.out" | tr '\n' ' ')" grep -qx 'case one' "$WORK/ctr.out" || return 1
	expect "the runtime's variables did not cross" grep -qx 'env 4 0x7FFFFFFF' "$WORK/ctr.out" || return 1
	expect "record did not read the container's log: $(grep 'hip log' "$d/one/1/record.log")" \
		grep -q '^hip log: 10 lines of 1 process' "$d/one/1/record.log" || return 1
	pid=$(trace-cmd report -i "$d/one/1/trace.dat" 2> /dev/null | grep -m1 'hip-log:' | sed -E 's/.*-([0-9]+) +\[.*/\1/')
	expect "the log's lines carry pid ${pid:-none}, not the host's" [ -n "$pid" ] && [ "$pid" -gt 1 ] || return 1
	expect "the lines' process has no kernel events in the workload buffer" \
		grep -q "^workload: .*-$pid .*sys_enter_getppid" <(trace-cmd report -i "$d/one/1/trace.dat" 2> /dev/null) || return 1
	expect "the manifest does not name the container" grep -q '"container":"fake","engine":"docker"' "$d/manifest.json"
}
