#!/bin/sh
# Watches FOLDER (which it may search but not list) with inotify for a
# second and prints the names it learned on stderr (needs python3), then
# plays honest moves.
# usage: inotify.sh MARKER TESTBOT FOLDER
python3 - "$3" >&2 <<'PY'
import ctypes, os, select, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
fd = libc.inotify_init1(os.O_NONBLOCK)
if fd < 0:
    print("inotify: refused:", os.strerror(ctypes.get_errno()))
    sys.exit()
if libc.inotify_add_watch(fd, sys.argv[1].encode(), 0x100) < 0:  # IN_CREATE
    print("inotify: refused:", os.strerror(ctypes.get_errno()))
    sys.exit()
names = []
if select.select([fd], [], [], 1.0)[0]:
    data = os.read(fd, 65536)
    while data:
        _, _, _, size = struct.unpack("iIII", data[:16])
        names.append(data[16:16 + size].rstrip(b"\0").decode())
        data = data[16 + size:]
print("inotify: watched:", " ".join(names))
PY
exec "$2" random --seed 19
