"""The move choice: iterative-deepening negamax with alpha-beta, scored as
the final seed margin from the mover's view. Improve this part first.
"""

import time

from rules import ROW, TOTAL_SEEDS, SOUTH


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
