#!/bin/sh
# Tries to be continued by the kernel while held (an outside attack): takes
# a session of its own (`setsid`), then at each `go` starts a cell, a
# process group of its own (`setpgid`) whose leader holds MEGABYTES of
# memory and whose two spinners (their command lines carry MARKER-spin)
# ignore SIGHUP and wait for the leader's end. Just before its `bestmove`
# it kills the leader, whose exit (freeing its memory) outlasts the
# moment the hold comes: when it ends, the spinners' group is orphaned
# with stopped members, and the kernel sends it SIGHUP and SIGCONT. The
# spinners of a cell are killed at the next `go`. Moves are the test
# bot's. Says on stderr how `setsid` and each cell's `setpgid` went.
# usage: orphancell.sh MARKER TESTBOT MEGABYTES
exec python3 -c '
import os, signal, subprocess, sys, threading
marker, testbot, megabytes = sys.argv[1:4]
def say(text):
    sys.stderr.write("orphancell: %s\n" % text)
    sys.stderr.flush()
try:
    os.setsid()
    say("setsid done")
except OSError as e:
    say("setsid refused (%s)" % e.strerror)
SPIN = r"""
import os, signal, sys
signal.signal(signal.SIGHUP, signal.SIG_IGN)
gate = int(sys.argv[2])
while os.read(gate, 1):
    pass
while True:
    pass
"""
CELL = r"""
import ctypes, os, signal, subprocess, sys
marker, code, megabytes = sys.argv[1:4]
spin = marker + "-spin"
try:
    os.setpgid(0, 0)
    grouped = "done"
except OSError as e:
    grouped = "refused (%s)" % e.strerror
gate, opened = os.pipe()
spinners = [subprocess.Popen([sys.executable, "-c", code, spin, str(gate)], pass_fds=[gate])
            for _ in range(2)]
os.close(gate)
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
# PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_POPULATE
libc.mmap(None, int(megabytes) << 20, 3, 0x22 | 0x8000, -1, 0)
print("ready %s %s" % (grouped, " ".join(str(s.pid) for s in spinners)), flush=True)
while True:
    signal.pause()
"""
engine = subprocess.Popen([testbot, "random", "--seed", "29"], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, text=True, bufsize=1)
cell = {"leader": None, "spinners": []}
def forward():
    for out in engine.stdout:
        if out.startswith("bestmove") and cell["leader"] is not None:
            cell["leader"].kill()
            cell["leader"] = None
        sys.stdout.write(out)
        sys.stdout.flush()
    os._exit(0)
threading.Thread(target=forward, daemon=True).start()
for line in sys.stdin:
    if line.startswith("go"):
        for pid in cell["spinners"]:
            os.kill(pid, signal.SIGKILL)
        leader = subprocess.Popen([sys.executable, "-c", CELL, marker, SPIN, megabytes],
                                  stdout=subprocess.PIPE, text=True)
        ready = leader.stdout.readline().split()
        say("cell setpgid %s" % " ".join(ready[1:-2]))
        cell["leader"], cell["spinners"] = leader, [int(p) for p in ready[-2:]]
    engine.stdin.write(line)
    engine.stdin.flush()
engine.stdin.close()
engine.wait()
' "$1" "$2" "$3"
