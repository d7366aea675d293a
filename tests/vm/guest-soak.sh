# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the lab's /init when the kernel command line says gt_lab=soak
# (bench/top-soak.sh), instead of the checks: what gpu-trace top costs on the
# mock scheduler's stress batch against record and against no tracing, and
# whether top's memory stays flat over a long run (gt_soak=SECONDS, default
# 600).  Everything goes to /out for the host to summarise.
soak_s=600
stress_runs=1000
stress_rounds=3
for word in $(cat /proc/cmdline); do
	case $word in
	gt_soak=*) soak_s=${word#gt_soak=} ;;
	gt_stress_runs=*) stress_runs=${word#gt_stress_runs=} ;;
	gt_stress_rounds=*) stress_rounds=${word#gt_stress_rounds=} ;;
	esac
done
insmod /lib/modules/gt_mock_sched.ko scenario=none
run=/sys/kernel/debug/gt_mock/run

# The batch times itself: the tracer's own set-up and teardown are not the
# workload's cost.  Rounds interleave the modes so drift does not favour one.
batch() {	# MODE: the command that runs stress_runs stress batches
	echo "i=0; read t0 _ < /proc/uptime
	      while [ \$i -lt $stress_runs ]; do echo stress > $run || exit 1; i=\$((i + 1)); done
	      read t1 _ < /proc/uptime; echo $1 \$t0 \$t1 >> /out/stress.times"
}
# The kernel's own aggregation (issue 26): hist triggers in a private
# instance join each job's queue -> run -> done by its finished fence, two
# synthetic events carry the waits, a histogram counts them; nothing goes
# to a buffer and no user-space reader runs per job.  What the batch costs
# with it is what a top built on it would cost at most.
T=/sys/kernel/tracing
H=$T/instances/gpu-trace-hist
S=gpu_scheduler
hist_on() {
	mkdir $H &&
	echo 'gt_hist_run u64 fence; u64 wait_us' >> $T/synthetic_events &&
	echo 'gt_hist_done u64 fence; u64 exec_us' >> $T/synthetic_events &&
	echo 'hist:keys=fence:tq=common_timestamp.usecs:size=16384' > $H/events/$S/drm_sched_job/trigger &&
	echo 'hist:keys=fence:tr=common_timestamp.usecs:w=common_timestamp.usecs-$tq:size=16384:onmatch(gpu_scheduler.drm_sched_job).trace(gt_hist_run,fence,$w)' \
		> $H/events/$S/drm_run_job/trigger &&
	echo 'hist:keys=fence:x=common_timestamp.usecs-$tr:size=16384:onmatch(gpu_scheduler.drm_run_job).trace(gt_hist_done,fence,$x)' \
		> $H/events/$S/drm_sched_process_job/trigger &&
	echo 'hist:keys=exec_us.log2' > $H/events/synthetic/gt_hist_done/trigger
}
hist_off() {	# each trigger removed before what it names, then the instance
	echo '!hist:keys=exec_us.log2' >> $H/events/synthetic/gt_hist_done/trigger
	echo '!hist:keys=fence:x=common_timestamp.usecs-$tr:size=16384:onmatch(gpu_scheduler.drm_run_job).trace(gt_hist_done,fence,$x)' \
		>> $H/events/$S/drm_sched_process_job/trigger
	echo '!hist:keys=fence:tr=common_timestamp.usecs:w=common_timestamp.usecs-$tq:size=16384:onmatch(gpu_scheduler.drm_sched_job).trace(gt_hist_run,fence,$w)' \
		>> $H/events/$S/drm_run_job/trigger
	echo '!hist:keys=fence:tq=common_timestamp.usecs:size=16384' >> $H/events/$S/drm_sched_job/trigger
	echo '!gt_hist_run' >> $T/synthetic_events
	echo '!gt_hist_done' >> $T/synthetic_events
	rmdir $H
}
for round in $(seq "$stress_rounds"); do
	# the last round's recording is the one kept: 640,000 jobs are 500 MB of the
	# guest's 2 GB, and --force writes the new file beside the old before replacing
	# it (removed before the untraced batch too, so that every round runs alike)
	rm -f /tmp/stress.dat
	step "stress-bare-$round" sh -c "$(batch bare)"
	step "stress-record-$round" gpu-trace record --force -e gpu_scheduler -e dma_fence \
		-o /tmp/stress.dat -- sh -c "$(batch record)"
	step "stress-top-$round" gpu-trace top --json -d 1 -- sh -c "$(batch top)" \
		> "/out/stress-top-$round.jsonl"
	if hist_on 2> /out/stress-hist-$round.err; then
		step "stress-hist-$round" sh -c "$(batch hist)"
		cat $H/events/synthetic/gt_hist_done/hist > "/out/stress-hist-$round.txt"
	else
		say "hist triggers refused: $(cat /out/stress-hist-$round.err) $(tail -3 $H/error_log 2> /dev/null)"
	fi
	hist_off 2>> /out/stress-hist-$round.err
	dmesg -c > /dev/null
done
mv /tmp/stress.dat /out/stress-record.dat

# The soak: a new process every steady run (60 jobs, one every 10 ms), so
# top sees hundreds of processes come and go; its resident set sampled.
say "soak: ${soak_s} s"
read -r up _ < /proc/uptime
end=$(( ${up%.*} + soak_s ))
gpu-trace top --json -d 5 -- sh -c "until [ \$(cut -d. -f1 /proc/uptime) -ge $end ]; do
	sh -c 'echo steady > $run' || exit 1; done" > /out/soak.jsonl &
top=$!
while kill -0 "$top" 2> /dev/null; do
	read -r up _ < /proc/uptime
	echo "$up $(grep -E '^Vm(RSS|HWM)' "/proc/$top/status" 2> /dev/null | tr -s ' \t' ' ' | tr '\n' ' ')" \
		>> /out/soak.rss
	dmesg -c > /dev/null
	sleep 10
done
wait "$top"
echo "soak $?" >> /out/steps
