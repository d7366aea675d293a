#!/usr/bin/env bash
# Two independent Parquet readers for the tests: DuckDB (@duckdb/node-api,
# its native binding for linux-x64) and hyparquet (pure JavaScript, zstd
# through hyparquet-compressors), with what they depend on. Fetched once from
# the npm registry with Node's own fetch (no npm, nothing installed for the
# user), each tarball checked against the hash pinned here, unpacked into a
# node_modules tree in a cache with a module (readers.mjs) that loads both.
#   tests/parquet/fetch.sh [DIR]   prints the directory holding readers.mjs
# Exit 0; 77 with one line saying why when it cannot (no Node, no registry).
set -u
dir=${1:-${PARQUET_READERS_CACHE:-${HOME:-/root}/.cache/gpu-trace/parquet-readers-1}}
reg=https://registry.npmjs.org
# name version sha256 of the registry's tarball
pins="@duckdb/node-api 1.5.6-r.1 64d5080af3c0144329f9cbdbff7bc867c9c1f9df57a7e7e2a8b13bc6ed2bc664
@duckdb/node-bindings 1.5.6-r.1 9d1ebca9020dcd5680e2e38bd182f1a0e69e59f00d31dfc5afca2623b8a34ac3
@duckdb/node-bindings-linux-x64 1.5.6-r.1 1b9f82478539bb9a1d1df44bd103121a12ae52142c07158dc52b97d2ec1d69ff
detect-libc 2.1.2 270dec0fc06cff86481da8af2dd8f18dee6b602790b14ef0e1c2c18d7da39427
hyparquet 1.33.0 6af16c6ed33e983d6ee6e5e05b1ef3ae766efc22240fac3eb56ecd2ab5780e9b
hyparquet-compressors 1.1.2 d0b146d31c35a8f51ee05358326fb833ff13347e64d7c61b8592e9de0a76c3cc
fzstd 0.1.1 5ed2ee2d3439067be211d0093292c708a831045372342c897437e5a4997c45c5
hysnappy 1.1.1 3935b671bab5e639e061d473f45ab19c756c65ff6b6fb884f4370eb6b8ae528f"
# what the tree is made from: a cache made from other pins is made again
stamp=$(sha256sum <<< "$pins" | cut -d' ' -f1)

cached() { [ "$(cat "$dir/.pins" 2> /dev/null)" = "$stamp" ] && [ -f "$dir/readers.mjs" ]; }

if cached; then
	echo "$dir"
	exit 0
fi
[ "$(uname -m)" = x86_64 ] ||
	{ echo "the pinned DuckDB binding is linux-x64's; this machine is $(uname -m)"; exit 77; }
command -v node > /dev/null ||
	{ echo "node is not installed (sudo make deps check installs nodejs)"; exit 77; }
mkdir -p "$(dirname "$dir")" || { echo "cannot make $(dirname "$dir")"; exit 77; }
# the lab's stages and the integration tests ask at once on a fresh machine:
# one fetches, the others wait and take its tree (none removes a tree in use)
exec 9> "$dir.lock" && flock 9 || { echo "cannot lock $dir.lock"; exit 77; }
if cached; then
	echo "$dir"
	exit 0
fi
tmp=$(mktemp -d "$dir.XXXXXX") || { echo "cannot make a directory beside $dir"; exit 77; }
trap 'rm -rf "$tmp"' EXIT
while read -r name version sum; do
	url=$reg/$name/-/${name#*/}-$version.tgz
	if ! node --use-openssl-ca "$(dirname "$0")/../tools/fetch-url.mjs" "$url" "$tmp/p.tgz" 2> "$tmp/err"; then
		echo "cannot fetch $url ($(head -n1 "$tmp/err" | grep . || echo "node exited without saying why")): is the npm registry reachable?"
		exit 77
	fi
	if [ "$(sha256sum < "$tmp/p.tgz" | cut -d' ' -f1)" != "$sum" ]; then
		echo "$url is not the package whose hash tests/parquet/fetch.sh pins"
		exit 77
	fi
	if ! mkdir -p "$tmp/node_modules/$name" ||
		! tar -xzf "$tmp/p.tgz" -C "$tmp/node_modules/$name" --strip-components=1 --no-same-owner; then
		echo "cannot unpack $url"
		exit 77
	fi
	rm -f "$tmp/p.tgz"
done <<< "$pins"
# bare names resolve from here, into the tree above
cat > "$tmp/readers.mjs" <<'JS'
export { DuckDBInstance } from '@duckdb/node-api';
export { parquetReadObjects, parquetMetadataAsync } from 'hyparquet';
export { compressors } from 'hyparquet-compressors';
JS
rm -f "$tmp/err"
echo "$stamp" > "$tmp/.pins"
rm -rf "$dir"
mv "$tmp" "$dir" || { echo "cannot move it to $dir"; exit 77; }
trap - EXIT
echo "$dir"
