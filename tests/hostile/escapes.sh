#!/bin/sh
# Writes terminal escape sequences on stderr (clear the screen, retitle the
# window, ring the bell) and exits at its first go, so they are its last
# words in the failure line.
# usage: escapes.sh MARKER TESTBOT
while read -r line; do
    case "$line" in
        aboure*) echo "id name escapes $1"; echo aboureok ;;
        isready*) echo readyok ;;
        go*) printf 'owned\033[2J\033]0;title\007\n' >&2; exit 3 ;;
    esac
done
