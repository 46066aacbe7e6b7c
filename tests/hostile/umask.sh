#!/bin/sh
# Clears its file mode mask, then makes a file and a folder in FOLDER (one
# of its `write` paths), which would stay on the host writable by anyone,
# says on stderr what mask it was left with, then plays honest moves.
# usage: umask.sh MARKER TESTBOT FOLDER
# Each process is pid 2 of its own namespace: the names are random.
name="$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')"
umask 000
echo "umask: $(umask)" >&2
echo data > "$3/file-$name"
mkdir "$3/folder-$name"
exec "$2" random --seed 21
