#!/bin/sh
# Floods stderr: 2 MB at once, then without end from a helper, while it
# plays honest random moves.
# usage: stderrflood.sh MARKER TESTBOT
yes "$1 stderr flood: all work and no play makes a dull bot" | head -c 2000000 >&2
yes "$1 stderr flood: all work and no play makes a dull bot" >&2 &
exec "$2" "$1" random
