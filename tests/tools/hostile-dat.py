#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""hostile-dat.py KIND IN OUT: a crafted copy of the trace-cmd file IN, as a
hostile sender or a damaged disk would make it; prints what it did, exit 2
when IN is not a file it can make KIND of.

KIND (v6 and v7 unless said):
  field:EVENT:FIELD:offset=N[,size=M]
        the format of EVENT (any system) places FIELD at N (and M bytes);
        v6 only: the formats are rewritten and every offset after them moved
        by whole pages (convert the result for v7)
  printfmt:EVENT:TEXT
        EVENT's print fmt replaced by TEXT (v6 only, as field:)
  overlap:A:B       CPU B's data range made CPU A's (offset and size)
  chunks:CPU:N      (zstd v7) CPU's chunk count lowered to N
  ts-back:CPU:PAGE  page PAGE of CPU (counting pages that hold data) stamped
                    at a thousandth of the CPU's first page's: its time steps back
  ts-wrap:CPU:PAGE[:NS]
                    the same page stamped 2^64 - NS (default 1000) ns: its
                    records wrap past 2^64 (those within NS of the stamp do not)
  bomb:CPUS:PAGE_KB:PAGES[:same]
        (zstd v7) the top buffer made CPUS CPUs of PAGE_KB pages, each with
        one chunk of PAGES pages of zeros (a few bytes of zstd each); with
        :same every CPU names one chunk. Appended at the end of the file with
        a new options section; the old BUFFER and CPUCOUNT options masked.
