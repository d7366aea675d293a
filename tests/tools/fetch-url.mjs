// SPDX-License-Identifier: GPL-2.0
// Fetches URL into FILE with Node's own fetch (Node 18, Debian 12's, and
// later have it; no npm needed): what tests/perfetto/fetch.sh and
// tests/parquet/fetch.sh get from the npm registry. Run it as
//   node --use-openssl-ca fetch-url.mjs URL FILE
// so that TLS trusts the system's certificates (/etc/ssl/certs, where a site's
// intercepting proxy puts its CA) rather than only Node's bundled ones:
// NODE_EXTRA_CA_CERTS, which does the same from the environment, is one of
// the variables sudo drops. Exits 1 with one line on standard error (the
// cause too: "fetch failed" alone does not say a certificate was refused)
// when the fetch fails or answers other than 2xx.
import { writeFileSync } from 'node:fs';

const [url, out] = process.argv.slice(2);
try {
	const r = await fetch(url);
	if (!r.ok)
		throw new Error(`HTTP ${r.status}`);
	writeFileSync(out, new Uint8Array(await r.arrayBuffer()));
} catch (e) {
	const cause = e.cause ? `: ${e.cause.message}${e.cause.code ? ` (${e.cause.code})` : ''}` : '';
	process.stderr.write(`${e.message}${cause}\n`);
	process.exit(1);
}
