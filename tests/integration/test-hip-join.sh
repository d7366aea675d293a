# The HIP runtime's log joined with the kernel's view, on fixtures built from the
# real format files (hip-kfd: print records of the runtime's lines beside KFD
# function_graph records and a gfx job), and the same lines given apart with
# report --hip-log FILE. Needs no root.
# shellcheck shell=bash
# NO_ROOT

hip_join_check() {	# REPORT.json: the join hip-kfd is built to show
	python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
p = [p for p in r["hip"]["processes"] if p["pid"] == 4242][0]
q = p["queues"]
assert len(q) == 1 and q[0]["hwq"] == "0x7f2000000000" and q[0]["dispatches"] == 2, q
assert q[0]["kfd_create"] == {"start_ns": 1001000000, "duration_ns": 80000}, q[0]
assert {k["name"]: k["dispatches"] for k in p["kernels"]} == {"gemm_big": 1, "gemm_small": 1}, p["kernels"]
o = sorted((x["kernel"], x["kfd_op"], x["kfd_pid"], x["from_ns"], x["to_ns"], x["kfd_duration_ns"]) for x in p["overlaps"])
assert o == [("gemm_big", "evict", 77, 1001220000, 1001900000, 200000),
             ("gemm_big", "restore", 77, 1001220000, 1001900000, 50000)], o
assert p["commands_complete"] == 2 and p["gpu_us"] == 695, p
k = {x["name"]: (x["spans"], x["span_ns"]) for x in p["kernels"]}
assert k == {"gemm_big": (1, 680000), "gemm_small": (1, 20000)}, k
PY
}

test_hip_join_in_the_file() {
	"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" hip-kfd "$WORK/hk.dat" > /dev/null ||
		{ WHY="make-fixture failed"; return 1; }
	"$GT" report --format json "$WORK/hk.dat" > "$WORK/hk.json" || { WHY="report failed"; return 1; }
	hip_join_check "$WORK/hk.json" > "$WORK/hk.check" 2>&1 || { WHY="$(tail -2 "$WORK/hk.check")"; return 1; }
	python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["hip"]["processes"][0]["jobs_by_ring"] == [{"ring": "gfx_0.0.0", "jobs": 1}]' "$WORK/hk.json" ||
		{ WHY="jobs by ring"; return 1; }
	"$GT" report --format csv "$WORK/hk.dat" > "$WORK/hk.csv"
	expect "CSV: no overlaps table with gemm_big's eviction" \
		grep -q '^4242,hipapp,0,gemm_big,0x7f2000000000,1001220000,1001900000,evict,77,1001500000,200000$' "$WORK/hk.csv" || return 1
	"$GT" report "$WORK/hk.dat" > "$WORK/hk.txt"
	expect "text: no eviction under gemm_big" grep -q 'dispatch 0 of gemm_big .* spanned a KFD evict of 200.000 us at 1.001500 (pid 77)' "$WORK/hk.txt" || return 1
	expect "text: no KFD create paired" grep -q 'KFD create at 1.001000 (80.000 us), 85.000 us before the runtime logged it' "$WORK/hk.txt" || return 1
	expect "gemm_small spanned an eviction" [ -z "$(grep 'gemm_small .*spanned' "$WORK/hk.txt")" ] || return 1
	# the lines are print records: --events lists them, trace-cmd too
	expect "--events does not list the runtime's lines" grep -q 'print: .*ShaderName : gemm_big' <("$GT" report --events "$WORK/hk.dat")
}

# The same lines captured apart (the runtime's own file), merged by report.
test_hip_log_file_merged_by_report() {
	"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" hip-kfd "$WORK/hk2.dat" > /dev/null &&
		"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" kfd-graph "$WORK/kg.dat" > /dev/null ||
		{ WHY="make-fixture failed"; return 1; }
	# the runtime's file: the fixture's lines, a header-less one, a foreign one
	"$GT" report --events "$WORK/hk2.dat" | sed -n 's/^.*print: *[^ ]*: //p' > "$WORK/hip.log_4242"
	echo "a line without the runtime's header" >> "$WORK/hip.log_4242"
	expect "no lines taken from the fixture" [ "$(grep -c '' "$WORK/hip.log_4242")" = 10 ] || return 1
	# kfd-graph has the create but no evictions: the queue pairs, nothing overlaps
	"$GT" report --format json --hip-log "$WORK/hip.log_4242" "$WORK/kg.dat" > "$WORK/kg.json" ||
		{ WHY="report --hip-log failed"; return 1; }
	python3 - "$WORK/kg.json" > "$WORK/kg.check" 2>&1 <<'PY' || { WHY="$(tail -2 "$WORK/kg.check")"; return 1; }
import json, sys
p = json.load(open(sys.argv[1]))["hip"]["processes"]
assert len(p) == 1 and p[0]["pid"] == 4242 and p[0]["lines"] == 9, p
assert p[0]["queues"][0]["kfd_create"]["start_ns"] == 1001000000, p[0]["queues"]
assert p[0]["overlaps"] == [], p[0]["overlaps"]
PY
	"$GT" report --hip-log "$WORK/nosuch.log" "$WORK/kg.dat" > /dev/null 2> "$WORK/kg.err"
	expect "a missing --hip-log file accepted" [ $? = 125 ] || return 1
	expect "not one line naming the log" grep -q 'cannot read the HIP log .*nosuch.log' "$WORK/kg.err"
}

