# What `record -- cmd` scopes to the workload and what it records system-wide.
# shellcheck shell=bash

# A process outside the workload calling getppid(2) in a loop; its pid in BUSY.
# Returns once it loops (python starts slowly on a loaded machine).
start_busy() {
	local i
	rm -f "$WORK/busy.ready"
	python3 -c 'import os, sys
open(sys.argv[1], "w").close()
while True: os.getppid()' "$WORK/busy.ready" &
	BUSY=$!
	for i in $(seq 100); do [ -e "$WORK/busy.ready" ] && break; sleep 0.05; done
}

stop_busy() { kill "$BUSY" 2> /dev/null; wait "$BUSY" 2> /dev/null; }

# pids with sys_enter_getppid records in a .dat (every buffer)
getppid_pids() {
	trace-cmd report -i "$1" 2> /dev/null | grep 'sys_enter_getppid' |
		sed -E 's/^(workload: +)?//' | awk '{ print $1 }' | sed 's/.*-//' | sort -u
}

test_workload_events_scoped_gpu_systems_wide() {
	local out=$WORK/scope.dat n
	SNAPSHOT_BUFFER_PAGES=1 tracefs_snapshot > "$WORK/snap.before"
	start_busy
	"$GT" record -e dma_fence -e syscalls:sys_enter_getppid -o "$out" -- \
		sh -c 'python3 -c "import os; [os.getppid() for _ in range(50)]"' 2> "$WORK/scope.err"
	n=$?
	stop_busy
	expect "record failed: $(tail -1 "$WORK/scope.err")" [ "$n" = 0 ] || return 1
	expect "no scope line: $(cat "$WORK/scope.err")" \
		grep -Eq '^scope: system-wide: dma_fence .*; workload only \(pid [0-9]+ and its children\): syscalls$' \
		"$WORK/scope.err" || return 1
	# the workload's buffer is a trace-cmd buffer instance that readers show
	expect "no workload buffer in the file" grep -Eq '^buffer workload [1-9]' <("$INSPECT" "$out") || return 1
	expect "trace-cmd does not show the workload marker" \
		grep -q 'workload: .*gpu-trace workload: pids=' <(trace-cmd report -i "$out" 2> /dev/null) || return 1
	expect "the busy process $BUSY was recorded though not the workload's" \
		[ -z "$(getppid_pids "$out" | grep -x "$BUSY")" ] || return 1
	expect "the workload's getppid calls are missing" [ -n "$(getppid_pids "$out")" ] || return 1
	"$GT" report --format json "$out" > "$WORK/scope.json" 2> /dev/null
	expect "report does not name the workload" \
		python3 -c 'import json,sys; w=json.load(open(sys.argv[1]))["workload"]; sys.exit(not (w and w["comm"] == "sh" and w["tasks"] >= 2))' \
		"$WORK/scope.json" || return 1
	SNAPSHOT_BUFFER_PAGES=1 same_as_before "record with a workload buffer"
}

# --system-wide-events: non-GPU events of every process, as GPU systems always are
test_system_wide_events_option() {
	local out=$WORK/wide.dat n
	start_busy
	"$GT" record --system-wide-events -e syscalls:sys_enter_getppid -o "$out" -- sleep 0.3 \
		2> "$WORK/wide.err"
	n=$?
	stop_busy
	expect "record failed: $(tail -1 "$WORK/wide.err")" [ "$n" = 0 ] || return 1
	expect "the busy process $BUSY is missing with --system-wide-events" \
		[ -n "$(getppid_pids "$out" | grep -x "$BUSY")" ] || return 1
	expect "scope line does not say syscalls went system-wide" \
		grep -Eq '^scope: system-wide: syscalls .*workload only .*: its pid tree$' "$WORK/wide.err"
}

