#!/usr/bin/env python3
"""A complete Djenon-aboure bot in Python 3, standard library only.

Copy this file to start your own bot. It has three parts, each replaceable:

1. Rules: `Position`, an independent implementation of the game (sowing with
   relays, captures of 2s and 4s, endless sowings, forced passes, the end).
2. Search: `Searcher`, iterative-deepening negamax with alpha-beta, scored as
   the final seed margin from the mover's view. Improve this part first.
3. Protocol: `Bot`, which speaks the aboure protocol (see PROTOCOL.md) on
   stdin/stdout. The search runs on its own thread, so `isready` and `stop`
   are answered while it thinks.

Run it: python3 bot.py. Test it: aboure check-bot -- python3 bot.py
"""

import random
import sys
import threading
import time

NAME = "Python Sower 1.0"
AUTHOR = "The aboure authors"

PITS = 12  # pits 0..5 are South's row, 6..11 North's, in sowing order
ROW = 6
TOTAL_SEEDS = 48
SOUTH, NORTH = 0, 1

# (pits, pit) of the sowings found endless so far: finding one again would
# cost as much as the first time.
ENDLESS = set()


# ---------------------------------------------------------------------------
# 1. Rules
# ---------------------------------------------------------------------------

class Position:
    """A position: seed counts, the side to move, and each side's captures."""

    __slots__ = ("pits", "side", "captured")

    def __init__(self, pits, side, captured):
        self.pits = tuple(pits)
        self.side = side
        self.captured = tuple(captured)

    @staticmethod
    def start():
        return Position([4] * PITS, SOUTH, (0, 0))

    @staticmethod
    def parse(fields):
        """Parses the four fields `S0,..,S5/N6,..,N11 SIDE CAPS CAPN`.
        Raises ValueError with a reason when they are not a position."""
        if len(fields) != 4:
            raise ValueError("a position has 4 fields, found %d" % len(fields))
        rows = fields[0].split("/")
        cells = [c for row in rows for c in row.split(",")]
        if len(rows) != 2 or any(len(r.split(",")) != ROW for r in rows):
            raise ValueError("board %r is not two rows of six pits" % fields[0])
        if fields[1] not in ("s", "n"):
            raise ValueError("side %r is neither s nor n" % fields[1])
        numbers = cells + fields[2:]
        if not all(n.isdigit() and int(n) <= TOTAL_SEEDS for n in numbers):
            raise ValueError("seed counts must be numbers from 0 to 48")
        pits = [int(c) for c in cells]
        captured = (int(fields[2]), int(fields[3]))
        if sum(pits) + sum(captured) != TOTAL_SEEDS:
            raise ValueError("the seeds do not add up to 48")
        return Position(pits, SOUTH if fields[1] == "s" else NORTH, captured)

    def __str__(self):
        return "%s/%s %s %d %d" % (
            ",".join(map(str, self.pits[:ROW])),
            ",".join(map(str, self.pits[ROW:])),
            "sn"[self.side], self.captured[0], self.captured[1])

    def sow(self, pit, check=None):
        """Sows from `pit` with relays. Returns (board, captured seeds), or
        None when the sowing never ends. Some sowings relay for tens of
        thousands of laps before they repeat, so `check`, if given, is called
        every 256 laps (a search uses it to stop on time)."""
        board = list(self.pits)
        seen = set()
        laps = 0
        while True:
            state = (tuple(board), pit)
            if state in seen:
                return None  # the same state twice within one move: endless
            seen.add(state)
            laps += 1
            if check is not None and laps % 256 == 0:
                check()
            seeds = board[pit]
            board[pit] = 0
            # One seed in each pit from `pit` itself on: whole rounds first.
            rounds, rest = divmod(seeds, PITS)
            if rounds:
                board = [n + rounds for n in board]
            for i in range(pit, pit + rest):
                board[i % PITS] += 1
            last = (pit + seeds - 1) % PITS
            if board[last] == 1:
                return board, 0  # it was empty: the turn ends
            if board[last] in (2, 4):
                return board, capture(board, last)
            pit = last  # 3 or 5+: relay, lift that pit and sow on

    def child(self, pit, check=None):
        """The position after the mover sows from `pit`, or None if that is
        not a legal sowing (not the mover's, fewer than 2 seeds, endless)."""
        if pit // ROW != self.side or self.pits[pit] < 2:
            return None
        key = (self.pits, pit)
        if key in ENDLESS:
            return None
        sown = self.sow(pit, check)
        if sown is None:
            ENDLESS.add(key)
            return None
        board, taken = sown
        captured = list(self.captured)
        captured[self.side] += taken
        return Position(board, 1 - self.side, captured)

    def children(self, check=None):
        """The mover's legal sowings and the positions they lead to, as a
        list of (pit, Position)."""
        result = []
        for pit in range(self.side * ROW, self.side * ROW + ROW):
            child = self.child(pit, check)
            if child is not None:
                result.append((pit, child))
        return result

    def passed(self):
        """The same position with the other side to move."""
        return Position(self.pits, 1 - self.side, self.captured)

    def legal_moves(self):
        """Pit numbers, or ["pass"] when the mover has no sowing but the
        opponent has, or [] when the game is over."""
        moves = [pit for pit, _ in self.children()]
        if moves:
            return moves
        if self.passed().children():
            return ["pass"]
        return []

    def play(self, move):
        """The position after `move` (a pit number or "pass"); ValueError if
        the sowing is not legal. A pass is taken on trust: proving that every
        sowing of the mover is endless can take a while, and the arbiter only
        sends the passes it has checked."""
        if move == "pass":
            return self.passed()
        child = self.child(move)
        if child is None:
            raise ValueError("move %s is not legal in %s" % (move, self))
        return child

    def score(self):
        """Each side's captures plus the seeds in its row: the final score
        once the game is over."""
        south = self.captured[SOUTH] + sum(self.pits[:ROW])
        north = self.captured[NORTH] + sum(self.pits[ROW:])
        return (south, north)


