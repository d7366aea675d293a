# record --hip-log on the real tracefs: a stand-in HIP program
# (tests/tools/fake-hip.py) writes the runtime's lines at CLOCK_MONOTONIC times
# and calls getppid() after each step; every line must land in the .dat at its
# own time among the kernel's events, as trace-cmd report merges them.
# shellcheck shell=bash

FAKE_HIP=$ROOT_DIR/tests/tools/fake-hip.py
STALLED_FUSE=$ROOT_DIR/tests/tools/stalled-fuse.py

# hip_record NAME N [fake options]: record the fake with --hip-log into NAME.dat
hip_record() {
	local name=$1 n=$2
	shift 2
	${HIP_PREFIX:-} "$GT" record -e syscalls:sys_enter_getppid --hip-log -o "$WORK/$name.dat" -- \
		${HIP_WRAP:-} python3 "$FAKE_HIP" "$n" "$@" > "$WORK/$name.out" 2> "$WORK/$name.err" ||
		{ WHY="record --hip-log failed: $(tail -2 "$WORK/$name.err" | tr '\n' ' ')"; return 1; }
	local d
	d=$(sed -n 's/^logdir //p' "$WORK/$name.out")
	expect "the workload was given no log directory" [ -n "$d" ] || return 1
	expect "record left the log directory $d behind" [ ! -e "$d" ]
}

test_hip_lines_at_their_own_times() {
	command -v trace-cmd > /dev/null || { WHY="trace-cmd not installed"; return 77; }
	hip_record hip 12 || return 1
	expect "the workload was not given AMD_LOG_LEVEL=4 and the full mask: $(head -1 "$WORK/hip.out")" \
		grep -qx 'env 4 0x7FFFFFFF' "$WORK/hip.out" || return 1
	# 1 queue + 12 x (ShaderName, dispatch) + enqueued + continuation + complete
	expect "record did not count 28 lines: $(grep 'hip log' "$WORK/hip.err")" \
		grep -q '^hip log: 28 lines of 1 process (level 4)' "$WORK/hip.err" || return 1
	expect "the header-less first line was not reported as left out" \
		grep -q 'hip log: 1 lines before any timestamped line left out' "$WORK/hip.err" || return 1
	hip_in_order hip || return 1
	expect "the continuation line is not stored" \
		grep -q 'a continuation line of the message above' <(trace-cmd report -i "$WORK/hip.dat" 2> /dev/null)
}

# hip_in_order NAME: NAME.dat holds the fake's lines and getppid calls in the order it made them
hip_in_order() {
	local name=$1 pid want got
	# what the fake did, in order: H <step> for its lines, G for a getppid
	want=$(sed -n 's/^order //p' "$WORK/$name.out" | tr -d ' ' | tr '|' '\n' | sed 's/^H.*/H/')
	pid=$(trace-cmd report -i "$WORK/$name.dat" 2> /dev/null | grep -m1 'hip-log:' | sed -E 's/.*-([0-9]+) +\[.*/\1/')
	expect "no hip-log records in trace-cmd report" [ -n "$pid" ] || return 1
	# what trace-cmd report shows of that process from its first line on (an
	# interpreter's start-up may call getppid too): one H per step, G per getppid
	got=$(trace-cmd report -i "$WORK/$name.dat" 2> /dev/null |
		grep -E -- "-$pid +\[" | grep -E 'hip-log:|sys_enter_getppid' |
		awk '/sys_enter_getppid/ { print "G"; h = 0; next } !h { print "H"; h = 1 }' | sed '/^H/,$!d')
	expect "trace-cmd's order is not the workload's: want $(echo "$want" | tr '\n' ' ') got $(echo "$got" | tr '\n' ' ')" \
		[ "$want" = "$got" ]
}

# In a time namespace (a container CRIU restored, unshare -T) the runtime
# stamps its lines on a CLOCK_MONOTONIC behind the kernel's, which stamps the
# events: record takes the offset back, so the lines keep their place.
test_hip_lines_in_a_time_namespace() {
	command -v trace-cmd > /dev/null || { WHY="trace-cmd not installed"; return 77; }
	time_namespace_behind || return
	HIP_PREFIX="unshare -T --fork --monotonic=-$BEHIND" hip_record hip-timens 6 || return 1
	hip_in_order hip-timens
}