"""
import re
import struct
import subprocess
import sys
import tempfile
import os

MAGIC = b"\x17\x08\x44tracing"
MASKED = 0x4758          # an id no reader knows (lib/dat/dat-format.h DAT_OPT_MASKED)


def fail(msg):
    print("hostile-dat: " + msg, file=sys.stderr)
    sys.exit(2)


def zstd(args, data):
    with tempfile.NamedTemporaryFile(delete=False) as f:
        f.write(data)
        name = f.name
    try:
        return subprocess.run(["zstd", "-q", "-c", *args, name], capture_output=True,
                              check=True).stdout
    finally:
        os.unlink(name)


class Reader:
    def __init__(self, d, at):
        self.d, self.at = d, at

    def take(self, n):
        v = self.d[self.at:self.at + n]
        if len(v) != n:
            fail("truncated input")
        self.at += n
        return v

    def u(self, n):
        return int.from_bytes(self.take(n), "little")

    def cstr(self):
        end = self.d.index(b"\0", self.at)
        v = self.d[self.at:end]
        self.at = end + 1
        return v


def version(d):
    if d[:10] != MAGIC:
        fail("not a trace-cmd file")
    return int(d[10:d.index(b"\0", 10)])


def header_end(d):
    """offset after magic, version, endian, long size and page size"""
    return d.index(b"\0", 10) + 1 + 6


def page_size(d):
    return struct.unpack_from("<I", d, header_end(d) - 4)[0]


# ---- v6: the whole header parsed, so it can be rewritten -------------------

def v6_parse(d):
    r = Reader(d, header_end(d))
    h = {"head": d[:r.at], "sections": []}
    out = h["sections"]
    out.append(("str", r.cstr()))                # header_page
    out.append(("blob8", r.take(r.u(8))))
    out.append(("str", r.cstr()))                # header_event
    out.append(("blob8", r.take(r.u(8))))
    n = r.u(4)
    out.append(("u32", n))
    for _ in range(n):
        out.append(("format", r.take(r.u(8))))
    nsys = r.u(4)
    out.append(("u32", nsys))
    for _ in range(nsys):
        out.append(("str", r.cstr()))
        n = r.u(4)
        out.append(("u32", n))
        for _ in range(n):
            out.append(("format", r.take(r.u(8))))
    out.append(("blob4", r.take(r.u(4))))        # kallsyms
    out.append(("blob4", r.take(r.u(4))))        # printk
    out.append(("blob8", r.take(r.u(8))))        # cmdlines
    h["nr_cpus"] = r.u(4)
    tag = r.take(10)
    h["options"] = []
    if tag == b"options  \0":
        while True:
            oid = r.u(2)
            if oid == 0:
                break
            h["options"].append([oid, r.take(r.u(4))])
        tag = r.take(10)
    if tag != b"flyrecord\0":
        fail("not a flyrecord file")
    h["cpus"] = [[r.u(8), r.u(8)] for _ in range(h["nr_cpus"])]
    h["meta_end"] = r.at        # the clock block follows; kept as it is
    return h


def v6_write(d, h):
    out = bytearray(h["head"])
    for kind, v in h["sections"]:
        if kind == "str":
            out += v + b"\0"
        elif kind == "u32":
            out += struct.pack("<I", v)
        elif kind == "blob4":
            out += struct.pack("<I", len(v)) + v
        else:
            out += struct.pack("<Q", len(v)) + v
    out += struct.pack("<I", h["nr_cpus"])
    if h["options"]:
        out += b"options  \0"
        for oid, data in h["options"]:
            out += struct.pack("<HI", oid, len(data)) + data
        out += struct.pack("<H", 0)
    out += b"flyrecord\0"
    table = len(out)
    out += b"\0" * (16 * h["nr_cpus"])
    # the clock block and the padding up to the first data
    first = min([o for o, s in h["cpus"] if s] + [len(d)])
    out += d[h["meta_end"]:first]
    ps = page_size(d)
    shift = -(-(len(out) - first) // ps) * ps if len(out) > first else 0
    out += b"\0" * (first + shift - len(out))
    out += d[first:]
    for i, (o, s) in enumerate(h["cpus"]):
        struct.pack_into("<QQ", out, table + 16 * i, o + shift if s else o, s)
    # v6 BUFFER options point at an instance's flyrecord table past the data
    for oid, data in h["options"]:
        if oid == 3 and len(data) >= 8:
            fail("v6 buffer instances are not rewritten (yet): use a file without")
    return bytes(out)


def edit_format(d, event, edit):
    """every format named EVENT passed through edit(text) -> text"""
    if version(d) != 6:
        fail("formats are edited in v6 files (convert the result for v7)")
    h = v6_parse(d)
    done = False
    for i, (kind, text) in enumerate(h["sections"]):
        if kind != "format" or not re.search(rb"^name: %s$" % re.escape(event.encode()), text, re.M):
            continue
        h["sections"][i] = (kind, edit(text))
        done = True
    if not done:
        fail("no format named %s" % event)
    return v6_write(d, h)


def printfmt_kind(d, event, fmt):
    def edit(text):
        new = b"print fmt: " + fmt.encode()
        return re.sub(rb"^print fmt: .*$", lambda m: new, text, count=1, flags=re.M)
    out = edit_format(d, event, edit)
    print("%s: print fmt: %s" % (event, fmt))
    return out


def field_kind(d, event, field, setting):
    want = dict(kv.split("=") for kv in setting.split(","))

    def edit(text):
        pat = re.compile(rb"(field:[^;]*[ *]%s(\[[^;]*\])?;\s*offset:)(\d+)(;\s*size:)(\d+)" %
                         re.escape(field.encode()))
        m = pat.search(text)
        if not m:
            fail("%s has no field %s" % (event, field))
        off = want.get("offset", m.group(3).decode()).encode()
        size = want.get("size", m.group(5).decode()).encode()
        return text[:m.start()] + m.group(1) + off + m.group(4) + size + text[m.end():]
    out = edit_format(d, event, edit)
    print("%s.%s: %s" % (event, field, setting))
    return out


# ---- v7: options sections walked in place ----------------------------------

def v7_options(d):
    """[(offset of the option's id, id, data)] of every options section, and the DONE ids"""
    r = Reader(d, header_end(d))
    comp = r.cstr()
    r.cstr()
    nxt = r.u(8)
    opts, dones = [], []
    while nxt:
        sid, flags, _, size = struct.unpack_from("<HHIQ", d, nxt)
        if sid != 0:
            break
        if flags & 1:
            fail("compressed options sections are not edited")
        at, end, nxt = nxt + 16, nxt + 16 + size, 0
        while at < end:
            oid, osize = struct.unpack_from("<HI", d, at)
            if oid == 0:
                dones.append(at)
                nxt = struct.unpack_from("<Q", d, at + 6)[0]
                break
            opts.append((at, oid, d[at + 6:at + 6 + osize]))
            at += 6 + osize
    return comp.decode(), opts, dones


def v7_top_cpus(d):
    """(offset of the top buffer's CPU table in the file, [(cpu, offset, size)])"""
    _, opts, _ = v7_options(d)
    for at, oid, data in opts:
        if oid != 3:
            continue
        r = Reader(data, 8)
        if r.cstr() != b"":
            continue
        r.cstr()
        r.u(4)
        n = r.u(4)
        table = at + 6 + r.at
        return table, [(r.u(4), r.u(8), r.u(8)) for _ in range(n)]
    fail("no top buffer option")


def cpu_table(d):
    """[(position of the u64 offset, u64 size pair in the file, offset, size)] per CPU"""
    if version(d) == 6:
        h = v6_parse(d)
        table = h["meta_end"] - 16 * h["nr_cpus"]
        return [(table + 16 * i, o, s) for i, (o, s) in enumerate(h["cpus"])]
    table, cpus = v7_top_cpus(d)
    return [(table + 20 * i + 4, o, s) for i, (_, o, s) in enumerate(cpus)]


def overlap(d, a, b):
    t = cpu_table(d)
    if max(a, b) >= len(t):
        fail("no CPU %d" % max(a, b))
    d = bytearray(d)
    struct.pack_into("<QQ", d, t[b][0], t[a][1], t[a][2])
    print("CPU %d's data range made CPU %d's (%d bytes at %d)" % (b, a, t[a][2], t[a][1]))
    return bytes(d)


def chunks(d, cpu, n):
    if version(d) != 7:
        fail("chunks: needs a v7 file")
    t = cpu_table(d)
    d = bytearray(d)
    old = struct.unpack_from("<I", d, t[cpu][1])[0]
    if n >= old:
        fail("CPU %d has %d chunks" % (cpu, old))
    struct.pack_into("<I", d, t[cpu][1], n)
    print("CPU %d: chunk count %d -> %d" % (cpu, old, n))
    return bytes(d)


def cpu_pages(d, cpu):
    """(where each page is: (chunk offset or None, offset in its plain bytes), plain bytes per chunk)"""
    t = cpu_table(d)
    ps = page_size(d)
    _, off, size = t[cpu]
    if version(d) == 6:
        return [(None, off + i) for i in range(0, size, ps)], {}
    n = struct.unpack_from("<I", d, off)[0]
    at, pages, plain = off + 4, [], {}
    for _ in range(n):
        zsize = struct.unpack_from("<I", d, at)[0]
        plain[at] = bytearray(zstd(["-d"], d[at + 8:at + 8 + zsize]))
        pages += [(at, i) for i in range(0, len(plain[at]), ps)]
        at += 8 + zsize
    return pages, plain


def restamp(d, cpu, page, stamp):
    """page `page` of those that hold data on CPU `cpu` gets stamp(first page's stamp)"""
    pages, plain = cpu_pages(d, cpu)
    d = bytearray(d)

    def buf(p):
        return d if p[0] is None else plain[p[0]]
    full = [p for p in pages if struct.unpack_from("<Q", buf(p), p[1] + 8)[0] & ((1 << 27) - 1)]
    if page >= len(full) or page < 1:
        fail("CPU %d has %d pages with data, no page %d past the first" % (cpu, len(full), page))
    first = struct.unpack_from("<Q", buf(full[0]), full[0][1])[0]
    p = full[page]
    old = struct.unpack_from("<Q", buf(p), p[1])[0]
    new = stamp(first)
    struct.pack_into("<Q", buf(p), p[1], new)
    if p[0] is not None:
        zsize = struct.unpack_from("<I", d, p[0])[0]
        packed = zstd(["--ultra", "-22", "--no-check"], bytes(plain[p[0]]))
        if len(packed) > zsize:
            fail("the chunk does not compress into its old size")
        pad = zsize - len(packed)
        if pad and pad < 8:
            fail("no room for a skippable frame")
        skip = struct.pack("<II", 0x184D2A50, pad - 8) + b"\0" * (pad - 8) if pad else b""
        d[p[0] + 8:p[0] + 8 + zsize] = packed + skip
    print("CPU %d page %d: stamp %d -> %d" % (cpu, page, old, new))
    return bytes(d)


def bomb(d, nr, page_kb, pages, same):
    comp, opts, dones = v7_options(d)
    if comp != "zstd" or not dones:
        fail("bomb: needs a zstd v7 file")
    ps = page_kb << 10
    frame = zstd(["-19", "--no-check"], bytes(ps * pages))
    out = bytearray(d)
    # the page size the header states, and every options' BUFFER and CPUCOUNT masked
    struct.pack_into("<I", out, header_end(d) - 4, ps)
    for at, oid, _ in opts:
        if oid in (3, 8):
            struct.pack_into("<H", out, at, MASKED)
    # a flyrecord section of their own: readers walk the sections from the header
    chunk = struct.pack("<III", 1, len(frame), ps * pages) + frame
    copies = 1 if same else nr
    # each CPU's data at a 4 KB boundary, as libtracecmd maps it
    sect = len(out)
    body = bytearray()
    places = []
    start = sect + 16
    for i in range(copies):
        body += b"\0" * (-(start + len(body)) % 4096)
        places.append(start + len(body))
        body += chunk
    out += struct.pack("<HHIQ", 3, 1, 0xffffffff, len(body)) + body      # flags 1: compressed
    # the BUFFER option: its section, name, clock, page size, CPUs
    buf = struct.pack("<Q", sect) + b"\0" + b"mono\0" + struct.pack("<II", ps, nr)
    for i in range(nr):
        buf += struct.pack("<IQQ", i, places[0 if same else i], len(chunk) - 4)
    body = struct.pack("<HI", 8, 4) + struct.pack("<I", nr)
    body += struct.pack("<HI", 3, len(buf)) + buf
    body += struct.pack("<HIQ", 0, 8, 0)
    sect = len(out)
    out += struct.pack("<HHIQ", 0, 0, 0xffffffff, len(body)) + body
    struct.pack_into("<Q", out, dones[-1] + 6, sect)
    print("%d CPUs of %d KB pages, each a chunk of %d pages of zeros (%d bytes of zstd)%s" %
          (nr, page_kb, pages, len(frame), ", all one chunk" if same else ""))
    return bytes(out)


def main():
    if len(sys.argv) != 4:
        fail("usage: hostile-dat.py KIND IN OUT")
    kind, src, dst = sys.argv[1:]
    d = open(src, "rb").read()
    a = kind.split(":")
    if a[0] == "field" and len(a) == 4:
        out = field_kind(d, a[1], a[2], a[3])
    elif a[0] == "printfmt" and len(a) >= 3:
        out = printfmt_kind(d, a[1], ":".join(a[2:]))
    elif a[0] == "overlap" and len(a) == 3:
        out = overlap(d, int(a[1]), int(a[2]))
    elif a[0] == "chunks" and len(a) == 3:
        out = chunks(d, int(a[1]), int(a[2]))
    elif a[0] == "ts-back" and len(a) == 3:
        out = restamp(d, int(a[1]), int(a[2]), lambda first: max(first // 1000, 1))
    elif a[0] == "ts-wrap" and len(a) in (3, 4):
        ns = int(a[3]) if len(a) == 4 else 1000
        out = restamp(d, int(a[1]), int(a[2]), lambda first: (1 << 64) - ns)
    elif a[0] == "bomb" and len(a) in (4, 5):
        out = bomb(d, int(a[1]), int(a[2]), int(a[3]), len(a) == 5 and a[4] == "same")
    else:
        fail("unknown kind %s" % kind)
    with open(dst, "wb") as f:
        f.write(out)
    return 0


sys.exit(main())
