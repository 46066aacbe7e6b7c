#!/bin/sh
# Holds a deleted file of 21 MiB in FOLDER (its `write` path) whose last
# reference is a descriptor in flight in a socket message (`SCM_RIGHTS`,
# sent on a socketpair and never received): no descriptor table shows it.
# The file is sent empty, written through a mapping once its descriptor
# is closed (so no table ever shows it full), and unmapped. Says on
# stderr whether the message was sent, then plays honest moves a second
# later with the socketpair still open. Outside review, round five (b04):
# 200 MiB held under a 20 MiB write-size, both games played to the end.
# usage: inflight.sh MARKER TESTBOT FOLDER
exec python3 -c '
import array, ctypes, mmap, os, socket, sys, time
testbot, folder = sys.argv[1:3]
size = 21 << 20
a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
path = os.path.join(folder, "inflight-%d" % os.getpid())
fd = os.open(path, os.O_CREAT | os.O_RDWR, 0o600)
os.unlink(path)
os.ftruncate(fd, size)
try:
    a.sendmsg([b"x"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [fd]))])
    said = "inflight: 21 MiB held in flight in a socket message"
except OSError as e:
    said = "inflight: sendmsg refused: %s" % e
# Mapped through the C library: the mmap module keeps a copy of the descriptor.
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t] + [ctypes.c_int] * 3 + [ctypes.c_long]
libc.msync.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
view = libc.mmap(None, size, mmap.PROT_READ | mmap.PROT_WRITE, mmap.MAP_SHARED, fd, 0)
os.close(fd)
ctypes.memset(view, 1, size)
libc.msync(view, size, 4)  # MS_SYNC
libc.munmap(view, size)
for s in (a, b):
    os.set_inheritable(s.fileno(), True)
    s.detach()
sys.stderr.write(said + "\n")
sys.stderr.flush()
time.sleep(1)
os.execv(testbot, [testbot, "random", "--seed", "27"])
' "$2" "$3"
