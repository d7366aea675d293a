#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/slurm/run.sh: srun --gpu-trace on a real Slurm (Debian 12's 22.05):
# munged, slurmctld and two slurmd (node1, node2) on this machine, each
# slurmd in a UTS namespace of its own with its node's name, traffic on
# 127.0.0.1 only, everything in a private directory; plugstack.conf loads
# contrib/slurm's SPANK plugin (build/gpu_trace_spank.so). An unprivileged
# user (nobody) runs a two-node step with --gpu-trace=DIR: each node must
# leave DIR/host=NODE/gpu-trace-JOB.STEP.dat, the user's, naming its host,
# report must read both and put them on one timeline, and tracefs (which
# both nodes share: one kernel) must be left as found. Every daemon we start
# is stopped by its pid. Ends with "N passed, N failed, N skipped".
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export STAGE=slurm
# shellcheck source=../stage-lib.sh
. "$root/tests/stage-lib.sh"

[ "$(id -u)" = 0 ] || skip_all "needs root (slurmd, tracefs): run sudo make check"
for tool in munged munge slurmctld slurmd srun salloc sinfo squeue scancel unshare runuser; do
	command -v "$tool" > /dev/null || skip_all "no $tool here (sudo make deps check installs slurmctld, slurmd and munge)"
done
plugin=$root/build/gpu_trace_spank.so
[ -f "$plugin" ] || skip_all "no $plugin (make builds it where libslurm-dev's spank.h is)"
id munge > /dev/null 2>&1 || skip_all "no munge user (the munge package makes it)"
TFS=/sys/kernel/tracing
mountpoint -q "$TFS" || skip_all "tracefs is not mounted on $TFS"

