#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-vkms.sh NAME: the sources of vkms (drivers/gpu/drm/vkms, the DRM core's
# virtual display) of kernel NAME, exactly as Debian ships them in its
# linux-source package of the kernel's own version, unpacked into
# $VM_CACHE/kernels/NAME/vkms-src.  Prints that directory.  Debian's kernels do
# not build vkms; build-module.sh builds it out of tree against the same
# kernel's headers, so the lab's page flips are vkms's own, in the DRM core's
# own atomic and vblank code.
#
# Needs fetch-kernel.sh NAME first (its apt lists and tree).  A rerun with the
# sources present does nothing.
set -euo pipefail

name=${1:?usage: fetch-vkms.sh 6.1|6.12|7.3}
cache=${VM_CACHE:-${HOME:-/root}/.cache/gpu-trace/vm}
tree=$cache/kernels/$name
apt_root=$cache/apt/$name
out=$tree/vkms-src

[ -f "$tree/.complete" ] || { echo "fetch-vkms: kernel $name is not fetched: run fetch-kernel.sh $name" >&2; exit 1; }
if [ -f "$out/.complete" ]; then
	echo "$out"
	exit 0
fi

apt_opts=(-o "Dir::Etc::SourceList=$apt_root/sources.list" -o Dir::Etc::SourceParts=/dev/null
	  -o "Dir::State=$apt_root" -o "Dir::State::Lists=$apt_root/lists"
	  -o Dir::State::status=/dev/null -o "Dir::Cache=$apt_root"
	  -o "Dir::Cache::archives=$apt_root/archives" -o Debug::NoLocking=1
	  -o APT::Get::List-Cleanup=0 -o APT::Sandbox::User=root)

# the kernel's package version (6.1.192-2), and so linux-source-6.1 of that version
abi=$(cat "$tree/abi")
version=$(apt-cache "${apt_opts[@]}" show "linux-headers-$abi-amd64" 2> /dev/null |
	  sed -n 's/^Version: //p' | head -n1)
[ -n "$version" ] || { echo "fetch-vkms: no linux-headers-$abi-amd64 in the apt lists of $name" >&2; exit 1; }
major_minor=$(echo "$version" | sed -n 's/^\([0-9]*\.[0-9]*\).*/\1/p')
pkg=linux-source-$major_minor
if ! apt-cache "${apt_opts[@]}" show "$pkg=$version" > /dev/null 2>&1; then
	echo "fetch-vkms: no $pkg $version (the kernel's version) in the apt lists of $name" >&2
	exit 1
fi

mkdir -p "$cache/debs"
deb=$cache/debs/${pkg}_${version//:/%3a}_all.deb
# downloaded beside, checked whole, then moved in: a killed download leaves no
# truncated .deb for every later run to trip on
if ! dpkg-deb -I "$deb" > /dev/null 2>&1; then
	dl=$(mktemp -d "$cache/debs/.vkms-dl.XXXXXX")
	(cd "$dl" && apt-get "${apt_opts[@]}" -qq download "$pkg=$version" >&2) || true
	if dpkg-deb -I "$dl/$(basename "$deb")" > /dev/null 2>&1; then
		mv "$dl/$(basename "$deb")" "$deb"
	fi
	rm -rf "$dl"
fi
dpkg-deb -I "$deb" > /dev/null 2>&1 ||
	{ echo "fetch-vkms: $pkg $version could not be downloaded whole" >&2; exit 1; }

# the package holds one tarball of the whole tree: only vkms's directory is kept
tmp=$(mktemp -d "$tree/vkms-src.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" --wildcards "./usr/src/$pkg.tar.*"
tarball=$(ls "$tmp/usr/src/$pkg.tar."*)
tar -x -C "$tmp" -f "$tarball" --wildcards "$pkg/drivers/gpu/drm/vkms/*"
[ -f "$tmp/$pkg/drivers/gpu/drm/vkms/Makefile" ] ||
	{ echo "fetch-vkms: $pkg $version has no drivers/gpu/drm/vkms" >&2; exit 1; }
rm -rf "$out"
mv "$tmp/$pkg/drivers/gpu/drm/vkms" "$out"
echo "$pkg $version" > "$out/.complete"
echo "$out"
