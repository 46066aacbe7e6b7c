#!/usr/bin/env python3
"""A bot that sends every `bestmove` twice.
Usage: answers_twice.py COMMAND... (the real bot behind it)."""

import sys

import proxy

proxy.run(
    sys.argv[1:],
    from_bot=lambda line: [line, line] if line.startswith("bestmove") else [line],
)
