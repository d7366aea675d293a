#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""compress-options.py FILE: rewrite a zstd trace-cmd v7 file's first options
section as a compressed one (the section flag, u32 compressed size, u32 size,
the zstd frame), in place and padded to its old size, so no offset moves.
Exit 2 when the file is not one it can rewrite so."""
import os
import struct
import subprocess
import sys
import tempfile


def cstr(data, at):
    end = data.index(b"\0", at)
    return data[at:end].decode(), end + 1


def main():
    path = sys.argv[1]
    data = bytearray(open(path, "rb").read())
    if data[:3] != b"\x17\x08D" or data[10:12] != b"7\0":
        print("compress-options: not a v7 file", file=sys.stderr)
        return 2
    compression, at = cstr(data, 18)
    _, at = cstr(data, at)
    if compression != "zstd":
        print("compress-options: not zstd", file=sys.stderr)
        return 2
    section = struct.unpack_from("<Q", data, at)[0]
    sid, flags, _, size = struct.unpack_from("<HHIQ", data, section)
    if sid != 0 or flags & 1:
        print("compress-options: the first section is not plain options", file=sys.stderr)
        return 2
    body = bytes(data[section + 16:section + 16 + size])
    with tempfile.NamedTemporaryFile(delete=False) as f:
        f.write(body)
    try:
        packed = subprocess.run(["zstd", "-q", "-c", "-19", "--no-check", f.name],
                                capture_output=True, check=True).stdout
    finally:
        os.unlink(f.name)
    if 8 + len(packed) > size:
        print("compress-options: the section does not compress smaller", file=sys.stderr)
        return 2
    struct.pack_into("<H", data, section + 2, flags | 1)
    block = struct.pack("<II", len(packed), len(body)) + packed
    data[section + 16:section + 16 + size] = block + b"\0" * (size - len(block))
    open(path, "wb").write(data)
    print(f"options section at {section}: {size} bytes compressed to {len(packed)}")
    return 0


sys.exit(main())
