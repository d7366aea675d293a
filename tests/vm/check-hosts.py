#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Two guests are two hosts: each a fresh boot whose mono trace clock counts from its
own boot. `gpu-trace report --format perfetto` of one recording from each must put
both on one axis by their clock pairs: each file moved by its UTC offset less the
smallest, as the JSON report's utc_offset_ns gives them, and every file's first record
then on the host's UTC while its guest ran (host-utc).
  check-hosts.py RESULTS GPU_TRACE KERNEL...
"""
import json
import os
import re
import subprocess
import sys
import tempfile

results, gpu_trace, kernels = sys.argv[1], sys.argv[2], sys.argv[3:]
files = []
for k in kernels:
    f = os.path.join(results, k, "mock-chain-cmd.dat")
    if os.path.exists(f) and os.path.exists(os.path.join(results, k, "host-utc")):
        files.append((k, f))
if len(files) < 2:
    print(f"SKIP - lab hosts: fewer than two guests' recordings ({', '.join(k for k, _ in files) or 'none'})")
    print("0 passed, 0 failed, 1 skipped")
    sys.exit(0)
passed = failed = 0


def check(name, ok, why=""):
    global passed, failed
    print(("ok - " if ok else "not ok - ") + f"lab hosts: {name}" + ("" if ok else f": {why}"))
    passed += bool(ok)
    failed += not ok


offsets, windows = {}, {}
for k, f in files:
    r = subprocess.run([gpu_trace, "report", "--format", "json", f], capture_output=True, text=True)
    clock = (json.loads(r.stdout).get("host") or {}).get("clock") or {}
    offsets[f] = clock.get("utc_offset_ns")
    windows[f] = [int(x) for x in open(os.path.join(results, k, "host-utc")).read().split()]
check("each guest's recording has a clock pair", None not in offsets.values(), json.dumps(offsets))
with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "hosts.pftrace")
    r = subprocess.run([gpu_trace, "report", "--format", "perfetto", "-o", out] + [f for _, f in files],
                       capture_output=True, text=True)
moved = {m.group(1): float(m.group(2)) * 1e9
         for m in re.finditer(r"report: (\S+) \(host .*?\) on UTC from its clock pair: moved by ([0-9.]+) s",
                              r.stderr)}
check("report put every guest's file on UTC (two boots: their clocks differ)",
      r.returncode in (0, 2) and set(moved) == {f for _, f in files}, r.stderr.strip()[-300:])
if None not in offsets.values() and set(moved) == {f for _, f in files}:
    base = min(offsets.values())
    bad = [f"{f}: moved {moved[f]:.0f} ns, offsets say {offsets[f] - base}"
           for _, f in files if abs(moved[f] - (offsets[f] - base)) > 1]
    check("each file moved by its UTC offset less the smallest", not bad, "; ".join(bad))
    # one instant of UTC is one place: a record at trace time t of file i lies at t + moved_i,
    # and t + moved_i + base is UTC, which for the first record is inside its guest's run
    bad = []
    for _, f in files:
        first = json.loads(subprocess.run([gpu_trace, "report", "--format", "json", f],
                                          capture_output=True, text=True).stdout)["first_ns"]
        utc = first + moved[f] + base
        lo, hi = windows[f]
        if not lo - 2e9 <= utc <= hi + 2e9:
            bad.append(f"{f}: {utc:.0f} not in [{lo}, {hi}]")
    check("on that axis each file's first record lies where the host's clock says its guest ran",
          not bad, "; ".join(bad))
print(f"{passed} passed, {failed} failed, 0 skipped")
sys.exit(1 if failed else 0)
