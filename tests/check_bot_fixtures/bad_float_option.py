#!/usr/bin/env python3
"""A bot that declares its float options with a number the protocol does
not allow (`.5`: no digit before the point), as a hand-written printer
might.
Usage: bad_float_option.py COMMAND... (the real bot behind it)."""

import sys

import proxy


def from_bot(line):
    if line.startswith("option ") and " type float default 0." in line:
        return [line.replace(" default 0.", " default .", 1)]
    return [line]


proxy.run(sys.argv[1:], from_bot=from_bot)
