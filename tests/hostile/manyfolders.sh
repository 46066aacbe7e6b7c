#!/bin/sh
# Makes COUNT empty folders in FOLDER/d (its `write` path), each of which
# costs a walk of the folder an open and a read (a few blocks each, far
# under write-size), says so on stderr, waits a second, then plays honest
# moves. Outside review, round five (b07, b15): 150,000 of them slowed
# each walk to ~3.5 s, and the bot wrote 2.6 GiB under a 1 GiB write-size
# between two walks.
# usage: manyfolders.sh MARKER TESTBOT FOLDER COUNT
exec python3 -c '
import os, sys, time
testbot, folder, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
top = os.path.join(folder, "d")
os.makedirs(top, exist_ok=True)
for i in range(count):
    os.makedirs(os.path.join(top, str(i)), exist_ok=True)
sys.stderr.write("manyfolders: %d empty folders made\n" % count)
sys.stderr.flush()
time.sleep(1)
os.execv(testbot, [testbot, "random", "--seed", "27"])
' "$2" "$3" "$4"
