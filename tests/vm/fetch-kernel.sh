#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-kernel.sh NAME: download and unpack one Debian kernel (image, modules,
# headers, kbuild) into $VM_CACHE/kernels/NAME, using apt lists of our own so the
# host's /etc/apt is never touched.  NAME is 5.10, 6.1, 6.12 or 7.3.  Prints the tree.
#
# A rerun with the tree present does nothing: CI's second kernel test and a
# developer's next run start in seconds.
set -euo pipefail

name=${1:?usage: fetch-kernel.sh 5.10|6.1|6.12|7.3}
cache=${VM_CACHE:-${HOME:-/root}/.cache/gpu-trace/vm}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

case $name in
5.10)	suites=("bullseye" "bullseye-updates") security=bullseye-security ;;
6.1)	suites=("bookworm" "bookworm-updates") security=bookworm-security ;;
6.12)	suites=("bookworm-backports") security= ;;
7.3)	suites=("trixie-backports") security= ;;
*)	echo "fetch-kernel: unknown kernel '$name': use 5.10, 6.1, 6.12 or 7.3" >&2; exit 2 ;;
esac

tree=$cache/kernels/$name
if [ -f "$tree/.complete" ]; then
	echo "$tree"
	exit 0
fi

apt_root=$cache/apt/$name
mkdir -p "$apt_root/lists/partial" "$apt_root/archives/partial" "$cache/debs"
{
	for s in "${suites[@]}"; do
		echo "deb $mirror $s main"
	done
	[ -n "$security" ] && echo "deb ${mirror%/debian}/debian-security $security main"
} > "$apt_root/sources.list"

apt_opts=(-o "Dir::Etc::SourceList=$apt_root/sources.list" -o Dir::Etc::SourceParts=/dev/null
	  -o "Dir::State=$apt_root" -o "Dir::State::Lists=$apt_root/lists"
	  -o Dir::State::status=/dev/null -o "Dir::Cache=$apt_root"
	  -o "Dir::Cache::archives=$apt_root/archives" -o Debug::NoLocking=1
	  -o APT::Get::List-Cleanup=0 -o APT::Sandbox::User=root)

apt-get "${apt_opts[@]}" -qq update >&2

# the ABI name (6.1.0-44, 6.12.74+deb12, 7.3.4+deb13) comes from the headers meta package
abi=$(apt-cache "${apt_opts[@]}" depends linux-headers-amd64 |
      sed -n 's/.*Depends: linux-headers-\(.*\)-amd64$/\1/p' | head -n1)
if [ -z "$abi" ]; then
	echo "fetch-kernel: no linux-headers-amd64 in ${suites[*]}: is $mirror reachable?" >&2
	exit 1
fi

# The image, its modules and the headers with everything they pull in, minus
# what a bare unpacked tree does not need.  The unsigned image is preferred:
# qemu boots either, and the unsigned one is the one we would rebuild.
mapfile -t pkgs < <(apt-cache "${apt_opts[@]}" depends --recurse --no-recommends \
	--no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances \
	"linux-image-$abi-amd64" "linux-headers-$abi-amd64" |
	grep -E "^linux-(image|binary|modules|base|headers|kbuild)-[0-9]" |
	grep -E -e "^linux-kbuild-" -e "-${abi//+/\\+}-" |
	grep -v -- '-dbg$' | sort -u)
want=()
for p in "${pkgs[@]}"; do
	if apt-cache "${apt_opts[@]}" show "$p-unsigned" >/dev/null 2>&1; then
		p=$p-unsigned
	elif [[ $p == linux-binary-* ]] &&
	     apt-cache "${apt_opts[@]}" show "${p/binary-/binary-unsigned-}" >/dev/null 2>&1; then
		p=${p/binary-/binary-unsigned-}
	fi
	want+=("$p")
done
mapfile -t want < <(printf '%s\n' "${want[@]}" | sort -u)

echo "fetch-kernel: $name is $abi: ${want[*]}" >&2
(cd "$cache/debs" && apt-get "${apt_opts[@]}" -qq download "${want[@]}" >&2)

rm -rf "$tree.tmp"
mkdir -p "$tree.tmp/root"
for p in "${want[@]}"; do
	deb=$(ls "$cache/debs/${p}_"*.deb | tail -n1)
	dpkg -x "$deb" "$tree.tmp/root"
done
echo "$abi" > "$tree.tmp/abi"
kernel=$(find "$tree.tmp/root/boot" "$tree.tmp/root/usr/lib/modules" -name 'vmlinuz*' 2>/dev/null | head -n1 || true)
if [ -z "$kernel" ]; then
	echo "fetch-kernel: no vmlinuz in ${want[*]}" >&2
	exit 1
fi
ln -s "${kernel#$tree.tmp/}" "$tree.tmp/vmlinuz"
ln -s "$(ls -d "$tree.tmp/root/usr/src/linux-headers-"*-amd64 | sed "s|^$tree.tmp/||")" "$tree.tmp/build"
touch "$tree.tmp/.complete"
rm -rf "$tree"
mv "$tree.tmp" "$tree"
echo "$tree"
