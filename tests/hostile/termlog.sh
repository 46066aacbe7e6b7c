#!/bin/sh
# Writes on stderr the escape sequences that set a terminal's clipboard
# (OSC 52), retitle its window (OSC 0) and clear its screen (CSI 2J), for
# an operator reading its log with cat, tail -f or less -R, then plays
# honest moves.
# usage: termlog.sh MARKER TESTBOT
printf 'before\033]52;c;b3duZWQ=\007\033]0;title\007\033[2J\233Kafter\n' >&2
exec "$2" random --seed 21
