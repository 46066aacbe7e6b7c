#!/bin/sh
# Answers go with endless 60 KB info lines (each under the line limit) and
# never a bestmove.
# usage: infoflood.sh MARKER TESTBOT
long=$(head -c 60000 /dev/zero | tr '\0' y)
while read -r line; do
    case "$line" in
        aboure*) echo "id name infoflood $1"; echo aboureok ;;
        isready*) echo readyok ;;
        go*) yes "info string $long" ;;
    esac
done
