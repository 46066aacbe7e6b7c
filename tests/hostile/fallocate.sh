#!/bin/sh
# Claims 2 GiB of disk in FOLDER (its `write` path) in one call that
# writes nothing: `fallocate(FALLOC_FL_KEEP_SIZE)`, the file's size left at
# 0, then the same through `ioctl` (`FS_IOC_RESVSP64`, `FS_IOC_ZERO_RANGE`).
# Says on stderr how each went and what `posix_fallocate` of 1 MiB did
# (with the call refused, the C library would write the bytes, after
# asking `fstatfs` for the block size), then plays honest moves.
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
# The same through ioctl: FS_IOC_RESVSP64 and FS_IOC_ZERO_RANGE, whose
# argument is a struct space_resv (whence, start, length: 2 GiB).
import struct
resv = struct.pack("hhqqiI4i", 0, 0, 0, 2 << 30, 0, 0, 0, 0, 0, 0)
for name, cmd in (("resvsp64", 0x4030582A), ("zero-range", 0x40305839)):
    fd = os.open(os.path.join(folder, "%s-%d" % (name, os.getpid())), os.O_CREAT | os.O_RDWR | os.O_TRUNC, 0o600)
    buf = ctypes.create_string_buffer(resv, len(resv))
    if libc.ioctl(fd, ctypes.c_ulong(cmd), buf) == 0:
        print("ioctl %s: done, %d MiB on disk" % (name, os.fstat(fd).st_blocks // 2048))
    else:
        e = ctypes.get_errno()
        print("ioctl %s: refused (%s)" % (name, errno.errorcode.get(e, e)))
fd = os.open(os.path.join(folder, "posix-%d" % os.getpid()), os.O_CREAT | os.O_RDWR | os.O_TRUNC, 0o600)
try:
    os.posix_fallocate(fd, 0, 1 << 20)
    print("posix_fallocate: %d bytes" % os.fstat(fd).st_size)
except OSError as e:
    print("posix_fallocate: refused (%s)" % errno.errorcode.get(e.errno, e.errno))
PY
exec "$2" random --seed 28
