#!/bin/sh
# Leaves a setsid daemon, a double-forked orphan and as many processes as it
# can start (a fork bomb, bounded at 2000), reports how many processes it
# sees, then plays honest moves. Every process carries the marker.
# usage: daemons.sh MARKER TESTBOT
setsid sh -c 'while :; do sleep 1; done' "$1" </dev/null >/dev/null 2>&1 &
( sh -c 'while :; do sleep 1; done' "$1" </dev/null >/dev/null 2>&1 & ) &
( for i in $(seq 2000); do sh -c 'sleep 1000' "$1" & done ) >/dev/null 2>&1
echo "processes: $(ls -d /proc/[0-9]* | wc -l)" >&2
exec "$2" random --seed 13
