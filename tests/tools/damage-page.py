#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""damage-page.py FILE CPU PAGE: make page PAGE of CPU CPU claim more data
than a page holds, in place; damage-page.py FILE CPU bomb:MB: (zstd v7) make
the CPU's first chunk a frame of MB megabytes of zeros, which claims as much;
damage-page.py FILE CPU long: (zstd v7) make the CPU's second chunk its last,
claiming the rest of the CPU's data as its compressed bytes: more than zstd
makes of a chunk where the CPU has several more. In a v6 file the page's commit is set past the
page. In a zstd v7 file, in the chunk holding the page: the chunk is decompressed
(zstd), the page's commit set, recompressed smaller and padded to its old
size with a zstd skippable frame, so no offset in the file moves. Prints
what it did; exit 2 when the file is not one it can damage so (no such CPU
or page, a chunk that will not shrink).
"""
import os
import re
import struct
import subprocess
import sys
import tempfile


def cpu_data(path):
    out = subprocess.run(["trace-cmd", "dump", "--options", "-i", path],
                         capture_output=True, text=True).stdout
    cpus, page_size = {}, None
    for line in out.splitlines():
        m = re.match(r"\s*(\d+) \[Page size, bytes\]", line)
        if m and page_size is None:
            page_size = int(m.group(1))
        m = re.match(r"\s*(\d+)\s+(\d+)\s+(\d+)\s+\[id, data offset and size\]", line)
        if m:
            cpus.setdefault(int(m.group(1)), (int(m.group(2)), int(m.group(3))))
    return cpus, page_size


def zstd(args, data):
    with tempfile.NamedTemporaryFile(delete=False) as f:
        f.write(data)
        name = f.name
    try:
        return subprocess.run(["zstd", "-q", "-c", *args, name], capture_output=True,
                              check=True).stdout
    finally:
        os.unlink(name)


def v6_cpu_data(path):
    out = subprocess.run(["trace-cmd", "dump", "--flyrecord", "-i", path],
                         capture_output=True, text=True).stdout
    return {int(m.group(3)): (int(m.group(1)), int(m.group(2)))
            for m in re.finditer(r"(\d+)\s+(\d+)\s+\[offset, size of cpu (\d+)\]", out)}


def damage_v6(path, cpu, page):
    cpus = v6_cpu_data(path)
    with open(path, "rb") as f:
        head = f.read(64)
    page_size = struct.unpack_from("<I", head, 14)[0]   # magic 10, "6\0", endian, long size
    if cpu not in cpus or (page + 1) * page_size > cpus[cpu][1]:
        print(f"damage-page: CPU {cpu} has no page {page}", file=sys.stderr)
        return 2
    with open(path, "r+b") as f:
        f.seek(cpus[cpu][0] + page * page_size + 8)
        f.write(struct.pack("<Q", page_size * 4))
    print(f"CPU {cpu} page {page}: commit {page_size * 4} (page {page_size})")
    return 0


def bomb(path, cpu, mb):
    cpus, _ = cpu_data(path)
    if cpu not in cpus:
        print(f"damage-page: no CPU {cpu} in {path}", file=sys.stderr)
        return 2
    offset = cpus[cpu][0]
    packed = zstd(["--ultra", "-22", "--no-check"], bytes(mb << 20))
    with open(path, "r+b") as f:
        f.seek(offset)
        _, zsize, _ = struct.unpack("<III", f.read(12))
        if len(packed) + 8 > zsize:
            print(f"damage-page: {mb} MB of zeros take {len(packed)} bytes, the chunk {zsize}",
                  file=sys.stderr)
            return 2
        pad = zsize - len(packed) - 8
        f.seek(offset + 8)
        f.write(struct.pack("<I", mb << 20) + packed + struct.pack("<II", 0x184D2A50, pad) + b"\0" * pad)
    print(f"CPU {cpu}'s first chunk: {mb} MB of zeros in {len(packed)} bytes")
    return 0


def long_chunk(path, cpu):
    cpus, _ = cpu_data(path)
    if cpu not in cpus:
        print(f"damage-page: no CPU {cpu} in {path}", file=sys.stderr)
        return 2
    offset, size = cpus[cpu]
    with open(path, "r+b") as f:
        f.seek(offset)
        count, first = struct.unpack("<II", f.read(8))
        second = offset + 4 + 8 + first
        if count < 3:
            print(f"damage-page: CPU {cpu} has {count} chunks", file=sys.stderr)
            return 2
        f.seek(offset)
        f.write(struct.pack("<I", 2))
        f.seek(second)
        f.write(struct.pack("<I", offset + size - second - 8))
    print(f"CPU {cpu}'s second chunk: {offset + size - second - 8} compressed bytes claimed")
    return 0


def main():
    if sys.argv[3] == "long":
        return long_chunk(sys.argv[1], int(sys.argv[2]))
    if sys.argv[3].startswith("bomb:"):
        return bomb(sys.argv[1], int(sys.argv[2]), int(sys.argv[3][5:]))
    path, cpu, page = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    with open(path, "rb") as f:
        if f.read(13)[10:11] == b"6":
            return damage_v6(path, cpu, page)
    cpus, page_size = cpu_data(path)
    if cpu not in cpus or not page_size:
        print(f"damage-page: no CPU {cpu} in {path}", file=sys.stderr)
        return 2
    offset, size = cpus[cpu]
    with open(path, "r+b") as f:
        f.seek(offset)
        count = struct.unpack("<I", f.read(4))[0]
        chunk, first = offset + 4, page
        # the chunk that holds the page: each holds its plain size in pages
        for n in range(count):
            f.seek(chunk)
            zsize, plain_size = struct.unpack("<II", f.read(8))
            if page < plain_size // page_size:
                break
            page -= plain_size // page_size
            chunk += 8 + zsize
        else:
            print(f"damage-page: CPU {cpu} has no page {first}", file=sys.stderr)
            return 2
        offset = chunk - 4      # as if the chunk were the first: the writes below are relative
        frame = f.read(zsize)
        plain = bytearray(zstd(["-d"], frame))
        if len(plain) != plain_size or (page + 1) * page_size > len(plain):
            print(f"damage-page: CPU {cpu}'s chunk has no page {page}", file=sys.stderr)
            return 2
        at = page * page_size + 8
        struct.pack_into("<Q", plain, at, page_size * 4)
        packed = zstd(["--ultra", "-22", "--no-check"], bytes(plain))
        if len(packed) + 8 > zsize:
            print("damage-page: the damaged chunk does not compress smaller", file=sys.stderr)
            return 2
        pad = zsize - len(packed) - 8
        skippable = struct.pack("<II", 0x184D2A50, pad) + b"\0" * pad
        f.seek(offset + 12)
        f.write(packed + skippable)
    print(f"CPU {cpu} page {first}: commit {page_size * 4} (page {page_size}); chunk {zsize} bytes kept")
    return 0


sys.exit(main())
