#!/bin/sh
# Tries to hold memory as stack, which a per-process limit on private
# memory would not count: 256 MiB mapped to grow down (MAP_GROWSDOWN),
# every page touched; its own stack's mapping enlarged by 256 MiB in
# place (mremap) and touched; then its stack limit raised to 256 MiB; says
# on stderr what it got, then plays honest moves.
# usage: stack.sh MARKER TESTBOT
python3 - <<'PY' >&2
import ctypes, errno, mmap, resource
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
SIZE = 256 << 20
flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | 0x0100  # MAP_GROWSDOWN
at = libc.mmap(None, SIZE, mmap.PROT_READ | mmap.PROT_WRITE, flags, -1, 0)
if at in (None, ctypes.c_void_p(-1).value):
    print(f"stack: growsdown refused ({errno.errorcode[ctypes.get_errno()]})", flush=True)
else:
    ctypes.memset(at, 1, SIZE)
    print("stack: growsdown touched 256 MiB", flush=True)
libc.mremap.restype = ctypes.c_void_p
libc.mremap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_int]
for line in open("/proc/self/maps"):
    if line.rstrip().endswith("[stack]"):
        lo, hi = (int(x, 16) for x in line.split()[0].split("-"))
grown = libc.mremap(lo, hi - lo, hi - lo + SIZE, 0)
if grown in (None, ctypes.c_void_p(-1).value):
    print(f"stack: mremap refused ({errno.errorcode[ctypes.get_errno()]})", flush=True)
else:
    ctypes.memset(hi, 1, SIZE)
    print("stack: mremap touched 256 MiB", flush=True)
soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
print(f"stack: hard limit {'unlimited' if hard < 0 else hard >> 20}", flush=True)
try:
    resource.setrlimit(resource.RLIMIT_STACK, (SIZE, max(hard, SIZE) if hard >= 0 else hard))
    print("stack: raised to 256 MiB", flush=True)
except (OSError, ValueError) as e:
    print(f"stack: raise refused ({e})", flush=True)
PY
exec "$2" random --seed 24
