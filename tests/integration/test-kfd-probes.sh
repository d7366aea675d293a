# record --kfd-args and the KFD queue view: the view on fixtures written with
# the probe formats 6.1 and 7.3 printed in the lab; the fallback on this
# machine, whose kernel has no kprobe_events (the lab records real probes).
# shellcheck shell=bash

KFD_FIXTURE=$ROOT_DIR/build/make-fixture
KFD_FORMATS=$ROOT_DIR/tests/fixtures/formats

kfd_fixture() { "$KFD_FIXTURE" "$KFD_FORMATS" "$1" "$WORK/$1.dat" && echo "$WORK/$1.dat"; }

test_kfd_view_text() {
	local f
	f=$(kfd_fixture kfd-probes) || { WHY="make-fixture failed"; return 1; }
	"$GT" report --queues "$f" > "$WORK/kq.txt" 2> "$WORK/kq.err" || { WHY="report: $(cat "$WORK/kq.err")"; return 1; }
	expect "the section" grep -q '^KFD queue ioctls (probe events: 16 records' "$WORK/kq.txt" || return 1
	expect "queue 0 with its values and lifetime" grep -Eq '^ +4242 hipapp +0x9a1c +0 compute-aql +7 +100 0x7f1000000000 +65536 0xd000000000000800 +1\.000100 ok in 30\.000 us, lived 1620\.000 us, 1 eviction \(1040\.000 us evicted\), 1 restore$' "$WORK/kq.txt" || return 1
	expect "the failed create" grep -Eq '^ +4242 hipapp +0x1234 +- compute .* failed: EINVAL$' "$WORK/kq.txt" || return 1
	expect "the updated sdma queue, live" grep -Eq ' 1 sdma +9 .* live at the end, 1 update,' "$WORK/kq.txt" || return 1
	expect "the destroy of an unknown id" grep -q 'destroy queue 7 at 1.001800 in 5.000 us: failed: EINVAL' "$WORK/kq.txt" || return 1
	expect "the eviction" grep -q 'eviction (ttm) of 2 queues at 1.000500: evict 20.000 us, evicted 1040.000 us, restore 40.000 us' "$WORK/kq.txt" || return 1
	"$GT" report "$f" > "$WORK/kq-all.txt" 2>&1
	expect "the HIP queue paired with KFD queue 0 by its ring" grep -q 'queue HWq=0x7f1000000000 .*; KFD queue 0 on gpu 0x9a1c (the probes. create of this ring)$' "$WORK/kq-all.txt" || return 1
	# the queues came from probes: no advice to record them another way
	expect "advises --preset amd though the probes show the queues: $(grep '^KFD queues' "$WORK/kq-all.txt")" \
		grep -q '^KFD queues (function_graph view): no function records; the probe events above show the queues$' "$WORK/kq-all.txt"
}

test_kfd_view_pr_debug_reason() {
	local f
	f=$(kfd_fixture kfd-probes-6.1) || { WHY="make-fixture failed"; return 1; }
	"$GT" report --queues "$f" > "$WORK/kq61.txt" 2>&1 || { WHY="report failed"; return 1; }
	expect "the kernel's reason" grep -q 'failed: EINVAL (kernel: amdgpu: Could not find gpu id 0x1234)$' "$WORK/kq61.txt" || return 1
	expect "queue 1's id from pr_debug" grep -Eq '^ +4242 hipapp +0x9a1c +1 sdma ' "$WORK/kq61.txt"
}

test_kfd_view_json_and_csv() {
	local f
	f=$(kfd_fixture kfd-probes) || { WHY="make-fixture failed"; return 1; }
	"$GT" report --format json "$f" > "$WORK/kq.json" || { WHY="report json failed"; return 1; }
	python3 - "$WORK/kq.json" > "$WORK/kq.check" 2>&1 <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["kfd"]["probes"]
q = p["queues"]
assert [x["queue_id"] for x in q] == [0, None, 1], q
assert q[0]["type"] == "compute-aql" and q[0]["ring"] == "0x7f1000000000" and q[0]["ring_size"] == 65536
assert q[0]["doorbell_offset"] == "0xd000000000000800" and q[0]["queue_id_from"] == "return probe"
assert q[0]["lifetime_ns"] == 1620000 and q[0]["evicted_ns"] == 1040000
assert q[1]["result"] == -22 and q[1]["error"] == "EINVAL" and q[1]["destroyed_ns"] is None
assert q[2]["priority"] == 9 and q[2]["updates"] == 1 and q[2]["lifetime_ns"] is None
assert [(c["op"], c["queue_id"], c["error"], c["known_queue"]) for c in p["calls"]] == \
    [("update", 1, None, True), ("destroy", 0, None, True), ("destroy", 7, "EINVAL", False)], p["calls"]
h = json.load(open(sys.argv[1]))["hip"]["processes"][0]["queues"][0]["kfd_queue"]
assert h == {"queue_id": 0, "gpu_id": 0x9a1c, "created_ns": 1000100000}, h
e = p["evictions"]
assert len(e) == 1 and e[0]["trigger"] == "ttm" and e[0]["queues"] == 2 and e[0]["evicted_ns"] == 1040000, e
print("ok")
PY
	expect "json: $(tail -1 "$WORK/kq.check")" grep -qx ok "$WORK/kq.check" || return 1
	"$GT" report --format csv "$f" > "$WORK/kq.csv" || { WHY="report csv failed"; return 1; }
	expect "csv queue section" grep -q '^# kfd queue ioctls$' "$WORK/kq.csv" || return 1
	expect "csv failed create row" grep -q '^4242,hipapp,0x1234,,none,compute,7,100,0x7f0000100000,4096,,1000200000,10000,-22,EINVAL,,,0,0,0,0$' "$WORK/kq.csv" || return 1
	expect "csv eviction row" grep -q '^4242,77,ttm,2,1000500000,20000,1001500000,40000$' "$WORK/kq.csv"
}

