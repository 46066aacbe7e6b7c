#!/bin/sh
# Tries to kill every process it can see (its parent, the arbiter, the other
# bots) with SIGKILL, then plays honest moves.
# usage: signals.sh MARKER TESTBOT
kill -9 "$PPID" 2>/dev/null
for dir in /proc/[0-9]*; do
    pid=${dir#/proc/}
    [ "$pid" = "$$" ] || kill -9 "$pid" 2>/dev/null
done
kill -9 -1 2>/dev/null
echo "signals sent" >&2
exec "$2" random --seed 11