# Another runtime build's log (AMD_LOG_LEVEL=4 lines with pid and tid, level 3 lines with only
# a tid): Wall an absolute monotonic time in ns (the command's start), CPU and GPU 0 (not
# measured). Durations from the line to the start, the level-3 lines under their thread's
# pid, never under pid 0.
test_hip_log_of_another_runtime_build() {
	"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" two-rings "$WORK/ob.dat" > /dev/null ||
		{ WHY="make-fixture failed"; return 1; }
	cat > "$WORK/other-build.log" <<'LOG'
:4:rocdevice.cpp            :2875: 0483946000 us: [pid:5150 tid: 0x1a2b3] Created SWq=0x7f0000 to map on HWq=0x7e0000 with size 4096 with priority 1, cooperative: 0
:3:rocvirtual.cpp           :3003: 0483946850 us: [tid:0x1a2b3] ShaderName : vector_add
:4:rocvirtual.cpp           :2869: 0483946855 us: [pid:5150 tid: 0x1a2b3] SWq=0x7f0000, HWq=0x7e0000, id=1, Dispatch Header = 0xb02 (type=2, barrier=1, acquire=1, release=1), setup=3, grid=[1024, 1, 1], workgroup=[256, 1, 1]
:3:command.cpp              :349 : 0483946870 us: [tid:0x1a2b3] Command 0x55aa00 complete (Wall: 483946860281, CPU: 0, GPU: 0 us)
:3:command.cpp              :349 : 0483947100 us: [tid:0x1a2b3] Command 0x55ab00 complete (Wall: 483947000000, CPU: 0, GPU: 0 us)
LOG
	"$GT" report --format json --hip-log "$WORK/other-build.log" "$WORK/ob.dat" > "$WORK/ob.json" ||
		{ WHY="report --hip-log failed"; return 1; }
	expect "$(python3 -c 'import json, sys
print(json.dumps(json.load(open(sys.argv[1]))["hip"])[:400])' "$WORK/ob.json")" python3 -c 'import json, sys
h = json.load(open(sys.argv[1]))["hip"]
assert [p["pid"] for p in h["processes"]] == [5150], h["processes"]
p = h["processes"][0]
assert p["lines"] == 5 and p["commands_complete"] == 2, p
assert p["wall_us"] == 10 + 100 and p["wall_measured"] == 2, p
assert p["gpu_us"] is None and p["gpu_measured"] == 0, p
assert [k["name"] for k in p["kernels"]] == ["vector_add"], p["kernels"]' "$WORK/ob.json" || return 1
	# the same through a pipe, as a user gives a compressed log: read once, not lost
	expect "through a pipe: $("$GT" report --hip-log <(cat "$WORK/other-build.log") "$WORK/ob.dat" 2>&1 | grep -A1 '^HIP' | tr '\n' '|')" \
		grep -q '^  5150 .*2 commands complete (GPU not measured, wall 110 us)' \
		<<< "$("$GT" report --hip-log <(cat "$WORK/other-build.log") "$WORK/ob.dat")" || return 1
	expect "the text: $("$GT" report --hip-log "$WORK/other-build.log" "$WORK/ob.dat" | grep '^  5150')" \
		grep -q '^  5150 .*2 commands complete (GPU not measured, wall 110 us)' \
		<<< "$("$GT" report --hip-log "$WORK/other-build.log" "$WORK/ob.dat")" || return 1
	# a build that measures prints GPU 0 for a command under a microsecond: measured, 0
	cat > "$WORK/measuring.log_5151" <<'LOG'
:4:command.cpp              :349 : 0000000900 us: [pid:5151 tid: 0x00001] Command 0x55aa00 complete (Wall: 12, CPU: 1, GPU: 0 us)
:4:command.cpp              :349 : 0000000950 us: [pid:5151 tid: 0x00001] Command 0x55ab00 complete (Wall: 20, CPU: 2, GPU: 7 us)
LOG
	expect "GPU 0 beside a measured one" python3 -c 'import json, sys
p = json.load(sys.stdin)["hip"]["processes"][0]
assert (p["pid"], p["gpu_us"], p["gpu_measured"], p["wall_us"], p["wall_measured"]) == (5151, 7, 2, 32, 2), p' \
		< <("$GT" report --format json --hip-log "$WORK/measuring.log_5151" "$WORK/ob.dat")
}
