#!/bin/sh
# Connects to the host's Unix socket SOCKET by path and sends NAME (needs
# python3), says on stderr whether it could, then plays honest moves.
# usage: socket.sh MARKER TESTBOT SOCKET NAME
python3 -c '
import socket, sys
try:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(2)
    s.connect(sys.argv[1])
    s.sendall((sys.argv[2] + "\n").encode())
    s.close()
    print("socket: connected", file=sys.stderr)
except OSError as e:
    print("socket: refused:", e.strerror, file=sys.stderr)
' "$3" "$4"
exec "$2" random --seed 18