test_kfd_view_absent_without_probes() {
	local f
	f=$(kfd_fixture hip-kfd) || { WHY="make-fixture failed"; return 1; }
	"$GT" report --queues "$f" > "$WORK/noq.txt" 2>&1
	expect "no probe section without probes" [ -z "$(grep 'KFD queue ioctls' "$WORK/noq.txt")" ] || return 1
	"$GT" report --format json "$f" | python3 -c 'import json,sys; assert json.load(sys.stdin)["kfd"]["probes"] is None' ||
		{ WHY="json probes not null"; return 1; }
}

# No kprobes here: one line, the record goes on; --strict refuses.
test_kfd_args_fallback_line() {
	[ -e "$TFS/kprobe_events" ] && grep -q '^amdgpu ' /proc/modules && { WHY="this kernel has kprobes and amdgpu: the lab tests the probes"; return 77; }
	tracefs_snapshot > "$WORK/snap.before"
	"$GT" record --kfd-args -e sched:sched_process_exec -o "$WORK/fb.dat" -- true 2> "$WORK/fb.err"
	expect "exit $?: the record goes on" [ $? = 0 ] || return 1
	expect "one fallback line: $(grep kfd "$WORK/fb.err")" [ "$(grep -c '^kfd probes: not used: .*; KFD queues come from function records only, without their values$' "$WORK/fb.err")" = 1 ] || return 1
	"$GT" record --kfd-args --strict -e sched:sched_process_exec -o "$WORK/fb2.dat" -- true 2> "$WORK/fb2.err"
	expect "--strict: exit $?, want 125" [ $? = 125 ] || return 1
	expect "--strict: one error line" grep -q '^gpu-trace record: --kfd-args: no KFD probes: .*; drop --strict to record without them$' "$WORK/fb2.err" || return 1
	expect "no file from the refused record" [ ! -e "$WORK/fb2.dat" ] || return 1
	# as users type it: the preset turns the probes on
	"$GT" record --preset amd -e sched:sched_process_exec -o "$WORK/fb4.dat" -- true 2> "$WORK/fb4.err"
	expect "--preset amd: exit $?" [ $? = 0 ] || return 1
	expect "--preset amd: the fallback line" grep -q '^kfd probes: not used: ' "$WORK/fb4.err" || return 1
	"$GT" record --preset amd --no-kfd-args -e sched:sched_process_exec -o "$WORK/fb3.dat" -- true 2> "$WORK/fb3.err"
	expect "--no-kfd-args: no kfd line" [ -z "$(grep '^kfd probes' "$WORK/fb3.err")" ] || return 1
	same_as_before "record --kfd-args"
}

test_kfd_probes_in_check() {
	"$GT" check > "$WORK/kcheck.txt" 2>&1
	expect "a kfd-probes finding" grep -Eq '^(OK|WARN) +kfd-probes +KFD queue probes' "$WORK/kcheck.txt"
}

