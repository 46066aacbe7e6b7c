#!/bin/sh
# Starts 150 processes (command lines carrying MARKER) each holding 900
# descriptors of one file deleted from its write folder, then plays honest
# moves at once: the sandbox's helper, which looks at every descriptor of
# the bot for write-size, has 135,000 to look at, a look of a large part
# of a second.
# usage: fdhold.sh MARKER TESTBOT WRITEDIR
python3 - "$1" "$3" <<'PY' || exit 1
import os, sys, time
folder = sys.argv[2]
held = os.path.join(folder, "held")
fd = os.open(held, os.O_RDWR | os.O_CREAT, 0o600)
os.unlink(held)
for _ in range(150):
    if os.fork() == 0:
        for n in range(10, 910):
            os.dup2(fd, n, inheritable=True)
        time.sleep(1000)
        os._exit(0)
PY
exec "$2" random --seed 24