# The workload makes the time namespace itself (its own clock set back, as
# a checkpointed job restored elsewhere sees it): record, outside, looks at
# each log file's writer while it runs and takes that namespace's offset back.
# The lines sat $BEHIND s early before.
# (Under sudo the workload runs as the invoking user, who may not unshare:
# as root here.)
test_hip_lines_of_a_workload_in_its_own_time_namespace() {
	command -v trace-cmd > /dev/null || { WHY="trace-cmd not installed"; return 77; }
	time_namespace_behind || return
	HIP_PREFIX="env -u SUDO_UID -u SUDO_GID" HIP_WRAP="unshare -T --fork --monotonic=-$BEHIND" \
		hip_record hip-own-timens 6 --linger 1 || return 1
	hip_in_order hip-own-timens || return 1
	expect "record said a writer was not seen: $(grep 'hip log' "$WORK/hip-own-timens.err")" \
		not grep -q 'not seen' "$WORK/hip-own-timens.err"
}

# A writer record cannot place (here an orphan: setsid -f, no longer forked
# from the command) stamps its lines on the namespace the command made for
# its children, which record read while the command ran; record says so.
test_hip_lines_of_an_orphan_in_the_workloads_time_namespace() {
	command -v trace-cmd > /dev/null || { WHY="trace-cmd not installed"; return 77; }
	command -v setsid > /dev/null || { WHY="no setsid"; return 77; }
	time_namespace_behind || return
	printf 'setsid -f "$@"\nsleep 3\n' > "$WORK/orphan.sh"
	HIP_PREFIX="env -u SUDO_UID -u SUDO_GID" HIP_WRAP="unshare -T --fork --monotonic=-$BEHIND sh $WORK/orphan.sh" \
		hip_record hip-orphan 6 --linger 0.3 || return 1
	hip_in_order hip-orphan || return 1
	expect "record did not say the writer was placed on the command's namespace: $(grep 'hip log' "$WORK/hip-orphan.err")" \
		grep -q "^hip log: 1 processes' time namespace not seen .*the one the command made for its children" "$WORK/hip-orphan.err"
}

# unshare -T makes the namespace first and sets its offset after: a look in
# between saw offset 0, and record kept it (CI once caught unshare there, and
# the orphan's lines sat $BEHIND s early). The command here holds that window
# open 0.5 s; the offset it ends with, frozen at its fork, is the one taken.
test_hip_lines_of_an_orphan_when_the_offset_comes_late() {
	command -v trace-cmd > /dev/null || { WHY="trace-cmd not installed"; return 77; }
	command -v setsid > /dev/null || { WHY="no setsid"; return 77; }
	time_namespace_behind || return
	printf 'setsid -f "$@"\nsleep 3\n' > "$WORK/orphan-late.sh"
	HIP_PREFIX="env -u SUDO_UID -u SUDO_GID" \
		HIP_WRAP="python3 $ROOT_DIR/tests/tools/late-timens.py $BEHIND 0.5 sh $WORK/orphan-late.sh" \
		hip_record hip-orphan-late 6 --linger 0.3 || return 1
	hip_in_order hip-orphan-late || return 1
	expect "record did not say the writer was placed on the command's namespace: $(grep 'hip log' "$WORK/hip-orphan-late.err")" \
		grep -q "^hip log: 1 processes' time namespace not seen .*the one the command made for its children" "$WORK/hip-orphan-late.err"
}

