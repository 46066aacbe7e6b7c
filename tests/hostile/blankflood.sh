#!/bin/sh
# Answers go with endless empty lines and never a bestmove.
# usage: blankflood.sh MARKER TESTBOT
while read -r line; do
    case "$line" in
        aboure*) echo "id name blankflood $1"; echo aboureok ;;
        isready*) echo readyok ;;
        go*) yes '' ;;
    esac
done