# -P follows every thread: GPU submissions come from the submitting thread
test_attach_follows_threads() {
	local out=$WORK/threads.dat pid n i rec
	# the second thread calls until told to stop, once record says it records: a
	# set-up slowed by a busy machine cannot outlast it (it lasted 1.5 s)
	python3 -c 'import os, sys, threading, time
def spin():
    end = time.time() + 60
    while time.time() < end and not os.path.exists(sys.argv[1]): os.getppid()
t = threading.Thread(target=spin)
t.start()
t.join()' "$WORK/threads.stop" &
	pid=$!
	for i in $(seq 100); do [ "$(ls /proc/$pid/task 2> /dev/null | wc -l)" = 2 ] && break; sleep 0.02; done
	"$GT" record -P "$pid" -e syscalls:sys_enter_getppid -o "$out" 2> "$WORK/threads.err" &
	rec=$!
	for i in $(seq 600); do grep -q 'recording the given pids' "$WORK/threads.err" && break; sleep 0.05; done
	sleep 0.3
	touch "$WORK/threads.stop"
	wait "$pid"
	wait "$rec"
	n=$?
	expect "record -P failed: $(tail -1 "$WORK/threads.err")" [ "$n" = 0 ] || return 1
	expect "scope line does not count both threads" \
		grep -q 'workload only (2 threads of -P and their children)' "$WORK/threads.err" || return 1
	expect "the second thread's calls are missing" \
		[ -n "$(getppid_pids "$out" | grep -vx "$pid")" ]
}

# A cgroup made for the test (cgroup2), empty when record starts: a process that
# joins it later is followed, one outside it is not, and nothing is recorded in
# the workload buffer before the first one joins.
test_cgroup_scope_follows_processes_that_join() {
	local cg rc pids joiner
	test_cgroup scope || return
	cg=$CGROUP
	start_busy
	# 8 s: the joiner's python starts, waits 1 s and calls for 0.8 s, once record is
	# recording; on a loaded machine its start alone can take long enough to push its
	# last calls past a 4 s recording
	"$GT" record --cgroup "$cg" --duration 8 -e syscalls:sys_enter_getppid -o "$WORK/cg.dat" \
		2> "$WORK/cg.err" &
	rc=$!
	# recording (its scope line said, none in the cgroup yet) before anyone joins: a
	# fixed second was not always enough for record's set-up on a loaded machine
	for _ in $(seq 100); do
		grep -q '^scope:' "$WORK/cg.err" 2> /dev/null && break
		sleep 0.1
	done
	# joins, gives record's poll (every 100 ms) a second to see it, then calls
	python3 -c 'import os, sys, time
open(sys.argv[1], "w").write(str(os.getpid()))
print(os.getpid(), flush=True)
time.sleep(1)
for i in range(40):
    os.getppid()
    time.sleep(0.02)' "$cg/cgroup.procs" > "$WORK/cg.joiner"
	wait "$rc"
	rc=$?
	stop_busy
	drop_test_cgroup
	expect "record --cgroup failed: $(tail -2 "$WORK/cg.err")" [ $rc = 0 ] || return 1
	expect "the scope line does not name the cgroup: $(grep -m1 '^scope:' "$WORK/cg.err")" grep -q "0 processes of cgroup $cg, more as they join" "$WORK/cg.err" || return 1
	joiner=$(cat "$WORK/cg.joiner")
	pids=$(getppid_pids "$WORK/cg.dat" | tr '\n' ' ')
	expect "only the joiner ($joiner) should have getppid records, found: $pids" [ "$pids" = "$joiner " ] || return 1
	expect "the joiner's 40 calls, made after the poll had a second to see it, are not all there" \
		[ "$(trace-cmd report -i "$WORK/cg.dat" 2> /dev/null | grep -c "\-$joiner .*sys_enter_getppid")" -ge 40 ]
}

test_cgroup_and_container_errors() {
	"$GT" record --cgroup /nonexistent/cg -o "$WORK/x.dat" 2> "$WORK/cge1"
	expect "a missing cgroup accepted" [ $? = 125 ] || return 1
	expect "not one line naming cgroup.procs" grep -q 'cannot read /nonexistent/cg/cgroup.procs' "$WORK/cge1" || return 1
	"$GT" record --container gpu-trace-no-such-container -o "$WORK/x.dat" 2> "$WORK/cge2"
	expect "an unknown container accepted" grep -q "container 'gpu-trace-no-such-container': neither docker nor podman" "$WORK/cge2" || return 1
	"$GT" record --cgroup /sys/fs/cgroup -P 1 -o "$WORK/x.dat" 2> "$WORK/cge3"
	expect "--cgroup with -P accepted" grep -q 'cannot be combined with -P' "$WORK/cge3" || return 1
	expect "a file written" [ ! -e "$WORK/x.dat" ]
}