test_kfd_snapshot_view() {
	local f
	f=$(kfd_fixture kfd-snapshot) || { WHY="make-fixture failed"; return 1; }
	"$GT" report --queues "$f" > "$WORK/ks.txt" 2>&1 || { WHY="report failed"; return 1; }
	expect "the section" grep -q '^KFD debugfs snapshots (3;' "$WORK/ks.txt" || return 1
	expect "the start without processes" grep -q '^  1 (start) at 1.000050: 0 processes with /dev/kfd open, 0 queues, 0 hardware queues$' "$WORK/ks.txt" || return 1
	expect "the compute MQD decoded, on its HQD" grep -q '^      4242 compute queue on gpu 0x9a1c (v9 MQD): ring 0x7f1000000000 size 65536, vmid 0, quantum 0x10, eop 0x7f1000020000, ctx save 0x7f1000040000 (2752512), rptr 64, wptr 256, MQD at 0xfff000400000; MQD: doorbell 0x1002, active, priority 1/7, HQD inst 0 pipe 1 queue 2$' "$WORK/ks.txt" || return 1
	expect "the SDMA MQD after its update" grep -q 'SDMA queue on gpu 0x9a1c (v9 MQD): ring 0x7f5000000000 size 32768; MQD: doorbell 0x1a0, SDMA engine 1 queue 0$' "$WORK/ks.txt" || return 1
	expect "the probe row joined to its MQD" grep -q 'lived 1620.000 us, 1 eviction (1040.000 us evicted), 1 restore; MQD: doorbell 0x1002, active, priority 1/7, HQD inst 0 pipe 1 queue 2$' "$WORK/ks.txt" || return 1
	"$GT" report --format csv "$f" > "$WORK/ks.csv" || { WHY="csv failed"; return 1; }
	expect "csv mqd row" grep -q '^2,periodic,1000400000,4242,0x9a1c,compute,9,0x7f1000000000,65536,0x1002,1,1,0,1,7,-1,-1,0,1,2$' "$WORK/ks.csv" || return 1
	"$GT" report --format json "$f" | python3 -c '
import json, sys
k = json.load(sys.stdin)["kfd"]
m = k["probes"]["queues"][0]["mqd"]
assert m["hqd"] == {"inst": 0, "pipe": 1, "queue": 2} and m["doorbell_offset"] == 0x1002, m
assert [s["why"] for s in k["snapshots"]] == ["start", "periodic", "end"], k["snapshots"]
assert k["snapshots"][1]["processes"] == [4242] and k["snapshots"][1]["hardware_queues"] == 2
' || { WHY="json snapshots"; return 1; }
}

# No KFD debugfs here: one line, debugfs mounted exactly as before.
test_kfd_snapshot_unavailable() {
	local before after
	[ -e /sys/kernel/debug/kfd/mqds ] && { WHY="this machine has KFD's debugfs: the lab tests snapshots"; return 77; }
	before=$(grep -c ' debugfs ' /proc/mounts)
	"$GT" record --kfd-snapshot 20 -e sched:sched_process_exec -o "$WORK/snap.dat" -- sleep 0.1 2> "$WORK/snap.err"
	expect "exit $?" [ $? = 0 ] || return 1
	after=$(grep -c ' debugfs ' /proc/mounts)
	expect "one line: $(grep 'kfd snap' "$WORK/snap.err")" [ "$(grep -c '^kfd snapshots: not taken: ' "$WORK/snap.err")" = 1 ] || return 1
	expect "debugfs mounts $before before, $after after" [ "$before" = "$after" ] || return 1
	"$GT" record --kfd-snapshot 0 -o "$WORK/snap2.dat" -- true 2> "$WORK/snap2.err"
	expect "--kfd-snapshot 0 refused: $(cat "$WORK/snap2.err")" grep -q "^gpu-trace record: bad --kfd-snapshot '0': expected a whole number from 1 to 3600000" "$WORK/snap2.err"
}

# trace-cmd with our plugins prints the probe events as sentences
test_kfd_probes_in_trace_cmd() {
	local f
	command -v trace-cmd > /dev/null || { WHY="trace-cmd not installed"; return 77; }
	f=$(kfd_fixture kfd-probes) || { WHY="make-fixture failed"; return 1; }
	TRACEEVENT_PLUGIN_DIR=$ROOT_DIR/build/plugins trace-cmd report -i "$f" > "$WORK/tc.txt" 2> "$WORK/tc.err" ||
		{ WHY="trace-cmd report: $(head -2 "$WORK/tc.err")"; return 1; }
	expect "the create" grep -q 'kfd_create_queue: *compute-aql queue on gpu 0x9a1c: ring 0x7f1000000000 size 65536 priority 7 percentage 100$' "$WORK/tc.txt" || return 1
	expect "its answer" grep -q 'kfd_create_queue_ret: *ok: queue 0 doorbell 0xd000000000000800$' "$WORK/tc.txt" || return 1
	expect "a refusal" grep -q 'kfd_create_queue_ret: *failed: EINVAL$' "$WORK/tc.txt" || return 1
	expect "the eviction's trigger" grep -q 'kfd_evict_queues: *process 0xffff8880a0b0c000 (ttm)$' "$WORK/tc.txt" || return 1
	# report --events prints them through the same handler: trace-cmd's lines (it printed
	# the probes' raw fields)
	"$GT" report --events "$f" 2> /dev/null | sed 's/ *$//' > "$WORK/ev.txt"
	grep -v '^cpus=' "$WORK/tc.txt" | sed 's/ *$//' | diff "$WORK/ev.txt" - > "$WORK/ev.diff"
	expect "--events differs from trace-cmd report: $(head -4 "$WORK/ev.diff" | tr '\n' ' ')" [ ! -s "$WORK/ev.diff" ]
}
