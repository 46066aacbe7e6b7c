#!/usr/bin/env python3
"""A bot that never finishes its handshake: it swallows `aboureok`.
Usage: no_aboureok.py COMMAND... (the real bot behind it)."""

import sys

import proxy

proxy.run(sys.argv[1:], from_bot=lambda line: [] if line == "aboureok" else [line])
