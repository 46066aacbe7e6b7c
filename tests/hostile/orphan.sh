#!/bin/sh
# Starts a helper that inherits (and keeps open) stdin, stdout and stderr,
# then at its first go exits with status 0 (`exit`) or kills itself with
# SIGKILL (`kill`). The helper's command line carries the marker.
# usage: orphan.sh MARKER TESTBOT exit|kill
( while :; do sleep 1; done ) &
while read -r line; do
    case "$line" in
        aboure*) echo "id name orphan $1"; echo aboureok ;;
        isready*) echo readyok ;;
        go*) if [ "$3" = kill ]; then kill -9 $$; fi
             exit 0 ;;
    esac
done
