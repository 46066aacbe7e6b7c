#!/bin/sh
# Leaves a spinner (its command line carries MARKER-spin) that arms 1000
# one-shot POSIX timers (about what the sandbox's RLIMIT_SIGPENDING
# allows), 20 ms apart, each sending it SIGCONT: a stop by signal is
# undone by the next timer, and the spinner runs until the next stop. Says on stderr how many it armed,
# waits until they are armed, then plays honest moves.
# usage: timerspin.sh MARKER TESTBOT
python3 -c '
import ctypes, signal, sys
libc = ctypes.CDLL(None, use_errno=True)
class Sigevent(ctypes.Structure):
    _fields_ = [("value", ctypes.c_void_p), ("signo", ctypes.c_int),
                ("notify", ctypes.c_int), ("pad", ctypes.c_byte * 48)]
class Itimerspec(ctypes.Structure):
    _fields_ = [("isec", ctypes.c_long), ("insec", ctypes.c_long),
                ("sec", ctypes.c_long), ("nsec", ctypes.c_long)]
signal.signal(signal.SIGCONT, lambda *a: None)
armed = 0
for i in range(1, 1001):
    ev = Sigevent(None, signal.SIGCONT, 0)  # SIGEV_SIGNAL
    tid = ctypes.c_void_p()
    if libc.timer_create(1, ctypes.byref(ev), ctypes.byref(tid)) != 0:
        break
    us = i * 20000
    spec = Itimerspec(0, 0, us // 1000000, (us % 1000000) * 1000)
    if libc.timer_settime(tid, 0, ctypes.byref(spec), None) != 0:
        break
    armed += 1
sys.stderr.write("timerspin: armed %d timers\n" % armed)
sys.stderr.flush()
open(sys.argv[2], "w").close()
while True:
    pass
' "$1-spin" "${TMPDIR:-/tmp}/$1-armed" &
until [ -e "${TMPDIR:-/tmp}/$1-armed" ]; do sleep 0.01; done
exec "$2" random --seed 25
