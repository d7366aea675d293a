#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""fake-hip.py N [--plant]: stands in for a HIP program under record --hip-log.

Writes, where the runtime would (AMD_LOG_LEVEL_FILE + "_" + pid), lines in the
runtime's own formats, stamped as the runtime stamps them (CLOCK_MONOTONIC
microseconds): a line without a header first (it has no time: left out), a
queue creation, then N times a ShaderName and an AQL dispatch, an enqueued and
a completed command, one continuation line; after each step's lines it calls
getppid(), which the kernel traces (syscalls:sys_enter_getppid). Prints the
order it did things in, "H <what>" for a line and "G" for getppid, and the
log variables it was given, so that a test can check where record put every
line. --plant: also leaves a symlink and a hard link to files that are not
the runtime's in the log directory (record must not read them). --linger S:
waits S seconds once its file is there, before its first line (a real HIP
program lives that long at least; record looks at a file's writer while it
runs).
"""
import os
import sys
import time

n = int(sys.argv[1])
base = os.environ["AMD_LOG_LEVEL_FILE"]
pid = os.getpid()
order = []


def us():
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000


def hdr(level, file, line):
    return ":%d:%-25s:%-4d: %010d us: [pid:%d tid: 0x%05x] " % (level, file, line, us(), pid, 0x1abcd)


if "--plant" in sys.argv:
    os.symlink("/etc/passwd", base + "_1")
    try:
        os.link("/etc/passwd", base + "_2")
    except OSError:
        pass
print("env", os.environ.get("AMD_LOG_LEVEL"), os.environ.get("AMD_LOG_MASK"), flush=True)
print("logdir", os.path.dirname(base), flush=True)
with open("%s_%d" % (base, pid), "a") as f:
    def step(lines, what):
        for line in lines:
            f.write(line + "\n")
        f.flush()
        order.append("H " + what)
        os.getppid()
        order.append("G")
        time.sleep(0.002)

    if "--linger" in sys.argv:
        f.flush()
        time.sleep(float(sys.argv[sys.argv.index("--linger") + 1]))
    f.write("a line the runtime printed without its header\n")
    step([hdr(3, "rocdevice.cpp", 1234) + "Created SWq=0x7f1000000000 to map on HWq=0x7f2000000000 "
          "with size 16384 with priority 1, cooperative: 0"], "queue")
    for i in range(n):
        step([hdr(4, "rocvirtual.cpp", 3121) + "ShaderName : gemm_kernel_%d" % (i % 2),
              hdr(4, "rocvirtual.cpp", 905) + "SWq=0x7f1000000000, HWq=0x7f2000000000, id=%d, "
              "Dispatch Header = 0xb02 (type=2, barrier=1, acquire=1, release=1), setup=3, "
              "grid=[4096, 1, 1], workgroup=[256, 1, 1], private_seg_size=0, group_seg_size=0, "
              "kernel_obj=0x7f3000000000, kernarg_address=0x7f4000000000, completion_signal=0x0, "
              "correlation_id=%d, rptr=%d, wptr=%d" % (i, i, i, i + 1)], "dispatch %d" % i)
    step([hdr(4, "command.cpp", 350) + "Command (KernelExecution) enqueued: 0x55aa00",
          "  a continuation line of the message above"], "enqueued")
    step([hdr(4, "command.cpp", 400) + "Command 0x55aa00 complete (Wall: 120, CPU: 3, GPU: 117 us)"],
         "complete")
print("order", " | ".join(order), flush=True)
