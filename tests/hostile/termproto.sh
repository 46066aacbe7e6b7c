#!/bin/sh
# Writes on stdout, before its handshake, a line that is no protocol: the
# escape sequences that set a terminal's clipboard (OSC 52), retitle its
# window (OSC 0) and clear its screen (CSI 2J), and a C1 CSI (U+009B), for
# an operator reading the protocol log (`--log-protocol`) with cat, tail -f
# or less -R; then plays honest moves.
# usage: termproto.sh MARKER TESTBOT
printf 'before\033]52;c;b3duZWQ=\007\033]0;title\007\033[2J\302\233Kafter\n'
exec "$2" random --seed 21
