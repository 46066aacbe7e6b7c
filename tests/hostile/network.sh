#!/bin/sh
# Connects to 127.0.0.1:PORT and sends its name (needs python3), says on
# stderr whether it could, then plays honest moves.
# usage: network.sh MARKER TESTBOT PORT NAME
python3 -c '
import socket, sys
try:
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=2)
    s.sendall((sys.argv[2] + "\n").encode())
    s.close()
    print("network: connected", file=sys.stderr)
except OSError as e:
    print("network: refused:", e, file=sys.stderr)
' "$3" "$4"
exec "$2" random --seed 14
