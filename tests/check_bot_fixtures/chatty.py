#!/usr/bin/env python3
"""A bot that is correct but noisy: an unknown line and an `info` that does
not parse before every `bestmove`. It must pass, with warnings.
Usage: chatty.py COMMAND... (the real bot behind it)."""

import sys

import proxy


def from_bot(line):
    if line.startswith("bestmove"):
        return ["thinking hard", "info depth many", line]
    return [line]


proxy.run(sys.argv[1:], from_bot=from_bot)
