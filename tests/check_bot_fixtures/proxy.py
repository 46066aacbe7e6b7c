"""A man in the middle for the misbehaving bots of the check-bot tests.

Runs a real bot (usually `aboure bot NAME`) as a child and passes lines both
ways, letting a misbehaving bot change or drop them: `to_bot(line)` sees each
line from the arbiter, `from_bot(line)` each line of the bot; each returns
the lines to pass on (a list, possibly empty). Exits when the bot does, with
its status.
"""

import os
import subprocess
import sys
import threading


def run(command, to_bot=lambda line: [line], from_bot=lambda line: [line]):
    child = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )

    def forward_input():
        try:
            for line in sys.stdin:
                for out in to_bot(line.rstrip("\r\n")):
                    child.stdin.write(out + "\n")
                    child.stdin.flush()
        except (BrokenPipeError, OSError):
            pass
        try:
            child.stdin.close()
        except (BrokenPipeError, OSError):
            pass

    threading.Thread(target=forward_input, daemon=True).start()
    for line in child.stdout:
        for out in from_bot(line.rstrip("\r\n")):
            sys.stdout.write(out + "\n")
            sys.stdout.flush()
    os._exit(child.wait())
