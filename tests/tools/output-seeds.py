#!/usr/bin/env python3
# output-seeds.py MAKE_FIXTURE FORMATS_DIR OUT_DIR: seed inputs for
# tests/fuzz/fuzz-output.c, made from the fixture scenarios: for each of its
# command lines one byte, A's length (u32 LE), A (a fixture .dat) and B (the
# HIP log of tests/fuzz/text-seeds/hip-lines for --hip-log, else a second
# fixture). Each command line gets the "escapes" scenario (terminal escapes in
# comm and ring names) and one other, so every output meets hostile strings.
import os
import struct
import subprocess
import sys
import tempfile

NR_COMMANDS = 22          # the entries of commands[] in fuzz-output.c
HIP_LOG_COMMANDS = (10, 11)

make_fixture, formats, out = sys.argv[1:4]
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, '..', 'fuzz', 'text-seeds', 'hip-lines'), 'rb') as f:
    hip_log = f.read()[1:]     # its first byte is fuzz-text's selector
names = [l.split()[0] for l in subprocess.run([make_fixture, formats, 'list'], check=True,
                                               capture_output=True, text=True).stdout.splitlines()]
os.makedirs(out, exist_ok=True)
dats = {}
with tempfile.TemporaryDirectory() as tmp:
    for n in names:
        path = os.path.join(tmp, n + '.dat')
        subprocess.run([make_fixture, formats, n, path], check=True, capture_output=True)
        with open(path, 'rb') as f:
            dats[n] = f.read()
others = [n for n in names if n != 'escapes']
for cmd in range(NR_COMMANDS):
    for k, a in enumerate(('escapes', others[cmd % len(others)])):
        b = hip_log if cmd in HIP_LOG_COMMANDS else dats[others[(cmd + 1) % len(others)]]
        with open(os.path.join(out, '%02d-%s' % (cmd, a)), 'wb') as f:
            f.write(bytes([cmd]) + struct.pack('<I', len(dats[a])) + dats[a] + b)
print('%d seeds in %s' % (NR_COMMANDS * 2, out))
