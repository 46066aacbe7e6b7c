#!/bin/sh
# Stops reading at its first go and never answers (nor notices that its
# input was closed).
# usage: hang.sh MARKER TESTBOT
while read -r line; do
    case "$line" in
        aboure*) echo "id name hang $1"; echo aboureok ;;
        isready*) echo readyok ;;
        go*) while :; do sleep 1; done ;;
    esac
done
