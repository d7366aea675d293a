#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""late-timens.py BEHIND DELAY COMMAND...: unshare -T --fork, slowly.

Makes a time namespace for its children (unshare(CLONE_NEWTIME)), waits DELAY
seconds, then sets its CLOCK_MONOTONIC BEHIND seconds back and runs COMMAND
in it. unshare(1) does the same steps without the wait, so a look at
/proc/PID/timens_offsets between its first two finds a new namespace whose
offset is still 0; here that window is DELAY seconds wide, so that a test can
check record takes the offset the namespace ends with. The offsets can be set
until a process enters the namespace: the fork freezes them.
"""
import ctypes
import os
import sys
import time

CLONE_NEWTIME = 0x80

behind, delay, argv = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3:]
libc = ctypes.CDLL(None, use_errno=True)
if libc.unshare(CLONE_NEWTIME):
    sys.exit("late-timens: unshare(CLONE_NEWTIME): " + os.strerror(ctypes.get_errno()))
time.sleep(delay)
with open("/proc/self/timens_offsets", "w") as f:
    f.write("monotonic -%d 0\n" % behind)
pid = os.fork()
if pid == 0:
    try:
        os.execvp(argv[0], argv)
    finally:
        os._exit(127)
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") else status >> 8)
