#!/bin/sh
# Says on stderr which signals it started with ignored (the `SigIgn` mask
# of /proc/self/status; a shell changes none), then plays honest moves.
# usage: sigign.sh MARKER TESTBOT
grep '^SigIgn' /proc/self/status >&2
exec "$2" random --seed 23
