#!/usr/bin/env python3
"""The arbiter's own CPU time over a run against a quiet bot and against a
bot that floods short `info` lines while it thinks, or its stderr all the
time (docs/sandbox.md).

usage: floodcpu.py ABOURE TESTBOT [MS [DIR [MODE...]]]

Each run is a gauntlet of four games, `aboure-testbot random` against
`aboure-testbot sleepy --ms MS` (quiet) or `aboure-testbot flood --ms MS`
(thinks as long, printing `info` lines as fast as the pipe takes them), or
`stderr`: the quiet bot beside `yes` writing its stderr as fast as the
pipe takes it, from its start to its end. MODE: which of `sleepy`, `flood`
and `stderr` to run (default the first two).
The arbiter's time is read from /proc/PID/stat once it has exited and
before it is reaped (utime + stime: its own threads, not the bots it
waited for), the bytes it read from /proc/PID/io (`rchar`: a flood's
size depends on how much CPU the flooder got, so compare time per byte),
and the bytes of stderr drained unread past the log's cap, which the log
counts.
"""
import json
import os
import subprocess
import sys

CONFIG = """[tournament]
format = "gauntlet"
gauntlet-bot = "honest"
pairs = 2
concurrency = 1
[openings]
plies = 0
[time-control]
base = "20s"
increment = "200ms"
[[bot]]
name = "honest"
command = ["{testbot}", "random", "--seed", "7"]
[[bot]]
name = "{mode}"
command = {command}
"""


def measure(aboure, testbot, mode, ms, folder):
    os.makedirs(folder, exist_ok=True)
    config = os.path.join(folder, "t.toml")
    with open(config, "w") as f:
        if mode == "stderr":
            script = f'yes "stderr flood: all work and no play" >&2 & exec "$0" sleepy --ms {ms}'
            command = f'["sh", "-c", {json.dumps(script)}, "{testbot}"]'
        else:
            command = f'["{testbot}", "{mode}", "--ms", "{ms}"]'
        f.write(CONFIG.format(testbot=testbot, mode=mode, command=command))
    with open(os.path.join(folder, "stderr"), "w") as err:
        child = subprocess.Popen(
            [aboure, "run", config, "--out", os.path.join(folder, "run"), "-q"],
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
        os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)
        with open(f"/proc/{child.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        with open(f"/proc/{child.pid}/io") as f:
            io = dict(line.split(": ") for line in f.read().splitlines())
        child.wait()
    tick = os.sysconf("SC_CLK_TCK")
    own = (int(fields[11]) + int(fields[12])) / tick
    with open(os.path.join(folder, "run", "games.jsonl")) as f:
        ends = sorted({line.split('"termination":"')[1].split('"')[0] for line in f})
    read = int(io["rchar"]) / (1 << 20)
    # Past the log's cap stderr is drained unread; the log counts it.
    log = os.path.join(folder, "run", "logs", f"{mode}.stderr.log")
    drained = 0
    if os.path.exists(log):
        with open(log, errors="replace") as f:
            for line in f:
                if line.startswith("[aboure: ") and line.rstrip().endswith("of one process's stderr discarded]"):
                    drained += int(line.split()[1])
    print(
        f"{mode:6} arbiter CPU {own:.2f} s, read {read:.0f} MiB, "
        f"drained unread {drained / (1 << 20):.0f} MiB, exit {child.returncode}, "
        f"games ended by {', '.join(ends)}"
    )


def main():
    aboure, testbot = (os.path.abspath(a) for a in sys.argv[1:3])
    ms = sys.argv[3] if len(sys.argv) > 3 else "300"
    folder = sys.argv[4] if len(sys.argv) > 4 else f"/tmp/aboure-floodcpu-{os.getpid()}"
    modes = sys.argv[5:] or ["sleepy", "flood"]
    for mode in modes:
        measure(aboure, testbot, mode, ms, os.path.join(folder, mode))
    print(f"(runs in {folder})")


main()
