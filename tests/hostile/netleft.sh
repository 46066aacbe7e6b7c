#!/bin/sh
# Reports its network namespace and what an earlier process of its bot left
# there, as `netleft: NAMESPACE seen N bind RESULT` on stderr: N abstract
# Unix sockets named for the marker listed in /proc/net/unix, then RESULT of
# binding one under that name (`ok` or the error) in a setsid daemon that
# keeps it and sleeps (needs python3); then plays honest moves.
# usage: netleft.sh MARKER TESTBOT
MARKER=$1 TESTBOT=$2
python3 -c '
import os, socket, sys, time
name = sys.argv[1]
seen = sum(1 for line in open("/proc/net/unix") if "@" + name in line)
r, w = os.pipe()
if os.fork() == 0:
    try:
        os.setsid()
    except OSError:
        pass
    if os.fork() == 0:
        null = os.open("/dev/null", os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.bind("\0" + name)
            s.listen(1)
            result = "ok"
        except OSError as e:
            result = e.strerror
        os.write(w, result.encode())
        os.close(w)
        time.sleep(3600)
    os._exit(0)
os.close(w)
result = os.read(r, 200).decode()
space = os.readlink("/proc/self/ns/net")
print(f"netleft: {space} seen {seen} bind {result}", file=sys.stderr)
' "$MARKER-net" </dev/null >/dev/null
exec "$TESTBOT" random --seed 23
