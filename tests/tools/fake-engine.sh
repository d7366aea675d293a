#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A stand-in for docker/podman in the tests (run as "docker" by a wrapper that sets
# the variables below: record runs it with root's environment, not the test's):
# the "container" is the cgroup GT_FAKE_CGROUP, whose process GT_FAKE_INIT plays
# its init. inspect answers that pid; exec joins the cgroup, enters a new pid
# namespace (as a container's processes live in one) and runs the command with
# only the -e variables, as docker exec does (-e VAR alone takes our value).
set -u
case ${1:-} in
inspect)
	echo "$GT_FAKE_INIT" ;;
exec)
	shift
	env_list=(PATH="$PATH")
	while [ "${1:-}" = -e ]; do
		case $2 in
		*=*) env_list+=("$2") ;;
		*) [ -z "${!2+set}" ] || env_list+=("$2=${!2}") ;;
		esac
		shift 2
	done
	shift	# the container's name
	echo $$ > "$GT_FAKE_CGROUP/cgroup.procs"
	exec env -i "${env_list[@]}" unshare --pid --fork --mount-proc "$@" ;;
*)
	echo "fake-engine: $*: not supported" >&2
	exit 125 ;;
esac
