#!/bin/sh
# Spends CPU at start-up in children of three kinds, each burning 20 ms
# and writing the CPU time it used by its own clock to
# FOLDER/spent-RANDOM (one file a bot process): 25 it waits for, 25 orphans
# (double-forked, reaped by the init), then 250 of a parent that ignores
# SIGCHLD (reaped by the kernel, where it may: most live and die between
# two of the helper's looks). 6 s of CPU in all; says on stderr when it
# finished, then plays honest moves.
# usage: childburn.sh MARKER TESTBOT FOLDER
python3 -c '
import os, signal, sys, time
name = "%s/spent-%s" % (sys.argv[2], os.urandom(8).hex())
out = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
def burn():
    end = time.process_time() + 0.02
    while time.process_time() < end:
        pass
    os.write(out, b"%.4f\n" % time.process_time())
    os._exit(0)
for n in range(25):
    pid = os.fork()
    if pid == 0:
        burn()
    os.waitpid(pid, 0)
for n in range(25):
    pid = os.fork()
    if pid == 0:
        if os.fork() == 0:
            burn()
        os._exit(0)
    os.waitpid(pid, 0)
    time.sleep(0.025)
signal.signal(signal.SIGCHLD, signal.SIG_IGN)
for n in range(250):
    if os.fork() == 0:
        burn()
    time.sleep(0.025)
print("childburn: finished", file=sys.stderr)
' "$1-burn" "$3"
exec "$2" random --seed 23
