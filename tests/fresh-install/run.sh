#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/fresh-install/run.sh: the README's first command on nothing.  A bare
# Debian 12 (debootstrap minbase: no make, no compiler, no sudo) gets a clean
# copy of the tree, and inside it, as root, the README's line for a root
# shell runs: apt-get update, apt-get install make, make deps demo.  Then
# make install, and the installed gpu-trace and trace-cmd (with our installed
# plugins, no TRACEEVENT_PLUGIN_DIR) read a fixture.
#
# Only the bare debootstrap is cached (FRESH_CACHE, default
# ~/.cache/gpu-trace/fresh); every run starts from it again through an
# overlay in a private mount namespace, so nothing installed survives and
# nothing stays mounted.  Ends with "N passed, N failed, N skipped".
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cache=${FRESH_CACHE:-${HOME:-/root}/.cache/gpu-trace/fresh}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
bare=$cache/bookworm-bare
pass=0
fail=0
skipped=0

ok() { echo "ok - fresh install: $1"; pass=$((pass + 1)); }
not_ok() { echo "not ok - fresh install: $1: $2"; fail=$((fail + 1)); }
finish() { echo "$pass passed, $fail failed, $skipped skipped"; [ "$fail" = 0 ]; exit; }
skip_all() { echo "SKIP - fresh install: $1"; skipped=$((skipped + 1)); finish; }

[ "$(id -u)" = 0 ] || skip_all "needs root (debootstrap, chroot, mounts): run sudo make check"
for tool in debootstrap unshare chroot; do
	command -v "$tool" > /dev/null || skip_all "no $tool here (sudo make deps check installs debootstrap)"
done
grep -qw overlay /proc/filesystems || skip_all "this kernel has no overlayfs to start each run from the bare tree"

if [ ! -f "$bare/.complete" ]; then
	rm -rf "$bare"
	mkdir -p "$cache"
	if ! debootstrap --variant=minbase bookworm "$bare" "$mirror" > "$cache/debootstrap.log" 2>&1; then
		rm -rf "$bare"
		skip_all "debootstrap bookworm from $mirror failed (the package registry unreachable?); see $cache/debootstrap.log"
	fi
	touch "$bare/.complete"
fi

work=$(mktemp -d /tmp/gt-fresh.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/upper" "$work/ovl" "$work/root" "$work/out"

# The tree as a clone has it: what git tracks and what it does not ignore.
if git -C "$root" rev-parse --git-dir > /dev/null 2>&1; then
	(cd "$root" && git ls-files -z --cached --others --exclude-standard |
		tar --null -T - -cf "$work/src.tar" 2> "$work/tar.err")
else
	tar -C "$root" --exclude=./build --exclude=./gpu-trace -cf "$work/src.tar" . 2> "$work/tar.err"
fi || { not_ok "copy the tree" "$(tail -1 "$work/tar.err")"; finish; }

# A fixture for the installed binaries to read, made by this checkout's build
if [ -x "$root/build/make-fixture" ]; then
	"$root/build/make-fixture" "$root/tests/fixtures/formats" two-rings "$work/out/fixture.dat" > /dev/null
fi

# Inside the chroot, as root with no sudo: the README's line for a root
# shell, then install, then the installed tools on the fixture.
cat > "$work/inside.sh" << 'EOF'
set -u
export DEBIAN_FRONTEND=noninteractive PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
step() { echo "== step $1"; }
step sudo-absent
command -v sudo && exit 10
step readme
cd /src || exit 11
apt-get update > /out/apt.log 2>&1 && apt-get install -y make >> /out/apt.log 2>&1 &&
	make deps demo > /out/demo.log 2>&1 || { tail -5 /out/apt.log /out/demo.log; exit 12; }
# the README's first command, run again as people do
step demo-again
make demo > /out/demo2.log 2>&1 || { tail -5 /out/demo2.log; exit 17; }
step install
make install > /out/install.log 2>&1 || { tail -5 /out/install.log; exit 13; }
step report
cd / || exit 14
command -v gpu-trace
[ -f /out/fixture.dat ] || exit 0
gpu-trace report /out/fixture.dat > /out/report.txt 2>&1 || { cat /out/report.txt; exit 15; }
step trace-cmd
trace-cmd report -i /out/fixture.dat > /out/trace-cmd.txt 2>&1 || { tail -3 /out/trace-cmd.txt; exit 16; }
EOF

# Everything mounted here dies with the namespace.
# shellcheck disable=SC2016 # expanded by the inner sh, from its arguments
unshare -m --propagation private sh -c '
	set -e
	w=$1 bare=$2
	mount -t overlay overlay -o "lowerdir=$bare,upperdir=$w/upper,workdir=$w/ovl" "$w/root"
	r=$w/root
	mkdir -p "$r/src" "$r/out"
	tar -C "$r/src" -xf "$w/src.tar"
	cp "$w/inside.sh" "$r/inside.sh"
	cp /etc/resolv.conf "$r/etc/resolv.conf" 2> /dev/null || true
	mount --bind "$w/out" "$r/out"
	mount -t proc proc "$r/proc"
	mount -t sysfs sys "$r/sys"
	mount --rbind /dev "$r/dev"
	chroot "$r" /bin/sh /inside.sh
' _ "$work" "$bare" > "$work/inside.log" 2>&1
rc=$?

stage_ok() { grep -qx "== step $1" "$work/inside.log"; }
why() { grep -v '^== step' "$work/inside.log" | tail -6 | tr '\n' ' '; }
case $rc in
0) ;;
10) not_ok "the bare tree has sudo" "not a fresh machine" ;;
12) not_ok "apt-get install make && make deps demo as root, no sudo" "$(why)" ;;
13) not_ok "make install" "$(why)" ;;
15) not_ok "the installed gpu-trace reads a fixture" "$(why)" ;;
16) not_ok "the installed trace-cmd reads a fixture" "$(why)" ;;
17) not_ok "make demo a second time" "$(why)" ;;
*) not_ok "the chroot ran (exit $rc)" "$(why)" ;;
esac
if stage_ok demo-again; then
	ok "apt-get install make && make deps demo, as root with no sudo, on a bare Debian 12"
	if grep -q '^recorded [0-9]* event' "$work/out/demo.log"; then
		ok "demo recorded inside it"
	else
		not_ok "demo recorded inside it" "$(grep -m1 'gpu-trace' "$work/out/demo.log")"
	fi
fi
stage_ok install && ok "make demo a second time"
if stage_ok report; then
	ok "make install"
	if [ -s "$work/out/fixture.dat" ]; then
		if grep -q '^jobs  *3 finished, 0 unfinished' "$work/out/report.txt" &&
			grep -q '^ring sdma0: 1 job,' "$work/out/report.txt"; then
			ok "the installed gpu-trace reports the fixture's rings"
		else
			not_ok "the installed gpu-trace reports the fixture's rings" "$(head -3 "$work/out/report.txt")"
		fi
	fi
fi
if [ $rc = 0 ] && [ -s "$work/out/fixture.dat" ]; then
	# our plugin prints scheduler events as a sentence; without it
	# libtraceevent prints the raw fields (entity=..., id=...)
	if grep -q 'drm_run_job: .*sent to hardware' "$work/out/trace-cmd.txt"; then
		ok "the installed plugins print GPU events in trace-cmd"
	else
		not_ok "the installed plugins print GPU events in trace-cmd" "$(grep -m1 drm_run_job "$work/out/trace-cmd.txt")"
	fi
fi
finish
