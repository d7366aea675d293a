# list, reset, SIGKILL recovery, privileges of the workload and the file.
# shellcheck shell=bash

test_list_shows_this_kernel() {
	"$GT" list > "$WORK/list.out" 2>&1 || { WHY="list failed"; return 1; }
	expect "list: dma_fence state" grep -Eq '^  dma_fence +([0-9]+ events?|absent)' "$WORK/list.out" || return 1
	expect "list: tracers" grep -Eq '^  function +' "$WORK/list.out" || return 1
	expect "list: presets" grep -q '^preset amd:' "$WORK/list.out" || return 1
	"$GT" list --preset amd > "$WORK/lp.out" 2>&1 || { WHY="list --preset failed"; return 1; }
	expect "list --preset amd: kfd line" grep -Eq '^  kfd +(present|missing)' "$WORK/lp.out" || return 1
	"$GT" list -e > "$WORK/le.out" 2>&1 || { WHY="list -e failed"; return 1; }
	if [ -d "$TFS/events/dma_fence" ]; then
		expect "list -e: dma_fence events" grep -q 'dma_fence:dma_fence_signaled' "$WORK/le.out" || return 1
	fi
	expect "list left a probe instance" [ -z "$(gt_instances | grep probe)" ]
}

test_reset_removes_stale_instance() {
	local name=gpu-trace-999999999
	mkdir "$TFS/instances/$name" || { WHY="cannot create a stale instance"; return 1; }
	"$GT" reset > "$WORK/reset.out" 2>&1
	expect "reset failed: $(cat "$WORK/reset.out")" [ $? = 0 ] || { rmdir "$TFS/instances/$name"; return 1; }
	expect "stale instance still there" [ ! -d "$TFS/instances/$name" ] || { rmdir "$TFS/instances/$name"; return 1; }
	expect "reset did not say so" grep -q "removed stale instance $name" "$WORK/reset.out"
}

# A pid is a pid in its own PID namespace: a recorder in a container and one
# on the host can share it, and neither's run locks say whether the other's
# lives. A run in another namespace tags its names (gpu-trace-PID.nsID), and
# reset judges only its own namespace's: the host leaves a tagged instance, a
# container leaves the host's plain one (which looks stale from in there).
test_reset_leaves_another_pid_namespace() {
	local theirs=gpu-trace-999999997.ns4026530001 host=gpu-trace-999999996 ns
	command -v unshare > /dev/null || { WHY="no unshare (util-linux)"; return 77; }
	unshare --pid --fork true 2> /dev/null || { WHY="cannot make a PID namespace here"; return 77; }
	tracefs_snapshot > "$WORK/snap.before"
	mkdir "$TFS/instances/$theirs" "$TFS/instances/$host" || { WHY="cannot make the instances"; return 1; }
	"$GT" reset > "$WORK/rn.out" 2>&1
	expect "reset removed another namespace's instance: $(cat "$WORK/rn.out")" [ -d "$TFS/instances/$theirs" ] &&
		grep -q "$theirs is another PID namespace's gpu-trace 999999997" "$WORK/rn.out" ||
		{ rmdir "$TFS/instances/$theirs" "$TFS/instances/$host" 2> /dev/null; return 1; }
	mkdir "$TFS/instances/$host" 2> /dev/null
	unshare --pid --fork --mount-proc "$GT" reset > "$WORK/rc.out" 2>&1
	expect "a container's reset removed the host's instance: $(cat "$WORK/rc.out")" [ -d "$TFS/instances/$host" ] &&
		grep -q "$host is another PID namespace's" "$WORK/rc.out" ||
		{ rmdir "$TFS/instances/$theirs" "$TFS/instances/$host" 2> /dev/null; return 1; }
	rmdir "$TFS/instances/$theirs" "$TFS/instances/$host"
	# a record in a PID namespace: its instances carry the namespace, and go at its end
	unshare --pid --fork --mount-proc "$GT" record -e sched:sched_switch -o "$WORK/nsrec.dat" -- \
		sh -c "ls $TFS/instances; echo ns \$(stat -L -c %i /proc/self/ns/pid)" > "$WORK/nsrec.out" 2> "$WORK/nsrec.err"
	ns=$(sed -n 's/^ns //p' "$WORK/nsrec.out")
	expect "record in a PID namespace failed: $(tail -2 "$WORK/nsrec.err")" [ -s "$WORK/nsrec.dat" ] || return 1
	expect "its instance names no namespace: $(tr '\n' ' ' < "$WORK/nsrec.out")" \
		grep -Eq "^gpu-trace-[0-9]+\.ns[0-9]+(\.workload)?$" "$WORK/nsrec.out" || return 1
	expect "its tag is not its namespace's ($ns)" grep -q "\.ns$ns\(\.workload\)\?$" "$WORK/nsrec.out" || return 1
	same_as_before "a record and resets across PID namespaces"
}

