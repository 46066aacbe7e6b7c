#!/bin/sh
# Parks up to 160 MiB in the buffers of local socketpairs it never reads
# (kernel memory, which a per-process limit on private memory does not
# count); says on stderr how much, or that socketpair was refused, then
# plays honest moves with the sockets still open. Outside review (a05): 1,285
# MiB held so under a 64 MiB memory-limit by an unprivileged arbiter's bot.
# usage: sockfill.sh MARKER TESTBOT
exec python3 -c '
import os, socket, sys, time
testbot = sys.argv[1]
parked, pairs, block = 0, [], b"x" * 65536
try:
    while parked < (160 << 20) and len(pairs) < 400:
        a, b = socket.socketpair()
        a.setblocking(False)
        pairs.append((a, b))
        while parked < (160 << 20):
            try:
                parked += a.send(block)
            except BlockingIOError:
                break
    said = "sockfill: parked %d MiB in %d socketpairs" % (parked >> 20, len(pairs))
except OSError as e:
    said = "sockfill: socketpair refused after %d MiB: %s" % (parked >> 20, e.strerror)
for a, b in pairs:
    for s in (a, b):
        os.set_inheritable(s.fileno(), True)
        s.detach()
sys.stderr.write(said + "\n")
sys.stderr.flush()
time.sleep(1)
os.execv(testbot, [testbot, "random", "--seed", "28"])
' "$2"
