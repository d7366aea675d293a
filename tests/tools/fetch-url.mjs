// SPDX-License-Identifier: GPL-2.0
// Fetches URL into FILE with Node's own fetch (Node 18, Debian 12's, and
// later have it; no npm needed): what tests/perfetto/fetch.sh and
// tests/parquet/fetch.sh get from the npm registry. Exits 1 with the error
// on standard error when the fetch fails or answers other than 2xx.
//   node fetch-url.mjs URL FILE
import { writeFileSync } from 'node:fs';

const [url, out] = process.argv.slice(2);
const r = await fetch(url);
if (!r.ok)
	throw new Error(`HTTP ${r.status}`);
writeFileSync(out, new Uint8Array(await r.arrayBuffer()));
