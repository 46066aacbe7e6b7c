#!/bin/sh
# Writes exactly 24 MiB of `x` lines on stderr, half again the stderr
# log's cap, then plays honest random moves.
# usage: stderrcount.sh MARKER TESTBOT
yes x 2>/dev/null | head -c 25165824 >&2
exec "$2" random --seed 23
