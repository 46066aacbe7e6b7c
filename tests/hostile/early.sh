#!/bin/sh
# Sends a bestmove with the readyok of each new game, before any go; one
# write, so the arbiter has both lines before it asks for a move.
# usage: early.sh MARKER TESTBOT
while read -r line; do
    case "$line" in
        aboure*) echo "id name early $1"; echo aboureok ;;
        newgame*) read -r line; printf 'readyok\nbestmove 2\n' ;;
        isready*) echo readyok ;;
        go*) echo "bestmove 3" ;;
    esac
done