# A writer in a pid namespace of its own (unshare -p, bwrap) names its file by
# the pid it sees itself as, 1 here: record finds it among the command's
# processes while it runs, and its lines carry its pid as the kernel's events
# do (they had pid 1 before, which trace-cmd showed as <...>-1).
test_hip_lines_of_a_writer_in_its_own_pid_namespace() {
	command -v trace-cmd > /dev/null || { WHY="trace-cmd not installed"; return 77; }
	unshare -p --fork true 2> /dev/null || { WHY="cannot unshare a pid namespace here"; return 77; }
	[ -r "/proc/$$/task/$$/children" ] || { WHY="no /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN)"; return 77; }
	HIP_PREFIX="env -u SUDO_UID -u SUDO_GID" HIP_WRAP="unshare -p --fork" \
		hip_record hip-pidns 4 --linger 1 || return 1
	expect "record did not say the writer was renumbered: $(grep 'hip log' "$WORK/hip-pidns.err")" \
		grep -q '^hip log: 1 processes wrote in a pid namespace of their own' "$WORK/hip-pidns.err" || return 1
	expect "a HIP line has the pid of the writer's own namespace" \
		[ -z "$(trace-cmd report -i "$WORK/hip-pidns.dat" 2> /dev/null | grep 'hip-log:' | grep -E -- '-1 +\[')" ] || return 1
	hip_in_order hip-pidns
}

test_hip_report_sections() {
	hip_record hipr 6 || return 1
	"$GT" report --format json "$WORK/hipr.dat" > "$WORK/hipr.json" ||
		{ WHY="report failed"; return 1; }
	python3 - "$WORK/hipr.json" > "$WORK/hipr.check" <<'PY' || { WHY="$(cat "$WORK/hipr.check")"; return 1; }
import json, sys
r = json.load(open(sys.argv[1]))
assert r["schema"] == "gpu-trace-report/13", r["schema"]
h = r["hip"]
assert h["lines"] == 15 and len(h["processes"]) == 1, h
p = h["processes"][0]
k = {x["name"]: x["dispatches"] for x in p["kernels"]}
assert k == {"gemm_kernel_0": 3, "gemm_kernel_1": 3}, k
q = p["queues"]
assert len(q) == 1 and q[0]["hwq"] == "0x7f2000000000" and q[0]["size"] == 16384 and q[0]["priority"] == 1, q
assert p["by_kind"]["dispatch"] == 6 and p["by_kind"]["shader"] == 6, p["by_kind"]
assert p["commands_complete"] == 1 and p["gpu_us"] == 117 and p["wall_us"] == 120, p
assert r["first_ns"] <= p["first_ns"] <= p["last_ns"] <= r["last_ns"], (r["first_ns"], p, r["last_ns"])
PY
	"$GT" report "$WORK/hipr.dat" > "$WORK/hipr.txt" || { WHY="text report failed"; return 1; }
	expect "the text report has no HIP section" grep -q '^HIP runtime log' "$WORK/hipr.txt" || return 1
	expect "no kernel line" grep -Eq '^ +3 x gemm_kernel_1 ' "$WORK/hipr.txt" || return 1
	"$GT" report --format csv "$WORK/hipr.dat" > "$WORK/hipr.csv"
	expect "no CSV kernels table" grep -q ',gemm_kernel_0,3,' "$WORK/hipr.csv"
}

# Links in the log directory (the workload's user owns it) are never followed.
test_hip_log_never_reads_planted_links() {
	hip_record hipp 1 --plant || return 1
	expect "planted files were not reported skipped" grep -q '2 files not the workload.s own skipped' "$WORK/hipp.err" || return 1
	expect "a planted link's target reached the file" \
		[ -z "$(trace-cmd report -i "$WORK/hipp.dat" 2> /dev/null | grep 'root:x:0:0')" ]
}

