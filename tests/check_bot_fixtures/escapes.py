#!/usr/bin/env python3
"""A bot whose name, author and lines carry terminal escape sequences (a
window title, a screen clear). check-bot must show them written out, never
raw. Usage: escapes.py COMMAND... (the real bot behind it)."""

import sys

import proxy


def from_bot(line):
    if line.startswith("id name"):
        return ["id name \x1b]0;OWNED\x07\x1b[2Jbot", "id author \x1b[31mevil"]
    if line.startswith("bestmove"):
        return ["info string \x1b[2J\rALL CHECKS PASSED", line]
    return [line]


proxy.run(sys.argv[1:], from_bot=from_bot)
