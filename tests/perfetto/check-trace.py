#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-trace.py DECODED.txt REPORT.json [--also REPORT.json:OFFSET_NS ...]:
is a Perfetto trace from `gpu-trace report --format perfetto` what a Perfetto
importer needs, and does it say what the report says?

DECODED.txt is `protoc --decode=gt.Trace tests/perfetto/trace.proto` of the
trace; REPORT.json is `gpu-trace report --jobs --format json` of the same .dat.
A trace of several files (report a.dat b.dat --ts-offset ...): --also names
each further file's report and the offset it was moved by; every file's tracks
must sit in one group named after it (tests/perfetto/file_groups.py), its
description the file's path, its slices at the report's times moved
by the offset.
Prints one line per failed check and "ok: ..." when all hold; exits 1 on any
failure.
"""
import codecs
import json
import re
import sys

from file_groups import group_names


def parse_text(text):
    """protoc's text format into nested dicts of lists."""
    root, stack = {}, []
    cur = root
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if line.endswith("{"):
            node = {}
            cur.setdefault(line[:-1].strip(), []).append(node)
            stack.append(cur)
            cur = node
        elif line == "}":
            cur = stack.pop()
        else:
            key, value = line.split(":", 1)
            value = value.strip()
            if value.startswith('"'):
                # protobuf text format: C escapes, bytes as octal (\033); UTF-8 inside
                value = codecs.escape_decode(value[1:-1])[0].decode("utf-8", "replace")
            elif re.fullmatch(r"-?\d+", value):
                value = int(value)
            elif re.fullmatch(r"-?[\d.e+-]+", value):
                value = float(value)
            cur.setdefault(key, []).append(value)
    return root


def one(node, key, default=None):
    return node.get(key, [default])[0]


def main():
    trace = parse_text(open(sys.argv[1]).read())
    sources = [(json.load(open(sys.argv[2])), 0)]
    for k, arg in enumerate(sys.argv):
        if arg == "--also":
            path, off = sys.argv[k + 1].rsplit(":", 1)
            sources.append((json.load(open(path)), int(off)))
    many = len(sources) > 1
    errors = []
    packets = trace.get("packet", [])
    names, arg_names, tracks, events = {}, {}, {}, []
    for n, p in enumerate(packets):
        for data in p.get("interned_data", []):
            names.update({one(e, "iid"): one(e, "name") for e in data.get("event_names", [])})
            arg_names.update({one(e, "iid"): one(e, "name")
                              for e in data.get("debug_annotation_names", [])})
        for td in p.get("track_descriptor", []):
            uuid = one(td, "uuid")
            # a second descriptor only to name a track first written without a name
            # (a ring known by its address until an event names it), the rest the same
            if uuid in tracks and (one(tracks[uuid], "name") is not None or one(td, "name") is None or
                                   {k: v for k, v in td.items() if k != "name"} != tracks[uuid]):
                errors.append(f"track {uuid} described twice")
            tracks[uuid] = td
        for te in p.get("track_event", []):
            if not (one(p, "sequence_flags", 0) & 2) or not names:
                errors.append(f"packet {n}: an event before the interned names or without SEQ_NEEDS_INCREMENTAL_STATE")
            events.append((one(p, "timestamp"), n, te))
    if one(packets[0], "sequence_flags", 0) != 1 if packets else True:
        errors.append("the first packet does not clear the sequence's incremental state")
    for uuid, td in tracks.items():
        parent = one(td, "parent_uuid")
        if parent is not None and parent not in tracks:
            errors.append(f"track {one(td, 'name')} has an undescribed parent {parent}")

    def track_path(uuid):
        path = []
        while uuid is not None:
            path.insert(0, one(tracks[uuid], "name"))
            uuid = one(tracks[uuid], "parent_uuid")
        return path

    # nesting per track, in time order (file order among equal times)
    stacks, slices, flows = {}, [], {}
    for ts, n, te in sorted(events, key=lambda e: (e[0], e[1])):
        uuid = one(te, "track_uuid")
        if uuid not in tracks:
            errors.append(f"packet {n}: event on an undescribed track {uuid}")
            continue
        if one(te, "name_iid") is not None and one(te, "name_iid") not in names:
            errors.append(f"packet {n}: name_iid {one(te, 'name_iid')} not interned")
        args = {}
        for da in te.get("debug_annotations", []):
            key = arg_names.get(one(da, "name_iid")) if "name_iid" in da else one(da, "name")
            if key is None:
                errors.append(f"packet {n}: annotation name {one(da, 'name_iid')} not interned "
                              "and no name of its own")
            args[key] = next(v[0] for k, v in da.items() if k.endswith("_value"))
        for f in te.get("flow_ids", []):
            flows.setdefault(f, [0, 0, ts, ts])[0] += 1
            flows[f][2] = ts
        for f in te.get("terminating_flow_ids", []):
            flows.setdefault(f, [0, 0, ts, ts])[1] += 1
            flows[f][3] = ts
        kind = one(te, "type")
        name = names.get(one(te, "name_iid")) or one(te, "name")
        stack = stacks.setdefault(uuid, [])
        if kind == "TYPE_SLICE_BEGIN":
            s = {"ts": ts, "name": name, "args": args, "track": uuid, "children": [],
                 "ends_flows": te.get("terminating_flow_ids", []), "depth": len(stack)}
            if stack:
                stack[-1]["children"].append(s)
            stack.append(s)
            slices.append(s)
        elif kind == "TYPE_SLICE_END":
            if not stack:
                errors.append(f"packet {n}: a slice end on {track_path(uuid)} with no slice open")
                continue
            stack.pop()["end"] = ts
        elif kind in ("TYPE_INSTANT", "TYPE_COUNTER"):
            if kind == "TYPE_COUNTER" and "counter" not in tracks[uuid]:
                errors.append(f"packet {n}: a counter value on a track that is not a counter")
        else:
            errors.append(f"packet {n}: event type {kind}")
    for uuid, stack in stacks.items():
        if stack:
            errors.append(f"{track_path(uuid)}: {len(stack)} slices never end")
    for s in slices:
        if s.get("end", s["ts"]) < s["ts"]:
            errors.append(f"{track_path(s['track'])}: slice {s['name']} ends before it begins")
    for f, (starts, ends, begin, finish) in flows.items():
        if starts != 1 or ends != 1:
            errors.append(f"flow {f}: {starts} starts, {ends} ends (one of each expected)")
        elif begin > finish:
            errors.append(f"flow {f} ends at {finish}, before it starts at {begin}: "
                          "Perfetto orders a flow by time and would turn it round")

    group_of = dict(zip((r["file"] for r, _ in sources),
                        group_names([r["file"] for r, _ in sources])))
    if many:
        tops = sorted(one(td, "name") for td in tracks.values() if one(td, "parent_uuid") is None)
        if tops != sorted(group_of.values()):
            errors.append(f"top-level tracks {tops}, one group per file expected "
                          f"({sorted(group_of.values())})")
        for td in tracks.values():
            if one(td, "parent_uuid") is None and one(td, "description") not in group_of:
                errors.append(f"group {one(td, 'name')}: description {one(td, 'description')!r}, "
                              "not the file's path")
        if any("thread" in td for td in tracks.values()):
            errors.append("a thread track in a trace of several files: Perfetto merges equal pids of different hosts")
    hw, queued = {}, {}
    for s in slices:
        path = track_path(s["track"])
        if s["depth"]:
            continue
        src, path = (path[0], path[1:]) if many else (None, path)
        if len(path) == 3 and path[0] == "GPU" and path[2] == "hardware":
            hw.setdefault((src, path[1], str(s["args"].get("job"))), []).append(s)
        if len(path) == 3 and path[0] == "GPU" and path[2].startswith("queued "):
            queued.setdefault((src, path[1], str(s["args"].get("job"))), []).append(s)
    want_hw, want_queued = {}, {}
    for report, offset in sources:
        errors += check_jobs(report, offset, group_of[report["file"]] if many else None, hw,
                             queued, want_hw, want_queued)
    for k in set(want_hw) | set(hw):
        got = sorted((s["ts"], s.get("end")) for s in hw.get(k, []))
        if got != sorted(want_hw.get(k, [])):
            errors.append(f"job {k}: hardware slices {got}, report {sorted(want_hw.get(k, []))}")
    for k in set(want_queued) | set(queued):
        got = sorted(s["ts"] for s in queued.get(k, []))
        if got != sorted(want_queued.get(k, [])):
            errors.append(f"job {k}: queued slices from {got}, report {sorted(want_queued.get(k, []))}")
    nr_hw = sum(len(v) for v in hw.values())
    for e in errors[:20]:
        print("not ok:", e)
    if errors:
        return 1
    print(f"ok: {len(packets)} packets, {len(tracks)} tracks, {len(slices)} slices, "
          f"{nr_hw} jobs on the hardware, {len(flows)} flows")
    return 0