# The log directory is the workload's user's, in /tmp. That user renames it
# and leaves a symlink to another directory in its place: root must not
# empty the symlink's target (it did, where fs.protected_symlinks is 0, as
# on these machines: set so for the test and put back).
test_hip_log_directory_swapped_for_a_symlink() {
	local victim d prot
	prot=$(cat /proc/sys/fs/protected_symlinks 2> /dev/null) ||
		{ WHY="no fs.protected_symlinks to read"; return 77; }
	victim=$(mktemp -d /tmp/gt-victim.XXXXXX)
	echo keep > "$victim/precious"
	chmod 0755 "$victim"
	if ! echo 0 > /proc/sys/fs/protected_symlinks; then
		rm -rf "$victim"
		WHY="cannot set fs.protected_symlinks to 0, which the attack needs"
		return 77
	fi
	SUDO_UID=65534 SUDO_GID=65534 "$GT" record -e syscalls:sys_enter_getppid --hip-log \
		-o "$(nobody_dir swap)/swap.dat" -- sh -c 'd=${AMD_LOG_LEVEL_FILE%/*}; echo "$d"; \
			mv "$d" "$d.moved" && ln -s "$1" "$d"' _ "$victim" > "$WORK/swap.out" 2> "$WORK/swap.err"
	echo "$prot" > /proc/sys/fs/protected_symlinks
	d=$(head -1 "$WORK/swap.out")
	case $d in /tmp/gpu-trace-hip.*) ;; *) d= ;; esac
	local left=yes swapped=
	[ -f "$victim/precious" ] || left=
	[ -n "$d" ] && [ -L "$d" ] && [ -d "$d.moved" ] && swapped=yes
	# the workload's own leftovers: a symlink and its renamed directory
	[ -n "$d" ] && rm -rf "$d" "$d.moved"
	rm -rf "$victim"
	expect "the workload did not swap its directory: $(tr '\n' ' ' < "$WORK/swap.err")" [ -n "$swapped" ] || return 1
	expect "root emptied the directory the workload's symlink named" [ -n "$left" ]
}

