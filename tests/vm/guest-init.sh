#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the lab's initramfs: load the GPU modules, record each scenario
# with gpu-trace, write everything in /out as a tar onto the raw results disk
# (/dev/vda), power off.  A disk rather than a serial port: the .dat files
# carry the kernel's symbols, megabytes that a TCG serial port takes minutes
# to move.  Every step's outcome goes to /out/steps so
# the host tests say which step failed rather than finding a file missing.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing
mkdir -p /out
exec > /dev/ttyS0 2>&1

say() { echo "gt-lab: $*" >&2; }	# stderr: a step's stdout may be a file
uptime_cs() {	# centiseconds since boot
	read -r up _ < /proc/uptime
	echo "${up%.*}${up#*.}"
}
timed() {	# NAME COMMAND...: run, log the time taken; $rc is the exit status
	name=$1
	shift
	say "step $name: $*"
	t0=$(uptime_cs)
	"$@"
	rc=$?
	cs=$(( $(uptime_cs) - t0 ))
	echo "$name $cs" >> /out/timings
	say "step $name: exit $rc in $((cs / 100)).$((cs % 100 / 10)) s"
}
step() {	# NAME COMMAND...: a timed step whose exit status the host checks
	timed "$@"
	echo "$1 $rc" >> /out/steps
}

say "kernel $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs"
uname -r > /out/kernel
for m in $(cat /lib/modules/load-order); do
	insmod "/lib/modules/$m" 2> /tmp/insmod.err || say "insmod $m: $(cat /tmp/insmod.err)"
done
cat /proc/modules | cut -d' ' -f1 | sort > /out/modules
ls -l /dev/kfd /dev/dri 2>&1 | sed 's/^/gt-lab: /'

send_results() {	# the tar onto the results disk, then power off
	dmesg > /out/dmesg
	say "sending results"
	tar -cf /dev/vda -C /out .
	sync
	say "done"
	poweroff -f
}

case " $(cat /proc/cmdline) " in
*" gt_lab=soak "*)
	. /lab/soak.sh
	send_results
	;;
esac

# tracefs as a fresh boot leaves it: the top-level ring buffer never used
# ("7 (expanded: 1408)"). A record in its own instance must leave all of it
# byte for byte; after every gpu-trace step below (some need the top level)
# only the kernel's one-way expansion of that buffer may remain.
tracefs_state() {
	for f in current_tracer tracing_on trace_clock buffer_size_kb \
		buffer_percent set_event set_event_pid set_ftrace_filter set_ftrace_notrace \
		set_ftrace_pid set_graph_function max_graph_depth tracing_cpumask \
		saved_cmdlines_size tracing_thresh kprobe_events dynamic_events; do
		[ -e "/sys/kernel/tracing/$f" ] || continue
		echo "== $f"
		cat "/sys/kernel/tracing/$f" 2>&1
	done
	echo "== options"
	for f in /sys/kernel/tracing/options/*; do
		echo "${f##*/}=$(cat "$f")"
	done
	echo "== instances"
	ls /sys/kernel/tracing/instances
}
tracefs_state > /out/tracefs-boot.txt
step fresh-record gpu-trace record -e dma_fence -o /tmp/fresh.dat -- true
tracefs_state > /out/tracefs-fresh-record.txt

step check gpu-trace check --json > /out/check.json

