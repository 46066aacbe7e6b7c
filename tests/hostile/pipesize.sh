#!/bin/sh
# Tries to make its stdout pipe 1 MiB (`fcntl(F_SETPIPE_SZ)`), as an
# outside attack did to leave a mebibyte of empty lines at each `bestmove`
# for the arbiter to read while it was held; says on stderr what the call
# returned and the pipe's size after it, then plays honest moves.
# usage: pipesize.sh MARKER TESTBOT
python3 - <<'PY' >&2
import errno, fcntl
try:
    fcntl.fcntl(1, 1031, 1 << 20)  # F_SETPIPE_SZ
    print("pipesize: set: done", flush=True)
except OSError as e:
    print(f"pipesize: set: refused ({errno.errorcode[e.errno]})", flush=True)
print(f"pipesize: size: {fcntl.fcntl(1, 1032)}", flush=True)  # F_GETPIPE_SZ
PY
exec "$2" random --seed 23
