#!/bin/sh
# Reports what its weights file (in a folder of its `write` folder, named
# by its command) holds, then moves that folder away and puts a link to
# the tournament file in its place, for the arbiter to follow at the next
# start (the file itself may be a mount point, the folder is not); then
# plays honest moves.
# usage: plant.sh MARKER TESTBOT WEIGHTS
echo "weights: $(cat "$3" 2>&1 | tr '\n' ' ' | head -c 4000)" >&2
d=$(dirname "$3")
if [ ! -L "$3" ]; then
    mv "$d" "$d.$$" && mkdir "$d" && ln -s ../../../tournament.toml "$3" &&
        echo "planted: yes" >&2
fi
exec "$2" random --seed 9
