#!/bin/sh
# Leaves a setsid daemon, a double-forked orphan and as many processes as it
# can start (a fork bomb, bounded at 2000), reports how many processes it
# sees, then plays honest moves. Every process carries the marker.
# usage: daemons.sh MARKER TESTBOT
MARKER=$1 TESTBOT=$2
setsid sh -c 'while :; do sleep 1; done' "$MARKER" </dev/null >/dev/null 2>&1 &
( sh -c 'while :; do sleep 1; done' "$MARKER" </dev/null >/dev/null 2>&1 & ) &
( for i in $(seq 2000); do sh -c 'sleep 1000' "$MARKER" & done ) >/dev/null 2>&1
# Counted without a fork: there may be no process left to start.
set -- /proc/[0-9]*
echo "processes: $#" >&2
exec "$TESTBOT" random --seed 13
