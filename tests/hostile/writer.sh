#!/bin/sh
# Writes a note in FOLDER (one of its `write` paths) and in the folder of
# its script (read-only), says on stderr how each went, then plays honest
# moves.
# usage: writer.sh MARKER TESTBOT FOLDER
# Each process is pid 2 of its own namespace: the note's name is random.
name="note-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')"
{ echo note > "$3/$name"; } 2>/dev/null && echo "write: done" >&2 || echo "write: refused" >&2
{ echo note > "$(dirname "$0")/$name"; } 2>/dev/null && echo "own folder: done" >&2 \
    || echo "own folder: refused" >&2
exec "$2" random --seed 21
