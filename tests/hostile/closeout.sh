#!/bin/sh
# Closes its stdout once the first game is announced, and keeps reading.
# usage: closeout.sh MARKER TESTBOT
while read -r line; do
    case "$line" in
        aboure*) echo "id name closeout $1"; echo aboureok ;;
        isready*) echo readyok ;;
        newgame*) read -r line; echo readyok; exec 1>&-
                  while read -r line; do :; done
                  while :; do sleep 1; done ;;
    esac
done
