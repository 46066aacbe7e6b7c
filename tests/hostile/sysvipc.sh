#!/bin/sh
# Leaves SysV IPC behind for the kernel's threads to tear down (a shared
# memory segment detached but not removed, message queues), as an outside
# attack did with 32 segments of 64 MiB and 8,000 queues; says on stderr
# the limits of its IPC namespace, whether a segment it detached is still
# there, and how many queues it could make, then plays honest moves.
# usage: sysvipc.sh MARKER TESTBOT
python3 - <<'PY' >&2
import ctypes, errno
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
IPC_PRIVATE, IPC_CREAT, IPC_STAT = 0, 0o1000, 2
for name in ("shm_rmid_forced", "msgmni", "sem"):
    with open(f"/proc/sys/kernel/{name}") as f:
        print(f"sysvipc: {name}: {' '.join(f.read().split())}", flush=True)
size = 64 << 20
shm = libc.shmget(IPC_PRIVATE, ctypes.c_size_t(size), IPC_CREAT | 0o600)
at = libc.shmat(shm, None, 0)
ctypes.memset(at, 0x5A, size)
libc.shmdt(ctypes.c_void_p(at))
stat = ctypes.create_string_buffer(256)
kept = libc.shmctl(shm, IPC_STAT, stat) == 0
print(f"sysvipc: detached segment: {'kept' if kept else 'gone'}", flush=True)
queues = 0
while queues < 1000:
    if libc.msgget(IPC_PRIVATE, IPC_CREAT | 0o600) < 0:
        break
    queues += 1
print(f"sysvipc: queues made: {queues}", flush=True)
PY
exec "$2" random --seed 23
