#!/bin/sh
# Builds a chain of DEPTH folders in FOLDER (its `write` path), a name at
# a time (its path soon passes PATH_MAX), then 100 MiB in a file at the
# bottom; says on stderr how far it got, then plays honest moves.
# usage: deepchain.sh MARKER TESTBOT FOLDER DEPTH
exec python3 -c '
import os, sys
testbot, folder, depth = sys.argv[1], sys.argv[2], int(sys.argv[3])
os.chdir(folder)
for _ in range(depth):
    try:
        os.mkdir("d")
    except FileExistsError:
        pass
    os.chdir("d")
with open("big.bin", "wb") as f:
    for _ in range(100):
        f.write(b"x" * (1 << 20))
sys.stderr.write("deepchain: %d folders deep, 100 MiB at the bottom\n" % depth)
sys.stderr.flush()
os.execv(testbot, [testbot, "random", "--seed", "27"])
' "$2" "$3" "$4"
