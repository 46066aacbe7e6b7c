#!/bin/sh
# Makes a Unix socket and a FIFO in FOLDER (its `write` folder) and in its
# private /tmp, reporting each as `endpoint: WHERE KIND ok|refused` (needs
# python3), then plays honest moves.
# usage: endpoints.sh MARKER TESTBOT FOLDER
python3 -c '
import os, socket, sys
for where, folder in (("write", sys.argv[1]), ("tmp", os.environ.get("TMPDIR", "/tmp"))):
    name = os.path.join(folder, f"ep{os.getpid()}")
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(name + ".sock")
        print(f"endpoint: {where} socket ok", file=sys.stderr)
    except OSError as e:
        print(f"endpoint: {where} socket refused", file=sys.stderr)
    try:
        os.mkfifo(name + ".fifo")
        print(f"endpoint: {where} fifo ok", file=sys.stderr)
    except OSError as e:
        print(f"endpoint: {where} fifo refused", file=sys.stderr)
' "$3"
exec "$2" random --seed 23
