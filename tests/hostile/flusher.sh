#!/bin/sh
# Leaves 32 MiB of dirty pages in a file of its write folder (DIR) and
# asks the kernel to write back every filesystem's dirty pages (`sync`)
# and its folder's filesystem's (`syncfs`): work the kernel's flusher
# threads do, outside every group of the bot's. Says on stderr what each
# call returned, then plays honest moves.
# usage: flusher.sh MARKER TESTBOT DIR
python3 - "$3" <<'PY' >&2
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
# Written over in place, never truncated: ext4 starts writing back a file
# truncated and written again when it is closed.
fd = os.open(os.path.join(sys.argv[1], "dirty"), os.O_WRONLY | os.O_CREAT, 0o644)
with os.fdopen(fd, "wb") as f:
    f.write(b"\x5a" * (32 << 20))
    f.flush()
    libc.sync()
    print("flusher: sync: returned", flush=True)
    folder = os.open(sys.argv[1], os.O_RDONLY)
    print(f"flusher: syncfs: {libc.syncfs(folder)}", flush=True)
PY
exec "$2" random --seed 23