# A real container where podman can run one (its root: the host's /, no image
# needed): record --container follows what podman exec starts in it.
test_record_a_real_container() {
	local name=gpu-trace-ctr-$$ n
	command -v podman > /dev/null || { WHY="podman is not installed"; return 77; }
	if ! podman run -d --rm --name "$name" --rootfs / sleep 60 > "$WORK/ctr.id" 2> "$WORK/ctr.err"; then
		WHY="podman cannot run a container on this machine: $(tail -1 "$WORK/ctr.err")"
		return 77
	fi
	"$GT" record --container "$name" -e syscalls:sys_enter_getppid -o "$WORK/ctr.dat" -- \
		podman exec "$name" python3 -c 'import os, time
time.sleep(1)
for i in range(50): os.getppid()' 2> "$WORK/ctr.rec"
	local rc=$?
	podman rm -f "$name" > /dev/null 2>&1
	expect "record --container failed: $(tail -2 "$WORK/ctr.rec")" [ $rc = 0 ] || return 1
	n=$(trace-cmd report -i "$WORK/ctr.dat" 2> /dev/null | grep -c '^workload: .*python3-.*sys_enter_getppid')
	expect "the container's python made 50 getppid calls, the file has $n" [ "$n" -ge 50 ]
}

# The workload's buffer is a trace-cmd buffer instance that report opens
# through libtracecmd: its pages were never checked (only the top buffer's),
# so a damaged one reached kbuffer. A page of it claiming more than a page
# holds is one line and 125 now.
test_damaged_page_in_the_workload_buffer_refused() {
	local out=$WORK/wbuf-damaged.dat rc
	"$GT" record -e syscalls:sys_enter_getppid -o "$out" -- \
		python3 -c 'import os; [os.getppid() for _ in range(50)]' 2> "$WORK/wbuf.err" ||
		{ WHY="record failed: $(tail -1 "$WORK/wbuf.err")"; return 1; }
	"$GT" report "$out" > /dev/null 2>&1
	case $? in 0 | 2) ;; *) WHY="the intact file is refused"; return 1 ;; esac
	python3 - "$out" "$(trace-cmd dump --flyrecord -i "$out" 2> /dev/null | grep -c 'offset, size of cpu')" << 'EOP' ||
import struct, sys
path, cpus = sys.argv[1], int(sys.argv[2])
d = bytearray(open(path, "rb").read())
page = struct.unpack_from("<I", d, 14)[0]
i = d.index(b"options  \0") + 10
while True:
    oid, size = struct.unpack_from("<HI", d, i)
    i += 6
    if oid == 0:
        sys.exit("no buffer instance")
    if oid == 3:
        at = struct.unpack_from("<Q", d, i)[0]
        break
    i += size
assert d[at:at + 10] == b"flyrecord\0"
for cpu in range(cpus):
    off, size = struct.unpack_from("<QQ", d, at + 10 + 16 * cpu)
    if size >= page:
        struct.pack_into("<Q", d, off + 8, page * 2)  # the first page's commit, past the page
        open(path, "wb").write(d)
        sys.exit(0)
sys.exit("the instance holds no page")
EOP
		{ WHY="could not damage the instance's page"; return 1; }
	"$GT" report "$out" > /dev/null 2> "$WORK/wbuf.rep"
	rc=$?
	expect "a damaged page in the workload buffer: exit $rc: $(head -2 "$WORK/wbuf.rep" | tr '\n' ' ')" \
		[ $rc = 125 ] || return 1
	expect "not named: $(cat "$WORK/wbuf.rep")" grep -q 'damaged in the buffer instance at byte' "$WORK/wbuf.rep"
}
