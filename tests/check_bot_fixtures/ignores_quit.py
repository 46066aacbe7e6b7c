#!/usr/bin/env python3
"""A bot that does not exit on `quit` (it still exits at the end of input).
Usage: ignores_quit.py COMMAND... (the real bot behind it)."""

import sys

import proxy

proxy.run(sys.argv[1:], to_bot=lambda line: [] if line.strip() == "quit" else [line])
