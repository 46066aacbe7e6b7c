#!/bin/sh
# Holds 7 files of 3 MiB in FOLDER (its `write` path) that no walk of the
# folder sees: deleted while held open (MODE `unlink`) or made without a
# name (`tmpfile`, O_TMPFILE). Says on stderr what it holds, then plays
# honest moves a second later (a game of instant moves is over in less
# than the helper's tenth of a second between two looks), the files
# still open. MODE `thread`: 21 MiB deleted and held by a thread with a
# descriptor table of its own (`threadhold`, built beside this script
# from threadhold.c by the test).
# usage: hiddenfill.sh MARKER TESTBOT FOLDER MODE
if [ "$4" = thread ]; then
    exec "$(dirname "$0")/threadhold" "$2" "$3"
fi
exec python3 -c '
import os, sys, time
testbot, folder, mode = sys.argv[1:4]
held = 0
for i in range(7):
    if mode == "tmpfile":
        fd = os.open(folder, os.O_TMPFILE | os.O_WRONLY, 0o600)
    else:
        path = os.path.join(folder, "hidden-%d-%d" % (os.getpid(), i))
        fd = os.open(path, os.O_CREAT | os.O_WRONLY, 0o600)
        os.unlink(path)
    for _ in range(3):
        os.write(fd, b"x" * (1 << 20))
    os.fsync(fd)
    os.set_inheritable(fd, True)
    held += 3
sys.stderr.write("hiddenfill: holding %d MiB (%s), visible: %s\n" % (held, mode, os.listdir(folder)))
sys.stderr.flush()
time.sleep(1)
os.execv(testbot, [testbot, "random", "--seed", "26"])
' "$2" "$3" "$4"
