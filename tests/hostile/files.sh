#!/bin/sh
# Appends a forged game to the output folder's games.jsonl (DIR/out: a
# command that names the results folder is refused), tries to read the
# file planted beside that folder (DIR/planted-secret.txt, which its
# command does not name) and prints what it read on stderr, writes in its
# scratch folder, then plays honest moves.
# usage: files.sh MARKER TESTBOT DIR
echo '{"id":"forged","south":"files","north":"honest","result":"1-0"}' >> "$3/out/games.jsonl" 2>/dev/null \
    && echo "wrote games.jsonl" >&2
echo "read: $(cat "$3/planted-secret.txt" 2>/dev/null)" >&2
echo scratch > "$TMPDIR/note" && echo "scratch: $(cat "$TMPDIR/note")" >&2
exec "$2" random --seed 12
