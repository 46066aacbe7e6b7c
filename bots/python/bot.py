#!/usr/bin/env python3
"""A complete Djenon-aboure bot in Python 3, standard library only.

Copy this folder to start your own bot. It has three parts, each in its own
module and each replaceable:

1. Rules (`rules.py`): `Position`, an independent implementation of the game
   (sowing with relays, captures of 2s and 4s, endless sowings, forced
   passes, the end).
2. Search (`search.py`): `Searcher`, iterative-deepening negamax with
   alpha-beta, scored as the final seed margin from the mover's view.
   Improve this part first.
3. Protocol (this file): `Bot`, which speaks the aboure protocol (see
   PROTOCOL.md) on stdin/stdout. The search runs on its own thread, so
   `isready` and `stop` are answered while it thinks. Outside the protocol,
   `moves POSITION` lists every legal move with the position after it
   (see ../README.md).

Run it: python3 bot.py. Test it: aboure check-bot -- python3 bot.py
"""

import random
import sys
import threading
import time

from rules import Position, parse_move
from search import Searcher, time_budget

NAME = "Python Sower 1.0"
AUTHOR = "The aboure authors"


OPTIONS = {
    # name: (default, min, max); both are ints
    "seed": (1, 0, 2**31 - 1),
    "depth": (30, 1, 64),
}

GO_LIMITS = ("stime", "ntime", "sinc", "ninc", "movetime", "depth", "nodes")
CLOCK_LIMITS = ("stime", "ntime", "sinc", "ninc")


class Bot:
    def __init__(self, out):
        self.out = out
        self.lock = threading.Lock()  # one line at a time on stdout
        self.options = {name: spec[0] for name, spec in OPTIONS.items()}
        self.rng = random.Random(self.options["seed"])
        self.position = Position.start()
        self.stop = threading.Event()
        self.thread = None
        # True from `go` until the search is done, which is just before its
        # bestmove is sent: a `go` answering that bestmove finds it False.
        self.busy = False

    def send(self, line):
        with self.lock:
            self.out.write(line + "\n")
            self.out.flush()

    def complain(self, text):
        self.send("info string " + " ".join(text.split()))

    def thinking(self):
        return self.busy

    def run(self, lines):
        for line in lines:
            if not self.handle(line):
                break
        self.stop.set()
        if self.thread is not None:
            self.thread.join()

    def handle(self, line):
        """Handles one line; returns False on quit."""
        tokens = line.split()
        if not tokens:
            return True
        command, args = tokens[0], tokens[1:]
        try:
            if command == "quit":
                return False
            elif command == "aboure":
                self.handshake(args)
            elif command == "isready":
                self.send("readyok")
            elif command == "setoption":
                self.set_option(line, args)
            elif command == "newgame":
                self.rng = random.Random(self.options["seed"])
            elif command == "position":
                self.set_position(args)
            elif command == "go":
                self.go(args)
            elif command == "stop":
                self.stop.set()
            elif command == "moves":
                self.list_moves(args)
            else:
                self.complain("ignored unknown command: " + line)
        except ValueError as e:
            self.complain("ignored %s: %s" % (line.strip(), e))
        return True

    def handshake(self, args):
        if args != ["1"]:
            self.complain("expected protocol version 1")
        self.send("id name " + NAME)
        self.send("id author " + AUTHOR)
        for name, (default, low, high) in OPTIONS.items():
            self.send("option name %s type int default %d min %d max %d"
                      % (name, default, low, high))
        self.send("aboureok")

    def set_option(self, line, args):
        # setoption name NAME value VALUE (the value is the rest of the line)
        if len(args) < 3 or args[0] != "name" or args[2] != "value":
            raise ValueError("expected setoption name NAME value VALUE")
        name, value = args[1], " ".join(args[3:])
        if name not in OPTIONS:
            raise ValueError("no option named " + name)
        _, low, high = OPTIONS[name]
        if not value.lstrip("-").isdigit() or not low <= int(value) <= high:
            raise ValueError("%s takes a whole number from %d to %d" % (name, low, high))
        if self.thinking():
            raise ValueError("still thinking")
        self.options[name] = int(value)
        if name == "seed":
            self.rng = random.Random(self.options["seed"])

    def set_position(self, args):
        # position startpos [moves ...] | position set F1 F2 F3 F4 [moves ...]
        if args[:1] == ["startpos"]:
            position, rest = Position.start(), args[1:]
        elif args[:1] == ["set"]:
            position, rest = Position.parse(args[1:5]), args[5:]
        else:
            raise ValueError("expected startpos or set")
        if rest and rest[0] != "moves":
            raise ValueError("expected moves, found " + rest[0])
        for text in rest[1:]:
            position = position.play(parse_move(text))
        self.position = position

    def go(self, args):
        if len(args) % 2:
            raise ValueError("limits come in name-value pairs")
        limits = {}
        for name, value in zip(args[::2], args[1::2]):
            if name not in GO_LIMITS or name in limits or not value.isdigit():
                raise ValueError("bad or repeated limit %s %s" % (name, value))
            limits[name] = int(value)
        if 0 < sum(name in limits for name in CLOCK_LIMITS) < 4:
            raise ValueError("stime ntime sinc ninc come together")
        if self.thinking():
            raise ValueError("already thinking")
        started = time.monotonic()  # the arbiter's clock is running
        position = self.position
        budget = time_budget(limits, position.side)
        deadline = None if budget is None else started + budget
        max_depth = min(limits.get("depth", 64), self.options["depth"])
        if self.thread is not None:
            self.thread.join()  # finished, or about to
        self.stop.clear()
        self.busy = True
        searcher = Searcher(started, deadline, max(max_depth, 1),
                            limits.get("nodes"), self.stop, self.rng,
                            self.report)
        self.thread = threading.Thread(target=self.think, args=(searcher, position))
        self.thread.start()

    def list_moves(self, args):
        """`moves POSITION`, outside the protocol: every legal move and the
        position after it, then `movesok` (see ../README.md)."""
        try:
            position = Position.parse(args)
        except ValueError as e:
            self.complain("ignored moves: %s" % e)
        else:
            for move in position.legal_moves():
                self.send("move %s %s" % (move, position.play(move)))
        self.send("movesok")

    def think(self, searcher, position):
        move = searcher.choose(position)
        self.busy = False
        self.send("bestmove %s" % move)

    def report(self, depth, score, nodes, ms, line):
        self.send("info depth %d score %d nodes %d time %d pv %s"
                  % (depth, score, nodes, ms, " ".join(map(str, line))))


def main():
    sys.stdin.reconfigure(errors="replace")
    Bot(sys.stdout).run(iter(sys.stdin.readline, ""))


if __name__ == "__main__":
    main()
