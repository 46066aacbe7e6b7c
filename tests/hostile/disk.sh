#!/bin/sh
# Fills its scratch folder with up to 32 files of 4 MiB, says on stderr
# how many MiB it wrote, then plays honest moves.
# usage: disk.sh MARKER TESTBOT
n=0
while [ $n -lt 32 ] && head -c 4194304 /dev/zero > "$TMPDIR/fill$n" 2>/dev/null; do
    n=$((n + 1))
done
# -x: only the scratch itself, not the bot's own files bound below it
# when they live under the host's /tmp.
echo "disk: wrote $(du -smx "$TMPDIR" | cut -f1) MiB in $n whole files" >&2
exec "$2" random --seed 20
