# record's CPU side of the workload on the real tracefs: its GPU-typed ioctls
# (on /dev/null: no GPU here, the numbers are what the kernel's filter and
# report go by), its scheduling and interrupts; --no-cpu-side leaves them out.
# shellcheck shell=bash

GPU_IOCTLS=$ROOT_DIR/tests/tools/gpu-ioctls.py

test_record_cpu_side_gpu_ioctls() {
	local out=$WORK/cpu.dat pid
	"$GT" record -e sched:sched_process_exec -o "$out" -- python3 "$GPU_IOCTLS" 40 5 3 30 \
		> "$WORK/cpu.out" 2> "$WORK/cpu.err" ||
		{ WHY="record failed: $(tail -1 "$WORK/cpu.err")"; return 1; }
	pid=$(awk '{ print $1 }' "$WORK/cpu.out")
	expect "the filter refused: $(grep 'cpu side' "$WORK/cpu.err")" \
		not grep -q 'refused the ioctl type filter' "$WORK/cpu.err" || return 1
	expect "no cpu side line: $(cat "$WORK/cpu.err")" \
		grep -q '^cpu side: the workload.s GPU ioctls' "$WORK/cpu.err" || return 1
	# the kernel's filter kept the 48 GPU-typed enters and none of the 30 TCGETS
	"$GT" report --events "$out" > "$WORK/cpu.events" 2> /dev/null
	expect "GPU ioctl enters in the file: $(grep -c 'sys_enter_ioctl' "$WORK/cpu.events")" \
		[ "$(grep -c 'sys_enter_ioctl' "$WORK/cpu.events")" = 48 ] || return 1
	expect "a TCGETS enter passed the filter" not grep -q 'sys_enter_ioctl.*cmd: 0x5401,' "$WORK/cpu.events" || return 1
	expect "no sched_switch of the workload" grep -q 'sched_switch:' "$WORK/cpu.events" || return 1
	# no GPU driver's events here: report says so and exits 2, the CPU side still written
	"$GT" report --format json "$out" > "$WORK/cpu.json" 2> /dev/null
	expect "report --format json: exit $? on a file without GPU events" [ $? = 2 ] || return 1
	python3 - "$pid" "$WORK/cpu.json" > "$WORK/cpu.check" 2>&1 <<'PY' || { WHY="$(tail -3 "$WORK/cpu.check" | tr '\n' ' ')"; return 1; }
import json, sys
c = json.load(open(sys.argv[2]))["cpu_side"]
assert c and c["ioctls"] == 48 and c["scheduling"], c
assert c["driver"] is None, c	# no GPU driver's events: its own numbers stay numbers
t = {x["pid"]: x for x in c["threads"]}
assert list(t) == [int(sys.argv[1])], t.keys()	# the TCGETS thread made no GPU ioctl
rows = {r["name"]: r for r in t[int(sys.argv[1])]["ioctls"]}
assert {k: r["count"] for k, r in rows.items()} == {
    "DRM driver ioctl 0x44": 40, "AMDKFD_IOC_CREATE_QUEUE": 5, "NV_ESC_RM_CONTROL": 3}, rows
for r in rows.values():
    parts = r["on_cpu_ns"] + r["runnable_ns"] + r["sleeping_ns"] + r["irq_ns"]
    assert parts == r["total_ns"] and r["total_ns"] > 0, r
PY
	# left out: no ioctl, no section
	"$GT" record --no-cpu-side -e sched:sched_process_exec -o "$WORK/nocpu.dat" -- \
		python3 "$GPU_IOCTLS" 4 0 0 0 > /dev/null 2> "$WORK/nocpu.err" ||
		{ WHY="record --no-cpu-side failed: $(tail -1 "$WORK/nocpu.err")"; return 1; }
	expect "--no-cpu-side recorded ioctls" \
		not grep -q 'sys_enter_ioctl' <("$GT" report --events "$WORK/nocpu.dat" 2> /dev/null) || return 1
	expect "--no-cpu-side: a CPU side section" python3 -c 'import json, sys
assert json.load(sys.stdin)["cpu_side"] is None' < <("$GT" report --format json "$WORK/nocpu.dat" 2> /dev/null)
}
