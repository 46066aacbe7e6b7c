#!/bin/sh
# Plays honest moves (the test bot's, relayed), and just before each
# bestmove (and as it is asked to quit) starts 48 threads each reading 1 GiB
# of a sparse file in one preadv: a system call that neither a freezer nor
# SIGSTOP interrupts, so the reads run on while the bot is held through its
# opponent's move (and while it quits and is killed).
# usage: longread.sh MARKER TESTBOT
script=$(cat <<'PY'
import os, subprocess, sys, threading, time
path = "/tmp/sparse-" + sys.argv[1]
fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
os.ftruncate(fd, 1 << 30)
os.unlink(path)
buf = bytearray(1 << 20)
iov = [buf] * 1024
start = threading.Semaphore(0)
def reader():
    while True:
        start.acquire()
        os.preadv(fd, iov, 0)
for _ in range(48):
    threading.Thread(target=reader, daemon=True).start()
bot = subprocess.Popen([sys.argv[2], "random", "--seed", "31"],
                       stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def relay_in():
    for line in sys.stdin.buffer:
        if line.startswith(b"quit"):
            # Reads under way as the process is asked to quit, and killed.
            for _ in range(48):
                start.release()
            time.sleep(0.005)
        bot.stdin.write(line)
        bot.stdin.flush()
    bot.stdin.close()
threading.Thread(target=relay_in, daemon=True).start()
for line in bot.stdout:
    if line.startswith(b"bestmove"):
        for _ in range(48):
            start.release()
        time.sleep(0.005)
    sys.stdout.buffer.write(line)
    sys.stdout.buffer.flush()
PY
)
exec python3 -c "$script" "$1" "$2"
