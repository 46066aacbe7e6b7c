#!/usr/bin/env python3
"""A bot that never hears `stop`: it answers only when its own limits run out.
Usage: ignores_stop.py COMMAND... (the real bot behind it)."""

import sys

import proxy

proxy.run(sys.argv[1:], to_bot=lambda line: [] if line.strip() == "stop" else [line])
