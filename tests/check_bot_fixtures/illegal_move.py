#!/usr/bin/env python3
"""A bot that answers with a pit of the opponent's row: the real bot's move
moved six pits over, which is never legal.
Usage: illegal_move.py COMMAND... (the real bot behind it)."""

import sys

import proxy


def from_bot(line):
    words = line.split()
    if len(words) == 2 and words[0] == "bestmove" and words[1].isdigit():
        return ["bestmove %d" % ((int(words[1]) + 6) % 12)]
    return [line]


proxy.run(sys.argv[1:], from_bot=from_bot)
