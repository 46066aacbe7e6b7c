#!/bin/sh
# Sleeps SECONDS before it reads anything, then plays honest random moves.
# usage: slowstart.sh MARKER TESTBOT SECONDS
sleep "$3"
exec "$2" "$1" random
