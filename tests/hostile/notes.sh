#!/bin/sh
# `log`: appends a line to FOLDER/log.txt (its `write` folder) at every
# start and keeps a private note (mode 0600) there, exiting with status 1
# when it cannot append; `peek`: reports whether it can read the other
# bot's note at FOLDER/note.txt. Then plays honest moves.
# usage: notes.sh MARKER TESTBOT log|peek FOLDER
case "$3" in
    log)
        if ! { echo "start $$" >> "$4/log.txt"; } 2>/dev/null; then
            echo "log: cannot append ($(ls -ln "$4/log.txt" 2>&1), I am $(id -u))" >&2
            exit 1
        fi
        (umask 077; echo "private note" > "$4/note.txt") 2>/dev/null ;;
    peek)
        if cat "$4/note.txt" >/dev/null 2>&1; then echo "peek: read" >&2
        else echo "peek: refused" >&2; fi ;;
esac
exec "$2" random --seed 22
