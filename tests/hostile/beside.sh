#!/bin/sh
# Run from a copy in the tournament file's folder (its own folder, then):
# reports whether it can read the tournament file and the results, an
# editor's backup of it, another tournament's file and an earlier run's
# results beside it, and what its folder shows, then plays honest moves.
# usage: beside.sh MARKER TESTBOT
here=$(dirname "$0")
echo "toml: $(cat "$here/tournament.toml" 2>&1 | grep -c KEY)" >&2
echo "results: $(cat "$here/out/games.jsonl" 2>/dev/null | wc -c)" >&2
echo "backup: $(cat "$here/tournament.toml~" "$here/other.toml" 2>&1 | grep -c KEY)" >&2
echo "previous: $(cat "$here/out-previous/logs/honest.stderr.log" 2>&1 | grep -c KEY)" >&2
echo "listing: $(ls "$here" "$here/out" 2>&1 | tr '\n' ' ')" >&2
exec "$2" random --seed 10
