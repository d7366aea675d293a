#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/service/run.sh: the flight recorder's systemd unit under a real
# systemd (these machines' PID 1 is not systemd). A debootstrapped Debian 12
# with systemd (cached, like the fresh install's bare tree) gets `make install`
# into an overlay, a settings file for a machine without a GPU (dma_fence and
# sched_switch stand in for the GPU's events), and a test unit that, once the
# container has booted: enables and starts gpu-trace-flight, waits for it to
# watch, asks for a dump with `systemctl kill -s USR1`, waits for the file,
# stops the service and writes its state and journal. The container shares
# this kernel's tracefs, bound in at /tracefs (nspawn's /sys is read-only, and so
# is what is mounted beneath it): it must be left as found. Ends with
# "N passed, N failed, N skipped".
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cache=${FRESH_CACHE:-${HOME:-/root}/.cache/gpu-trace/fresh}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
tree=$cache/bookworm-systemd
export STAGE=service
# shellcheck source=../stage-lib.sh
. "$root/tests/stage-lib.sh"

[ "$(id -u)" = 0 ] || skip_all "needs root (debootstrap, nspawn, tracefs): run sudo make check"
for tool in debootstrap systemd-nspawn unshare; do
	command -v "$tool" > /dev/null || skip_all "no $tool here (sudo make deps check installs systemd-container and debootstrap)"
done
grep -qw overlay /proc/filesystems || skip_all "this kernel has no overlayfs to start each run from the cached tree"
[ -x "$root/gpu-trace" ] || skip_all "build first (make)"
TFS=/sys/kernel/tracing
mountpoint -q "$TFS" || skip_all "tracefs is not mounted on $TFS"

if [ ! -f "$tree/.complete" ]; then
	rm -rf "$tree"
	mkdir -p "$cache"
	if ! debootstrap --variant=minbase \
		--include=systemd,systemd-sysv,libtracefs1,libtraceevent1,libtracecmd1,libzstd1,libtraceevent1-plugin \
		bookworm "$tree" "$mirror" > "$cache/debootstrap-systemd.log" 2>&1; then
		rm -rf "$tree"
		skip_all "debootstrap bookworm with systemd from $mirror failed (the package registry unreachable?); see $cache/debootstrap-systemd.log"
	fi
	touch "$tree/.complete"
fi

work=$(mktemp -d /tmp/gt-service.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/upper" "$work/ovl" "$work/root" "$work/out"
tracefs_before "$work"

# What the container runs once booted; its results in /out
cat > "$work/test.sh" << 'EOF'
#!/bin/sh
out=/out
wait_for() {	# SECONDS COMMAND...: until it succeeds
	n=$(($1 * 10))
	shift
	while [ $n -gt 0 ]; do
		"$@" > /dev/null 2>&1 && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}
watching() { journalctl -u gpu-trace-flight --no-pager | grep -q 'triggers:'; }
dumped() { ls /out/flight/gpu-trace-*-signal.dat; }
systemctl enable --now gpu-trace-flight > $out/enable.txt 2>&1
echo "enable $?" >> $out/steps
wait_for 30 watching; echo "watching $?" >> $out/steps
systemctl kill -s USR1 gpu-trace-flight
wait_for 30 dumped; echo "dumped $?" >> $out/steps
systemctl stop gpu-trace-flight
systemctl show -p ActiveState -p Result -p ExecMainStatus -p ExecMainCode gpu-trace-flight > $out/show.txt
journalctl -u gpu-trace-flight --no-pager -o cat > $out/journal.txt
echo done >> $out/steps
systemctl poweroff
EOF
cat > "$work/gt-service-test.service" << 'EOF'
[Unit]
Description=gpu-trace's service test
After=multi-user.target

[Service]
Type=oneshot
ExecStart=/bin/sh /gt-test.sh

[Install]
WantedBy=multi-user.target
EOF
# a machine without a GPU: dma_fence and sched_switch stand in for its events
cat > "$work/settings" << 'EOF'
SIZE=8M
DIR=/out/flight
OPTIONS=-e dma_fence -e sched:sched_switch --after 300ms --keep 5
EOF

# shellcheck disable=SC2016 # expanded by the inner sh, from its arguments
timeout -k 10 240 unshare -m --propagation private sh -c '
	set -e
	w=$1 tree=$2 src=$3
	mount -t overlay overlay -o "lowerdir=$tree,upperdir=$w/upper,workdir=$w/ovl" "$w/root"
	r=$w/root
	make -C "$src" -s install DESTDIR="$r" > "$w/install.log" 2>&1
	cp "$w/settings" "$r/etc/default/gpu-trace-flight"
	cp "$w/test.sh" "$r/gt-test.sh"
	cp "$w/gt-service-test.service" "$r/etc/systemd/system/"
	mkdir -p "$r/etc/systemd/system/multi-user.target.wants" "$r/out"
	ln -sf /etc/systemd/system/gt-service-test.service "$r/etc/systemd/system/multi-user.target.wants/"
	echo gt-service > "$r/etc/hostname"
	mkdir -p "$r/tracefs"
	systemd-nspawn --quiet --register=no --keep-unit -D "$r" -b --private-network \
		--bind="$w/out:/out" --bind=/sys/kernel/tracing:/tracefs < /dev/null
' _ "$work" "$tree" "$root" > "$work/nspawn.log" 2>&1
rc=$?

step() { grep -q "^$1 ${2:-0}\$" "$work/out/steps" 2> /dev/null; }
log() { { tail -4 "$work/nspawn.log"; cat "$work/out/steps" "$work/out/enable.txt" 2> /dev/null; } | tr '\n' ' '; }
if ! grep -qx "done" "$work/out/steps" 2> /dev/null; then
	not_ok "the container booted systemd and ran the test unit (exit $rc)" "$(log)"
	finish
fi
ok "make install into a Debian 12 with systemd; it booted and ran the test unit"
if step enable && step watching; then
	ok "systemctl enable --now gpu-trace-flight: the installed unit starts the flight recorder"
else
	not_ok "systemctl enable --now gpu-trace-flight" "$(log) $(tail -5 "$work/out/journal.txt" 2> /dev/null | tr '\n' ' ')"
fi
dump=$(find "$work/out/flight" -name "gpu-trace-gt-service-*-signal.dat" 2> /dev/null | head -1)
if step dumped && [ -n "$dump" ] && grep -q 'dumped /out/flight/gpu-trace-gt-service-.*-signal.dat' "$work/out/journal.txt"; then
	ok "systemctl kill -s USR1: a dump named by the host, and a journal line for it"
else
	not_ok "systemctl kill -s USR1: a dump and its journal line" "$(ls "$work/out/flight" 2> /dev/null) $(tail -3 "$work/out/journal.txt" 2> /dev/null | tr '\n' ' ')"
fi
if [ -n "$dump" ] && "$root/gpu-trace" report "$dump" 2> /dev/null | grep -q '^trigger  signal at '; then
	ok "report of the service's dump says what triggered it"
else
	not_ok "report of the service's dump says what triggered it" "${dump:-no dump}"
fi
if grep -qx 'ActiveState=inactive' "$work/out/show.txt" 2> /dev/null &&
	grep -qx 'Result=success' "$work/out/show.txt" && grep -qx 'ExecMainStatus=0' "$work/out/show.txt"; then
	ok "systemctl stop: SIGTERM ends it cleanly (exit 0, result success)"
else
	not_ok "systemctl stop ends it cleanly" "$(tr '\n' ' ' < "$work/out/show.txt" 2> /dev/null)"
fi
tracefs_as_found "$work" "the service"
finish
