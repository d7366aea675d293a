# Viewers people already use open what record writes (two buffers: the GPU
# events and the workload's). KernelShark runs as a real window under Xvfb.
# shellcheck shell=bash

# kernelshark_opens's calls so far: each takes a display of its own
KS_CALLS=0

need_kernelshark() {
	for tool in kernelshark xvfb-run xwininfo runuser; do
		command -v "$tool" > /dev/null || { WHY="$tool not installed (sudo make deps)"; return 77; }
	done
}

test_kernelshark_opens_a_recording() {
	need_kernelshark || return
	"$GT" record -e dma_fence -e sched:sched_switch -e sched:sched_process_exec -o "$WORK/ks.dat" -- \
		sh -c 'ls / > /dev/null; (sleep 0.1)' 2> /dev/null || { WHY="record failed"; return 1; }
	kernelshark_opens "$WORK/ks.dat" "$WORK/ks-home"
}

# The HIP runtime's lines in their own buffer (record --hip-log).
test_kernelshark_opens_a_hip_log_recording() {
	need_kernelshark || return
	"$GT" record -e syscalls:sys_enter_getppid --hip-log -o "$WORK/ksh.dat" -- \
		python3 "$ROOT_DIR/tests/tools/fake-hip.py" 3 > /dev/null 2>&1 || { WHY="record failed"; return 1; }
	expect "no hip-log buffer in the file" grep -q '^buffer hip-log [1-9]' <("$INSPECT" "$WORK/ksh.dat") || return 1
	kernelshark_opens "$WORK/ksh.dat" "$WORK/ksh-home"
}

# record --kfd-args's probe events (a fixture with the lab's 6.1 formats), with
# our plugins: the same handlers trace-cmd prints them with (test-kfd-probes.sh)
test_kernelshark_opens_kfd_probe_events() {
	need_kernelshark || return
	"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" kfd-probes-6.1 "$WORK/ksk.dat" > /dev/null ||
		{ WHY="make-fixture failed"; return 1; }
	KS_PLUGINS=$ROOT_DIR/build/plugins kernelshark_opens "$WORK/ksk.dat" "$WORK/ksk-home"
}

# kernelshark_opens FILE HOME: a KernelShark window for FILE, no complaint
# ($KS_PLUGINS: a libtraceevent plugin directory to load from)
kernelshark_opens() {
	local out=$1 home=$2 title
	chmod 0644 "$out"
	mkdir -p "$home" && chmod 0777 "$home"
	cat > "$home/run.sh" <<'SCRIPT'
#!/bin/sh
# the server first answers a client: xvfb-run's ready signal has been seen
# to come before a loaded machine's Xvfb took connections (the server runs
# with -noreset: else this client's leaving resets it, and a client that
# connects during the reset is refused, as CI saw KernelShark be)
i=0
until xwininfo -root > /dev/null 2>&1; do
	[ $i -ge 40 ] && { echo "display $DISPLAY never answered xwininfo" > "$2/app.log"; exit 1; }
	sleep 0.5
	i=$((i + 1))
done
kernelshark "$1" > "$2/app.log" 2>&1 &
app=$!
i=0
while [ $i -lt 40 ]; do
	xwininfo -root -tree 2> /dev/null | grep -q 'Kernel Shark (' && break
	sleep 0.5
	i=$((i + 1))
done
sleep 1
xwininfo -root -tree > "$2/windows.txt" 2>&1
kill $app 2> /dev/null
wait $app 2> /dev/null
SCRIPT
	chmod 0755 "$home/run.sh"
	# not as root: KernelShark stops at a warning dialog then.
	# A display number no earlier call of this suite took (a server told to end
	# may still hold its number), -a searching on from it past other servers'
	# locks (-n after -a would start the search at 99); the server is ended and
	# waited for should xvfb-run not end it
	local display=$((200 + ($$ % 380) * 10 + KS_CALLS)) lock pid i
	KS_CALLS=$((KS_CALLS + 1))
	timeout 120 runuser -u nobody -- env HOME="$home" XDG_RUNTIME_DIR="$home" \
		${KS_PLUGINS:+TRACEEVENT_PLUGIN_DIR="$KS_PLUGINS"} xvfb-run -n "$display" -a -e "$home/xvfb.log" \
		-s '-noreset -screen 0 1400x900x24' "$home/run.sh" "$out" "$home" > /dev/null 2>&1
	for lock in $(seq -f "/tmp/.X%g-lock" "$display" $((display + 9))); do
		[ -e "$lock" ] || continue
		pid=$(tr -d ' ' 2> /dev/null < "$lock") || continue
		[ "$(ps -o user= -p "$pid" 2> /dev/null)" = nobody ] &&
			[ "$(ps -o comm= -p "$pid" 2> /dev/null)" = Xvfb ] || continue
		kill "$pid" 2> /dev/null
		for i in $(seq 50); do
			kill -0 "$pid" 2> /dev/null || break
			sleep 0.1
		done
	done
	title=$(grep -o '"Kernel Shark ([^"]*)"' "$home/windows.txt" 2> /dev/null)
	expect "no KernelShark window for the file: $(head -3 "$home/app.log" 2> /dev/null | tr '\n' ' ') $(grep -v '^_XSERVTransmkdir' "$home/xvfb.log" 2> /dev/null | tail -3 | tr '\n' ' ')" \
		[ "$title" = "\"Kernel Shark ($out)\"" ] || return 1
	expect "KernelShark complained: $(grep -iE 'error|cannot|failed to (open|load)' "$home/app.log" | head -2)" \
		[ -z "$(grep -iE 'error|cannot|failed to (open|load)' "$home/app.log")" ]
}