# FUSE_HOLDER (its pid file) is the server of stalled-fuse.py; a record that
# waits on it is given 30 s, then the server is killed (the waiting open
# fails then) so the record still ends and tears down. HUNG says whether it
# had to. fuse_record OUT ERR -- record arguments...
fuse_record() {
	local out=$1 err=$2 gt holder
	shift 3
	HUNG=
	"$GT" record "$@" > "$out" 2> "$err" &
	gt=$!
	for _ in $(seq 300); do kill -0 "$gt" 2> /dev/null || break; sleep 0.1; done
	if kill -0 "$gt" 2> /dev/null; then
		# where it waits, for the failure line: each thread's kernel wait and frames
		HUNG=$(for t in /proc/"$gt"/task/*; do
			printf '%s %s:' "${t##*/}" "$(cat "$t/wchan" 2> /dev/null)"
			head -4 "$t/stack" 2> /dev/null | sed 's/^\[<[0-9a-f]*>\] //; s/+0x[0-9a-f/x]*$//' | tr '\n' ' '
		done)
		for c in $(cat /proc/"$gt"/task/*/children 2> /dev/null); do
			HUNG="$HUNG child $c $(cat /proc/"$c"/comm 2> /dev/null):$(cat /proc/"$c"/wchan 2> /dev/null)"
		done
		HUNG="in ${HUNG:-?}; stderr: $(tail -2 "$err" | tr '\n' ' ')"
	fi
	holder=$(cat "$FUSE_HOLDER" 2> /dev/null)
	[ -n "$holder" ] && kill "$holder" 2> /dev/null
	wait "$gt"
	RC=$?
	[ -n "$holder" ]
}

fuse_usable() {
	[ -c /dev/fuse ] && grep -qw fuse /proc/filesystems ||
		{ WHY="no FUSE in this kernel (/dev/fuse, /proc/filesystems)"; return 77; }
}

# A user where /etc/fuse.conf has user_allow_other can fusermount a server on
# a file of the log directory (theirs) that never answers: root's open of it
# alone waits for ever, and the recording's end with it. Such a name is
# skipped, never entered; the workload's own file is still read.
test_hip_log_skips_a_mount_on_one_of_its_files() {
	local d
	fuse_usable || return
	FUSE_HOLDER=$WORK/hfuse.pid
	fuse_record "$WORK/hfuse.out" "$WORK/hfuse.err" -- --hip-log -e sched:sched_switch \
		-o "$WORK/hfuse.dat" -- sh -c 'echo "dir ${AMD_LOG_LEVEL_FILE%/*}"
			printf ":3:hip.cpp :1 : 0000000001 us: [pid:%d tid:0x1] own line\n" $$ > "${AMD_LOG_LEVEL_FILE}_$$"
			: > "${AMD_LOG_LEVEL_FILE}_4243"
			python3 "$1" "${AMD_LOG_LEVEL_FILE}_4243" > "$2" &
			for _ in $(seq 300); do [ -s "$2" ] && break; sleep 0.1; done' _ "$STALLED_FUSE" "$FUSE_HOLDER"
	local mounted=$?
	d=$(sed -n 's/^dir //p' "$WORK/hfuse.out")
	case $d in /tmp/gpu-trace-hip.*)
		umount "$d"/*_4243 2> /dev/null
		rm -rf "$d" ;;
	esac
	expect "the stalled server was never mounted (test is void)" [ $mounted = 0 ] || return 1
	expect "record waited on the FUSE server until it was killed, $HUNG" [ -z "$HUNG" ] || return 1
	expect "record failed: $(tail -1 "$WORK/hfuse.err")" [ $RC = 0 ] || return 1
	expect "the workload's own file was not read: $(grep 'hip log' "$WORK/hfuse.err" | tr '\n' ' ')" \
		grep -q '^hip log: 1 line of 1 process' "$WORK/hfuse.err" || return 1
	expect "the mounted name was not counted skipped" \
		grep -q '1 files not the workload.s own skipped' "$WORK/hfuse.err"
}

# A container whose /tmp is such a server (its own mount namespace): opening
# /proc/PID/root/tmp would wait for ever. Its mountinfo says FUSE; not entered.
# (Inside, nothing may touch /tmp once mounted: the pid file is opened before,
# and the shell looks commands up in the system's directories only, never in
# the suite's /tmp/gt-python.* first on PATH.)
test_hip_log_skips_a_container_whose_tmp_is_fuse() {
	local cg
	command -v unshare > /dev/null || { WHY="unshare not installed"; return 77; }
	fuse_usable || return
	test_cgroup hipfuse || return
	cg=$CGROUP
	FUSE_HOLDER=$WORK/cfuse.pid
	# the server's mount seen from inside is written on fd 4 (nothing may touch the
	# FUSE /tmp), waited for up to 30 s: on a loaded machine python starts slowly
	fuse_record "$WORK/cfuse.out" "$WORK/cfuse.err" -- --cgroup "$cg" --hip-log -e sched:sched_switch \
		-o "$WORK/cfuse.dat" -- sh -c 'echo $$ > "$1/cgroup.procs"
			exec 3> "$3" 4> "$4"
			PATH=/usr/sbin:/usr/bin:/sbin:/bin exec unshare --mount --propagation private \
				sh -c "python3 $2 /tmp >&3 &
				for _ in \$(seq 300); do
					grep -q \" /tmp .* - fuse \" /proc/self/mountinfo && echo mounted >&4 && break
					sleep 0.1
				done"' \
		_ "$cg" "$STALLED_FUSE" "$FUSE_HOLDER" "$WORK/cfuse.mounted"
	drop_test_cgroup
	expect "the stalled server was never mounted (test is void)" grep -q mounted "$WORK/cfuse.mounted" || return 1
	expect "record waited on the container's FUSE /tmp until it was killed, $HUNG" [ -z "$HUNG" ] || return 1
	expect "record failed: $(tail -1 "$WORK/cfuse.err")" [ $RC = 0 ] || return 1
	expect "the FUSE /tmp was not named: $(grep 'hip log' "$WORK/cfuse.err" | tr '\n' ' ')" \
		grep -q '^hip log: 1 container processes see / or /tmp on FUSE' "$WORK/cfuse.err"
}

test_hip_log_option_errors() {
	"$GT" record --hip-log -a -o "$WORK/x.dat" 2> "$WORK/he1"
	expect "--hip-log without a command accepted" [ $? = 125 ] || return 1
	expect "not one line naming the command" grep -q 'needs a command to run' "$WORK/he1" || return 1
	"$GT" record --hip-log -C global -o "$WORK/x.dat" -- true 2> "$WORK/he2"
	expect "--hip-log with the global clock accepted" grep -q 'needs the mono clock' "$WORK/he2" || return 1
	"$GT" record --hip-log=9 -o "$WORK/x.dat" -- true 2> "$WORK/he3"
	expect "--hip-log=9 accepted" grep -q "bad --hip-log '9'" "$WORK/he3" || return 1
	expect "a file written after a bad option" [ ! -e "$WORK/x.dat" ]
}

# A workload in its own pid namespace, in a cgroup made for the test, as a
# container runs it: record --cgroup --hip-log finds the runtime's file in the
# /tmp of the cgroup's root (/proc/PID/root of a process that stays, as a
# container's init does), translates the namespace's pid 1 to the host pid,
# and places every line at its time among that process's kernel events.
test_hip_log_from_a_pid_namespace_in_a_cgroup() {
	local cg pid want got
	command -v unshare > /dev/null || { WHY="unshare not installed"; return 77; }
	test_cgroup hipns || return
	cg=$CGROUP
	test_cgroup_init
	# also a log of another user planted where the runtime's would be: the
	# container's process runs as root, so that file is not its own
	"$GT" record --cgroup "$cg" --hip-log -e syscalls:sys_enter_getppid -o "$WORK/ns.dat" -- \
		sh -c 'echo $$ > "$1/cgroup.procs"
			printf ":3:planted.cpp :1 : 0000000001 us: [pid:4242 tid:0x1] planted line\n" > "${AMD_LOG_LEVEL_FILE}_4242"
			chown 65534 "${AMD_LOG_LEVEL_FILE}_4242"
			exec unshare --pid --fork --mount-proc sh -c "sleep 0.4; exec python3 $2 6"' \
		_ "$cg" "$FAKE_HIP" > "$WORK/ns.out" 2> "$WORK/ns.err"
	local rc=$?
	drop_test_cgroup
	rm -f /tmp/gpu-trace-hip-*.log_1 /tmp/gpu-trace-hip-*.log_4242
	expect "record failed: $(tail -2 "$WORK/ns.err" | tr '\n' ' ')" [ $rc = 0 ] || return 1
	expect "the stand-in program did not run: $(head -2 "$WORK/ns.out")" grep -q '^order' "$WORK/ns.out" || return 1
	expect "no lines collected from the cgroup's /tmp: $(grep 'hip log' "$WORK/ns.err")" \
		grep -q '^hip log: 16 lines of 1 process' "$WORK/ns.err" || return 1
	expect "another user's file was read: $(grep 'hip log' "$WORK/ns.err" | tr '\n' ' ')" \
		grep -q '1 files not the workload.s own skipped' "$WORK/ns.err" || return 1
	expect "the planted line reached the file" \
		[ -z "$(trace-cmd report -i "$WORK/ns.dat" 2> /dev/null | grep 'planted line')" ] || return 1
	pid=$(trace-cmd report -i "$WORK/ns.dat" 2> /dev/null | grep -m1 'hip-log:' | sed -E 's/.*-([0-9]+) +\[.*/\1/')
	expect "the lines carry pid ${pid:-none}, not a host pid" [ -n "$pid" ] && [ "$pid" != 1 ] && [ "$pid" != 0 ] || return 1
	want=$(sed -n 's/^order //p' "$WORK/ns.out" | tr -d ' ' | tr '|' '\n' | sed 's/^H.*/H/')
	got=$(trace-cmd report -i "$WORK/ns.dat" 2> /dev/null |
		grep -E -- "-$pid +\[" | grep -E 'hip-log:|sys_enter_getppid' |
		awk '/sys_enter_getppid/ { print "G"; h = 0; next } !h { print "H"; h = 1 }' | sed '/^H/,$!d')
	expect "not in the workload's order: want $(echo "$want" | tr '\n' ' ') got $(echo "$got" | tr '\n' ' ')" \
		[ "$want" = "$got" ]
}
