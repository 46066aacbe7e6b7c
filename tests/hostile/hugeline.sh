#!/bin/sh
# Answers its first go with 400 MB and no newline, then idles.
# usage: hugeline.sh MARKER TESTBOT
while read -r line; do
    case "$line" in
        aboure*) echo "id name hugeline $1"; echo aboureok ;;
        isready*) echo readyok ;;
        go*) head -c 400000000 /dev/zero | tr '\0' x
             while :; do sleep 1; done ;;
    esac
done
