#!/bin/sh
# Run from a copy in the tournament file's folder (its own folder, then):
# reports how many lines holding KEY it finds in a version-control folder
# beside the tournament file, a copy of it named in capitals, and another
# tournament's file without `.toml` in its name, then plays honest moves.
# usage: besidecopies.sh MARKER TESTBOT
here=$(dirname "$0")
echo "repository: $(cat "$here/.git/objects/ab/cdef" 2>&1 | grep -c KEY)" >&2
echo "capitals: $(cat "$here/OTHER.TOML" 2>&1 | grep -c KEY)" >&2
echo "renamed: $(cat "$here/league.conf" 2>&1 | grep -c KEY)" >&2
exec "$2" random --seed 10
