// SPDX-License-Identifier: GPL-2.0
// Perfetto's own trace processor (WebAssembly, v55.3, the build its UI runs)
// under Node. Reads on stdin a JSON list of {"trace": PATH, "queries": [SQL]};
// loads each trace into a fresh trace processor (as the UI does for each file)
// and prints one line of JSON per trace: {"trace", "results": [rows of each
// query]} or {"trace", "error"} when its import or a query failed. Exits 1
// when the engine itself cannot start.
//   node trace-processor.mjs ASSETS_DIR < jobs.json
// ASSETS_DIR holds trace_processor.wasm, engine_bundle.node.js (the UI's
// worker glue) and engine.mjs (the UI's RPC client): tests/perfetto/fetch.sh.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';

const [assets] = process.argv.slice(2);

function fail(what) {
	process.stdout.write(`error: ${what}\n`);
	process.exit(1);
}

if (!assets)
	fail('usage: node trace-processor.mjs ASSETS_DIR < jobs.json');
let jobs;
try {
	jobs = JSON.parse(readFileSync(0, 'utf8'));
} catch (e) {
	fail(`stdin is not a JSON list of jobs: ${e.message}`);
}

// stdout is for results: the engine's own lines ("Loading trace ...") go to stderr
const say = (line) => process.stdout.write(`${line}\n`);
console.log = console.info = (...a) => process.stderr.write(`${a.join(' ')}\n`);

// The glue expects a Web Worker: give it the globals it looks up.
globalThis.self = globalThis;
globalThis.WorkerGlobalScope = function WorkerGlobalScope() {};
globalThis.location = { href: pathToFileURL(assets).href + '/' };

const { EngineBase } = await import(pathToFileURL(`${assets}/engine.mjs`).href);

// In Node: memory32 (no memory64 probe), the wasm bytes handed over (no
// fetch), and the bridge kept where we can reach it (no worker message).
globalThis.__gtWasm = new Uint8Array(readFileSync(`${assets}/trace_processor.wasm`));
let glue = readFileSync(`${assets}/engine_bundle.node.js`, 'utf8');
for (const [from, to] of [
	['this.useMemory64 = hasMemory64Support();', 'this.useMemory64 = false;'],
	['locateFile: (s) => s,', 'locateFile: (s) => s, wasmBinary: globalThis.__gtWasm,'],
	['const wasmBridge = new wasm_bridge_1.WasmBridge();',
	 'const wasmBridge = new wasm_bridge_1.WasmBridge(); globalThis.__gtBridge = wasmBridge;'],
]) {
	if (!glue.includes(from))
		fail(`the engine glue is not the one this script knows (no "${from}")`);
	glue = glue.replace(from, to);
}
vm.runInThisContext(glue, { filename: 'engine_bundle.node.js' });
const bridge = globalThis.__gtBridge;
if (!bridge)
	fail('the engine glue did not make its bridge');

// Requests before the runtime is up would call into an empty module.
for (let waited = 0; !bridge.reqBufferAddr; waited += 10) {
	if (waited > 60000)
		fail('the trace processor did not start within 60 s');
	await new Promise((r) => setTimeout(r, 10));
}

class Engine extends EngineBase {
	mode = 'WASM';
	id = 'gpu-trace-tests';

	constructor(port) {
		super();
		this.port = port;
		this.port.onmessage = (m) => this.onRpcResponseBytes(m.data);
	}

	rpcSendRequestBytes(data) {
		this.port.postMessage(data);
	}
}

const channel = new MessageChannel();
bridge.initialize(channel.port1);
const engine = new Engine(channel.port2);

/* a 64-bit value past a double's 2^53 (a time on the wall clock's epoch) kept exact */
function cell(v) {
	if (typeof v !== 'bigint')
		return v;
	return Number.isSafeInteger(Number(v)) ? Number(v) : { $big: v.toString() };
}

async function rows(sql) {
	const result = await engine.query(sql);

	if (result.error())
		throw new Error(`${sql}: ${result.error()}`);
	const cols = result.columns();
	const out = [];
	for (const it = result.iter({}); it.valid(); it.next()) {
		const row = {};
		for (const c of cols)
			row[c] = cell(it.get(c));
		out.push(row);
	}
	return out;
}

const CHUNK = 32 << 20;
for (const { trace, queries } of jobs) {
	try {
		await engine.resetTraceProcessor({});
		const bytes = new Uint8Array(readFileSync(trace));
		for (let at = 0; at < bytes.length; at += CHUNK)
			await engine.parse(bytes.subarray(at, at + CHUNK));
		await engine.notifyEof();
		const results = [];
		for (const sql of queries)
			results.push(await rows(sql));
		say(JSON.stringify({ trace, results }));
	} catch (e) {
		say(JSON.stringify({ trace, error: `${e.message ?? e}` }));
	}
}
channel.port2.close();
// exit only once stdout took every line: a pipe takes 64 KiB at a time, the rest waits
await new Promise((resolve) => process.stdout.write('', resolve));
process.exit(0);
