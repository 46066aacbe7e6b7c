#!/bin/sh
# Tries to hold memory its memory limit would not count if that limit were
# a per-process limit on private memory alone: 512 MiB of shared anonymous
# memory, then 512 MiB in a memfd, touching every page of each; says on
# stderr what it got, then plays honest moves.
# usage: shm.sh MARKER TESTBOT
python3 - <<'PY' >&2
import mmap, os
SIZE = 512 << 20
def touch(m):
    for i in range(0, SIZE, 4096):
        m[i] = 1
try:
    m = mmap.mmap(-1, SIZE)  # MAP_SHARED | MAP_ANONYMOUS
except OSError as e:
    print("shm: shared anonymous refused:", e.strerror, flush=True)
else:
    touch(m)
    print("shm: touched 512 MiB of shared anonymous memory", flush=True)
    m.close()
try:
    fd = os.memfd_create("hoard")
except OSError as e:
    print("shm: memfd refused:", e.strerror, flush=True)
else:
    os.ftruncate(fd, SIZE)
    touch(mmap.mmap(fd, SIZE))
    print("shm: touched 512 MiB of a memfd", flush=True)
PY
exec "$2" random --seed 20
