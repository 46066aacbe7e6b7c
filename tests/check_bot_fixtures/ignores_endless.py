#!/usr/bin/env python3
"""A bot that ignores endless sowings: in a set-up position (`position set`
with no moves) it plays the highest pit of the side to move that holds two
seeds or more, as if every such sowing ended; otherwise the real bot moves.
Usage: ignores_endless.py COMMAND... (the real bot behind it)."""

import sys

import proxy

# The move this bot would choose itself, for the last position sent, if any.
chosen = []


def to_bot(line):
    words = line.split()
    if words[:1] == ["position"]:
        chosen.clear()
    if len(words) == 6 and words[:2] == ["position", "set"]:
        pits = [int(n) for n in words[2].replace("/", ",").split(",")]
        first = 0 if words[3] == "s" else 6
        sowable = [p for p in range(first, first + 6) if pits[p] >= 2]
        if sowable:
            chosen.append(max(sowable))
    return [line]


def from_bot(line):
    if line.startswith("bestmove") and chosen:
        return ["bestmove %d" % chosen[0]]
    return [line]


proxy.run(sys.argv[1:], to_bot=to_bot, from_bot=from_bot)
