#!/bin/sh
# In FOLDER (its `write` path), makes the files `xattr`, `setattr` and
# `ioctl` (mode 0600) and tries to tag them through calls newer than the
# seccomp layer's first lists: `setxattrat` (463, a `user.` attribute),
# `file_setattr` (469, the no-dump flag) and `FS_IOC_SETFLAGS` (no-dump);
# then calls numbers no kernel has yet (1000) or has not on this
# architecture (400). Says on stderr how each went, then plays honest moves.
# usage: attrs.sh MARKER TESTBOT FOLDER
python3 - "$3" >&2 <<'PY'
import ctypes, errno, fcntl, os, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def call(nr, *args):
    # Every argument a whole register: a Python int alone passes as a C int.
    return libc.syscall(ctypes.c_long(nr), *(a if isinstance(a, (bytes, ctypes.Array)) else ctypes.c_long(a) for a in args))
folder = sys.argv[1]
def made(name):
    path = os.path.join(folder, name)
    os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    return path.encode()
def report(name, result):
    e = ctypes.get_errno()
    print(f"{name}: " + ("done" if result == 0 else f"refused ({errno.errorcode.get(e, e)})"))
AT_FDCWD = -100
value = b"tagged"
# struct xattr_args { u64 value; u32 size; u32 flags; }
args = ctypes.create_string_buffer(struct.pack("=QII", ctypes.cast(ctypes.c_char_p(value), ctypes.c_void_p).value, len(value), 0))
report("setxattrat", call(463, AT_FDCWD, made("xattr"), 0, b"user.aboure", args, 16))
# struct file_attr { u64 fa_xflags; u32 extsize, nextents, projid, cowextsize; }, FS_XFLAG_NODUMP
attr = ctypes.create_string_buffer(struct.pack("=QIIII", 0x80, 0, 0, 0, 0))
report("file_setattr", call(469, AT_FDCWD, made("setattr"), attr, 24, 0))
fd = os.open(made("ioctl"), os.O_RDONLY)
try:
    fcntl.ioctl(fd, 0x40086602, struct.pack("=l", 0x40))  # FS_IOC_SETFLAGS, FS_NODUMP_FL
    print("ioctl setflags: done")
except OSError as e:
    print(f"ioctl setflags: refused ({errno.errorcode.get(e.errno, e.errno)})")
for nr in (1000, 400):
    report(f"call {nr}", call(nr, 0, 0, 0, 0, 0, 0))
PY
exec "$2" random --seed 27
