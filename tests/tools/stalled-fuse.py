#!/usr/bin/env python3
# A FUSE server that never answers, mounted over PATH (a file or a directory):
# whoever enters the mount waits until this process dies, as a hostile
# user's server (mounted with allow_other) can make root wait. Prints its pid
# once mounted, then holds the connection until killed.
#   stalled-fuse.py PATH
import ctypes
import os
import signal
import stat
import sys

path = sys.argv[1]
mode = os.lstat(path).st_mode
root = 0o40000 if stat.S_ISDIR(mode) else 0o100000
fd = os.open("/dev/fuse", os.O_RDWR)
libc = ctypes.CDLL(None, use_errno=True)
opts = "fd=%d,rootmode=%o,user_id=0,group_id=0,allow_other" % (fd, root)
if libc.mount(b"gpu-trace-test", path.encode(), b"fuse", 0, opts.encode()):
    err = ctypes.get_errno()
    sys.exit("stalled-fuse: cannot mount on %s: %s" % (path, os.strerror(err)))
print(os.getpid(), flush=True)
# never read /dev/fuse: INIT stays unanswered, every request waits
while True:
    signal.pause()