# the formats this kernel prints, for comparison with ../shared/formats, and
# its ring-buffer headers (with them the formats make a fixture directory)
cp /sys/kernel/tracing/events/header_page /sys/kernel/tracing/events/header_event /out/
for sys in gpu_scheduler amdgpu dma_fence dma_buf drm virtio_gpu xe i915 printk; do
	[ -d "/sys/kernel/tracing/events/$sys" ] || continue
	for ev in /sys/kernel/tracing/events/$sys/*/; do
		[ -f "$ev/format" ] || continue
		mkdir -p "/out/formats/$sys/$(basename "$ev")"
		cp "$ev/format" "/out/formats/$sys/$(basename "$ev")/format"
	done
done

# A kernel the mock module is not built for (5.10: its compiler, gcc-10, is
# neither bookworm's nor trixie's): the fresh boot, check and formats only.
case " $(cat /proc/cmdline) " in
*" gt_lab=formats "*)
	echo formats > /out/mode
	tracefs_state > /out/tracefs-end.txt
	send_results
	;;
esac

# Each scheduler scenario two ways.  -a: every CPU and task while insmod
# (whose init runs the scenario) runs.
for sc in mixed chain; do
	step "mock-$sc" gpu-trace record -a -e gpu_scheduler -e dma_fence -o "/out/mock-$sc.dat" \
		-- insmod /lib/modules/gt_mock_sched.ko scenario=$sc
	dmesg | grep 'gt_mock:' > "/out/mock-$sc.truth"
	dmesg -c > /dev/null
	rmmod gt_mock_sched
done

# As users type it: record -- cmd, where a child of the command submits the
# jobs (as an ioctl would); the scheduler runs them from its kthread or
# workqueue and interrupts complete them, outside the workload's pids.
insmod /lib/modules/gt_mock_sched.ko scenario=none
run=/sys/kernel/debug/gt_mock/run
# 6.5+ (the DRM core prints fdinfo): the module is also a render node
drm_node=$(dmesg | sed -n 's/.*gt_mock: DRM render node //p' | tail -n1)
for sc in mixed chain; do
	step "mock-$sc-cmd" gpu-trace record -e gpu_scheduler -e dma_fence -o "/out/mock-$sc-cmd.dat" \
		-- sh -c "(echo $sc > $run)"
	dmesg | grep 'gt_mock:' > "/out/mock-$sc-cmd.truth"
	dmesg -c > /dev/null
done

# A DRM client as users have them: the workload opens the mock's render
# node, idles, submits the client scenario (mixed, then a 100 ms job: it
# waits on the GPU far longer than TCG's submissions take) through the
# driver's ioctl as that file's client, idles and exits. report must name
# the client id's process from record's fdinfo snapshots and set the
# driver's engine time beside the jobs' own (the client id is in the
# events on 6.17+).
if [ -n "$drm_node" ]; then
	say "mock DRM render node: $drm_node"
	step mock-client gpu-trace record -e gpu_scheduler -e dma_fence -o /out/mock-client.dat \
		-- /bin/mock-client client 1500 > /out/mock-client.txt 2> /out/mock-client.err
	cat /out/mock-client.err /out/mock-client.txt
	dmesg | grep 'gt_mock:' > /out/mock-client.truth
	dmesg -c > /dev/null
	# The same client pinned to CPU 0 beside a busy loop pinned there too (not
	# the workload: another process): its ioctl is preempted, and report must
	# name the loop as what held its CPU, for as long as the switches say.
	taskset -c 0 sh -c 'while :; do :; done' &
	hog=$!
	echo "$hog" > /out/mock-pinned.hog
	step mock-pinned gpu-trace record -e gpu_scheduler -e dma_fence -o /out/mock-pinned.dat \
		-- taskset -c 0 /bin/mock-client client 300 > /out/mock-pinned.txt 2> /out/mock-pinned.err
	kill "$hog"
	wait "$hog" 2> /dev/null
	cat /out/mock-pinned.err /out/mock-pinned.txt
	dmesg -c > /dev/null
	# Pinned to CPU 0 again, with interrupt noise there: the module works 20 ms
	# in the ioctl while a timer pinned to its CPU runs a softirq of 200 us every
	# ms; report must find that time as the ioctl's interrupts, as the events say.
	echo 200 > /sys/module/gt_mock_sched/parameters/noise_us
	step mock-noise gpu-trace record -e gpu_scheduler -e dma_fence -o /out/mock-noise.dat \
		-- taskset -c 0 /bin/mock-client client 300 > /out/mock-noise.txt 2> /out/mock-noise.err
	echo 0 > /sys/module/gt_mock_sched/parameters/noise_us
	cat /out/mock-noise.err /out/mock-noise.txt
	dmesg | grep 'gt_mock: noise' > /out/mock-noise.truth
	dmesg -c > /dev/null
fi

# An experiment as users run one (scripts/gpu-trace-experiment): cases a and a2
# the same, b with every execution twice as long (the mock's exec_scale), seven
# repetitions each: compare weighs the runs' spread from four (2x splits them
# cleanly, p 0.029), but one run of a that a busy host stalled past all of b's
# (seen in 3 CIs of 4 on 6.1, beside another kernel's guest) then hides the
# split (p 0.34); of seven, it cannot (p 0.026). The host's check runs gpu-trace
# compare on the runs.
scale=/sys/module/gt_mock_sched/parameters/exec_scale
# (without the workload's CPU side: its events add work to a TCG guest's every run, and
# this step weighs the mock's job times between cases, not the submitter's CPU)
step experiment bash /lab/gpu-trace-experiment --gpu-trace /bin/gpu-trace -n 7 --name lab -o /out/exp \
	--no-compare -r -e -r gpu_scheduler -r -e -r dma_fence -r --no-cpu-side \
	-c a=GT_SCALE=100 -c a2=GT_SCALE=100 -c b=GT_SCALE=200 \
	-- sh -c "echo \$GT_SCALE > $scale && echo mixed > $run" > /out/experiment.txt 2>&1
echo 100 > "$scale"
# what the kernel said meanwhile, with the clock it read (a stalled run: why)
{ cat /sys/devices/system/clocksource/clocksource0/current_clocksource; dmesg -c; } > /out/experiment.dmesg 2>&1

# Competing clients: a process outside the workload floods ring 0 ("rival"),
# started once tracing is armed (the workload creates /tmp/go); the workload
# then submits ("victim") and its ring-0 jobs wait behind the rival's.
rm -f /tmp/go
(until [ -e /tmp/go ]; do usleep 2000; done; echo rival > "$run") &
rival=$!
step mock-competing gpu-trace record -e gpu_scheduler -e dma_fence -o /out/mock-competing.dat \
	-- sh -c "touch /tmp/go; until grep -q rival /sys/kernel/debug/gt_mock/active; do usleep 1000; done; echo victim > $run"
wait $rival
dmesg | grep 'gt_mock:' > /out/mock-competing.truth
dmesg -c > /dev/null

# Without run and done events the jobs never finish: record must say so
# rather than only "lost: 0 events".
step mock-warn gpu-trace record --ignore-missing -e gpu_scheduler:drm_sched_job \
	-e gpu_scheduler:drm_sched_job_queue -o /out/mock-warn.dat \
	-- sh -c "echo chain > $run; sleep 1.3" 2> /out/mock-warn.err
cat /out/mock-warn.err
dmesg -c > /dev/null

# top: a live view while a steady stream (a child of the command, 1 ms jobs
# every 10 ms) and a burst (the command itself, 0.2 s later) share the rings
step top gpu-trace top --json -d 0.25 -- \
	sh -c "(echo steady > $run) & usleep 200000; echo burst > $run; wait" > /out/top.jsonl
dmesg | grep 'gt_mock:' > /out/top.truth
dmesg -c > /dev/null
# top in a time namespace (a container CRIU restored, unshare -T): its
# CLOCK_MONOTONIC half the uptime behind the kernel's, which stamps the
# records; each interval still holds the jobs the module ended in it
behind=$(( $(cut -d. -f1 /proc/uptime) / 2 ))
step top-timens unshare-time -T --fork --monotonic=-$behind gpu-trace top --json -d 0.25 -- \
	sh -c "(echo steady > $run) & usleep 200000; echo burst > $run; wait" > /out/top-timens.jsonl
dmesg | grep 'gt_mock:' > /out/top-timens.truth
dmesg -c > /dev/null
# the screen a person sees (stdout is not a terminal here: the text view, unsized)
timed top-screen gpu-trace top -d 0.3 -- \
	sh -c "(echo steady > $run) & usleep 200000; echo burst > $run; wait" > /out/top.screen
dmesg -c > /dev/null

# The flight recorder (docs/flight-recorder.md): GPU events system-wide kept in
# memory, a dump per cause. A recorder killed with SIGKILL leaves its instance;
# the next one's start removes it. Under the mock's stress batches, one planted
# 80 ms job (slow-job: one dump), a second one within --min-gap (counted, no
# dump), then a 200 ms job whose ring the kernel's log says timed out (timeout:
# one dump; the job is slow too, and that is counted, not dumped). SIGTERM
# ends it with tracefs as it was before the first recorder started.
stress_for() {	# CENTISECONDS: stress batches until that long has passed
	t_end=$(( $(uptime_cs) + $1 ))
	while [ "$(uptime_cs)" -lt "$t_end" ]; do
		echo stress > "$run"
		echo x >> /tmp/flight-batches
	done
}
planted() {	# SCENARIO: run it with its jobs logged, their times to /out/flight.truth
	echo 1 > "$log_jobs"
	dmesg -c > /dev/null
	echo "$1" > "$run"
	dmesg | grep 'gt_mock:' >> /out/flight.truth
	dmesg -c > /dev/null
	echo 0 > "$log_jobs"
}
flight_start() {	# LOG: the recorder in the background, $fl its pid, once it is watching
	gpu-trace record --flight-recorder=16M --trigger 'gt_ring*:exec>40ms' --after 1s \
		--min-gap 60s --keep 10 -o /out/flight 2> "$1" &
	fl=$!
	n=0
	until grep -q 'triggers:' "$1" 2> /dev/null || [ $n -ge 300 ]; do usleep 100000; n=$((n + 1)); done
}
cpu_ticks() {	# utime + stime of pid $1, in clock ticks
	set -- $(cut -d')' -f2- "/proc/$1/stat")
	echo $(( ${12} + ${13} ))
}
# the stress batches log no job (a line per job is kernel work no GPU does, and
# the log's ring would lose the planted jobs' lines)
log_jobs=/sys/module/gt_mock_sched/parameters/log_jobs
echo 0 > "$log_jobs"
tracefs_state > /out/tracefs-flight-before.txt
mkdir -p /out/flight
: > /out/flight.truth
rm -f /tmp/flight-batches
t0=$(uptime_cs)
stress_for 150
echo "baseline_batches $(wc -l < /tmp/flight-batches) baseline_cs $(( $(uptime_cs) - t0 ))" > /out/flight-cost.txt
rm -f /tmp/flight-batches
flight_start /out/flight-killed.log
kill -KILL "$fl"
wait "$fl" 2> /dev/null
echo "flight-killed-left $(ls /sys/kernel/tracing/instances | grep -c gpu-trace)" >> /out/flight-steps
flight_start /out/flight.log
echo "flight-restart-left $(ls /sys/kernel/tracing/instances | grep -c gpu-trace)" >> /out/flight-steps
c0=$(cpu_ticks "$fl")
t0=$(uptime_cs)
stress_for 150
c1=$(cpu_ticks "$fl")
t1=$(uptime_cs)
echo "cpu_ticks $((c1 - c0)) hz 100 wall_cs $((t1 - t0)) stress_batches $(wc -l < /tmp/flight-batches) jobs_per_batch 64" >> /out/flight-cost.txt
planted slow
stress_for 150
planted slow
stress_for 50
planted hang
stress_for 150
kill -TERM "$fl"
wait "$fl"
echo "flight $?" >> /out/steps
tracefs_state > /out/tracefs-flight-after.txt
echo 1 > "$log_jobs"
cat /out/flight-killed.log /out/flight.log
dmesg -c > /dev/null
rmmod gt_mock_sched

# KFD: newer amdkfd refuses /dev/kfd without a GPU node; the shim answers
# kfd_gpu_node_num() with 1 so kfd-probe's ioctls reach the kernel there too
if ! /bin/kfd-probe --open > /dev/null; then
	insmod /lib/modules/gt_kfd_node.ko && say "kfd: /dev/kfd refused without a GPU node; loaded gt_kfd_node"
fi
dyndbg=/proc/dynamic_debug/control
grep ' kfd_ioctl_create_queue\| \[amdgpu\]kfd_ioctl_create_queue' "$dyndbg" > /out/kfd-dyndbg-before.txt 2>&1
cat /sys/kernel/tracing/events/printk/console/enable > /out/kfd-console-before.txt

# the ioctl paths under function_graph, filtered to amdgpu's functions, with
# the values of each queue ioctl from the probe events (--kfd-args) and the
# runtime-format lines kfd-probe writes around each step (--hip-log)
# and KFD's debugfs every 50 ms while kfd-probe holds /dev/kfd (--kfd-snapshot)
step kfd gpu-trace record -p function_graph -l ':mod:amdgpu' --kfd-args --kfd-snapshot 50 \
	--hip-log -o /out/kfd.dat -- /bin/kfd-probe --hold 400 > /out/kfd-probe.txt 2> /out/kfd-record.txt
grep -c debugfs /proc/mounts > /out/kfd-debugfs-mounts.txt
cat /out/kfd-record.txt /out/kfd-probe.txt
grep ' kfd_ioctl_create_queue\| \[amdgpu\]kfd_ioctl_create_queue' "$dyndbg" > /out/kfd-dyndbg-after.txt 2>&1
cat /sys/kernel/tracing/kprobe_events > /out/kfd-kprobes-after.txt
cat /sys/kernel/tracing/events/printk/console/enable > /out/kfd-console-after.txt

# A record killed by SIGKILL leaves its probes (and dynamic debug switched
# on); gpu-trace reset must take them away.  Killed once the workload runs:
# every probe is defined by then.
rm -f /tmp/kill-go
gpu-trace record --kfd-args -o /tmp/kill.dat -- sh -c 'touch /tmp/kill-go; sleep 20' \
	> /out/kfd-kill-record.txt 2>&1 &
victim=$!
i=0
until [ -e /tmp/kill-go ] || [ $i -ge 600 ]; do
	usleep 100000
	i=$((i + 1))
done
grep -c "gpu_trace_$victim/" /sys/kernel/tracing/kprobe_events > /out/kfd-kill-probes-before.txt
grep ' \[amdgpu\]kfd_ioctl_create_queue' "$dyndbg" > /out/kfd-kill-dyndbg-during.txt 2>&1
# a second record beside it: where the first switched dynamic debug on (6.1),
# one run at a time may change it, and the second must leave it alone
echo "$victim" > /out/kfd-kill-victim.txt
gpu-trace record --kfd-args -o /tmp/second.dat -- true > /out/kfd-second-record.txt 2>&1
echo "exit $?" >> /out/kfd-second-record.txt
grep ' \[amdgpu\]kfd_ioctl_create_queue' "$dyndbg" > /out/kfd-second-dyndbg-after.txt 2>&1
kill -9 "$victim"
wait "$victim"
grep -c "gpu_trace_$victim/" /sys/kernel/tracing/kprobe_events > /out/kfd-kill-probes-killed.txt
step kfd-reset gpu-trace reset > /out/kfd-reset.txt 2>&1
cat /out/kfd-reset.txt
cat /sys/kernel/tracing/kprobe_events /sys/kernel/tracing/dynamic_events > /out/kfd-kill-probes-after.txt 2>&1
grep ' \[amdgpu\]kfd_ioctl_create_queue' "$dyndbg" > /out/kfd-kill-dyndbg-after.txt 2>&1

# virtio-gpu: resources created on the device are host commands with fences
step virtio gpu-trace record -a --preset virtio -o /out/virtio.dat -- /bin/drm-probe 8 \
	> /out/virtio-probe.txt
cat /out/virtio-probe.txt 2> /dev/null
# The same client followed by its pids (no -a), on every kernel the lab boots:
# pinned to CPU 0 beside a busy loop pinned there (another process), waiting on
# each command's fence. report must give each command the RESOURCE_CREATE ioctl
# it was queued from, the client's waits on its commands' fences, and the loop
# as what held its CPU.
taskset -c 0 sh -c 'while :; do :; done' &
hog=$!
echo "$hog" > /out/virtio-client.hog
step virtio-client gpu-trace record --preset virtio -o /out/virtio-client.dat \
	-- taskset -c 0 /bin/drm-probe 8 wait > /out/virtio-client-probe.txt
kill "$hog"
wait "$hog" 2> /dev/null
cat /out/virtio-client-probe.txt

# A display: gt_vblank's vblanks at 60 Hz from a timer, the DRM core's own
# vblank code counting them and delivering events; the client waits for 30
# events at the next vblank, then asks for one two vblanks behind.
if [ -f /lib/modules/gt_vblank.ko ]; then
	if insmod /lib/modules/gt_vblank.ko 2> /tmp/insmod.err; then
		step vblank gpu-trace record --preset drm -o /out/vblank.dat \
			-- /bin/vblank-client 30 > /out/vblank-client.txt
		cat /out/vblank-client.txt
		rmmod gt_vblank
	else
		say "insmod gt_vblank.ko: $(cat /tmp/insmod.err)"
		cp /tmp/insmod.err /out/vblank-client.txt
	fi
	dmesg | grep 'gt_vblank' | sed 's/^/gt-lab: /'
fi

# Page flips on vkms (the kernel's own, built from its source: Debian builds none):
# 60 flips each asked for as the last one's event is read, every 10th on a vgem
# buffer whose write fence the client signals 40 ms after asking, so that the
# DRM core's commit waits and the flip is presented vblanks late.
if [ -f /lib/modules/vkms.ko ]; then
	if insmod /lib/modules/vkms.ko 2> /tmp/insmod.err; then
		step flips gpu-trace record --preset drm -o /out/flips.dat \
			-- /bin/flip-client 60 10 40 > /out/flip-client.txt
		cat /out/flip-client.txt
		# left loaded, its CRTC 0 and the core's events would join the later steps'
		rmmod vkms 2> /tmp/rmmod.err || say "rmmod vkms: $(cat /tmp/rmmod.err)"
	else
		say "insmod vkms.ko: $(cat /tmp/insmod.err)"
		cp /tmp/insmod.err /out/flip-client.txt
	fi
fi

# dma-buf: a vgem buffer exported, mapped, and imported by a child on virtio-gpu
# (the preset's dma_buf events, 6.17+; before, the report must have none)
step dmabuf gpu-trace record --preset drm -o /out/dmabuf.dat -- /bin/dmabuf-probe \
	> /out/dmabuf-probe.txt
cat /out/dmabuf-probe.txt 2> /dev/null
tracefs_state > /out/tracefs-end.txt

# nvidia.ko's stand-in (gt_nvidia.ko): check and list as a user would run them,
# then record --preset nvidia around a client's ioctls in NVIDIA's numbering,
# interrupts, UVM fault service and an Xid (interrupts and UVM from other
# contexts than the workload's: the preset records them system-wide). The
# group's formats are read while it exists (the fixtures' source).
if insmod /lib/modules/gt_nvidia.ko 2> /tmp/insmod.err; then
	gpu-trace check > /out/nvidia-check.txt 2>&1
	gpu-trace list --preset nvidia > /out/nvidia-list.txt 2>&1
	step nvidia gpu-trace record --preset nvidia -o /out/nvidia.dat -- \
		sh -c 'for f in /sys/kernel/tracing/events/gpu_trace_nv_*/*/format; do echo "== $f"; cat "$f"; done > /out/nvidia-formats.txt
		       /bin/nvidia-client > /out/nvidia-client.txt; echo "4 500" > /sys/kernel/debug/gt_nvidia/irq;
		       usleep 100000; echo "3 300" > /sys/kernel/debug/gt_nvidia/uvm;
		       echo "79 GPU has fallen off the bus." > /sys/kernel/debug/gt_nvidia/xid' > /out/nvidia-record.txt 2>&1
	cat /out/nvidia-record.txt /out/nvidia-client.txt
	cat /sys/kernel/tracing/events/nvidia/nvidia_dev_xid/format > /out/nvidia-xid-format.txt 2>&1
	cat /sys/kernel/tracing/kprobe_events > /out/nvidia-kprobes-after.txt
	# a SIGKILLed record leaves its group; reset removes it
	rm -f /tmp/nvkill-go
	gpu-trace record --preset nvidia -o /tmp/nvkill.dat -- sh -c 'touch /tmp/nvkill-go; sleep 20' \
		> /out/nvidia-kill-record.txt 2>&1 &
	victim=$!
	i=0
	until [ -e /tmp/nvkill-go ] || [ $i -ge 600 ]; do
		usleep 100000
		i=$((i + 1))
	done
	kill -9 "$victim"
	wait "$victim"
	grep -c "gpu_trace_nv_$victim/" /sys/kernel/tracing/kprobe_events > /out/nvidia-kill-probes-killed.txt
	gpu-trace reset > /out/nvidia-reset.txt 2>&1
	cat /sys/kernel/tracing/kprobe_events > /out/nvidia-kill-probes-after.txt
	rmmod gt_nvidia
else
	say "insmod gt_nvidia.ko: $(cat /tmp/insmod.err)"
fi

# The kfd step with trace-cmd, timed only (last: trace-cmd leaves its settings): trace-cmd expands :mod:amdgpu into one
# write per function, gpu-trace hands the kernel the one string.
if [ -x /bin/trace-cmd ]; then
	timed kfd-trace-cmd trace-cmd record -q -p function_graph -l ':mod:amdgpu' \
		-o /tmp/kfd-trace-cmd.dat /bin/kfd-probe > /dev/null
	# A file another tool wrote with real losses: trace-cmd record of the mock's
	# stress batches through a 4 KB buffer per CPU, which overflows.
	insmod /lib/modules/gt_mock_sched.ko scenario=none
	echo 0 > /sys/module/gt_mock_sched/parameters/log_jobs
	step tc-lost trace-cmd record -q -b 4 -e gpu_scheduler -e dma_fence -o /out/tc-lost.dat \
		sh -c 'i=0; while [ $i -lt 60 ]; do echo stress > /sys/kernel/debug/gt_mock/run; i=$((i + 1)); done' \
		> /dev/null
	rmmod gt_mock_sched
fi

send_results
