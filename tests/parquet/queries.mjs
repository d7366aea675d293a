// SPDX-License-Identifier: GPL-2.0
// Runs the DuckDB queries of docs/parquet.md on a directory of tables:
//   node queries.mjs READERS_DIR DOC.md TABLES_DIR [KIND]
// A query is a ```sql block whose first line is "-- KIND: NAME" (KIND
// "duckdb" unless given: the fleet's; "duckdb (preempted jobs)" the i915
// fixtures'); 'DIR' in it is the tables' directory. Prints "NAME: " and the rows as JSON (big
// integers as strings), one line per query; exits 1 when one fails.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [readersDir, doc, dir, kind = 'duckdb'] = process.argv.slice(2);
const R = await import(pathToFileURL(`${readersDir}/readers.mjs`).href);
const db = await R.DuckDBInstance.create(':memory:');
const con = await db.connect();
const esc = kind.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const blocks = [...readFileSync(doc, 'utf8').matchAll(new RegExp(`\`\`\`sql\\n-- ${esc}: ([a-z0-9-]+)\\n([\\s\\S]*?)\`\`\``, 'g'))];
let failed = 0;

if (!blocks.length) {
	console.log(`error: no "-- ${kind}: NAME" query in ${doc}`);
	process.exit(1);
}
for (const [, name, sql] of blocks) {
	try {
		const r = await con.runAndReadAll(sql.replaceAll("'DIR/", `'${dir}/`));
		console.log(`${name}: ${JSON.stringify(r.getRowObjectsJson())}`);
	} catch (e) {
		failed++;
		console.log(`${name}: error: ${e.message.split('\n')[0]}`);
	}
}
process.exit(failed ? 1 : 0);