def capture(board, last):
    """Takes the seeds of `last` and of every pit before it (walking
    backwards, across both rows) holding exactly 2 or 4. Returns the total."""
    taken = board[last]
    board[last] = 0
    pit = last
    for _ in range(PITS - 1):
        pit = (pit - 1) % PITS
        if board[pit] not in (2, 4):
            break
        taken += board[pit]
        board[pit] = 0
    return taken


def parse_move(text):
    if text == "pass":
        return "pass"
    if text.isdigit() and str(int(text)) == text and int(text) < PITS:
        return int(text)
    raise ValueError("%r is not a move" % text)


# ---------------------------------------------------------------------------
# 2. Search
# ---------------------------------------------------------------------------

class OutOfTime(Exception):
    pass


class Searcher:
    """Iterative-deepening negamax with alpha-beta. The score of a position
    is the seed margin (mover's score minus the opponent's) at the end of the
    line searched."""

    def __init__(self, started, deadline, max_depth, max_nodes, stop, rng,
                 report):
        self.started = started  # when the `go` arrived
        self.deadline = deadline  # time.monotonic() value, or None
        self.max_depth = max_depth
        self.max_nodes = max_nodes  # or None
        self.stop = stop  # threading.Event set by `stop` and `quit`
        self.rng = rng
        self.report = report  # called with each completed depth's info
        self.nodes = 0
        self.cut = False  # True when some line was cut at the depth limit

    def check(self):
        """Counts a node; raises OutOfTime when a limit is reached."""
        self.nodes += 1
        self.check_time()

    def check_time(self):
        if self.stop.is_set():
            raise OutOfTime()
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise OutOfTime()
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise OutOfTime()

    def root_moves(self, position):
        """The legal sowings at the root. Once one is known, the limits
        apply again: a pit whose sowing is still relaying at the deadline is
        left out (a long relay is usually an endless one)."""
        moves = []

        def check():
            if moves:
                self.check_time()

        for pit in range(position.side * ROW, position.side * ROW + ROW):
            try:
                child = position.child(pit, check)
            except OutOfTime:
                break
            if child is not None:
                moves.append((pit, child))
        return moves

    def choose(self, position):
        """The move to play: a pit, or "pass" if there is no sowing."""
        started = self.started
        moves = self.root_moves(position)
        if not moves:
            return "pass"  # never asked by the arbiter, but never stuck
        self.rng.shuffle(moves)  # the seed option picks among equal moves
        best = moves[0][0]
        for depth in range(1, self.max_depth + 1):
            self.cut = False
            try:
                score, line = self.root(moves, depth)
            except OutOfTime:
                break
            best = line[0]
            # Search the best move first at the next depth.
            moves.sort(key=lambda mc: mc[0] != best)
            elapsed = int((time.monotonic() - started) * 1000)
            self.report(depth, score, self.nodes, elapsed, line)
            if not self.cut:
                break  # every line reached the end of the game: exact
            if self.deadline is not None and \
                    time.monotonic() - started > (self.deadline - started) / 2:
                break  # the next depth would not finish in time
        return best

    def root(self, moves, depth):
        alpha, line = -TOTAL_SEEDS - 1, None
        for pit, child in moves:
            score, rest = self.negamax(child, depth - 1, -TOTAL_SEEDS - 1, -alpha)
            score = -score
            if score > alpha:
                alpha, line = score, [pit] + rest
        return alpha, line

    def negamax(self, position, depth, alpha, beta):
        self.check()
        if depth == 0:
            self.cut = True
            return evaluate(position), []
        moves = position.children(self.check_time)
        if not moves:
            passed = position.passed()
            if not passed.children(self.check_time):
                return evaluate(position), []  # the game is over
            score, rest = self.negamax(passed, depth - 1, -beta, -alpha)
            return -score, ["pass"] + rest
        line = []
        for pit, child in moves:
            score, rest = self.negamax(child, depth - 1, -beta, -alpha)
            score = -score
            if score > alpha:
                alpha, line = score, [pit] + rest
                if alpha >= beta:
                    break
        return alpha, line


def evaluate(position):
    """The seed margin from the mover's view if the game ended now."""
    score = position.score()
    return score[position.side] - score[1 - position.side]


def time_budget(limits, side):
    """Seconds to think, or None when only depth, nodes or `stop` limit the
    search: the movetime, or a share of the clock, minus a margin."""
    budgets = []
    if "movetime" in limits:
        budgets.append(limits["movetime"])
    if "stime" in limits:
        mine = limits["stime" if side == SOUTH else "ntime"]
        inc = limits["sinc" if side == SOUTH else "ninc"]
        budgets.append(min(mine / 20 + inc * 3 / 4, mine / 2))
    if not budgets:
        return None
    ms = min(budgets)
    # Keep a tenth, and at least 25 ms, for the answer to travel and for
    # a busy machine; never plan on less than a third of the allowance.
    return max(ms - max(25, ms / 10), ms * 0.3) / 1000.0


# ---------------------------------------------------------------------------
# 3. Protocol
# ---------------------------------------------------------------------------

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
