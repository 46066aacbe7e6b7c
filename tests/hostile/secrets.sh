#!/bin/sh
# Looks for what it must not see and prints what it found on stderr:
# /etc/shadow, the tournament file (in the folder TOURNAMENTDIR and in its
# working directory), the other bot's folder, the environments and command
# lines holding KEY= (the other bot's variable), and the cgroups' process
# counts; and its own uid and groups. Then plays honest moves.
# usage: secrets.sh MARKER TESTBOT TOURNAMENTDIR OTHERDIR KEY
sleep 0.5
{
    echo "uid: $(id -u) groups: $(id -G)"
    echo "shadow: $(head -c 64 /etc/shadow 2>/dev/null)"
    echo "tournament: $(cat "$3/tournament.toml" ./tournament.toml 2>/dev/null | wc -c)"
    echo "other: $(ls -A "$4" 2>/dev/null)"
    echo "env: $(cat /proc/[0-9]*/environ /proc/[0-9]*/cmdline 2>/dev/null | tr '\0' '\n' | grep -c "$5[=]")"
    echo "cgroup: $(cat /sys/fs/cgroup/*/*/*/pids.current /sys/fs/cgroup/*/*/pids.current 2>/dev/null)"
} >&2
exec "$2" random --seed 17
