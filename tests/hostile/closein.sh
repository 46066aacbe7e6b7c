#!/bin/sh
# Closes its stdin when the first game is announced (before the arbiter can
# have sent the position), still answers readyok, and keeps running.
# usage: closein.sh MARKER TESTBOT
while read -r line; do
    case "$line" in
        aboure*) echo "id name closein $1"; echo aboureok ;;
        isready*) echo readyok ;;
        newgame*) exec 0<&-; sleep 0.1; echo readyok
                  while :; do sleep 1; done ;;
    esac
done
