#!/usr/bin/env python3
# GPU-typed ioctls with no GPU: the numbers of DRM, KFD and NVIDIA ioctls on
# /dev/null, which answers ENOTTY, but whose sys_enter_ioctl/sys_exit_ioctl the
# kernel traces as it would a GPU driver's. Counts per thread as asked:
#   gpu-ioctls.py DRM KFD NV TTY   (the main thread: AMDGPU_CS's number DRM
#   times, AMDKFD_IOC_CREATE_QUEUE's KFD times, NV_ESC_RM_CONTROL's NV times;
#   a second thread TCGETS TTY times: not a GPU ioctl)
import fcntl
import os
import sys
import threading

AMDGPU_CS = 0xC0186444
KFD_CREATE_QUEUE = 0xC0604B02
NV_RM_CONTROL = 0xC020462A
TCGETS = 0x5401


def call(fd, cmd, times):
    buf = bytearray(128)
    for _ in range(times):
        try:
            fcntl.ioctl(fd, cmd, buf)
        except OSError:
            pass


drm, kfd, nv, tty = (int(a) for a in sys.argv[1:5])
fd = os.open("/dev/null", os.O_RDONLY)
other = threading.Thread(target=call, args=(fd, TCGETS, tty))
other.start()
call(fd, AMDGPU_CS, drm)
call(fd, KFD_CREATE_QUEUE, kfd)
call(fd, NV_RM_CONTROL, nv)
other.join()
print(os.getpid(), threading.get_native_id(), flush=True)
