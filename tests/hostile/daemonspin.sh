#!/bin/sh
# Leaves a setsid, double-forked spinner (its command line carries
# MARKER-spin) at its start, then plays honest moves.
# usage: daemonspin.sh MARKER TESTBOT
( setsid sh -c 'while :; do :; done' "$1-spin" & )
exec "$2" random --seed 24
