#!/bin/sh
# Claims 2 GiB of disk in FOLDER (its `write` path) in one call that
# writes nothing: `fallocate(FALLOC_FL_KEEP_SIZE)`, the file's size left at
# 0. Says on stderr how it went and what `posix_fallocate` of 1 MiB did
# (with the call refused, the C library writes the bytes instead), then
# plays honest moves.
# usage: fallocate.sh MARKER TESTBOT FOLDER
python3 - "$3" >&2 <<'PY'
import ctypes, errno, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.fallocate.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_long, ctypes.c_long]
folder = sys.argv[1]
fd = os.open(os.path.join(folder, "claim-%d" % os.getpid()), os.O_CREAT | os.O_RDWR | os.O_TRUNC, 0o600)
if libc.fallocate(fd, 1, 0, 2 << 30) == 0:  # FALLOC_FL_KEEP_SIZE
    print("fallocate keep-size: done, %d MiB on disk" % (os.fstat(fd).st_blocks // 2048))
else:
    e = ctypes.get_errno()
    print("fallocate keep-size: refused (%s)" % errno.errorcode.get(e, e))
fd = os.open(os.path.join(folder, "posix-%d" % os.getpid()), os.O_CREAT | os.O_RDWR | os.O_TRUNC, 0o600)
os.posix_fallocate(fd, 0, 1 << 20)
print("posix_fallocate: %d bytes" % os.fstat(fd).st_size)
PY
exec "$2" random --seed 28
