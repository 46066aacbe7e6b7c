#!/bin/sh
# Spends CPU at start-up in children the kernel reaps: it ignores SIGCHLD
# and starts 600 children in turn, each burning 5 ms of CPU and gone
# before the next (most of them live and die between two of the helper's
# looks, so no process's times ever hold theirs); says on stderr how many
# it finished, then plays honest moves.
# usage: reapburn.sh MARKER TESTBOT
python3 -c '
import os, signal, sys, time
signal.signal(signal.SIGCHLD, signal.SIG_IGN)
n = 0
while n < 600:
    if os.fork() == 0:
        end = time.process_time() + 0.005
        while time.process_time() < end:
            pass
        os._exit(0)
    time.sleep(0.01)
    n += 1
print("reapburn: finished %d children" % n, file=sys.stderr)
' "$1-burn"
exec "$2" random --seed 23
