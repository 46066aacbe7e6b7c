#!/bin/sh
# Leaves a setsid, double-forked spinner (its command line carries
# MARKER-spin) at its start (a double-forked one where `setsid` is refused),
# waits until it runs, then plays honest moves.
# (Without the wait, a bot held from its first instant could start its
# spinner only after the game, and a test would see no spinner to judge.)
# usage: daemonspin.sh MARKER TESTBOT
( { setsid sh -c 'while :; do :; done' "$1-spin" 2>/dev/null ||
    exec sh -c 'while :; do :; done' "$1-spin"; } & )
# The bracket keeps this grep's own command line from matching.
until grep -qs -- "$1-spi[n]" /proc/[0-9]*/cmdline; do :; done
exec "$2" random --seed 24
