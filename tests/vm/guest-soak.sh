# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the lab's /init when the kernel command line says gt_lab=soak
# (bench/top-soak.sh), instead of the checks: what gpu-trace top costs on the
# mock scheduler's stress batch against record and against no tracing, and
# whether top's memory stays flat over a long run (gt_soak=SECONDS, default
# 600).  Everything goes to /out for the host to summarise.
soak_s=600
stress_runs=1000
for word in $(cat /proc/cmdline); do
	case $word in
	gt_soak=*) soak_s=${word#gt_soak=} ;;
	gt_stress_runs=*) stress_runs=${word#gt_stress_runs=} ;;
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
for round in 1 2 3; do
	step "stress-bare-$round" sh -c "$(batch bare)"
	step "stress-record-$round" gpu-trace record --force -e gpu_scheduler -e dma_fence \
		-o /tmp/stress.dat -- sh -c "$(batch record)"
	step "stress-top-$round" gpu-trace top --json -d 1 -- sh -c "$(batch top)" \
		> "/out/stress-top-$round.jsonl"
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
