# gpu-trace report --format perfetto (and -o) on every fixture scenario: the
# trace decodes against Perfetto's field numbers (tests/perfetto/trace.proto),
# nests, resolves its interned names and track parents, and its slices carry
# the report's own times. Needs no root.
# shellcheck shell=bash
# NO_ROOT

PF_PROTO_DIR=$ROOT_DIR/tests/perfetto

# pf_check DAT NAME: writes NAME.pftrace, decodes it, compares with report --jobs
pf_check() {
	"$GT" report --format perfetto -o "$WORK/$2.pftrace" "$1" 2> "$WORK/$2.err" ||
		{ WHY="$2: report --format perfetto failed: $(cat "$WORK/$2.err")"; return 1; }
	"$GT" report --jobs --format json "$1" > "$WORK/$2.json" 2> /dev/null
	pf_decode < "$WORK/$2.pftrace" > "$WORK/$2.txt" 2> "$WORK/$2.err" ||
		{ WHY="$2: protoc cannot decode it: $(head -c 300 "$WORK/$2.err")"; return 1; }
	python3 "$PF_PROTO_DIR/check-trace.py" "$WORK/$2.txt" "$WORK/$2.json" > "$WORK/$2.check" ||
		{ WHY="$2: $(head -3 "$WORK/$2.check" | tr '\n' ' ')"; return 1; }
}

need_protoc() {
	command -v protoc > /dev/null && return 0
	WHY="protoc is not installed (sudo make deps installs protobuf-compiler)"
	return 77
}

# A damaged copy (a page of zeros amid CPU 1's data): its lost window on a
# "cpu 1" track under "lost events", with the CPU and no count (the kernel
# kept none: it was written -1)
test_perfetto_zeroed_page() {
	need_protoc || return
	zeroed_kfd_snapshot "$WORK/pz-zeroed.dat" || return
	pf_check "$WORK/pz-zeroed.dat" pf-zeroed || return 1
	python3 - "$WORK/pf-zeroed.txt" 2> "$WORK/pf-zeroed.why" <<'PY' || { WHY="the lost window: $(tail -1 "$WORK/pf-zeroed.why")"; return 1; }
import re, sys
t = open(sys.argv[1]).read()
iid = re.search(r'event_names \{\s*iid: (\d+)\s*name: "events lost"', t)
root = re.search(r'uuid: (\d+)\s*name: "lost events"', t)
cpu = re.search(r'uuid: (\d+)\s*name: "cpu 1"\s*parent_uuid: (\d+)', t)
assert iid and root and cpu and cpu.group(2) == root.group(1), "no cpu 1 track under lost events"
names = {m.group(2): m.group(1) for m in re.finditer(r'iid: (\d+)\s*name: "([^"]*)"', t)}
slices = [p for p in t.split("packet {") if re.search(rf"track_uuid: {cpu.group(1)}\b", p) and "TYPE_SLICE_BEGIN" in p]
assert len(slices) == 1 and re.search(rf"\bname_iid: {iid.group(1)}\b", slices[0]), slices
args = re.findall(r'name_iid: (\d+)\s*int_value: (-?\d+)', slices[0])
assert args == [(names["cpu"], "1")], args
PY
}