def check_jobs(report, offset, src, hw, queued, want_hw, want_queued):
    """The report's jobs, each as its hardware slice and its queued slice
    (times moved by the file's offset); fills want_* for the caller."""
    errors = []
    for j in report["jobs"]:
        k = (src, j["ring"], str(j["id"] if j["id"] is not None else j["fence"]))
        if j.get("hw_stints"):
            # a preempted job: a hardware slice per stint on the engine
            for s, e in j["hw_stints"]:
                want_hw.setdefault(k, []).append((s + offset, e + offset))
        elif j["hw_start_ns"] is not None and j["done_ns"] is not None:
            want_hw.setdefault(k, []).append((j["hw_start_ns"] + offset, j["done_ns"] + offset))
        # waiting from the queue, or from the run for a job that never finished
        start = j["queue_ns"] if j["queue_ns"] is not None else \
            j["run_ns"] if j["hw_start_ns"] is None else None
        if start is None:
            continue
        start += offset
        want_queued.setdefault(k, []).append(start)
        got = [s for s in queued.get(k, []) if s["ts"] == start]
        if len(got) != 1:
            continue        # counted by the caller
        if not j["dep_unknown"] and j["hw_start_ns"] is not None:
            on_hw = [s for s in hw.get(k, []) if s["ts"] == j["hw_start_ns"] + offset]
            ends = len(got[0]["ends_flows"]) + sum(len(s["ends_flows"]) for s in on_hw[:1])
            deps = ends - (1 if j["pid"] > 0 else 0)
            if deps != len(j["dep_fences"]):
                errors.append(f"job {k}: {deps} dependency flows, report {len(j['dep_fences'])} dependencies")
        parts = {c["name"]: c for c in got[0]["children"]}
        lat = j["latency_ns"]
        if lat["dep_wait"]:
            d = parts.get("waiting for dependencies")
            if not d or d["end"] - d["ts"] != lat["dep_wait"]:
                errors.append(f"job {k}: dependency wait slice {d and d['end'] - d['ts']}, report {lat['dep_wait']}")
    return errors


if __name__ == "__main__":
    sys.exit(main())
