// SPDX-License-Identifier: GPL-2.0
// Runs the DuckDB queries of docs/parquet.md on a directory of tables:
//   node queries.mjs READERS_DIR DOC.md TABLES_DIR
// A query is a ```sql block whose first line is "-- duckdb: NAME"; 'DIR' in
// it is the tables' directory. Prints "NAME: " and the rows as JSON (big
// integers as strings), one line per query; exits 1 when one fails.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [readersDir, doc, dir] = process.argv.slice(2);
const R = await import(pathToFileURL(`${readersDir}/readers.mjs`).href);
const db = await R.DuckDBInstance.create(':memory:');
const con = await db.connect();
const blocks = [...readFileSync(doc, 'utf8').matchAll(/```sql\n-- duckdb: ([a-z0-9-]+)\n([\s\S]*?)```/g)];
let failed = 0;

if (!blocks.length) {
	console.log(`error: no "-- duckdb: NAME" query in ${doc}`);
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
