#!/bin/sh
# Reads the free blocks of the filesystem of its own (read-only) folder,
# which another bot could move by writing in its write folder, says on
# stderr what it read, then plays honest moves.
# usage: freespace.sh MARKER TESTBOT
if free=$(stat -f -c %f "$(dirname "$0")" 2>/dev/null); then
    echo "free blocks: $free" >&2
else
    echo "free blocks: refused" >&2
fi
exec "$2" random --seed 21