work=$(mktemp -d /tmp/gt-slurm.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2> /dev/null; done
	for p in "${pids[@]}"; do
		for _ in $(seq 50); do kill -0 "$p" 2> /dev/null || break; sleep 0.1; done
		kill -KILL "$p" 2> /dev/null
	done
	[ -n "${GT_KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
tracefs_before "$work"

# munged as its user, its key and socket here (its directory must be reachable by all)
mkdir -p "$work/munge" "$work/out" "$work/spool" "$work/ctld"
chown munge:munge "$work/munge"
chmod 755 "$work/munge"
head -c 128 /dev/urandom > "$work/munge/munge.key"
chown munge:munge "$work/munge/munge.key"
chmod 600 "$work/munge/munge.key"
sock=$work/munge/munge.sock
runuser -u munge -- munged --socket="$sock" --key-file="$work/munge/munge.key" \
	--pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" \
	--seed-file="$work/munge/munged.seed" ||
	skip_all "munged would not start: $(tail -1 "$work/munge/munged.log" 2> /dev/null)"
pids+=("$(cat "$work/munge/munged.pid")")

# free ports on 127.0.0.1 for slurmctld and the two slurmd
read -r p0 p1 p2 < <(python3 -c 'import socket
s = [socket.socket() for _ in range(3)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
cat > "$work/slurm.conf" << EOF
ClusterName=gt
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$p0
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/ctld
SlurmdSpoolDir=$work/spool/%n
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd-%n.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd-%n.log
SlurmdDebug=info
PlugStackConfig=$work/plugstack.conf
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/linear
ReturnToService=2
NodeName=node1 NodeAddr=127.0.0.1 Port=$p1 CPUs=1 State=UNKNOWN
NodeName=node2 NodeAddr=127.0.0.1 Port=$p2 CPUs=1 State=UNKNOWN
PartitionName=gt Nodes=node1,node2 Default=YES MaxTime=INFINITE State=UP
EOF
echo "required $plugin gpu_trace=$root/gpu-trace" > "$work/plugstack.conf"
export SLURM_CONF=$work/slurm.conf
slurmctld -D -f "$SLURM_CONF" > "$work/slurmctld.out" 2>&1 &
pids+=($!)
for n in node1 node2; do
	mkdir -p "$work/spool/$n"
	unshare --uts sh -c 'hostname "$1" && exec slurmd -D -N "$1" -f "$2"' _ "$n" "$SLURM_CONF" \
		> "$work/slurmd-$n.out" 2>&1 &
	pids+=($!)
done
idle=
for _ in $(seq 300); do
	idle=$(sinfo -h -o '%T %D' 2> /dev/null)
	[ "$idle" = "idle 2" ] && break
	sleep 0.1
done
[ "$idle" = "idle 2" ] || {
	not_ok "slurmctld and two slurmd up" "sinfo: ${idle:-nothing}; $(tail -2 "$work/slurmctld.log" "$work"/slurmd-node*.log 2> /dev/null | tr '\n' ' ')"
	finish
}
ok "munged, slurmctld and two slurmd (node1, node2) on 127.0.0.1, both nodes idle"

# a user's step on both nodes, recorded; the directory is theirs
chown nobody "$work/out"
cd "$work/out" || exit 1
timeout 120 runuser -u nobody -- env SLURM_CONF="$SLURM_CONF" \
	srun -N2 -n2 --gpu-trace=traces sh -c 'hostname; sleep 1' > "$work/srun.out" 2> "$work/srun.err"
rc=$?
cd / || exit 1
if [ $rc = 0 ] && [ "$(sort "$work/srun.out" | tr '\n' ' ')" = "node1 node2 " ]; then
	ok "srun -N2 --gpu-trace=traces as nobody: the step ran on node1 and node2"
else
	not_ok "srun -N2 --gpu-trace=traces as nobody" "exit $rc: $(tr '\n' ' ' < "$work/srun.err") $(grep -h gpu-trace "$work"/slurmd-node*.log | tail -4 | tr '\n' ' ')"
fi
# the step's end (srun has returned) stops each node's recorder, which then writes
for _ in $(seq "${GT_SLURM_WAIT:-600}"); do
	[ "$(find "$work/out/traces" -name 'gpu-trace-*.dat' 2> /dev/null | wc -l)" = 2 ] &&
		[ -z "$(find "$TFS/instances" -maxdepth 1 -name 'gpu-trace-*')" ] && break
	sleep 0.1
done
files=()
for n in node1 node2; do
	f=$(find "$work/out/traces/host=$n" -name 'gpu-trace-*.0.dat' 2> /dev/null | head -1)
	files+=("$f")
	if [ -z "$f" ]; then
		not_ok "$n left traces/host=$n/gpu-trace-JOB.0.dat" "$(ls -R "$work/out" | tr '\n' ' ') $(grep -h gpu-trace "$work/slurmd-$n.log" | tail -3 | tr '\n' ' ')"
		continue
	fi
	owner=$(stat -c '%U %a' "$f")
	if [ "$owner" = "nobody 640" ]; then
		ok "$n's file is the job user's, mode 0640: ${f#"$work"/out/}"
	else
		not_ok "$n's file is the job user's, mode 0640" "$owner"
	fi
	if "$root/gpu-trace" report "$f" 2> /dev/null | grep -q "^host     $n "; then
		ok "report of $n's file names its host $n"
	else
		not_ok "report of $n's file names its host" "$("$root/gpu-trace" report "$f" 2>&1 | head -4 | tr '\n' ' ')"
	fi
done
if [ -n "${files[0]}" ] && [ -n "${files[1]}" ]; then
	# exit 2: no GPU events on this machine (dma_fence and the rest record nothing here)
	"$root/gpu-trace" report --format perfetto -o "$work/both.pftrace" "${files[@]}" 2> "$work/both.err"
	rc=$?
	if { [ $rc = 0 ] || [ $rc = 2 ]; } && [ -s "$work/both.pftrace" ] && grep -q 'one group per file' "$work/both.err"; then
		ok "both nodes' files on one Perfetto timeline"
	else
		not_ok "both nodes' files on one Perfetto timeline" "$(cat "$work/both.err")"
	fi
	# each node a machine of its own in Perfetto's trace processor (one machine-id, two
	# host names: cloned nodes share the id); node1's, named first, the trace's own
	if tp=$("$root/tests/perfetto/fetch.sh"); then
		printf '[{"trace": "%s", "queries": ["select raw_id from machine order by raw_id"]}]' \
			"$work/both.pftrace" | node "$root/tests/perfetto/trace-processor.mjs" "$tp" \
			> "$work/both.tp" 2> /dev/null
		if grep -qx '{"trace":.*"results":\[\[{"raw_id":0},{"raw_id":1}\]\]}' "$work/both.tp"; then
			ok "each node a machine of its own in Perfetto's trace processor"
		else
			not_ok "each node a machine of its own in Perfetto's trace processor" "$(grep -m1 '^{' "$work/both.tp")"
		fi
	else
		echo "SKIP - $STAGE: machines in Perfetto's trace processor: $tp"
		skipped=$((skipped + 1))
	fi
fi

# without the plugin: scripts/gpu-trace-srun inside an allocation (as root here: no sudo)
timeout 120 salloc -N2 "$root/scripts/gpu-trace-srun" -o "$work/out/script" --gpu-trace "$root/gpu-trace" \
	-- hostname > "$work/script.out" 2> "$work/script.err"
rc=$?
n=$(find "$work/out/script" -name 'gpu-trace-*.dat' 2> /dev/null | wc -l)
if [ $rc = 0 ] && [ "$n" = 2 ] && [ "$(sort "$work/script.out" | tr '\n' ' ')" = "node1 node2 " ] &&
	[ -n "$(find "$work/out/script/host=node1" -name '*.dat' 2> /dev/null)" ] &&
	[ -n "$(find "$work/out/script/host=node2" -name '*.dat' 2> /dev/null)" ]; then
	ok "salloc -N2 gpu-trace-srun -- hostname: a recorder step on each node, then the command, then both files"
else
	not_ok "salloc -N2 gpu-trace-srun" "exit $rc, $n files: $(tail -5 "$work/script.err" | tr '\n' ' ')"
fi

# a step cancelled mid-run: each node's recorder still ends and writes its file
cd "$work/out" || exit 1
runuser -u nobody -- env SLURM_CONF="$SLURM_CONF" \
	srun -N2 -n2 --gpu-trace=cancelled sleep 60 > /dev/null 2> "$work/cancel.err" &
srun_pid=$!
cd / || exit 1
job=
for _ in $(seq 200); do
	job=$(squeue -h -o '%i %T' 2> /dev/null | awk '$2 == "RUNNING" { print $1; exit }')
	# both recorders trace (the plugin says so once record does): a stop now must write files
	[ -n "$job" ] && [ "$(grep -h "gpu-trace: recording node .* of step $job.0 " "$work"/slurmd-node*.log 2> /dev/null | wc -l)" = 2 ] && break
	sleep 0.1
done
if [ -z "$job" ]; then
	not_ok "a step to cancel started" "$(tr '\n' ' ' < "$work/cancel.err")"
else
	scancel "$job"
	wait "$srun_pid" 2> /dev/null
	for _ in $(seq "${GT_SLURM_WAIT:-600}"); do
		[ "$(find "$work/out/cancelled" -name 'gpu-trace-*.dat' 2> /dev/null | wc -l)" = 2 ] &&
			[ -z "$(find "$TFS/instances" -maxdepth 1 -name 'gpu-trace-*')" ] && break
		sleep 0.1
	done
	n=$(find "$work/out/cancelled" -name "gpu-trace-$job.0.dat" 2> /dev/null | wc -l)
	if [ "$n" = 2 ] && [ -z "$(find "$TFS/instances" -maxdepth 1 -name 'gpu-trace-*')" ]; then
		ok "scancel mid-step: both nodes' recorders stopped and wrote their files"
	else
		not_ok "scancel mid-step: both nodes' files" "$n files; instances: $(ls "$TFS/instances" | tr '\n' ' ')"
	fi
fi
# every job done, its slurmstepd gone (a cancelled step's tells slurmctld last), then the daemons
for _ in $(seq 300); do
	[ -z "$(squeue -h 2> /dev/null)" ] && break
	sleep 0.1
done
for p in "${pids[@]}"; do kill "$p" 2> /dev/null; done
for p in "${pids[@]}"; do
	for _ in $(seq 50); do kill -0 "$p" 2> /dev/null || break; sleep 0.1; done
done
tracefs_as_found "$work" "the two nodes' recorders"
finish
