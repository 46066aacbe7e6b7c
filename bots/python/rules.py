"""The rules of Djenon-aboure (RULES.md), on their own: positions, sowing
with relays, captures of 2s and 4s, endless sowings, legal moves and forced
passes. Nothing here reads or writes anything, so the search and the tests
can trust it. It is an independent implementation, checked against the
engine in CI (see README.md).
"""

PITS = 12  # pits 0..5 are South's row, 6..11 North's, in sowing order
ROW = 6
TOTAL_SEEDS = 48
SOUTH, NORTH = 0, 1

# (pits, pit) of the sowings found endless so far: finding one again would
# cost as much as the first time.
ENDLESS = set()


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