test_perfetto_every_fixture() {
	local s n=0
	need_protoc || return
	for s in $("$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" list | awk '{ print $1 }'); do
		"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" "$s" "$WORK/pf-$s.dat" ||
			{ WHY="make-fixture $s failed"; return 1; }
		pf_check "$WORK/pf-$s.dat" "pf-$s" || return 1
		n=$((n + 1))
	done
	expect "fewer than 12 scenarios checked ($n)" [ "$n" -ge 12 ] || return 1
	# what the scenarios are known to hold
	# amdgpu user queues: a track per queue, its states, its fences on lanes
	expect "userq: no track per queue" [ "$(grep -c 'name: "\(compute queue, doorbell 0x10 (llama 4242)\|gfx queue, doorbell 0x18 (vkcube 5000)\|sdma queue, doorbell 0x20\)"' "$WORK/pf-userq.txt")" = 3 ] || return 1
	expect "userq: the states (preempted, hung) or the pending fence missing" \
		grep -q 'name: "preempted"' "$WORK/pf-userq.txt" && grep -q 'name: "hung"' "$WORK/pf-userq.txt" &&
		grep -q 'name: "fence, pending at the end"' "$WORK/pf-userq.txt" || return 1
	expect "userq: not 12 slices (7 states, 4 fences, 1 pending)" \
		grep -q ': 12 slices, 0 flows on 0 rings;' <<< "$("$GT" report --format perfetto -o "$WORK/pf-userq2.pftrace" "$WORK/pf-userq.dat" 2>&1)" || return 1
	# enforce isolation: each switch on its job's ring until the job ran, the cleaner shader after
	expect "isolation: not 2 owner-switch tracks" [ "$(grep -c 'name: "owner switches"' "$WORK/pf-isolation.txt")" = 2 ] || return 1
	expect "isolation: not the 4 switches" [ "$(grep -c 'name: "owner switch: \(kernel -> rival 6000\|rival 6000 -> llama 5000\|llama 5000 -> rival 6000\)"' "$WORK/pf-isolation.txt")" = 4 ] || return 1
	expect "isolation: not 4 cleaner shaders" [ "$(grep -c 'name: "cleaner shader"' "$WORK/pf-isolation.txt")" = 4 ] || return 1
	grep -A14 'timestamp: 1000601000' "$WORK/pf-isolation.txt" > "$WORK/pf-iso-at.txt"
	expect "isolation: L2's switch not at 1000601000 with what it waited for" \
		grep -q 'string_value: "301:1"' "$WORK/pf-iso-at.txt" || return 1
	# the kernel's ring timeouts as instants on their rings, the GPU reset as a slice
	expect "hang: the timeouts not on their rings" \
		grep -q 'name: "gfx_0.0.0 timed out"' "$WORK/pf-hang.txt" && grep -q 'name: "sdma0 timed out, soft-recovered"' "$WORK/pf-hang.txt" &&
		[ "$(grep -c 'name: "timeouts"' "$WORK/pf-hang.txt")" = 2 ] || return 1
	expect "hang: no GPU reset slice" grep -q 'name: "GPU reset"' "$WORK/pf-hang.txt" || return 1
	# buffer moves as instants, and the running MiB as a counter ending at 116
	expect "memory: not 4 moves" [ "$(grep -c 'name: "\(VRAM -> GTT\|GTT -> VRAM\|system -> GTT\) [0-9.]* MiB"' "$WORK/pf-memory.txt")" = 4 ] || return 1
	expect "memory: the running count does not end at 116 MiB" grep -q 'counter_value: 116$' "$WORK/pf-memory.txt" || return 1
	# two GPUs: a ring track per device, named with it
	expect "two-gpus: not one track per device's gfx ring" \
		grep -q 'name: "gfx_0.0.0"' "$WORK/pf-two-gpus.txt" && grep -q 'name: "gfx_0.0.0@c3:00.0"' "$WORK/pf-two-gpus.txt" || return 1
	expect "deps: 2 dependency flows and the signals they start from" \
		[ "$(grep -c '"fence signaled"\|name_iid: 6$' "$WORK/pf-deps.txt")" -ge 2 ] || return 1
	expect "competing: 7 jobs on the hardware" grep -q '7 jobs on the hardware' "$WORK/pf-competing.check" || return 1
	expect "lost-window: no lost-events slice" grep -q 'name: "lost events"' "$WORK/pf-lost-window.txt" || return 1
	expect "kfd-graph: no KFD operation track" grep -q 'name: "KFD queue operations"' "$WORK/pf-kfd-graph.txt" || return 1
	# record --kfd-args's probes: each queue's life with its values, the ioctls with their answers
	expect "kfd-probes: not the 2 queues' tracks" \
		grep -q 'name: "queue 0 (compute-aql)"' "$WORK/pf-kfd-probes.txt" && grep -q 'name: "queue 1 (sdma)"' "$WORK/pf-kfd-probes.txt" || return 1
	expect "kfd-probes: the failed create, the failed destroy or the eviction missing" \
		grep -q 'name: "create failed: EINVAL"' "$WORK/pf-kfd-probes.txt" && grep -q 'name: "destroy queue 7: EINVAL"' "$WORK/pf-kfd-probes.txt" &&
		grep -q 'name: "evicted (ttm)"' "$WORK/pf-kfd-probes.txt" || return 1
	expect "kfd-probes: queue 0's doorbell offset not an argument" grep -q 'string_value: "0xd000000000000800"' "$WORK/pf-kfd-probes.txt" || return 1
	expect "kfd-snapshot: not its 3 snapshots" [ "$(grep -c 'name: "snapshot (\(start\|periodic\|end\))"' "$WORK/pf-kfd-snapshot.txt")" = 3 ] || return 1
	# hip-kfd: the runtime's 9 lines as instants on the process's HIP track, a
	# dispatch named after its kernel at the line's own time
	expect "hip-kfd: no HIP track for hipapp 4242" grep -q 'name: "hipapp 4242"' "$WORK/pf-hip-kfd.txt" || return 1
	expect "hip-kfd: not 9 runtime lines" [ "$(grep -c 'string_value: .*\(SWq=\|Command \|ShaderName\)' "$WORK/pf-hip-kfd.txt")" = 9 ] || return 1
	grep -A12 'timestamp: 1001220000' "$WORK/pf-hip-kfd.txt" > "$WORK/pf-hip-at.txt"
	expect "hip-kfd: gemm_big's dispatch not at 1001220000" grep -q 'name: "gemm_big"' "$WORK/pf-hip-at.txt"
}

