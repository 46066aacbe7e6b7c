#!/bin/sh
# Spends CPU in children at start-up, each under the per-process CPU
# limit: three children in turn, each spinning until that limit
# (`RLIMIT_CPU`, inherited) ends it, waited for (so their time is its own
# reaped children's); says on stderr how many it finished, then plays
# honest moves.
# usage: forkburn.sh MARKER TESTBOT
n=0
while [ $n -lt 3 ]; do
    sh -c 'while :; do :; done'
    n=$((n + 1))
done
echo "forkburn: finished $n children" >&2
exec "$2" random --seed 23
