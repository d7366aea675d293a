// SPDX-License-Identifier: GPL-2.0
// Reads one input's Parquet tables (gpu-trace report --format parquet) with
// two independent readers, DuckDB and hyparquet, and checks every value of
// every table against what the JSON report says for the same file:
//   node check.mjs READERS_DIR MANIFEST.json
// READERS_DIR: tests/parquet/fetch.sh's; MANIFEST.json a list of inputs,
// {"dir": TABLES_DIR, "host": FOLDER, "run": NAME, "summary": report
// --format json's, "jobs": report --format json --jobs's}. Prints one line
// per input, table and reader; exits 1 when a value differs, with the first
// differences.
import { readFileSync, existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [readersDir, manifest] = process.argv.slice(2);
const R = await import(pathToFileURL(`${readersDir}/readers.mjs`).href);
const db = await R.DuckDBInstance.create(':memory:');
const con = await db.connect();
let bad = 0;

async function checkInput({ dir, host, run, summary: sumFile, jobs: jobsFile }) {
	// integers past 2^53 (UTC nanoseconds) must not round: as strings before parsing
	const parse = (f) => JSON.parse(readFileSync(f, 'utf8').replace(/([:\[,])(-?\d{16,})(?=[,\]}])/g, '$1"$2"'));
	const sum = parse(sumFile), jobsJson = parse(jobsFile);

	const LAT = ['submit_to_queue', 'queue_to_run', 'dep_wait', 'run_to_hw', 'exec', 'total'];
	const off = sum.host && sum.host.clock ? BigInt(sum.host.clock.utc_offset_ns) : null;
	const utc = (ns) => (ns === null || ns === undefined || off === null ? null : BigInt(ns) + off);
	const F3 = Symbol('a double the JSON prints with 3 decimals');
	const f3 = (v) => (v === null ? null : { [F3]: v });
	const common = (o) => ({ file: sum.file, run, ...o });
	const stats = (name, s) => Object.fromEntries([
		[`${name}_count`, s.count], [`${name}_min_ns`, s.min], [`${name}_avg_ns`, s.avg],
		[`${name}_p50_ns`, s.p50], [`${name}_p90_ns`, s.p90], [`${name}_p99_ns`, s.p99],
		[`${name}_max_ns`, s.max]]);
	const timePair = (name, ns) => ({ [`${name}_ns`]: ns ?? null, [`${name}_utc`]: utc(ns) });

	const expected = {
		jobs: (jobsJson.jobs || []).map((j) => common({
			ring: j.ring, dev: j.dev, id: j.id, fence: j.fence, fence_ptr: j.fence_ptr, pid: j.pid,
			comm: j.comm, client_id: j.client_id,
			...timePair('submit', j.submit_ns), ...timePair('queue', j.queue_ns),
			...timePair('run', j.run_ns), ...timePair('hw_start', j.hw_start_ns),
			...timePair('done', j.done_ns),
			hw_stints: j.hw_stints ? j.hw_stints.map(([a, b]) => ({ start_ns: a, end_ns: b })) : null,
			deps: j.deps, waits: j.waits, dep_fences: j.dep_fences,
			...Object.fromEntries(LAT.map((k) => [`${k}_ns`, j.latency_ns[k]])),
			workload: j.workload, behind_other_ns: j.behind_other.ns,
			behind_other_jobs: j.behind_other.jobs,
			behind_other_process_count: j.behind_other.process_count,
			behind_other_partial: j.behind_other.partial,
			...timePair('owner_switch_at', j.owner_switch ? j.owner_switch.at_ns : null),
			owner_switch_wait_ns: j.owner_switch ? j.owner_switch.wait_ns : null,
			in_flight_at_timeout: j.in_flight_at_timeout,
			moved_while_waiting_bytes: j.moved_while_waiting_bytes,
			page_tables_updated_while_waiting_bytes: j.page_tables_updated_while_waiting_bytes,
			unfinished: j.unfinished, lost: j.lost, done_from_fence: j.done_from_fence,
			dep_unknown: j.dep_unknown,
			ioctl: j.ioctl ? j.ioctl.name : null, ioctl_tid: j.ioctl ? j.ioctl.tid : null,
			...Object.fromEntries(['enter', 'to_queued', 'on_cpu', 'runnable', 'sleeping', 'irq']
				.map((k) => [`ioctl_${k}_ns`, j.ioctl ? j.ioctl[`${k}_ns`] : null])),
		})),
		rings: (sum.rings || []).map((r) => common({
			name: r.name, ring: r.ring, dev: r.dev, jobs: r.jobs, unfinished: r.unfinished,
			lost: r.lost, waits: r.waits, busy_ns: r.busy_ns, busy_pct: f3(r.busy_pct),
			max_in_flight: r.max_in_flight, workload_jobs: r.workload_jobs,
			behind_other_ns: r.behind_other.ns, behind_other_jobs: r.behind_other.jobs,
			behind_other_process_count: r.behind_other.process_count,
			behind_other_more_processes: r.behind_other.more_processes,
			owner_switch_jobs: r.owner_switches.jobs,
			owner_switch_waited_jobs: r.owner_switches.waited_jobs,
			owner_switch_wait_ns: r.owner_switches.wait_ns,
			cleaner_shaders: r.owner_switches.cleaner_shaders, timeouts: r.timeouts,
			moved_while_waiting_jobs: r.moved_while_waiting.jobs,
			moved_while_waiting_bytes: r.moved_while_waiting.bytes,
			moved_while_waiting_wait_ns: r.moved_while_waiting.wait_ns,
			page_tables_updated_while_waiting_jobs: r.page_tables_updated_while_waiting.jobs,
			page_tables_updated_while_waiting_bytes: r.page_tables_updated_while_waiting.bytes,
			page_tables_updated_while_waiting_wait_ns: r.page_tables_updated_while_waiting.wait_ns,
			...Object.assign({}, ...LAT.map((k) => stats(k, r.latency_ns[k]))),
		})),
		ring_waits: (sum.rings || []).flatMap((r) => r.behind_other.processes.map((p) =>
			common({ ring: r.name, pid: p.pid, comm: p.comm }))),
		processes: (sum.processes || []).map((p) => common({
			pid: p.pid, comm: p.comm, jobs: p.jobs, gpu_ns: p.gpu_ns, gpu_pct: f3(p.gpu_pct),
			...stats('total', p.total_ns),
		})),
		clients: (sum.clients || []).map((p) => common({
			client_id: p.client_id, jobs: p.jobs, gpu_ns: p.gpu_ns, gpu_pct: f3(p.gpu_pct),
			...stats('total', p.total_ns),
		})),
		hosts: [common({
			host_name: sum.host ? sum.host.name : null,
			machine_id: sum.host ? sum.host.machine_id : null,
			boot_id: sum.host ? sum.host.boot_id : null,
			kernel: sum.kernel, clock: sum.clock, cpus: sum.cpus,
			clock_pairs: off !== null ? sum.host.clock.pairs : null,
			utc_offset_ns: off, uncertainty_ns: off !== null ? sum.host.clock.uncertainty_ns : null,
			drift_ppm: off !== null ? f3(sum.host.clock.drift_ppm) : null,
			records: sum.records, gpu_events: sum.gpu_events,
			...timePair('first', sum.first_ns), ...timePair('last', sum.last_ns),
			lost_in_band: sum.lost.in_band, lost_windows: sum.lost.windows,
			gpus: sum.host ? sum.host.gpus.length : 0,
			lost_in_band_unknown: sum.lost.in_band_unknown,
			lost_zeroed_pages: sum.lost.zeroed_pages ? sum.lost.zeroed_pages.pages : 0,
			instances_absent: sum.instances_absent,
		})],
		gpus: (sum.host ? sum.host.gpus : []).map((g) => common({ ...g })),
		kfd_ops: (sum.kfd ? sum.kfd.ops : []).map((o) => common({
			pid: o.pid, comm: o.comm, op: o.op, root: o.root, ...timePair('start', o.start_ns),
			duration_ns: o.duration_ns, steps: o.steps.length,
		})),
		kfd_queues: (sum.kfd && sum.kfd.probes ? sum.kfd.probes.queues : []).map((q) => common({
			pid: q.pid, comm: q.comm, gpu_id: q.gpu_id, queue_id: q.queue_id, type: q.type,
			ring_size: q.ring_size, doorbell_offset: q.doorbell_offset,
			...timePair('created', q.created_ns), create_duration_ns: q.create_duration_ns,
			result: q.result, error: q.error, ...timePair('destroyed', q.destroyed_ns),
			lifetime_ns: q.lifetime_ns, updates: q.updates, evictions: q.evictions,
			restores: q.restores, evicted_ns: q.evicted_ns,
		})),
		cpu_side: (sum.cpu_side ? sum.cpu_side.threads : []).flatMap((t) => t.ioctls.map((r) => common({
			pid: t.pid, comm: t.comm, cmd: r.cmd, name: r.name, count: r.count,
			total_ns: r.total_ns, p50_ns: r.duration.p50_ns, p99_ns: r.duration.p99_ns,
			max_ns: r.duration.max_ns, on_cpu_ns: r.on_cpu_ns, runnable_ns: r.runnable_ns,
			sleeping_ns: r.sleeping_ns, uninterruptible_ns: r.uninterruptible_ns, irq_ns: r.irq_ns,
			after_wakeup_ns: r.after_wakeup_ns, behind_others_ns: r.behind_others_ns,
			unended: r.unended, unended_ns: r.unended_ns,
		}))),
	};

	function same(want, got) {
		// a LIST: DuckDB's node API gives a DuckDBListValue (its items), hyparquet an array
		if (Array.isArray(want)) {
			const items = Array.isArray(got) ? got : got && Array.isArray(got.items) ? got.items : null;
			return items !== null && items.length === want.length && want.every((w, k) => same(w, items[k]));
		}
		if (want && typeof want === 'object' && F3 in want)
			return typeof got === 'number' && Math.abs(got - want[F3]) <= 0.0005 + 1e-9;
		// a STRUCT: DuckDB's DuckDBStructValue (its entries), hyparquet a plain object
		if (want && typeof want === 'object') {
			const o = got && typeof got === 'object' ? ('entries' in got && !Array.isArray(got.entries) ? got.entries : got) : null;
			const keys = Object.keys(want);
			return o !== null && Object.keys(o).length === keys.length && keys.every((k) => k in o && same(want[k], o[k]));
		}
		if (want === null || want === undefined)
			return got === null || got === undefined;
		if (typeof want === 'boolean')
			return got === want;
		if (typeof want === 'string' && typeof got === 'string')
			return want === got;
		if (typeof got === 'bigint' || typeof got === 'number')
			return BigInt(got) === BigInt(want);
		return false;
	}

	// DuckDB reads TIMESTAMP(isAdjustedToUTC, NANOS) as its TIMESTAMPTZ, which
	// holds microseconds: it drops the nanoseconds of the *_utc columns (docs/parquet.md)
	const usOf = (reader, col, v) => (reader === 'duckdb' && col.endsWith('_utc') && v !== null ? (BigInt(v) / 1000n) * 1000n : v);
	const show = (v) => (typeof v === 'bigint' ? `${v}n` : v && typeof v === 'object' && F3 in v ? v[F3] :
		JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? `${x}n` : x)));

	function compare(table, reader, rows) {
		const want = expected[table];
		const diffs = [];

		if (rows.length !== want.length)
			diffs.push(`${rows.length} rows, the JSON has ${want.length}`);
		for (let i = 0; i < Math.min(rows.length, want.length); i++) {
			const cols = Object.keys(want[i]);
			if (Object.keys(rows[i]).length !== cols.length)
				diffs.push(`row ${i}: columns ${Object.keys(rows[i]).join(',')} are not ${cols.join(',')}`);
			for (const c of cols)
				if (!same(usOf(reader, c, want[i][c]), rows[i][c]))
					diffs.push(`row ${i} ${c}: ${show(rows[i][c])}, the JSON says ${show(want[i][c])}`);
		}
		if (diffs.length) {
			bad++;
			console.log(`not ok - ${run} ${table} by ${reader}: ${diffs.slice(0, 5).join('; ')}`);
		} else {
			console.log(`ok - ${run} ${table} by ${reader}: ${rows.length} rows`);
		}
	}

	for (const table of Object.keys(expected)) {
		const file = `${dir}/${table}/host=${host}/${run}.parquet`;
		if (!existsSync(file)) {
			bad++;
			console.log(`not ok - ${run} ${table}: no ${file}`);
			continue;
		}
		// DuckDB: timestamps as their nanoseconds since the epoch
		const q = (s) => `'${s.replace(/'/g, "''")}'`;
		// the top-level columns as DuckDB types them (a LIST's inner "list" and "element"
		// are no columns of their own)
		const schema = (await con.runAndReadAll(`describe select * from read_parquet(${q(file)}, hive_partitioning = false)`)).getRowObjects();
		const cols = schema.map((s) => (String(s.column_type).startsWith('TIMESTAMP') ? `epoch_ns("${s.column_name}") as "${s.column_name}"` : `"${s.column_name}"`));
		const kv = (await con.runAndReadAll(`select decode(key) as k, decode(value) as v from parquet_kv_metadata(${q(file)})`)).getRowObjects();
		if (!kv.some((r) => r.k === 'gpu-trace.schema' && r.v === 'gpu-trace-parquet/3')) {
			bad++;
			console.log(`not ok - ${run} ${table}: no gpu-trace.schema = gpu-trace-parquet/3 in its metadata`);
		}
		const rows = (await con.runAndReadAll(`select ${cols.join(', ')} from read_parquet(${q(file)}, hive_partitioning = false)`)).getRowObjects();
		compare(table, 'duckdb', rows);
		const buf = readFileSync(file);
		const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
		const hrows = await R.parquetReadObjects({
			file: ab, compressors: R.compressors,
			parsers: { timestampFromNanoseconds: (n) => BigInt(n) },
		});
		compare(table, 'hyparquet', hrows);
	}
}

for (const input of JSON.parse(readFileSync(manifest, 'utf8')))
	await checkInput(input);
process.exit(bad ? 1 : 0);
