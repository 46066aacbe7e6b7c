#!/usr/bin/env python3
"""A bot that crashes on `position set ...` (status 3, with a message on
stderr, as a bot with a parser bug would).
Usage: crashes_on_set.py COMMAND... (the real bot behind it)."""

import os
import sys

import proxy


def to_bot(line):
    if line.split()[:2] == ["position", "set"]:
        sys.stderr.write("crashes_on_set: cannot read %r\n" % line)
        sys.stderr.flush()
        os._exit(3)
    return [line]


proxy.run(sys.argv[1:], to_bot=to_bot)
