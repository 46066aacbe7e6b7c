#!/bin/sh
# Burns CPU without end at its first go.
# usage: spin.sh MARKER TESTBOT
while read -r line; do
    case "$line" in
        aboure*) echo "id name spin $1"; echo aboureok ;;
        isready*) echo readyok ;;
        go*) while :; do :; done ;;
    esac
done
