#!/bin/sh
# Tries to evict the pages of a shared file it may only read (FILE, which
# the test has read into memory: posix_fadvise DONTNEED, madvise
# PAGEOUT), and to learn which of its pages are in memory without reading
# them (preadv2 with RWF_NOWAIT, cachestat, the kernel's asynchronous I/O);
# says on stderr what each did, then plays honest moves.
# usage: pagecache.sh MARKER TESTBOT FILE
python3 - "$3" <<'PY' >&2
import ctypes, errno, mmap, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def said(name, result):
    if result < 0:
        print(f"pagecache: {name}: refused ({errno.errorcode[ctypes.get_errno()]})", flush=True)
    else:
        print(f"pagecache: {name}: {result}", flush=True)
fd = os.open(sys.argv[1], os.O_RDONLY)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
print("pagecache: fadvise dontneed: done", flush=True)
size = os.fstat(fd).st_size
with mmap.mmap(fd, size, prot=mmap.PROT_READ) as m:
    m.madvise(21)  # MADV_PAGEOUT
    print("pagecache: madvise pageout: done", flush=True)
try:
    os.preadv(fd, [bytearray(1)], 0, os.RWF_NOWAIT)
    print("pagecache: nowait read: in memory", flush=True)
except BlockingIOError:
    print("pagecache: nowait read: not in memory", flush=True)
except OSError as e:
    print(f"pagecache: nowait read: refused ({errno.errorcode[e.errno]})", flush=True)
stat = (ctypes.c_uint64 * 5)()
span = (ctypes.c_uint64 * 2)(0, size)
said("cachestat", libc.syscall(451, fd, span, stat, 0))
context = ctypes.c_ulong(0)
said("io_setup", libc.syscall(206, 1, ctypes.byref(context)))
PY
exec "$2" random --seed 23
