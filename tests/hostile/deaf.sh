#!/bin/sh
# Shrinks its stdin pipe to one page and stops reading after `aboure 1`:
# the arbiter's next write (the large option it was told to set, then
# `isready`) can never complete (needs python3).
# usage: deaf.sh MARKER TESTBOT
exec python3 -c '
import fcntl, os, sys, time
F_SETPIPE_SZ = 1031
try:
    fcntl.fcntl(0, F_SETPIPE_SZ, 4096)
except OSError as e:
    print(f"cannot shrink stdin: {e}", file=sys.stderr)
os.read(0, 9)
print(f"id name deaf {sys.argv[1]}")
print("option name Book type string default none")
print("aboureok", flush=True)
while True:
    time.sleep(1)
' "$@"