need_trace_processor() {
	need_protoc || return
	TP_ASSETS=$("$PF_PROTO_DIR/fetch.sh")
	case $? in
	0) return 0 ;;
	77) WHY="Perfetto's trace processor: $TP_ASSETS"; return 77 ;;
	*) WHY="tests/perfetto/fetch.sh failed: $TP_ASSETS"; return 1 ;;
	esac
}

# tp_entry NAME TRACE REPORT.json DECODED.txt [ALSO_JSON_LIST]: one trace for check-tp.py
tp_entry() {
	printf '{"name": "%s", "trace": "%s", "report": "%s", "decoded": "%s", "also": %s, "summary": "%s"}' \
		"$1" "$2" "$3" "$4" "${5:-[]}" "${6:-}"
}

# Every fixture's trace, and one of several files, loaded into Perfetto's own
# trace processor: imported without an error, its tables holding the report's jobs.
test_perfetto_trace_processor() {
	local s n=0 entries=()
	need_trace_processor || return
	for s in $("$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" list | awk '{ print $1 }'); do
		"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" "$s" "$WORK/tp-$s.dat" ||
			{ WHY="make-fixture $s failed"; return 1; }
		pf_check "$WORK/tp-$s.dat" "tp-$s" || return 1
		"$GT" report --format json "$WORK/tp-$s.dat" > "$WORK/tp-$s.summary.json" 2> /dev/null
		entries+=("$(tp_entry "$s" "$WORK/tp-$s.pftrace" "$WORK/tp-$s.json" "$WORK/tp-$s.txt" \
			'[]' "$WORK/tp-$s.summary.json")")
		n=$((n + 1))
	done
	# three runs' files of one name, as a script of cases x repetitions leaves them: their
	# groups named a/1/trace.dat, b/1/trace.dat and 2/trace.dat
	mkdir -p "$WORK/runs/a/1" "$WORK/runs/b/1" "$WORK/runs/b/2"
	cp "$WORK/tp-deps.dat" "$WORK/runs/a/1/trace.dat"
	cp "$WORK/tp-competing.dat" "$WORK/runs/b/1/trace.dat"
	cp "$WORK/tp-lost-window.dat" "$WORK/runs/b/2/trace.dat"
	for s in a/1 b/1 b/2; do
		"$GT" report --jobs --format json "$WORK/runs/$s/trace.dat" > "$WORK/runs/$s/jobs.json"
	done
	"$GT" report --format perfetto -o "$WORK/tp-many.pftrace" "$WORK/runs/a/1/trace.dat" \
		"$WORK/runs/b/1/trace.dat" --ts-offset 2ms -i "$WORK/runs/b/2/trace.dat" --ts-offset -1us \
		2> "$WORK/tp-many.err" || { WHY="report of three files failed: $(cat "$WORK/tp-many.err")"; return 1; }
	pf_decode < "$WORK/tp-many.pftrace" > "$WORK/tp-many.txt" || { WHY="protoc cannot decode it"; return 1; }
	for s in a/1/trace.dat b/1/trace.dat 2/trace.dat; do
		expect "three files: no group named $s" grep -q "^    name: \"$s\"$" "$WORK/tp-many.txt" || return 1
	done
	entries+=("$(tp_entry three-files "$WORK/tp-many.pftrace" "$WORK/runs/a/1/jobs.json" "$WORK/tp-many.txt" \
		"[[\"$WORK/runs/b/1/jobs.json\", 2000000], [\"$WORK/runs/b/2/jobs.json\", -1000]]")")
	# two hosts' files (node07, node08, node07 again): each host a machine of its own, the
	# first one's the trace's own (0), its GPUs numbered apart; node08 5 s later on UTC
	mkdir -p "$WORK/hosts/a" "$WORK/hosts/c"
	cp "$WORK/tp-host-clock.dat" "$WORK/hosts/a/n.dat"
	cp "$WORK/tp-host-clock-b.dat" "$WORK/hosts/b.dat"
	cp "$WORK/tp-host-clock.dat" "$WORK/hosts/c/n.dat"
	for s in a/n b c/n; do
		"$GT" report --jobs --format json "$WORK/hosts/$s.dat" > "$WORK/hosts/$s.json"
	done
	"$GT" report --format perfetto -o "$WORK/tp-hosts.pftrace" "$WORK/hosts/a/n.dat" "$WORK/hosts/b.dat" \
		"$WORK/hosts/c/n.dat" 2> "$WORK/tp-hosts.err" ||
		{ WHY="report of two hosts failed: $(cat "$WORK/tp-hosts.err")"; return 1; }
	pf_decode < "$WORK/tp-hosts.pftrace" > "$WORK/tp-hosts.txt" || { WHY="protoc cannot decode the hosts' trace"; return 1; }
	entries+=("$(tp_entry two-hosts "$WORK/tp-hosts.pftrace" "$WORK/hosts/a/n.json" "$WORK/tp-hosts.txt" \
		"[[\"$WORK/hosts/b.json\", 5000000000], [\"$WORK/hosts/c/n.json\", 0]]" | sed 's/}$/, "machines": [0, 1, 0]}/')")
	(IFS=,; echo "[${entries[*]}]") > "$WORK/tp-manifest.json"
	python3 "$PF_PROTO_DIR/check-tp.py" "$TP_ASSETS" "$WORK/tp-manifest.json" > "$WORK/tp.check" ||
		{ WHY="$(grep -m3 '^not ok' "$WORK/tp.check" | tr '\n' ' ')"; return 1; }
	expect "not every trace checked ($(grep -c '^ok: ' "$WORK/tp.check") of $((n + 2)))" \
		[ "$(grep -c '^ok: ' "$WORK/tp.check")" = $((n + 2)) ] || return 1
	expect "three files: not their 12 jobs" grep -q '^ok: three-files: .* 12 jobs on the hardware' "$WORK/tp.check" || return 1
	expect "two hosts: not 3 jobs on 3 GPUs of 2 machines: $(grep 'two-hosts' "$WORK/tp.check")" \
		grep -q '^ok: two-hosts: .* 3 jobs on the hardware, .* on 3 GPU(s), .*, 2 machines$' "$WORK/tp.check" || return 1
	# record --kfd-args: a queue, a failed create, an eviction, destroys on the KFD queues tracks
	expect "kfd-probes: its queues not checked on the KFD queues tracks" \
		grep -q '^ok: kfd-probes: .*, 7 KFD probe slices' "$WORK/tp.check" || return 1
	expect "deps: not its 3 jobs and 5 flows" grep -q '^ok: deps: .* 3 jobs on the hardware, 5 flows, 3 GPU slices on 1 GPU(s), 4 GPU counters$' "$WORK/tp.check" || return 1
	# Perfetto's GPU tables: the second device's ring on a GPU of its own
	expect "two-gpus: not 4 GPU slices on 2 GPUs" grep -q '^ok: two-gpus: .* 4 GPU slices on 2 GPU(s), 6 GPU counters$' "$WORK/tp.check" || return 1
	expect "three files: not their 12 jobs as GPU slices" grep -q '^ok: three-files: .* 12 GPU slices' "$WORK/tp.check" || return 1
	# busy per millisecond, equal windows in one sample: gfx 99, 100, 80, 0 (3 ms), 85,
	# 100 (2 ms), sdma0 50 (2 ms), 0 (7 ms), each ring's first starting it, its last ending it
	expect "long-jobs: not 10 busy samples: $(perl -0ne 'print scalar(() = /counter_id: 2\n\s+double_value/g)' "$WORK/tp-long-jobs.txt")" \
		[ "$(perl -0ne 'print scalar(() = /counter_id: 2\n\s+double_value/g)' "$WORK/tp-long-jobs.txt")" = 10 ]
}

# The checks through Perfetto's trace processor can fail: a TrackEvent without
# a sequence id (Perfetto's error stat), a job 1 ns off, a slice it never read,
# a hardware lane ranked last, a submitter's process misnamed, a GPU counter's
# busy share 1% off or its jobs in flight one off, the GPU left undescribed, a
# failed KFD create not where the report puts it, an NVIDIA call the track lacks.
test_perfetto_trace_processor_fails() {
	need_trace_processor || return
	"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" two-rings "$WORK/tn.dat" ||
		{ WHY="make-fixture failed"; return 1; }
	pf_check "$WORK/tn.dat" tn || return 1
	"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" kfd-probes "$WORK/tn-kfd.dat" ||
		{ WHY="make-fixture failed"; return 1; }
	pf_check "$WORK/tn-kfd.dat" tn-kfd || return 1
	"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" nvidia "$WORK/tn-nv.dat" ||
		{ WHY="make-fixture failed"; return 1; }
	pf_check "$WORK/tn-nv.dat" tn-nv || return 1
	# one RM control more in the report than on its track
	"$GT" report --format json "$WORK/tn-nv.dat" | python3 -c "import json,sys; d=json.load(sys.stdin); d['nvidia']['ioctls'][-2]['calls'] += 1; json.dump(d, open(sys.argv[1], 'w'))" \
		"$WORK/tn-nv.summary.json"
	# the failed create 1 ns later in the report than on its track
	"$GT" report --format json "$WORK/tn-kfd.dat" | python3 -c "import json,sys; d=json.load(sys.stdin); q=[q for q in d['kfd']['probes']['queues'] if q['result']][0]; q['created_ns'] += 1; json.dump(d, open(sys.argv[1], 'w'))" \
		"$WORK/tn-kfd.summary.json"
	cat "$WORK/tn.pftrace" > "$WORK/tn-noseq.pftrace"
	printf 'packet { timestamp: 2000 track_event { type: TYPE_INSTANT track_uuid: 1 name: "no sequence" } }\n' |
		pf_encode >> "$WORK/tn-noseq.pftrace" ||
		{ WHY="protoc cannot encode the packet"; return 1; }
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['jobs'][0]['hw_start_ns'] += 1; json.dump(d, open(sys.argv[2], 'w'))" \
		"$WORK/tn.json" "$WORK/tn-off.json"
	{ grep -v 'TYPE_INSTANT' "$WORK/tn.txt"; echo 'type: TYPE_INSTANT'; } > "$WORK/tn-more.txt"
	sed 's/sibling_order_rank: 1$/sibling_order_rank: 99/' "$WORK/tn.txt" |
		pf_encode > "$WORK/tn-rank.pftrace" &&
		sed 's/process_name: "hipapp"/process_name: "other"/' "$WORK/tn.txt" |
		pf_encode > "$WORK/tn-name.pftrace" &&
		perl -0pe 's/(counter_id: 2\n\s+double_value: )([1-9][0-9.]*)/$1.($2 - 1)/e' "$WORK/tn.txt" |
		pf_encode > "$WORK/tn-busy.pftrace" &&
		perl -0pe 's/(counter_id: 1\n\s+int_value: )([1-9])/$1.($2 + 1)/e' "$WORK/tn.txt" |
		pf_encode > "$WORK/tn-inflight.pftrace" &&
		sed '/^  gpu_info {/,/^  }/d' "$WORK/tn.txt" |
		pf_encode > "$WORK/tn-gpuinfo.pftrace" ||
		{ WHY="protoc cannot encode the changed traces"; return 1; }
	(IFS=,; echo "[$(tp_entry good "$WORK/tn.pftrace" "$WORK/tn.json" "$WORK/tn.txt"),$(tp_entry noseq "$WORK/tn-noseq.pftrace" "$WORK/tn.json" "$WORK/tn.txt"),$(tp_entry off "$WORK/tn.pftrace" "$WORK/tn-off.json" "$WORK/tn.txt"),$(tp_entry unread "$WORK/tn.pftrace" "$WORK/tn.json" "$WORK/tn-more.txt"),$(tp_entry rank "$WORK/tn-rank.pftrace" "$WORK/tn.json" "$WORK/tn.txt"),$(tp_entry name "$WORK/tn-name.pftrace" "$WORK/tn.json" "$WORK/tn.txt"),$(tp_entry busy "$WORK/tn-busy.pftrace" "$WORK/tn.json" "$WORK/tn.txt"),$(tp_entry inflight "$WORK/tn-inflight.pftrace" "$WORK/tn.json" "$WORK/tn.txt"),$(tp_entry gpuinfo "$WORK/tn-gpuinfo.pftrace" "$WORK/tn.json" "$WORK/tn.txt"),$(tp_entry kfd "$WORK/tn-kfd.pftrace" "$WORK/tn-kfd.json" "$WORK/tn-kfd.txt" '[]' "$WORK/tn-kfd.summary.json"),$(tp_entry nvidia "$WORK/tn-nv.pftrace" "$WORK/tn-nv.json" "$WORK/tn-nv.txt" '[]' "$WORK/tn-nv.summary.json")]") > "$WORK/tn-manifest.json"
	python3 "$PF_PROTO_DIR/check-tp.py" "$TP_ASSETS" "$WORK/tn-manifest.json" > "$WORK/tn.check"
	expect "check-tp.py passed what it must fail" [ $? = 1 ] || return 1
	expect "the good trace failed: $(grep -m1 'good' "$WORK/tn.check")" grep -q '^ok: good: ' "$WORK/tn.check" || return 1
	expect "no sequence id not seen" grep -q '^not ok: noseq: stats: track_event_missing_sequence_id' "$WORK/tn.check" || return 1
	expect "a job 1 ns off not seen" grep -q '^not ok: off: job .*hardware slices' "$WORK/tn.check" || return 1
	expect "a slice not read not seen" grep -q '^not ok: unread: .* slices read, the trace holds' "$WORK/tn.check" || return 1
	expect "the hardware lane ranked last not seen" grep -q "^not ok: rank: ring gfx_0.0.0: lanes ranked \['in flight', 'queued 0', 'hardware'\]" "$WORK/tn.check" || return 1
	expect "a misnamed process not seen" grep -q "^not ok: name: job .*process 4242 named 'other', not 'hipapp'" "$WORK/tn.check" || return 1
	expect "a busy share 1% off not seen" grep -q "^not ok: busy: ring gfx_0.0.0: busy .* its jobs ran" "$WORK/tn.check" || return 1
	expect "a GPU in-flight count off not seen" grep -q "^not ok: inflight: ring .* in flight at .* as GPU counter" "$WORK/tn.check" || return 1
	expect "a GPU left undescribed not seen" grep -q "^not ok: gpuinfo: gpu 0: no name" "$WORK/tn.check" || return 1
	expect "a failed KFD create 1 ns off its track not seen" grep -q "^not ok: kfd: KFD queues tracks hold" "$WORK/tn.check" || return 1
	expect "an NVIDIA call more in the report than on its track not seen" \
		grep -q "^not ok: nvidia: NVIDIA track ('ioctls python3 5000', 'RM_CONTROL 0x00800201')" "$WORK/tn.check"
}

test_perfetto_checker_fails_on_wrong_times() {
	need_protoc || return
	"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" two-rings "$WORK/pf-neg.dat" ||
		{ WHY="make-fixture failed"; return 1; }
	pf_check "$WORK/pf-neg.dat" pf-neg || return 1
	# one job's hardware start moved by 1 ns: the checker must notice
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['jobs'][0]['hw_start_ns'] += 1; json.dump(d, open(sys.argv[1], 'w'))" \
		"$WORK/pf-neg.json"
	python3 "$PF_PROTO_DIR/check-trace.py" "$WORK/pf-neg.txt" "$WORK/pf-neg.json" > "$WORK/pf-neg.check"
	expect "the checker passed a trace that disagrees with the report" [ $? = 1 ] || return 1
	expect "the checker did not name the job" grep -q "^not ok: job .*hardware slices" "$WORK/pf-neg.check"
}

test_perfetto_errors() {
	local f=$WORK/pf-err.dat
	"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" two-rings "$f" ||
		{ WHY="make-fixture failed"; return 1; }
	"$GT" report --format perfetto --rings -o "$WORK/x.pftrace" "$f" > /dev/null 2> "$WORK/pf-e1"
	expect "--rings with perfetto accepted" [ $? != 0 ] || return 1
	expect "not one line naming what to drop" grep -q '^gpu-trace report: .*drop --jobs' "$WORK/pf-e1" || return 1
	expect "a file left behind" [ ! -e "$WORK/x.pftrace" ] || return 1
	# binary output to a terminal is refused
	script -qec "$GT report --format perfetto $f" /dev/null > "$WORK/pf-e2" 2>&1
	expect "binary trace written to a terminal" grep -q 'give -o FILE' "$WORK/pf-e2" || return 1
	# a directory that does not exist: one line, non-zero, nothing written
	"$GT" report --format perfetto -o "$WORK/no/such/dir/t.pftrace" "$f" 2> "$WORK/pf-e3"
	expect "a missing directory accepted" [ $? != 0 ] || return 1
	expect "not one line" [ "$(grep -c '' "$WORK/pf-e3")" = 1 ] || return 1
	# a truncated .dat: the report's own one-line error and no output file
	head -c 20000 "$f" > "$WORK/pf-trunc.dat"
	"$GT" report --format perfetto -o "$WORK/trunc.pftrace" "$WORK/pf-trunc.dat" 2> "$WORK/pf-e4"
	expect "a truncated file accepted" [ $? != 0 ] || return 1
	expect "a half-written trace left" [ ! -e "$WORK/trunc.pftrace" ]
}

test_report_output_file() {
	local f=$WORK/of.dat
	"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" two-rings "$f" ||
		{ WHY="make-fixture failed"; return 1; }
	"$GT" report --format json -o "$WORK/of.json" "$f" > "$WORK/of.stdout" || { WHY="report -o failed"; return 1; }
	expect "-o also printed to stdout" [ ! -s "$WORK/of.stdout" ] || return 1
	"$GT" report --format json "$f" > "$WORK/of2.json"
	expect "-o FILE differs from stdout" cmp -s "$WORK/of.json" "$WORK/of2.json" || return 1
	# a planted symlink is replaced, never followed
	echo keep > "$WORK/victim"
	ln -sf "$WORK/victim" "$WORK/of-link.json"
	"$GT" report --format json -o "$WORK/of-link.json" "$f" 2> "$WORK/of-link.err"
	expect "report -o over an existing name went ahead without --force (exit $?): $(cat "$WORK/of-link.err")" \
		grep -q "^gpu-trace report: output $WORK/of-link.json exists; pass --force" "$WORK/of-link.err" || return 1
	expect "the refused run touched the link" [ -L "$WORK/of-link.json" ] || return 1
	"$GT" report --format json --force -o "$WORK/of-link.json" "$f" ||
		{ WHY="report --force -o over a link failed"; return 1; }
	expect "the link's target was written through" [ "$(cat "$WORK/victim")" = keep ] || return 1
	expect "--force did not replace the link with the report" \
		[ ! -L "$WORK/of-link.json" ] && cmp -s "$WORK/of-link.json" "$WORK/of2.json"
}

# Several files in one trace: a group per file, each file's slices at the
# report's times moved by its --ts-offset (also a negative one), and equal pids
# of different files never merged into one thread.
test_perfetto_several_files() {
	local s
	need_protoc || return
	for s in deps competing lost-window; do
		"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" "$s" "$WORK/pm-$s.dat" ||
			{ WHY="make-fixture $s failed"; return 1; }
		"$GT" report --jobs --format json "$WORK/pm-$s.dat" > "$WORK/pm-$s.json"
	done
	"$GT" report --format perfetto -o "$WORK/pm.pftrace" "$WORK/pm-deps.dat" \
		"$WORK/pm-competing.dat" --ts-offset 2ms -i "$WORK/pm-lost-window.dat" --ts-offset -1us \
		2> "$WORK/pm.err" || { WHY="report of three files failed: $(cat "$WORK/pm.err")"; return 1; }
	expect "the summary does not say one group per file" grep -q 'one group per file' "$WORK/pm.err" || return 1
	pf_decode < "$WORK/pm.pftrace" > "$WORK/pm.txt" || { WHY="protoc cannot decode it"; return 1; }
	python3 "$PF_PROTO_DIR/check-trace.py" "$WORK/pm.txt" "$WORK/pm-deps.json" \
		--also "$WORK/pm-competing.json:2000000" --also "$WORK/pm-lost-window.json:-1000" \
		> "$WORK/pm.check" || { WHY="$(head -3 "$WORK/pm.check" | tr '\n' ' ')"; return 1; }
	expect "not 12 jobs of three files" grep -q '12 jobs on the hardware' "$WORK/pm.check" || return 1
	# the same trace checked against the wrong offset must fail
	python3 "$PF_PROTO_DIR/check-trace.py" "$WORK/pm.txt" "$WORK/pm-deps.json" \
		--also "$WORK/pm-competing.json:2000000" --also "$WORK/pm-lost-window.json:0" > /dev/null
	expect "the checker passed a file at the wrong offset" [ $? = 1 ]
}

test_report_several_files_errors() {
	local f=$WORK/pe.dat
	"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" two-rings "$f" ||
		{ WHY="make-fixture failed"; return 1; }
	"$GT" report --format csv "$f" "$f" > /dev/null 2> "$WORK/pe1"
	expect "two files with --format csv accepted" [ $? = 125 ] || return 1
	expect "not one line naming text, json, perfetto, html or parquet" grep -q '^gpu-trace report: 2 input files .*text, json, perfetto, html or parquet$' "$WORK/pe1" || return 1
	"$GT" report --format perfetto --ts-offset 1ms -o "$WORK/pe.pftrace" "$f" 2> "$WORK/pe2"
	expect "an offset before any file accepted" grep -q 'comes before any file' "$WORK/pe2" || return 1
	"$GT" report --format perfetto -o "$WORK/pe.pftrace" "$f" --ts-offset 1000 2> "$WORK/pe3"
	expect "an offset without its unit accepted" grep -q "bad --ts-offset '1000'" "$WORK/pe3" || return 1
	"$GT" report --format json "$f" --ts-offset 1ms > /dev/null 2> "$WORK/pe4"
	expect "an offset with --format json accepted" grep -q 'writes each file.s own times' "$WORK/pe4" || return 1
	# moved before time 0: one line, and no trace left behind
	"$GT" report --format perfetto -o "$WORK/pe.pftrace" "$f" "$f" --ts-offset -100000s 2> "$WORK/pe5"
	expect "an offset before time 0 accepted" [ $? = 125 ] || return 1
	expect "not one line on time 0" [ "$(grep -c 'before time 0' "$WORK/pe5")" = 1 ] || return 1
	expect "a trace left behind" [ ! -e "$WORK/pe.pftrace" ] || return 1
	# a damaged second file: nothing left either
	head -c 20000 "$f" > "$WORK/pe-trunc.dat"
	"$GT" report --format html -o "$WORK/pe.html" "$f" "$WORK/pe-trunc.dat" 2> /dev/null
	expect "a truncated second file accepted" [ $? = 125 ] || return 1
	expect "a half-written page left" [ ! -e "$WORK/pe.html" ]
}

# -o goes through the write-back stream (lib/util/writeback-stream.h): a trace past 8 MB
# is the same bytes as on standard output, and its write-back was started as it was
# written (sync_file_range on its first 8 MB), not left to the commit's fsync.
test_perfetto_output_written_back_as_it_goes() {
	local f=$WORK/wb.dat
	command -v strace > /dev/null || { WHY="needs strace (make deps installs it)"; return 77; }
	"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" bench:20000 "$f" > /dev/null ||
		{ WHY="make-fixture failed"; return 1; }
	"$GT" report --format perfetto "$f" > "$WORK/wb-stdout.pftrace" 2> /dev/null ||
		{ WHY="report to standard output failed"; return 1; }
	# LeakSanitizer cannot run under ptrace
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" strace -f -qq -e trace=sync_file_range \
		-o "$WORK/wb.strace" "$GT" report --format perfetto -o "$WORK/wb.pftrace" "$f" 2> /dev/null ||
		{ WHY="report -o under strace failed"; return 1; }
	expect "the trace is under 8 MB: nothing to write back" \
		[ "$(stat -c %s "$WORK/wb.pftrace")" -gt $((8 << 20)) ] || return 1
	expect "-o wrote other bytes than standard output got" \
		cmp -s "$WORK/wb.pftrace" "$WORK/wb-stdout.pftrace" || return 1
	expect "no write-back started for the first 8 MB: $(head -3 "$WORK/wb.strace" | tr '\n' '|')" \
		grep -q 'sync_file_range([0-9]*, 0, 8388608, SYNC_FILE_RANGE_WRITE) = 0' "$WORK/wb.strace"
}
