#!/bin/sh
# A build step that attacks before it builds: it writes outside its bot's
# folder (the host's /tmp, the tournament file's folder), reads the
# tournament file and another bot's file into its folder, and connects to
# 127.0.0.1:$PORT; then it writes its output, built.txt, in its folder.
# It never fails: only the effects, seen from outside, tell.
# env: MARKER, TOURNAMENT (the tournament file), OTHER (another bot's
# file), PORT.
echo pwned > "/tmp/aboure-build-$MARKER" && echo "build: wrote /tmp/aboure-build-$MARKER"
echo pwned > "$(dirname "$TOURNAMENT")/planted-by-build" && echo "build: wrote beside the tournament file"
cat "$TOURNAMENT" > stolen-tournament.txt
cat "$OTHER" > stolen-other.txt
python3 -c '
import socket, sys
try:
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=2)
    s.sendall(b"build\n")
    s.close()
    print("build: connected")
except OSError as e:
    print("build: no network:", e)
' "$PORT"
echo built > built.txt
exit 0
