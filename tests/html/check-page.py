#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-page.py PAGE.html REPORT.json SCREENSHOT.png [--hover] [--also REPORT.json:OFFSET_NS ...]
                 [--tip KIND:LABEL:T_NS:TEXT ...] [--text ELEMENT_ID:TEXT ...]
                 [--lanes RING:N ...] [--zoom FROM_NS:TO_NS:ZOOM.png] [--hosts LABEL=FILE,...;...]
                 [--ioctls N]

Opens a page from `gpu-trace report --format html` in headless Chromium as a
person would (a file:// URL, network off), driven over the DevTools protocol
on a pipe (no library needed): checks that the page drew every ring and job
of the JSON report, that no console error or exception occurred, that no
request left the page, and with --hover that moving the mouse over a known
job's hardware bar shows that job's stages; saves a screenshot.
A page of several files: --also names each further file's JSON report and the
offset it was moved by (report a.dat b.dat --ts-offset ...); every file's
rings and jobs must be drawn in its own group, and the hover goes to the last
file's job at its moved time. --tip moves the mouse over the row of that kind
and label at absolute time T_NS and expects TEXT in the tooltip (a HIP line);
--text expects TEXT in the element of that id (the rings' workload lines); a
TEXT ending in $ is what the element's text ends with.
--lanes expects the ring's queue strip to have N lanes (one per job queued at
once). --zoom views FROM..TO (ns after the trace's start), expects every tick
label there to differ (the precision follows the zoom) and saves that view as
ZOOM.png. --ioctls expects N jobs' ioctls decoded on the page, each as the JSON
report has it (name, thread, entry, entered -> queued and its split), and at
least one drawn in its process's row. --hosts expects the page's host groups, in order, each a header row
of that label followed by the rows of exactly those files (given as the page
names them, ';' between hosts).
Prints "ok: ..." or "not ok: ..." lines; exits 1 on any failure.
"""
import base64
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time


class Browser:
    def __init__(self):
        exe = shutil.which("chromium") or shutil.which("chromium-browser")
        if not exe:
            raise RuntimeError("chromium is not installed")
        self.profile = tempfile.mkdtemp(prefix="gt-chromium-")
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()
        # fd 3: commands in, fd 4: answers out, as --remote-debugging-pipe wants
        self.proc = subprocess.Popen(
            [exe, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             f"--user-data-dir={self.profile}", "--no-first-run", "--disable-extensions",
             "--disable-background-networking", "--disable-sync", "--proxy-server=127.0.0.1:9",
             "--proxy-bypass-list=<-loopback>", "--window-size=1400,1000", "about:blank"],
            pass_fds=(3, 4), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=lambda: (os.dup2(to_chrome_r, 3), os.dup2(from_chrome_w, 4)))
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.session = None

    def send(self, method, params=None, session=True, timeout=30):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.to_chrome, json.dumps(msg).encode() + b"\0")
        return self.wait(lambda m: m.get("id") == self.next_id, timeout)

    def wait(self, pred, timeout):
        end = time.time() + timeout
        while True:
            for m in self.events:
                if pred(m):
                    self.events.remove(m)
                    if "error" in m:
                        raise RuntimeError(f"devtools: {m['error']}")
                    return m
            left = end - time.time()
            if left <= 0:
                raise RuntimeError("devtools: timed out")
            r, _, _ = select.select([self.from_chrome], [], [], left)
            if r:
                chunk = os.read(self.from_chrome, 1 << 20)
                if not chunk:
                    raise RuntimeError("chromium exited")
                self.buf += chunk
                while b"\0" in self.buf:
                    raw, self.buf = self.buf.split(b"\0", 1)
                    self.events.append(json.loads(raw))

    def close(self):
        try:
            self.send("Browser.close", session=False, timeout=5)
        except RuntimeError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def main():
    page, report_path, shot = sys.argv[1:4]
    hover = "--hover" in sys.argv
    report = json.load(open(report_path))
    sources = [(report, 0)]
    for k, arg in enumerate(sys.argv):
        if arg == "--also":
            path, off = sys.argv[k + 1].rsplit(":", 1)
            sources.append((json.load(open(path)), int(off)))
    errors = []
    b = Browser()
    try:
        target = b.send("Target.createTarget", {"url": "about:blank"}, session=False)
        att = b.send("Target.attachToTarget", {"targetId": target["result"]["targetId"],
                                               "flatten": True}, session=False)
        b.session = att["result"]["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            b.send(f"{domain}.enable")
        t0 = time.time()
        b.send("Page.navigate", {"url": "file://" + os.path.abspath(page)})
        b.wait(lambda m: m.get("method") == "Page.loadEventFired", 300)
        load_s = time.time() - t0

        def js(expr):
            r = b.send("Runtime.evaluate", {"expression": expr, "returnByValue": True}, timeout=120)
            return r["result"]["result"].get("value")

        status = js("window.gtStatus") or {}
        # the V8 heap and the array buffers' backing stores (kept outside it):
        # as the load left them, and what the page keeps after a collection
        usage = b.send("Runtime.getHeapUsage").get("result", {})
        loaded = usage.get("usedSize", 0) + usage.get("backingStorageSize", 0)
        b.send("HeapProfiler.collectGarbage", timeout=120)
        usage = b.send("Runtime.getHeapUsage").get("result", {})
        memory = usage.get("usedSize", 0)
        buffers = usage.get("backingStorageSize", 0)
        errors += check_drawn(status, sources)
        if status.get("errors"):
            errors.append(f"page errors: {status['errors'][:3]}")
        if hover:
            errors += check_hover(b, js, sources, status.get("mode") == "density")
        for k, arg in enumerate(sys.argv):
            if arg == "--tip":
                kind, label, t, text = sys.argv[k + 1].split(":", 3)
                pos = js(f"""(() => {{
                    const row = window.gtLayout.find(l => l.kind === {json.dumps(kind)} && l.label === {json.dumps(label)});
                    if (!row) return null;
                    const c = document.getElementById("gt-canvas").getBoundingClientRect();
                    window.scrollTo(0, 0);
                    return {{ x: c.left + window.gtX({t} - window.gtT0), y: c.top + row.y + row.h / 2 }};
                }})()""")
                if not pos:
                    errors.append(f"no {kind} row labelled {label!r}")
                    continue
                b.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": pos["x"], "y": pos["y"]})
                tip = tip_text(js)
                if text not in tip:
                    errors.append(f"the tooltip at {label} {t} shows {tip!r}, not {text!r}")
        for k, arg in enumerate(sys.argv):
            if arg == "--text":
                elem, text = sys.argv[k + 1].split(":", 1)
                shown = js(f"(document.getElementById({json.dumps(elem)}) || {{}}).textContent || ''")
                # a final $: the element's text ends with it
                if (not shown.endswith(text[:-1]) if text.endswith("$") else text not in shown):
                    errors.append(f"#{elem} shows {shown[:200]!r}, not {text!r}")
        for k, arg in enumerate(sys.argv):
            if arg == "--lanes":
                ring, want = sys.argv[k + 1].rsplit(":", 1)
                got = js(f"""(() => {{
                    const row = window.gtLayout.find(l => l.kind === "ring" && l.label === {json.dumps(ring)});
                    return row ? window.gtLanes[row.r] : null;
                }})()""")
                if got != int(want):
                    errors.append(f"ring {ring} has {got} queue lanes, not {want}")
        for k, arg in enumerate(sys.argv):
            if arg == "--ioctls":
                errors += check_ioctls(js("window.gtIoctls()") or [], js("window.gtStatus") or {},
                                       sources, int(sys.argv[k + 1]))
        for k, arg in enumerate(sys.argv):
            if arg == "--hosts":
                errors += check_hosts(js("window.gtLayout.map(l => [l.kind, l.label])") or [],
                                      status, sys.argv[k + 1])
        shot_data = b.send("Page.captureScreenshot", {"format": "png"}, timeout=120)
        with open(shot, "wb") as f:
            f.write(base64.b64decode(shot_data["result"]["data"]))
        for k, arg in enumerate(sys.argv):
            if arg == "--zoom":
                lo, hi, zshot = sys.argv[k + 1].split(":", 2)
                js(f"window.scrollTo(0, 0); window.gtZoom({lo}, {hi})")
                ticks = js("window.gtStatus.ticks") or []
                if len(ticks) < 3 or len(set(ticks)) != len(ticks):
                    errors.append(f"zoomed to {lo}..{hi} ns the ticks read {ticks}")
                zdata = b.send("Page.captureScreenshot", {"format": "png"}, timeout=120)
                with open(zshot, "wb") as f:
                    f.write(base64.b64decode(zdata["result"]["data"]))
                print(f"ticks at {lo}..{hi} ns: {' '.join(ticks)}")
        for m in b.events:
            method = m.get("method", "")
            if method == "Runtime.exceptionThrown":
                errors.append("exception: " + m["params"]["exceptionDetails"].get("text", "?"))
            elif method == "Runtime.consoleAPICalled" and m["params"]["type"] == "error":
                errors.append("console error: " + json.dumps(m["params"]["args"])[:200])
            elif method == "Log.entryAdded" and m["params"]["entry"]["level"] == "error":
                errors.append("log error: " + m["params"]["entry"].get("text", "")[:200])
            elif method == "Network.requestWillBeSent":
                url = m["params"]["request"]["url"]
                if not url.startswith(("file:", "data:", "about:")):
                    errors.append(f"the page asked the network for {url}")
    finally:
        b.close()
    for e in errors:
        print("not ok:", e)
    if errors:
        return 1
    print(f"ok: {len(status['rings'])} rings, {status['jobs']} jobs, mode {status['mode']}, "
          f"loaded in {load_s:.2f} s, JS memory {loaded / 1048576:.1f} MB after the load, "
          f"kept {memory / 1048576:.1f} MB heap + {buffers / 1048576:.1f} MB array buffers, "
          f"page ms {status.get('ms')}")
    return 0


def check_hosts(layout, status, spec):
    """The page's host groups as spec ("LABEL=FILE,FILE;LABEL=FILE") says:
    a header row per host in that order, then its files' source rows."""
    want = [(h.split("=", 1)[0], h.split("=", 1)[1].split(",")) for h in spec.split(";")]
    got, host = [], None
    for kind, label in layout:
        if kind == "host":
            host = (label, [])
            got.append(host)
        elif kind == "source":
            if host is None:
                return [f"file row {label!r} before any host row"]
            host[1].append(label)
    # a source row's label is its file, and how far it was moved
    got = [(h, [f.split(" (moved ")[0] for f in files]) for h, files in got]
    errors = []
    if got != want:
        errors.append(f"host groups {got}, not {want}")
    if [h["label"] for h in status.get("hosts", [])] != [h for h, _ in want]:
        errors.append(f"status.hosts {status.get('hosts')}")
    return errors


def check_ioctls(got, status, sources, want_n):
    """Each job's ioctl on the page as its file's JSON report says it (the
    page's jobs are every file's, in order); past 2.1 s a time is in us."""
    want, base = [], 0
    for report, _ in sources:
        for k, j in enumerate(report["jobs"]):
            if j.get("ioctl"):
                want.append((base + k, j["ioctl"]))
        base += len(report["jobs"])
    if len(want) != want_n:
        return [f"the JSON reports have {len(want)} jobs' ioctls, the test expects {want_n}"]
    if len(got) != len(want):
        return [f"the page decoded {len(got)} jobs' ioctls, the reports have {len(want)}"]
    errors = []
    for g, (job, w) in zip(got, want):
        fields = ["enter_ns", "to_queued_ns", "on_cpu_ns", "runnable_ns", "sleeping_ns", "irq_ns"]
        same = g["job"] == job and g["name"] == w["name"] and g["tid"] == w["tid"] and all(
            g[f] == w[f] if w[f] < 1 << 31 or f == "enter_ns" else g[f] == w[f] // 1000 * 1000
            for f in fields)
        if not same:
            errors.append(f"job {job}'s ioctl on the page {g}, the report's {w}")
            break
    if want and not status.get("ioctlsDrawn"):
        errors.append("no ioctl drawn in a process row")
    return errors


def check_drawn(status, sources):
    """Every file's rings and jobs on the page, each file in its own group."""
    errors = []
    total = sum(len(r["jobs"]) for r, _ in sources)
    if len(sources) == 1:
        want_rings = sorted({j["ring"] for j in sources[0][0]["jobs"]})
        if sorted(status.get("rings", [])) != want_rings:
            errors.append(f"rings drawn {status.get('rings')}, the report has {want_rings}")
    else:
        got = status.get("sources", [])
        if len(got) != len(sources):
            return [f"the page has {len(got)} files, given {len(sources)}"]
        for k, ((r, off), g) in enumerate(zip(sources, got)):
            want_rings = sorted({j["ring"] for j in r["jobs"]})
            if sorted(g["rings"]) != want_rings or g["jobs"] != len(r["jobs"]) or g["offset_ns"] != off:
                errors.append(f"file {k} ({r['file']}) drawn as {g}, its report has rings {want_rings}, "
                              f"{len(r['jobs'])} jobs, offset {off}")
    if status.get("jobs") != total:
        errors.append(f"the page holds {status.get('jobs')} jobs, the reports {total}")
    if status.get("mode") == "jobs" and status.get("drawn", 0) < total:
        errors.append(f"{status.get('drawn')} jobs drawn of {total}")
    return errors


def check_hover(b, js, sources, density):
    """The mouse over the middle of the longest finished job's hardware bar
    (of the last file, at its moved time); on a page too full to draw jobs,
    first the density column (exact counts), then zoomed in on the job."""
    src = len(sources) - 1
    report, offset = sources[src]
    jobs = [j for j in report["jobs"] if j["hw_start_ns"] and j["done_ns"]]
    if not jobs:
        return ["no finished job to hover"]
    j = max(jobs, key=lambda j: j["done_ns"] - j["hw_start_ns"])
    key = j["id"] if j["id"] is not None else j["fence"]
    t0 = min(r["first_ns"] + off for r, off in sources if r["last_ns"])
    mid = (j["hw_start_ns"] + j["done_ns"]) / 2 + offset - t0
    errors = []
    if density:
        pos = where(js, j, mid, src)
        b.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": pos["x"], "y": pos["y"]})
        tip = tip_text(js)
        if "jobs started on the hardware" not in tip or "busy" not in tip:
            errors.append(f"hover over the density view shows {tip!r}")
        span = j["done_ns"] - j["hw_start_ns"]
        js(f"window.gtZoom({mid - 20 * span}, {mid + 20 * span})")
        if js("window.gtStatus.mode") != "jobs":
            errors.append("zoomed in to 40 jobs' time, the page still draws density")
    pos = where(js, j, mid, src)
    b.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": pos["x"], "y": pos["y"]})
    tip = tip_text(js)
    exec_us = (j["done_ns"] - j["hw_start_ns"]) / 1e3
    # a preempted request's time on the engine is less than its start to done: the page says both
    if j["latency_ns"]["exec"] is not None and j["latency_ns"]["exec"] < j["done_ns"] - j["hw_start_ns"]:
        exec_us = j["latency_ns"]["exec"] / 1e3
    # the report's own stage names
    want = [f"job {key}", f"exec          {exec_us:.3f} us" if exec_us < 1e3 else "exec",
            "queue->run", "run->hw start"]
    missing = [w for w in want if w not in tip]
    if missing:
        errors.append(f"hover over {j['ring']} job {key} shows {tip!r}, missing {missing}")
    return errors


def tip_text(js):
    return js("document.getElementById('gt-tip').style.display === 'block' ? "
              "document.getElementById('gt-tip').textContent : ''") or ""


def where(js, j, mid, src):
    """The page coordinates of time mid on the job's ring's hardware band."""
    return js(f"""(() => {{
        const row = window.gtLayout.find(l => l.kind === "ring" && l.src === {src} &&
                                               l.label === {json.dumps(j['ring'])});
        const c = document.getElementById("gt-canvas").getBoundingClientRect();
        window.scrollTo(0, 0);
        return {{ x: c.left + window.gtX({mid}), y: c.top + row.y + window.gtHwTop(row.r) + 5 }};
    }})()""")


if __name__ == "__main__":
    try:
        sys.exit(main())
    except RuntimeError as e:
        print("not ok:", e)
        sys.exit(1)
