#!/bin/sh
# Fills FOLDER (its `write` path) with up to 64 files of 1 MiB, 20 ms
# apart, says on stderr how many it wrote, then plays honest moves.
# usage: writefill.sh MARKER TESTBOT FOLDER
name="fill-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')"
n=0
while [ $n -lt 64 ] && head -c 1048576 /dev/zero > "$3/$name-$n" 2>/dev/null; do
    n=$((n + 1))
    sleep 0.02
done
echo "writefill: wrote $n files" >&2
exec "$2" random --seed 22
