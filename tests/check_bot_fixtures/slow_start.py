#!/usr/bin/env python3
"""A bot whose handshake takes 1.5 s: it holds the real bot's `aboureok`.
Usage: slow_start.py COMMAND... (the real bot behind it)."""

import sys
import time

import proxy


def from_bot(line):
    if line == "aboureok":
        time.sleep(1.5)
    return [line]


proxy.run(sys.argv[1:], from_bot=from_bot)
