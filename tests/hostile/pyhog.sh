#!/bin/sh
# A Python bot that handles running out of memory itself: at its first go it
# allocates until Python raises MemoryError, which it reports on stderr
# before exiting with status 1 (no signal).
# usage: pyhog.sh MARKER TESTBOT
exec python3 -c '
import sys
for line in sys.stdin:
    if line.startswith("aboure"):
        print("id name pyhog " + sys.argv[1]); print("aboureok", flush=True)
    elif line.startswith("isready"):
        print("readyok", flush=True)
    elif line.startswith("go"):
        hoard = []
        while True:
            hoard.append(bytearray(64 << 20))
' "$1"
