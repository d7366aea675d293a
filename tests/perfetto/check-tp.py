#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-tp.py ASSETS MANIFEST.json: does Perfetto's own trace processor
(tests/perfetto/trace-processor.mjs, the WebAssembly build its UI runs) import
each trace without an error and read in it what the report says?

MANIFEST.json lists {"name", "trace", "report", "decoded", "also", "summary",
"machines"}:
report is `gpu-trace report --jobs --format json` of the same .dat, decoded the
trace as protoc decodes it (tests/perfetto/trace.proto); a trace of several
files names each further file's report and the offset it was moved by in
"also" ([[path, offset_ns], ...]), and each file's rings sit under a group
named after it, on the machine (host) "machines" gives per file (0 each when
absent: the trace's own); summary (optional) is `gpu-trace report --format json`, whose
KFD probe queues must be on the "KFD queues" tracks and whose NVIDIA calls,
interrupts, UVM passes and Xids on the "NVIDIA" tracks, and whose workload's GPU
ioctls (cpu_side) on its threads' tracks, with the submits they queued inside.
Asserts, with SQL: no stats row of severity error or data_loss; each ring's
hardware slices are the report's finished jobs at the report's times, named
after the submitting process, whose process carries its name; each ring's
lanes ranked hardware, in flight, timeouts, owner switches, queued 0, 1 ...;
each file group described by its path; Perfetto's gpu_slice table holding
each finished job once on its ring's hardware queue, at the same times, in
its submitter's process; each ring's GPU counters: busy the share of each
span its jobs ran, in flight the steps of its lane; every gpu_id described
in the gpu table; as many slices (instants included) and flows as the
trace's own packets hold; every flow joins two slices, forwards in time.
All traces go through one trace processor, reset between them as the UI does.
Prints "ok: NAME: ..." or "not ok: NAME: ..." per failed check; exits 1 on any
failure.
"""
import json
import os
import re
import subprocess
import sys

from file_groups import group_names

HERE = os.path.dirname(os.path.abspath(__file__))

# Perfetto's stats of these severities mean it dropped or misread something
STATS = ("select name, idx, severity, source, value from stats "
         "where value > 0 and severity in ('error', 'data_loss')")
# top-level hardware slices: GPU > ring > "hardware" (under one group per
# file in a trace of several)
HARDWARE = ("select s.ts, s.dur, s.name, p.name as ring, g.name as grp, f.name as file, "
            "extract_arg(s.arg_set_id, 'debug.job') as job, m.raw_id as machine "
            "from slice s join track t on s.track_id = t.id "
            "left join machine m on t.machine_id = m.id "
            "join track p on t.parent_id = p.id join track g on p.parent_id = g.id "
            "left join track f on g.parent_id = f.id "
            "where t.name = 'hardware' and s.depth = 0")
FILE_GROUPS = ("select f.name as file from track t join track p on t.parent_id = p.id "
               "join track g on p.parent_id = g.id join track f on g.parent_id = f.id "
               "where t.name = 'hardware' group by f.name")
COUNTS = "select count(*) as slices from slice where id not in (select id from gpu_slice)"
# the same jobs as Perfetto's own GPU data (render stage events on hardware queues)
GPU = ("select g.ts, g.dur, g.name, t.name as queue, extract_arg(g.arg_set_id, 'job') as job, "
       "p.pid, extract_arg(t.dimension_arg_set_id, 'gpu') as gpu, t.machine_id as machine "
       "from gpu_slice g join gpu_track t on g.track_id = t.id left join process p using (upid)")
# each ring's lanes, in the order the file asks the UI for
LANES = ("select p.id as ring_id, p.name as ring, "
         "extract_arg(p.source_arg_set_id, 'child_ordering') as ordering, t.name as lane, "
         "extract_arg(t.source_arg_set_id, 'sibling_order_rank') as rank "
         "from track t join track p on t.parent_id = p.id "
         "where p.id in (select parent_id from track where name = 'hardware')")
PROCESSES = "select pid, name from process where pid > 0"
GROUP_PATHS = ("select name, extract_arg(source_arg_set_id, 'description') as path "
               "from track where parent_id is null and id in (select parent_id from track)")
# Perfetto's GPU counters (each row's value holds until the track's next row)
GPU_COUNTERS = ("select t.name, t.gpu_id as gpu, t.machine_id as machine, c.ts, c.value from counter c "
                "join gpu_counter_track t on c.track_id = t.id order by t.name, c.ts, c.id")
# the TrackEvent "in flight" lane under each ring
IN_FLIGHT = ("select p.name as ring, f.name as file, c.ts, c.value from counter c "
             "join track t on c.track_id = t.id join track p on t.parent_id = p.id "
             "join track g on p.parent_id = g.id left join track f on g.parent_id = f.id "
             "where t.name = 'in flight' order by f.name, p.name, c.ts, c.id")
# top-level slices on the KFD probes' tracks: KFD queues > COMM PID > a queue or a lane
KFD = ("select s.ts, s.name, t.name as track, p.name as proc from slice s "
       "join track t on s.track_id = t.id join track p on t.parent_id = p.id "
       "join track r on p.parent_id = r.id where r.name = 'KFD queues' and s.depth = 0")
# slices on the NVIDIA tracks (NVIDIA > "ioctls COMM TID", "irq N ISR", ...), counted and summed
NVIDIA = ("select t.name as track, s.name, count(*) as n, sum(s.dur) as dur from slice s "
          "join track t on s.track_id = t.id join track r on t.parent_id = r.id "
          "where r.name = 'NVIDIA' group by t.name, s.name")
GPUS = ("select gpu, machine_id as machine, name, pci_bdf, extract_arg(arg_set_id, 'rings') as rings "
        "from gpu")
# the hosts: Perfetto's machines, by the machine_id their packets carry
MACHINES = "select id, raw_id from machine"
# the workload's GPU ioctls on its threads' tracks, counted and summed; and the
# "submit" instants that sit inside one (Perfetto nests them in its slice)
CPU_IOCTLS = ("select t.tid, s.name, count(*) as n, sum(s.dur) as dur from slice s "
              "join thread_track tt on s.track_id = tt.id join thread t using (utid) "
              "where s.depth = 0 and s.name != 'submit' group by t.tid, s.name")
SUBMITS_IN_IOCTLS = ("select t.tid, count(*) as n from slice s "
                     "join thread_track tt on s.track_id = tt.id join thread t using (utid) "
                     "where s.name = 'submit' and s.parent_id is not null group by t.tid")
FLOWS = ("select f.id, o.ts as out_ts, i.ts as in_ts from flow f "
         "left join slice o on f.slice_out = o.id left join slice i on f.slice_in = i.id")


def big(o):
    """trace-processor.mjs writes an integer past 2^53 as {"$big": "digits"}"""
    return int(o["$big"]) if set(o) == {"$big"} else o


def run(assets, jobs):
    """One result (rows of each query, or an error) per trace, in order."""
    out = subprocess.run(["node", os.path.join(HERE, "trace-processor.mjs"), assets],
                         input=json.dumps(jobs), capture_output=True, text=True, timeout=1800)
    lines = [json.loads(l, object_hook=big) for l in out.stdout.splitlines() if l.startswith("{")]
    if out.returncode or len(lines) != len(jobs):
        why = next((l for l in out.stdout.splitlines() if l.startswith("error: ")), None) or \
            (out.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"the trace processor failed ({why})")
    return lines


def spans_on_engine(j):
    """A finished job's time on the engine: its stints where its driver says it was
    preempted, else from its hardware start to done."""
    if j.get("hw_stints"):
        return [tuple(s) for s in j["hw_stints"]]
    if j["hw_start_ns"] is not None and j["done_ns"] is not None:
        return [(j["hw_start_ns"], j["done_ns"])]
    return []


def lane_order(lanes):
    """Each ring's lanes ranked hardware, in flight, timeouts, owner switches,
    then queued 0, 1, 2 ... by number (a name sort puts queued 10 before 2)."""
    fixed = ["hardware", "in flight", "timeouts", "owner switches"]
    errors, rings = [], {}
    for l in lanes:
        rings.setdefault((l["ring_id"], l["ring"], l["ordering"]), []).append(l)
    for (_, ring, ordering), children in rings.items():
        if ordering != "explicit":
            errors.append(f"ring {ring}: its lanes ordered {ordering!r}, not explicitly")
        want = sorted(children, key=lambda l: fixed.index(l["lane"]) if l["lane"] in fixed
                      else len(fixed) + int(l["lane"].split()[-1]))
        got = sorted(children, key=lambda l: (l["rank"] is None, l["rank"] or 0))
        if [l["lane"] for l in got] != [l["lane"] for l in want]:
            errors.append(f"ring {ring}: lanes ranked {[l['lane'] for l in got]}")
    return errors


def gpu_slices(gpu, want, many, sources, group_of):
    """Perfetto's gpu_slice table: each finished job once, on its ring's queue
    (named "group: ring" in a trace of several files), at the report's times,
    in its submitter's process."""
    errors, got, pids = [], {}, {}
    queue_src, seen = {}, set()
    for r, _ in sources:
        for j in r["jobs"]:
            q = f"{group_of[r['file']]}: {j['ring']}" if many else j["ring"]
            queue_src[q] = (group_of[r["file"]] if many else None, j["ring"])
            k = (queue_src[q], str(j["id"] if j["id"] is not None else j["fence"]))
            # a key two jobs share (ids before 6.17 repeat) names no one process
            if k in seen:
                pids.pop(k, None)
            elif j["pid"] > 0:
                pids[k] = j["pid"]
            seen.add(k)
    for g in gpu:
        src, ring = queue_src.get(g["queue"], (None, g["queue"]))
        k = (src, ring, str(g["job"]))
        got.setdefault(k, []).append((g["ts"], g["ts"] + g["dur"]))
        pid = pids.get(((src, ring), str(g["job"])))
        if pid and g["pid"] != pid:
            errors.append(f"GPU slice of job {k} in process {g['pid']}, not {pid}")
    for k in sorted(set(got) | set(want), key=str):
        if sorted(got.get(k, [])) != sorted(want.get(k, [])):
            errors.append(f"job {k}: GPU slices {sorted(got.get(k, []))}, "
                          f"report {sorted(want.get(k, []))}")
    return errors


def steps(rows):
    """A counter's rows as [(from, to, value)]: each value holds until the next row."""
    return [(a["ts"], b["ts"], a["value"]) for a, b in zip(rows, rows[1:])]


def value_at(rows, ts):
    """The step function of rows (sorted) at ts; None before its first row."""
    v = None
    for r in rows:
        if r["ts"] > ts:
            break
        v = r["value"]
    return v


def gpu_counters(counters, in_flight, gpus, gpu, many, sources, group_of):
    """Each ring's GPU counters: "RING busy" the share of each span its jobs
    ran on the hardware (from the report's jobs), "RING in flight" the same
    steps as the ring's TrackEvent "in flight" lane; every gpu_id in the GPU
    tables described in Perfetto's gpu table (PCI address where the report
    names the device)."""
    errors, busy, tracks, devs = [], {}, {}, {}
    for c in counters:
        tracks.setdefault(c["name"], []).append(c)
    for r, offset in sources:
        pre = f"{group_of[r['file']]}: " if many else ""
        for j in r["jobs"]:
            ring = pre + j["ring"]
            busy.setdefault(ring, [])
            for s, e in spans_on_engine(j):
                busy[ring].append((s + offset, e + offset))
            if j.get("dev"):
                devs[ring] = j["dev"]
    for ring, jobs in busy.items():
        rows = tracks.get(f"{ring} busy", [])
        if not jobs:
            if rows:
                errors.append(f"ring {ring}: a busy counter with no finished job")
            continue
        if len(rows) < 2:
            errors.append(f"ring {ring}: busy counter of {len(rows)} rows")
            continue
        for a, b, v in steps(rows):
            ns = sum(max(0, min(e, b) - max(s, a)) for s, e in jobs)
            if abs(v - ns * 100.0 / (b - a)) > 1e-6:
                errors.append(f"ring {ring}: busy {v}% from {a} to {b}, its jobs ran "
                              f"{ns} ns of {b - a}")
                break
        if rows[0]["ts"] > min(s for s, _ in jobs) or rows[-1]["ts"] < max(e for _, e in jobs):
            errors.append(f"ring {ring}: busy counter from {rows[0]['ts']} to {rows[-1]['ts']} "
                          f"misses its jobs")
    lanes = {}
    for c in in_flight:
        lanes.setdefault((f"{c['file']}: " if many else "") + c["ring"], []).append(c)
    for ring in sorted(set(lanes) | {n[:-len(" in flight")] for n in tracks
                                     if n.endswith(" in flight")}):
        rows, lane = tracks.get(f"{ring} in flight", []), lanes.get(ring, [])
        if not rows or not lane or rows[0]["ts"] != lane[0]["ts"]:
            errors.append(f"ring {ring}: in flight GPU counter starts at "
                          f"{rows[0]['ts'] if rows else None}, its lane at "
                          f"{lane[0]['ts'] if lane else None}")
            continue
        for a, b, v in steps(rows):
            # several changes in one nanosecond (a lossy file's records share their
            # times): the rows between the first and the last hold for no time
            if a == b:
                continue
            if value_at(lane, a) != v:
                errors.append(f"ring {ring}: {v} in flight at {a} as GPU counter, "
                              f"{value_at(lane, a)} on its lane")
                break
    # gpu ids are numbered per machine (host): each one's gpu table its own
    described = {(g["machine"] or 0, g["gpu"]): g for g in gpus}
    by_name = {}
    for c in counters:
        by_name.setdefault(c["name"], (c["machine"] or 0, c["gpu"]))
    used = {(g["machine"] or 0, g["gpu"]) for g in gpu} | \
        {(c["machine"] or 0, c["gpu"]) for c in counters}
    for g in sorted(used - set(described)):
        errors.append(f"gpu {g[1]} of machine {g[0]}: not described in the gpu table")
    for g in described.values():
        if not g["name"]:
            errors.append(f"gpu {g['gpu']}: no name")
    for ring, dev in devs.items():
        g = described.get(by_name.get(f"{ring} busy", by_name.get(f"{ring} in flight")))
        pci = dev if re.fullmatch(r"[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]", dev) else None
        if g and (g["pci_bdf"] != pci or not (g["name"] or "").endswith(dev)):
            errors.append(f"ring {ring}: on gpu {g['gpu']} {g['name']!r} at {g['pci_bdf']}, "
                          f"not {dev}")
    return errors


def kfd_queues(kfd, summary):
    """What record's KFD probes saw (the report's kfd.probes.queues) on the
    "KFD queues" tracks: each queue created a "queue N (type)" slice on a track
    of its own, each failed create a "create failed: ERRNO ..." slice on an
    "ioctls" lane, under its process, at the create's time."""
    errors, want, got = [], [], []
    for q in ((summary.get("kfd") or {}).get("probes") or {}).get("queues", []):
        failed = q["result"] not in (0, None)
        want.append((f"{q['comm']} {q['pid']}", q["created_ns"],
                     f"create failed: {q['error']}" if failed else "queue"))
    for s in kfd:
        if s["name"].startswith("create failed: ") and s["track"].startswith("ioctls"):
            got.append((s["proc"], s["ts"], " ".join(s["name"].split()[:3])))
        elif s["name"].startswith("queue ") and not s["track"].startswith(("ioctls", "evictions")):
            got.append((s["proc"], s["ts"], "queue"))
    if sorted(got) != sorted(want):
        errors.append(f"KFD queues tracks hold {sorted(got)}, the report's probes "
                      f"{sorted(want)}")
    return errors


def nvidia(slices, summary):
    """What record --preset nvidia's probes saw (the report's nvidia section) on the
    "NVIDIA" tracks: each process's calls by escape and RM control command, as many
    and as long in all; each interrupt line's ISRs and bottom halves; each UVM fault
    buffer's passes; each Xid."""
    nv = summary.get("nvidia")
    got = {(s["track"], s["name"]): (s["n"], s["dur"]) for s in slices}
    want = {}
    if not nv:
        return [f"NVIDIA tracks {sorted(got)}, none in the report"] if got else []
    for r in nv["ioctls"]:
        name = (r["escape_name"] or f"escape 0x{r['escape']:02x}") + \
            (f" {r['command']}" if r["command"] else "")
        want[(f"ioctls {r['comm']} {r['pid']}", name)] = (r["calls"], r["total_ns"])
    for l in nv["interrupts"]:
        want[(f"irq {l['irq']} ISR", "ISR")] = (l["isrs"], l["isr_total_ns"])
        if l["bottom_halves"]:
            want[(f"irq {l['irq']} bottom half", "bottom half")] = \
                (l["bottom_halves"], l["bh_total_ns"])
    for u in nv["uvm"]:
        want[(f"UVM {u['buffer']} faults {u['gpu']}", "fault service")] = \
            (u["passes"], u["total_ns"])
    for x in nv["xids"]:
        k = ("Xids", f"Xid {x['code']}")
        want[k] = (want.get(k, (0, 0))[0] + 1, 0)
    # lines and fault buffers past the report's rows: drawn, and counted there as more
    past = []
    for track, name, more in (("irq ", "ISR", nv.get("more_isrs", 0)),
                              ("UVM ", "fault service", nv.get("more_uvm_passes", 0))):
        extra = [k for k in got if k[0].startswith(track) and k[1] == name and k not in want]
        drawn = sum(got[k][0] for k in extra)
        if drawn != more:
            past.append(f"NVIDIA: {drawn} {name} slices on {len(extra)} tracks past the "
                        f"report's rows, the report {more} more")
        for k in extra:
            want[k] = got[k]
    # open, close and mmap are drawn beside the ioctls; the report counts them per process
    calls = {k: v for k, v in got.items() if k[1] not in ("open", "close", "mmap")}
    errors = past + [f"NVIDIA track {k}: {calls.get(k)} (slices, ns), the report {want.get(k)}"
                     for k in sorted(set(calls) | set(want)) if calls.get(k) != want.get(k)]
    for p in nv["processes"]:
        for what, n in (("open", p["opens"]), ("close", p["closes"]), ("mmap", p["mmaps"])):
            k = (f"ioctls {p['comm']} {p['pid']}", what)
            if got.get(k, (0, 0))[0] != n:
                errors.append(f"NVIDIA track {k}: {got.get(k, (0, 0))[0]} slices, the report {n}")
    return errors


def cpu_side(ioctls, submits, summary):
    """The report's cpu_side on the workload's thread tracks: each thread's GPU
    ioctls as slices, as many and as long in all per name (past a thread's rows the
    report's "(other ioctls)" holds the rest); as many "submit" instants inside
    them (their flows go to the jobs) as the report's jobs queued inside an ioctl."""
    cs = summary.get("cpu_side")
    got = {(r["tid"], r["name"]): (r["n"], r["dur"]) for r in ioctls}
    inside = {r["tid"]: r["n"] for r in submits}
    if not cs:
        return [f"ioctl slices {sorted(got)}, no cpu_side in the report"] if got else []
    errors = []
    for t in cs["threads"]:
        mine = {k[1]: v for k, v in got.items() if k[0] == t["pid"]}
        other = None
        for r in t["ioctls"]:
            if r["cmd"] is None:
                other = r
                continue
            # a row of only ioctls not left by the file's end (count 0) has no slice
            if mine.pop(r["name"], (0, 0)) != (r["count"], r["total_ns"]):
                errors.append(f"thread {t['pid']}: {r['name']} slices "
                              f"{got.get((t['pid'], r['name']))}, the report "
                              f"{(r['count'], r['total_ns'])}")
        rest = (sum(v[0] for v in mine.values()), sum(v[1] for v in mine.values()))
        if rest != ((other["count"], other["total_ns"]) if other else (0, 0)):
            errors.append(f"thread {t['pid']}: other ioctl slices {rest}, the report {other}")
        queued = (t["to_queued"] or {}).get("jobs", 0)
        if inside.get(t["pid"], 0) != queued:
            errors.append(f"thread {t['pid']}: {inside.get(t['pid'], 0)} submits inside its "
                          f"ioctls, the report {queued} jobs queued in one")
    return errors


def check(entry, result):
    """The failed checks of one trace, and a summary of what held."""
    if "error" in result:
        return [f"the trace processor: {result['error']}"], None
    stats, hardware, groups, counts, flows, lanes, processes, group_paths, gpu, counters, \
        in_flight, gpus, kfd, nv_slices, ioctls, submits, machines = result["results"]
    sources = [(json.load(open(entry["report"])), 0)] + \
        [(json.load(open(path)), int(off)) for path, off in entry.get("also", [])]
    many = len(sources) > 1
    text = open(entry["decoded"]).read()
    want_slices = len(re.findall(r"^\s*type: TYPE_(SLICE_BEGIN|INSTANT)$", text, re.M))
    want_flows = len(set(re.findall(r"^\s*(?:terminating_)?flow_ids: (\d+)$", text, re.M)))

    errors = [f"stats: {s['name']}[{s['idx']}] = {s['value']} ({s['severity']}, {s['source']})"
              for s in stats]
    got, want, names = {}, {}, {}
    for s in hardware:
        src = s["file"] if many else None
        if s["grp"] != "GPU" or (s["file"] is None) == many:
            errors.append(f"hardware slice under {s['file']!r} > {s['grp']!r}, not "
                          f"{'a file group > ' if many else ''}GPU")
        k = (src, s["ring"], str(s["job"]))
        got.setdefault(k, []).append((s["ts"], s["ts"] + s["dur"]))
        names.setdefault(k, set()).add(s["name"])
    group_of = dict(zip((r["file"] for r, _ in sources),
                        group_names([r["file"] for r, _ in sources])))
    # each file's host as the machine its packets name (0: the trace's own)
    want_machine = dict(zip((group_of[r["file"]] if many else None for r, _ in sources),
                            entry.get("machines") or [0] * len(sources)))
    for s in hardware:
        src = s["file"] if many else None
        if (s["machine"] or 0) != want_machine.get(src, 0):
            errors.append(f"hardware slice of {src or 'the file'} on machine {s['machine']}, "
                          f"not {want_machine.get(src, 0)}")
            break
    if sorted(m["raw_id"] for m in machines) != sorted(set(want_machine.values()) | {0}):
        errors.append(f"machines {sorted(m['raw_id'] for m in machines)}, want "
                      f"{sorted(set(want_machine.values()) | {0})}")
    named = {p["pid"]: p["name"] for p in processes}
    for report, offset in sources:
        src = group_of[report["file"]] if many else None
        for j in report["jobs"]:
            if j["hw_start_ns"] is None or j["done_ns"] is None:
                continue
            k = (src, j["ring"], str(j["id"] if j["id"] is not None else j["fence"]))
            for s, e in spans_on_engine(j):
                want.setdefault(k, []).append((s + offset, e + offset))
            if j["pid"] > 0 and f"{j['comm']} {j['pid']}" not in names.get(k, ()):
                errors.append(f"job {k}: hardware slice named {sorted(names.get(k, []))}, "
                              f"not its process {j['comm']} {j['pid']}")
            # a process of its own per submitter in one file's trace, named
            if not many and j["pid"] > 0 and named.get(j["pid"]) != j["comm"]:
                errors.append(f"job {k}: process {j['pid']} named {named.get(j['pid'])!r}, "
                              f"not {j['comm']!r}")
    for k in sorted(set(got) | set(want), key=str):
        if sorted(got.get(k, [])) != sorted(want.get(k, [])):
            errors.append(f"job {k}: hardware slices {sorted(got.get(k, []))}, "
                          f"report {sorted(want.get(k, []))}")
    if many and sorted(g["file"] for g in groups) != sorted(
            group_of[r["file"]] for r, _ in sources
            if any(j["hw_start_ns"] is not None for j in r["jobs"])):
        errors.append(f"file groups {[g['file'] for g in groups]}, one per file expected")
    for g in group_paths if many else []:
        if group_of.get(g["path"]) != g["name"]:
            errors.append(f"group {g['name']!r}: description {g['path']!r}, not its file's path")
    errors += lane_order(lanes)
    errors += gpu_slices(gpu, want, many, sources, group_of)
    errors += gpu_counters(counters, in_flight, gpus, gpu, many, sources, group_of)
    if entry.get("summary"):
        errors += kfd_queues(kfd, json.load(open(entry["summary"])))
        errors += nvidia(nv_slices, json.load(open(entry["summary"])))
        errors += cpu_side(ioctls, submits, json.load(open(entry["summary"])))
    slices = counts[0]["slices"]
    if slices != want_slices:
        errors.append(f"{slices} slices read, the trace holds {want_slices} (begins and instants)")
    if len(flows) != want_flows:
        errors.append(f"{len(flows)} flows read, the trace holds {want_flows}")
    for f in flows:
        if f["out_ts"] is None or f["in_ts"] is None:
            errors.append(f"flow {f['id']} does not join two slices")
        elif f["out_ts"] > f["in_ts"]:
            errors.append(f"flow {f['id']} runs back in time ({f['out_ts']} -> {f['in_ts']})")
    return errors, (f"no import errors, {slices} slices, {sum(len(v) for v in got.values())} "
                    f"jobs on the hardware, {len(flows)} flows, {len(gpu)} GPU slices on "
                    f"{len({(g['machine'], g['gpu']) for g in gpu})} GPU(s), "
                    f"{len({c['name'] for c in counters})} GPU counters"
                    + (f", {len(kfd)} KFD probe slices" if kfd else "")
                    + (f", {sum(s['n'] for s in nv_slices)} NVIDIA slices" if nv_slices else "")
                    + (f", {sum(s['n'] for s in ioctls)} ioctl slices" if ioctls else "")
                    + (f", {len(machines)} machines" if len(machines) > 1 else ""))


def main():
    assets, manifest = sys.argv[1:3]
    entries = json.load(open(manifest))
    queries = [STATS, HARDWARE, FILE_GROUPS, COUNTS, FLOWS, LANES, PROCESSES, GROUP_PATHS, GPU,
               GPU_COUNTERS, IN_FLIGHT, GPUS, KFD, NVIDIA, CPU_IOCTLS, SUBMITS_IN_IOCTLS, MACHINES]
    try:
        results = run(assets, [{"trace": e["trace"], "queries": queries} for e in entries])
    except (RuntimeError, subprocess.TimeoutExpired) as e:
        print(f"not ok: {e}")
        return 1
    failed = 0
    for entry, result in zip(entries, results):
        errors, summary = check(entry, result)
        for e in errors[:20]:
            print(f"not ok: {entry['name']}: {e}")
        if errors:
            failed += 1
        else:
            print(f"ok: {entry['name']}: {summary}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