# Starts a record of `sleep 10` into OUT, SIGKILLs it once its instance is
# there, and prints its pid, then the pids of its children (its workload).
sigkill_a_record() {
	local pid
	"$GT" record -e sched:sched_switch -o "$1" -- sleep 10 > /dev/null 2>&1 &
	pid=$!
	for _ in $(seq 50); do [ -d "$TFS/instances/gpu-trace-$pid" ] && break; sleep 0.1; done
	# the workload starts once tracefs is set up: seconds under ASan on a loaded machine
	for _ in $(seq 100); do [ -n "$(ps -o pid= --ppid "$pid")" ] && break; sleep 0.1; done
	sleep 0.3
	# shellcheck disable=SC2046 # one pid per word
	echo "$pid" $(ps -o pid= --ppid "$pid")
	kill -KILL "$pid"
	wait "$pid" 2> /dev/null
}

# The same, with any child left behind killed, by pid: never anyone else's.
record_then_sigkill() {
	local pids
	pids=$(sigkill_a_record "$1")
	# shellcheck disable=SC2086
	set -- $pids
	shift
	[ $# -gt 0 ] && kill -KILL "$@" 2> /dev/null
	echo "${pids%% *}"
}

test_sigkill_then_reset() {
	local pid
	tracefs_snapshot > "$WORK/snap.before"
	pid=$(record_then_sigkill "$WORK/k.dat")
	expect "SIGKILL left no instance to clean (test is void)" [ -d "$TFS/instances/gpu-trace-$pid" ] || return 1
	expect "a SIGKILLed record left a file named like complete" [ ! -e "$WORK/k.dat" ] || return 1
	expect "SIGKILL left no unfinished output (test is void)" [ -n "$(find "$WORK" -maxdepth 1 -name '.k.dat.partial-*')" ] || return 1
	"$GT" reset > "$WORK/k-reset.out" 2>&1 || { WHY="reset failed: $(cat "$WORK/k-reset.out")"; return 1; }
	expect "reset left the killed run's unfinished output: $(cd "$WORK" && echo .k.dat.partial-*)" \
		[ -z "$(find "$WORK" -maxdepth 1 -name '.k.dat.partial-*')" ] || return 1
	expect "reset did not say it removed the unfinished output: $(cat "$WORK/k-reset.out")" \
		grep -q "^removed $WORK/\.k\.dat\.partial-[^ ]*, the unfinished output of gpu-trace $pid (it was killed)$" "$WORK/k-reset.out" || return 1
	same_as_before "SIGKILL + reset"
}

# The same with -o relative (the default trace.dat too): the journal kept
# ./.kr.dat.partial-..., which reset, reading only absolute names, left.
test_sigkill_then_reset_relative_output() {
	local pid
	mkdir -p "$WORK/rel"
	pid=$(cd "$WORK/rel" && record_then_sigkill kr.dat)
	expect "SIGKILL left no unfinished output (test is void)" \
		[ -n "$(find "$WORK/rel" -maxdepth 1 -name '.kr.dat.partial-*')" ] || return 1
	"$GT" reset > "$WORK/kr-reset.out" 2>&1 || { WHY="reset failed: $(cat "$WORK/kr-reset.out")"; return 1; }
	expect "reset left the killed run's unfinished output: $(find "$WORK/rel" -name '.kr*')" \
		[ -z "$(find "$WORK/rel" -maxdepth 1 -name '.kr.dat.partial-*')" ] || return 1
	expect "reset did not say it removed it: $(cat "$WORK/kr-reset.out")" \
		grep -q "^removed $WORK/rel/\.kr\.dat\.partial-[^ ]*, the unfinished output of gpu-trace $pid (it was killed)$" "$WORK/kr-reset.out"
}

# A recorder killed outright takes its workload with it: it ran on, untraced
# and orphaned, until someone found it (issue 22).
test_workload_dies_with_a_killed_recorder() {
	local pids children alive=
	tracefs_snapshot > "$WORK/snap.before"
	pids=$(sigkill_a_record "$WORK/orph.dat")
	children=${pids#* }
	[ "$children" = "$pids" ] && children=
	# five seconds for a loaded machine; a zombie waiting for its reaper is dead
	for _ in $(seq 50); do
		alive=
		for c in $children; do
			kill -0 "$c" 2> /dev/null && [ "$(ps -o stat= -p "$c" | cut -c1)" != Z ] &&
				alive="$alive $c"
		done
		[ -z "$alive" ] && break
		sleep 0.1
	done
	# shellcheck disable=SC2086 # by pid: never anyone else's
	[ -n "$alive" ] && kill -KILL $alive 2> /dev/null
	"$GT" reset > /dev/null 2>&1
	rm -f "$WORK"/.orph.dat.partial-*
	expect "no workload was started (test is void)" [ -n "$children" ] || return 1
	expect "the workload outlived its killed recorder:$alive" [ -z "$alive" ] || return 1
	same_as_before "SIGKILL + reset"
}

test_sigkill_top_level_then_reset() {
	local pid i children
	SNAPSHOT_BUFFER_PAGES=1 tracefs_snapshot > "$WORK/snap.before"
	# --system-wide-events: sched_switch into the top-level buffer, not the workload's
	"$GT" record --top-level --system-wide-events -C mono -e sched:sched_switch -o "$WORK/kt.dat" -- sleep 10 2> /dev/null &
	pid=$!
	for i in $(seq 50); do grep -q sched_switch "$TFS/set_event" && break; sleep 0.1; done
	sleep 0.5
	children=$(ps -o pid= --ppid "$pid")
	kill -KILL "$pid"
	wait "$pid" 2> /dev/null
	# shellcheck disable=SC2086
	[ -n "$children" ] && kill -KILL $children 2> /dev/null
	expect "top-level not changed by the killed run (test is void)" grep -q sched_switch "$TFS/set_event" || return 1
	"$GT" reset > "$WORK/rt.out" 2>&1 || { WHY="reset failed: $(cat "$WORK/rt.out")"; return 1; }
	expect "reset did not restore from the journal" grep -q 'restored .* top-level tracefs file' "$WORK/rt.out" || return 1
	rm -f "$WORK"/.kt.dat.partial-*
	SNAPSHOT_BUFFER_PAGES=1 same_as_before "SIGKILL of --top-level + reset"
}

test_workload_runs_as_sudo_user() {
	local out
	out=$(nobody_dir who)/who.dat || { WHY="cannot make nobody's directory"; return 1; }
	SUDO_UID=65534 SUDO_GID=65534 "$GT" record -e sched:sched_switch -o "$out" -- \
		sh -c 'id -u; id -G; echo "$HOME"' > "$WORK/who.out" 2> /dev/null ||
		{ WHY="record under SUDO_UID failed"; return 1; }
	expect "workload ran as uid $(head -1 "$WORK/who.out"), want 65534" [ "$(sed -n 1p "$WORK/who.out")" = 65534 ] || return 1
	# root's groups are dropped too: only the user's own (initgroups)
	expect "workload kept groups '$(sed -n 2p "$WORK/who.out")'" [ "$(sed -n 2p "$WORK/who.out")" = "$(id -G nobody)" ] || return 1
	expect "HOME is not the user's" [ "$(sed -n 3p "$WORK/who.out")" = "$(getent passwd 65534 | cut -d: -f6)" ] || return 1
	expect "output not owned by the invoking user" [ "$(stat -c %u "$out")" = 65534 ] || return 1
	# it holds kallsyms and every process's name: never world-readable
	expect "output mode $(stat -c %a "$out"), want 640 (umask 022)" [ "$(stat -c %a "$out")" = 640 ] || return 1
	SUDO_UID=65534 SUDO_GID=65534 "$GT" record --as-root --force -e sched:sched_switch -o "$out" -- id -u > "$WORK/who.out" 2> /dev/null ||
		{ WHY="record --as-root failed"; return 1; }
	expect "--as-root ran as uid $(cat "$WORK/who.out")" [ "$(cat "$WORK/who.out")" = 0 ]
}

# Under sudo the output is the user's: made with their rights, only where
# they could make a file. -o into a directory only root may write (as
# /etc/ld.so.preload would be) is refused up front, and nothing is left there.
test_output_only_where_the_user_may_write() {
	local rootdir
	rootdir=$(mktemp -d /tmp/gt-rootonly.XXXXXX)
	chmod 0755 "$rootdir"
	SUDO_UID=65534 SUDO_GID=65534 "$GT" record -e sched:sched_switch -o "$rootdir/x.dat" -- true \
		> /dev/null 2> "$WORK/ro.err"
	local rc=$? left
	left=$(ls -A "$rootdir")
	rm -rf "$rootdir"
	expect "record wrote where only root may (exit $rc)" [ $rc = 125 ] || return 1
	expect "left in the directory: $left" [ -z "$left" ] || return 1
	expect "not one line naming the directory: $(cat "$WORK/ro.err")" \
		[ "$(grep -c . "$WORK/ro.err")" = 1 ] && grep -q "cannot create the output in $rootdir: Permission denied" "$WORK/ro.err"
}

test_output_never_follows_planted_symlink() {
	ln -sf /etc/gt-must-not-exist "$WORK/link.dat"
	"$GT" record -e sched:sched_switch -o "$WORK/link.dat" -- true 2> "$WORK/link.err"
	expect "an existing link was replaced without --force" [ $? = 125 ] && [ -L "$WORK/link.dat" ] || return 1
	expect "no line saying it exists" grep -q 'exists; pass --force' "$WORK/link.err" || return 1
	"$GT" record --force -e sched:sched_switch -o "$WORK/link.dat" -- true 2> /dev/null ||
		{ WHY="record --force failed"; return 1; }
	expect "wrote through a symlink" [ ! -e /etc/gt-must-not-exist ] || return 1
	expect "output is still a symlink" [ ! -L "$WORK/link.dat" ] && [ -f "$WORK/link.dat" ]
}

test_existing_output_kept_without_force() {
	echo precious > "$WORK/keep.dat"
	"$GT" record -e sched:sched_switch -o "$WORK/keep.dat" -- true 2> "$WORK/keep.err"
	expect "overwrote without --force (exit $?)" [ "$(cat "$WORK/keep.dat")" = precious ] || return 1
	expect "not one error line: $(cat "$WORK/keep.err")" [ "$(grep -c '^gpu-trace record:' "$WORK/keep.err")" = 1 ] || return 1
	"$GT" record --force -e sched:sched_switch -o "$WORK/keep.dat" -- true 2> /dev/null ||
		{ WHY="--force failed"; return 1; }
	expect "--force did not replace it" trace-cmd report -i "$WORK/keep.dat" > /dev/null 2>&1
}

# A SIGKILLed record's instance is found and removed by the next record.
test_next_record_cleans_after_sigkill() {
	local pid
	pid=$(record_then_sigkill "$WORK/k2.dat")
	expect "no stale instance to find (test is void)" [ -d "$TFS/instances/gpu-trace-$pid" ] || return 1
	"$GT" record -e sched:sched_switch -o "$WORK/k3.dat" -- true 2> "$WORK/k3.err" ||
		{ WHY="record after SIGKILL failed: $(tail -1 "$WORK/k3.err")"; return 1; }
	expect "stale instance still there" [ ! -d "$TFS/instances/gpu-trace-$pid" ] || return 1
	expect "did not say so" grep -q "removed stale instance gpu-trace-$pid" "$WORK/k3.err"
	rm -f "$WORK"/.k2.dat.partial-*
}

# A minimal initramfs or container has no /run: record makes the journal's
# directory with its parents, and reset finds the journal there.
test_journal_dir_without_its_parents() {
	local dir=$WORK/no-run/run/gpu-trace pid i children
	SNAPSHOT_BUFFER_PAGES=1 tracefs_snapshot > "$WORK/snap.before"
	GPU_TRACE_RUN_DIR=$dir "$GT" record --top-level --system-wide-events -e sched:sched_switch \
		-o "$WORK/nr.dat" -- sleep 10 2> "$WORK/nr.err" &
	pid=$!
	for i in $(seq 50); do [ -d "$dir" ] && grep -q sched_switch "$TFS/set_event" && break; sleep 0.1; done
	sleep 0.3
	children=$(ps -o pid= --ppid "$pid")
	kill -KILL "$pid"
	wait "$pid" 2> /dev/null
	# shellcheck disable=SC2086
	[ -n "$children" ] && kill -KILL $children 2> /dev/null
	expect "no journal directory made: $(tail -1 "$WORK/nr.err")" [ -d "$dir" ] || return 1
	expect "journal directory not private" [ "$(stat -c %a "$dir")" = 700 ] || return 1
	GPU_TRACE_RUN_DIR=$dir "$GT" reset > "$WORK/nr.out" 2>&1 || { WHY="reset failed: $(cat "$WORK/nr.out")"; return 1; }
	expect "reset did not find the journal: $(cat "$WORK/nr.out")" grep -q 'restored .* top-level tracefs file' "$WORK/nr.out" || return 1
	rm -f "$WORK"/.nr.dat.partial-*
	SNAPSHOT_BUFFER_PAGES=1 same_as_before "SIGKILL of a record whose journal needed its parents made"
}

# sudo -E passes GPU_TRACE_RUN_DIR on: a directory the user owns (or any
# part of its path) would let them swap in a symlink under root's locks and
# journals, or plant a journal reset then restores. Root keeps /run/gpu-trace.
test_run_dir_of_another_user_is_not_taken() {
	local mine theirs
	mine=$(nobody_dir runpath) || return 1
	theirs=$mine/run/gpu-trace
	GPU_TRACE_RUN_DIR=$theirs "$GT" record -e sched:sched_switch -o "$WORK/rd.dat" -- true \
		2> "$WORK/rd.err" || { WHY="record failed: $(tail -1 "$WORK/rd.err")"; return 1; }
	expect "root made its run directory under a path nobody owns" [ ! -e "$mine/run" ] || return 1
	# the control: the same path owned by root is taken
	chown root:root "$mine" && chmod 0755 "$mine" || return 1
	GPU_TRACE_RUN_DIR=$theirs "$GT" record -e sched:sched_switch -o "$WORK/rd2.dat" -- true \
		2> "$WORK/rd.err" || { WHY="record failed: $(tail -1 "$WORK/rd.err")"; return 1; }
	expect "a root-owned run directory was not taken (test is void)" [ -d "$theirs" ]
}

# A libtraceevent plugin the user controls: $HOME/.local/lib/traceevent/plugins
# and $TRACEEVENT_PLUGIN_DIR are loaded by whoever opens a .dat. As the user,
# their choice; as root (sudo -E, env_keep+=HOME) it is their code run as
# root. The planted plugin leaves <GT_PLUGIN_MARK>.<euid> when loaded.
planted_plugin() {
	local home=$1
	mkdir -p "$home/.local/lib/traceevent/plugins" || return 1
	cat > "$WORK/evil.c" << 'EOC'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int tep_plugin_loader(void *tep)
{
	char path[4096];
	FILE *f;

	(void)tep;
	snprintf(path, sizeof(path), "%s.%d", getenv("GT_PLUGIN_MARK"), (int)geteuid());
	f = fopen(path, "w");
	if (f)
		fclose(f);
	return 0;
}
EOC
	cc -shared -fPIC -o "$WORK/plugin_evil.so" "$WORK/evil.c"
}

test_user_plugins_never_load_as_root() {
	local home f
	command -v cc > /dev/null || { WHY="no C compiler to build a plugin"; return 77; }
	home=$(mktemp -d /tmp/gt-home.XXXXXX)
	chmod 0755 "$home"
	planted_plugin "$home" || { rm -rf "$home"; WHY="cannot build the plugin"; return 1; }
	cp "$WORK/plugin_evil.so" "$home/.local/lib/traceevent/plugins/"
	cp "$WORK/plugin_evil.so" "$home/evil.so"
	f=$home/plugin.dat
	"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" two-rings "$f" > /dev/null
	chown -R 65534:65534 "$home"
	# the test can fail: as the user, their own plugin loads
	HOME=$home GT_PLUGIN_MARK=$home/mark setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$GT" report "$f" > /dev/null 2>&1
	local as_user=no as_root=no in_record=no
	[ -e "$home/mark.65534" ] && as_user=yes
	# sudo -E gpu-trace report: root, with the user's HOME and plugin dir
	HOME=$home TRACEEVENT_PLUGIN_DIR=$home/.local/lib/traceevent/plugins GT_PLUGIN_MARK=$home/mark \
		"$GT" report "$f" > /dev/null 2>&1
	[ -e "$home/mark.0" ] && as_root=yes
	rm -f "$home/mark.0" "$home/.local/lib/traceevent/plugins/plugin_evil.so"
	# record's job check opens the .dat as root after a workload (as nobody)
	# planted the plugin where root's HOME (kept by sudo -E) looks
	HOME=$home GT_PLUGIN_MARK=$home/mark SUDO_UID=65534 SUDO_GID=65534 \
		"$GT" record -e sched:sched_process_exit -o "$home/plant.dat" -- \
		cp "$home/evil.so" "$home/.local/lib/traceevent/plugins/plugin_evil.so" > /dev/null 2>&1
	[ -e "$home/.local/lib/traceevent/plugins/plugin_evil.so" ] || in_record=unplanted
	[ -e "$home/mark.0" ] && in_record=yes
	rm -rf "$home"
	expect "the planted plugin did not even load for its own user (the test proves nothing)" [ $as_user = yes ] || return 1
	expect "root's report loaded the user's plugin" [ $as_root = no ] || return 1
	expect "the workload could not plant the plugin ($in_record)" [ $in_record != unplanted ] || return 1
	expect "record's job check loaded the plugin the workload planted" [ $in_record = no ]
}

# Liveness is the lock each run holds (/run/gpu-trace/live-<pid>.lock), not
# /proc/PID/comm: a process that calls itself gpu-trace does not keep a dead
# run's instance alive.
test_reset_ignores_a_process_named_gpu_trace() {
	local pid name
	cp "$(command -v sleep)" "$WORK/gpu-trace"
	"$WORK/gpu-trace" 30 &
	pid=$!
	name=gpu-trace-$pid
	mkdir "$TFS/instances/$name" || { kill "$pid"; WHY="cannot create an instance"; return 1; }
	"$GT" reset > "$WORK/named.out" 2>&1
	local left=no
	[ -d "$TFS/instances/$name" ] && left=yes && rmdir "$TFS/instances/$name"
	kill "$pid"
	wait "$pid" 2> /dev/null
	expect "reset kept $name for a process merely named gpu-trace: $(cat "$WORK/named.out")" [ $left = no ]
}

# A record in another pid namespace is pid 1 there: the host's pid 1 is not
# gpu-trace, so a cleanup by comm took it for dead and removed its instance
# mid-recording. Its lock says it lives.
test_reset_spares_a_record_in_another_pid_namespace() {
	local pid i inst=
	command -v unshare > /dev/null || { WHY="no unshare"; return 77; }
	# its command lives until reset has looked, however slow the set-up
	unshare --pid --fork --mount-proc "$GT" record -e sched:sched_switch -o "$WORK/pidns.dat" -- \
		sh -c 'while [ ! -e "$1" ]; do sleep 0.05; done' _ "$WORK/pidns.stop" > "$WORK/pidns.out" 2>&1 &
	pid=$!
	for i in $(seq 600); do
		inst=$(gt_instances | grep -vxF -f "$WORK/instances.before" | head -1)
		[ -n "$inst" ] && break
		kill -0 "$pid" 2> /dev/null || break
		sleep 0.1
	done
	[ -n "$inst" ] || { touch "$WORK/pidns.stop"; wait "$pid"; WHY="the namespaced record made no instance: $(tail -1 "$WORK/pidns.out")"; return 1; }
	"$GT" reset > "$WORK/nsreset.out" 2>&1
	local kept=no
	[ -d "$TFS/instances/$inst" ] && kept=yes
	touch "$WORK/pidns.stop"
	wait "$pid"
	local rc=$?
	expect "reset removed $inst of a live record in another pid namespace: $(cat "$WORK/nsreset.out")" [ $kept = yes ] || return 1
	expect "the namespaced record failed (exit $rc): $(tail -2 "$WORK/pidns.out" | tr '\n' ' ')" [ $rc = 0 ] || return 1
	expect "its instance stayed after it ended" [ ! -d "$TFS/instances/$inst" ]
}

# Two runs in the top-level buffer would journal each other's settings as the
# originals and leave them changed for good: the second is refused.
test_second_top_level_record_refused() {
	local pid i
	SNAPSHOT_BUFFER_PAGES=1 tracefs_snapshot > "$WORK/snap.before"
	# the first run's command lives until the second has tried, however slow both set-ups
	"$GT" record --top-level -e sched:sched_switch -o "$WORK/top1.dat" -- \
		sh -c 'while [ ! -e "$1" ]; do sleep 0.05; done' _ "$WORK/top1.stop" > "$WORK/top1.out" 2>&1 &
	pid=$!
	for i in $(seq 600); do
		grep -q '^events:' "$WORK/top1.out" 2> /dev/null && break
		kill -0 "$pid" 2> /dev/null || break
		sleep 0.1
	done
	"$GT" record --top-level -e sched:sched_wakeup -b 8192 -o "$WORK/top2.dat" -- true > "$WORK/top2.out" 2>&1
	local rc=$?
	touch "$WORK/top1.stop"
	wait "$pid"
	local rc1=$?
	expect "the second top-level record ran (exit $rc)" [ $rc = 125 ] || return 1
	expect "not one line naming the first run: $(cat "$WORK/top2.out")" \
		grep -q "^gpu-trace record: another gpu-trace (pid $pid) holds the top-level lock: it records in the top-level buffer" "$WORK/top2.out" || return 1
	expect "the first run failed (exit $rc1)" [ $rc1 = 0 ] || return 1
	SNAPSHOT_BUFFER_PAGES=1 same_as_before "two top-level records at once"
}

# Under sudo the command is checked as the user who runs it: a program in a
# directory only root can enter is not theirs to run (and root's answer would
# tell them what is there)
test_command_checked_with_the_users_rights() {
	local out rc
	out=$(nobody_dir cmdck)/c.dat || { WHY="cannot make nobody's directory"; return 1; }
	mkdir -p "$WORK/rootonly" && chmod 0700 "$WORK/rootonly" && cp /bin/true "$WORK/rootonly/prog" ||
		{ WHY="cannot make root's directory"; return 1; }
	tracefs_snapshot > "$WORK/snap.before"
	SUDO_UID=65534 SUDO_GID=65534 "$GT" record -e sched:sched_switch -o "$out" -- "$WORK/rootonly/prog" \
		> "$WORK/cmdck.out" 2> "$WORK/cmdck.err"
	rc=$?
	expect "nobody's record of root's program: exit $rc, want 126: $(cat "$WORK/cmdck.err")" [ $rc = 126 ] || return 1
	expect "not one line saying it cannot be reached: $(cat "$WORK/cmdck.err")" \
		[ "$(count_lines "$WORK/cmdck.err")" = 1 ] && grep -q "cannot run '$WORK/rootonly/prog': Permission denied" "$WORK/cmdck.err" || return 1
	SUDO_UID=65534 SUDO_GID=65534 "$GT" record --as-root -e sched:sched_switch -o "$WORK/cmdck-root.dat" -- \
		"$WORK/rootonly/prog" > /dev/null 2> "$WORK/cmdck-root.err" ||
		{ WHY="--as-root could not run root's program: $(tail -1 "$WORK/cmdck-root.err")"; return 1; }
	same_as_before "a command checked as the user"
}
