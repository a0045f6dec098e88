"""Five in a row on the big boards (7×7 and 15×15): a mutable board that keeps its threats up to date.

The searches ask the same few questions at every node: where can a side win at once, where does it
make a four, an open three, two ways to win; which moves look best. Rescanning 225 cells for each
answer is what makes a pure-Python engine slow, so this board keeps, for every cell and each of the
four directions, a *pattern code*: the 2(k-1) cells around it along that line, two bits each (empty,
X, O, off the board), as Rapfi and Embryo do. A stone changes the codes of the k-1 cells either side
of it along each direction by one addition each, and a table (built once, lazily, per k) turns a code
into what a stone of X, and one of O, would make of that line there: a five, an open four, a four, an
open three... Those shapes' weights, summed per cell over its four directions, are the static
evaluation, the move ordering and every threat scan at once.

Wins are free-style, as the rules module counts them: k or more in a row.

>>> g = Gomoku.from_text("XXXX" + "." * 11 + "OOOO" + "." * 206, 15, 5)
>>> g.wins()  # X to move completes the top row at once
[4]
>>> g.wins(opponent=True)  # and O would complete the second row on either side
[19]
"""

from __future__ import annotations

import random
from functools import cache

X, O, EMPTY, EDGE = "X", "O", ".", "#"
MARKS = (EMPTY, X, O)  # a cell's code on the board: 0 empty, 1 X, 2 O
PASS = -1  # in a game's history: the side to move let the other move (see Gomoku.pass_turn)

# What a stone on a cell makes of one line through it, weakest first.
DEAD, ONE, TWO, OPEN_TWO, THREE, OPEN_THREE, FOUR, OPEN_FOUR, FIVE = range(9)
# Each shape's weight is more than four of the shape below it, so a cell's sum over its four
# directions tells its strongest shape: a cell worth FOUR_W or more makes at least a four.
WEIGHTS = (0, 1, 4, 12, 14, 60, 300, 3000, 40000)
THREE_W, FOUR_W, FIVE_W = WEIGHTS[OPEN_THREE], WEIGHTS[FOUR], WEIGHTS[FIVE]
# Two fours (in two directions) or an open four: two ways to complete a line next move, which one
# block cannot stop. A four and up to three open threes stay below it (300 + 3 × 60 = 480).
DOUBLE_W = 2 * FOUR_W
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
# One step weaker for each shape a further stone would make: one move from an open four is an open three.
_WEAKER = {OPEN_FOUR: OPEN_THREE, FOUR: THREE, OPEN_THREE: OPEN_TWO, THREE: TWO, OPEN_TWO: ONE, TWO: ONE, ONE: ONE}
# X's weight and O's are kept in one integer, O's above X's: one addition updates both.
SHIFT = 32
LOW = (1 << SHIFT) - 1
FIVE_HIGH, FOUR_HIGH, DOUBLE_HIGH, THREE_HIGH = FIVE_W << SHIFT, FOUR_W << SHIFT, DOUBLE_W << SHIFT, THREE_W << SHIFT
# A pattern code's two bits for each neighbour: empty, X, O, or off the board.
_CODE_CHARS = (EMPTY, X, O, EDGE)


@cache
def _shape(window: str, k: int) -> int:
    """The shape the mover's stone at the centre of ``window`` makes; ``O`` blocks, ``.`` is empty.

    The window is the 2k-1 cells of one line centred on the stone, so every k in a row inside it
    passes through the centre. Bounded: there are at most 3**(2k-2) such windows.

    >>> _shape("...XXX...", 5), _shape("..OXXX...", 5), _shape("OXXXX....", 5), _shape(".XXXX.O..", 5)
    (5, 4, 6, 7)
    """
    run = X * k
    if run in window:
        return FIVE
    empties = [i for i, c in enumerate(window) if c == EMPTY]
    filled = [window[:i] + X + window[i + 1 :] for i in empties]
    completions = sum(1 for w in filled if run in w)
    if completions:
        return OPEN_FOUR if completions > 1 else FOUR
    room = any(O not in window[s : s + k] for s in range(k))
    if not room:
        return DEAD
    return _WEAKER[max((_shape(w, k) for w in filled), default=ONE)]


def window_of(code: int, k: int) -> str:
    """The line a pattern code stands for, its (empty) centre included: ``#`` is off the board.

    >>> window_of(3 | 1 << 8 | 1 << 10 | 1 << 12, 5)  # two bits a cell, from the far left: an edge, then X X X
    '#....XXX.'
    """
    r = k - 1
    chars = [_CODE_CHARS[code >> (2 * p) & 3] for p in range(2 * r)]
    return "".join(chars[:r]) + EMPTY + "".join(chars[r:])


def weigh(code: int, k: int) -> int:
    """What a stone of X, and one of O, would make of the line ``code`` describes: both weights in one integer."""
    window = window_of(code, k)
    r = k - 1
    for_x = window.replace(EDGE, O)
    for_o = window.translate(str.maketrans({X: O, O: X, EDGE: O}))
    for_x = for_x[:r] + X + for_x[r + 1 :]
    for_o = for_o[:r] + X + for_o[r + 1 :]
    return WEIGHTS[_shape(for_x, k)] | WEIGHTS[_shape(for_o, k)] << SHIFT


@cache
def weight_table(k: int) -> list[int | None]:
    """Pattern code -> both sides' weights, filled in as codes come up (at most 4**(2k-2) entries)."""
    return [None] * (4 ** (2 * (k - 1)))


def _square_around(cell: int, n: int, steps: int) -> tuple[int, ...]:
    """The other cells of the square within ``steps`` of ``cell`` on an n×n board, row by row.

    >>> _square_around(0, 15, 1)
    (1, 15, 16)
    """
    r0, c0 = divmod(cell, n)
    return tuple(
        r * n + c
        for r in range(max(0, r0 - steps), min(n, r0 + steps + 1))
        for c in range(max(0, c0 - steps), min(n, c0 + steps + 1))
        if (r, c) != (r0, c0)
    )


class Layout:
    """What never changes on an n×n board with k to win: neighbours, the codes' starting values, keys."""

    def __init__(self, n: int, k: int):
        self.n, self.k = n, k
        cells = n * n
        r = k - 1

        def position(offset: int) -> int:
            # Where a neighbour ``offset`` cells along the line sits in a code: the left ones first.
            return offset + r if offset < 0 else offset + r - 1

        on = lambda row, col: 0 <= row < n and 0 <= col < n  # noqa: E731
        # Each slot (cell * 4 + direction) starts with the off-board neighbours marked.
        self.start = [0] * (4 * cells)
        # For each cell and each mark (1 X, 2 O): (slot, its cell, what a stone here adds to that slot's code)
        # for every cell within k-1 steps along each direction, the cells whose codes a stone here changes.
        self.reach: tuple[list[tuple], list[tuple], list[tuple]] = ([], [], [])
        for cell in range(cells):
            r0, c0 = divmod(cell, n)
            touched = []
            for d, (dr, dc) in enumerate(DIRECTIONS):
                for offset in range(-r, r + 1):
                    if offset == 0:
                        continue
                    row, col = r0 + dr * offset, c0 + dc * offset
                    if not on(row, col):
                        self.start[cell * 4 + d] |= 3 << 2 * position(offset)
                    else:
                        # This cell sits ``-offset`` cells along the line from that one.
                        other = row * n + col
                        touched.append((other * 4 + d, other, 1 << 2 * position(-offset)))
            self.reach[1].append(tuple(touched))
            self.reach[2].append(tuple((slot, other, 2 * unit) for slot, other, unit in touched))
        # The cells within two steps: where a move is worth considering once a stone is near.
        self.near = [_square_around(cell, n, 2) for cell in range(cells)]
        self.near_sets = [frozenset(cells_near) for cells_near in self.near]
        # The cells a stone's lines reach: up to k-1 steps along each direction.
        self.lines = [frozenset(other for _, other, _ in touched) for touched in self.reach[1]]
        # The (up to) eight cells around each cell.
        self.around = [frozenset(_square_around(cell, n, 1)) for cell in range(cells)]
        # Zobrist keys: fixed constants, so a position's key is the same in every process.
        keys = random.Random(f"zobrist {n} {k}")
        self.zobrist = {mark: [keys.getrandbits(64) for _ in range(cells)] for mark in (X, O)}
        # Flipped in the key by a pass, so that the same stones with the other side to move differ.
        self.pass_key = keys.getrandbits(64)
        self.centre = (n // 2) * n + n // 2
        # The weights of the empty board, worked out once and copied by every new game.
        self.empty: tuple | None = None


@cache
def layout(n: int, k: int) -> Layout:
    """The layout for n×n, k to win, built once (the game only has a handful of boards)."""
    return Layout(n, k)


class Gomoku:
    """A position on a big board that the searches change in place with ``play`` and ``undo``.

    Questions without a side are asked for the side to move, the one whose turn it is now.
    """

    def __init__(self, n: int, k: int):
        self.lay = lay = layout(n, k)
        self.n, self.k = n, k
        self.table = table = weight_table(k)
        self.board = [0] * (n * n)  # 0 empty, 1 X, 2 O
        self.codes = list(lay.start)
        empty = lay.empty
        if empty is None:
            # Per slot (cell*4 + direction), both sides' weights there; per cell, their sums over the
            # four directions; and the sums over the whole board.
            self.w = [0] * (4 * n * n)
            for slot, code in enumerate(self.codes):
                value = table[code]
                if value is None:
                    value = table[code] = weigh(code, k)
                self.w[slot] = value
            self.sums = [sum(self.w[4 * c : 4 * c + 4]) for c in range(n * n)]
            self.total = sum(self.sums)
            lay.empty = (tuple(self.w), tuple(self.sums), self.total)
        else:
            w, sums, self.total = empty
            self.w, self.sums = list(w), list(sums)
        # The empty cells where either side would make an open three or more: where every threat lies.
        self.hot: set[int] = {c for c, v in enumerate(self.sums) if v >= THREE_HIGH or v & LOW >= THREE_W}
        # The empty cells within two steps of a stone (where a move is worth considering), and the taken ones.
        self.candidates: set[int] = set()
        self.occupied: set[int] = set()
        self.history: list[int] = []
        # For each stone played, what undo puts back: the cell's own weights, and each slot that changed.
        self.log: list[tuple] = []
        self.hash = 0
        self.mover = X
        self.stones = 0

    @classmethod
    def from_text(cls, text: str, n: int, k: int) -> Gomoku:
        """The board ``text`` (row-major X/O/.) describes, with X to move when the counts are level."""
        game = cls(n, k)
        xs = [i for i, c in enumerate(text) if c == X]
        os_ = [i for i, c in enumerate(text) if c == O]
        # Replaying them alternately gives the same position whatever the real order was.
        for i in range(len(xs) + len(os_)):
            game.play(xs[i // 2] if i % 2 == 0 else os_[i // 2])
        return game

    @property
    def text(self) -> str:
        return "".join(MARKS[c] for c in self.board)

    @property
    def cells(self) -> list[str]:
        """The board as marks, cell by cell."""
        return [MARKS[c] for c in self.board]

    def play(self, move: int) -> None:
        """The side to move puts a stone on the empty cell ``move``.

        Its own slots lose their weights; the codes of the cells its lines reach change by one addition each,
        and for the empty ones the weight table says what a stone there would now make. What changed is
        logged, so that ``undo`` puts it back without asking the table again.
        """
        mark = self.mover
        code = 1 if mark == X else 2
        board, codes, w, sums, table, hot = self.board, self.codes, self.w, self.sums, self.table, self.hot
        board[move] = code
        base = move * 4
        own = (w[base], w[base + 1], w[base + 2], w[base + 3], sums[move], move in hot)
        delta = -sums[move]
        w[base] = w[base + 1] = w[base + 2] = w[base + 3] = sums[move] = 0
        hot.discard(move)
        changed = []
        for slot, cell, unit in self.lay.reach[code][move]:
            key = codes[slot] = codes[slot] + unit
            if not board[cell]:
                new = table[key]
                if new is None:
                    new = table[key] = weigh(key, self.k)
                old = w[slot]
                if new != old:
                    w[slot] = new
                    diff = new - old
                    s = sums[cell] = sums[cell] + diff
                    delta += diff
                    changed.append((slot, cell, old, diff))
                    if s >= THREE_HIGH or s & LOW >= THREE_W:
                        if cell not in hot:
                            hot.add(cell)
                    elif cell in hot:
                        hot.remove(cell)
        self.total += delta
        # The cells near the stone that were not yet candidates (nor taken) become candidates.
        candidates, occupied = self.candidates, self.occupied
        added = self.lay.near_sets[move].difference(candidates, occupied)
        candidates |= added
        was = move in candidates
        candidates.discard(move)
        occupied.add(move)
        self.log.append((own, changed, delta, added, was))
        self.hash ^= self.lay.zobrist[mark][move]
        self.history.append(move)
        self.stones += 1
        self.mover = O if mark == X else X

    def pass_turn(self) -> None:
        """The side to move lets the other side move instead: how a search asks what the other side threatens."""
        self.mover = O if self.mover == X else X
        self.hash ^= self.lay.pass_key
        self.history.append(PASS)

    def undo(self) -> None:
        """Take back the last stone played (or the last pass)."""
        move = self.history.pop()
        if move == PASS:
            self.mover = O if self.mover == X else X
            self.hash ^= self.lay.pass_key
            return
        board, codes, w, sums, hot = self.board, self.codes, self.w, self.sums, self.hot
        code = board[move]
        mark = MARKS[code]
        own, changed, delta, added, was = self.log.pop()
        for slot, _, unit in self.lay.reach[code][move]:
            codes[slot] -= unit
        for slot, cell, old, diff in changed:
            w[slot] = old
            s = sums[cell] = sums[cell] - diff
            if s >= THREE_HIGH or s & LOW >= THREE_W:
                if cell not in hot:
                    hot.add(cell)
            elif cell in hot:
                hot.remove(cell)
        base = move * 4
        w[base], w[base + 1], w[base + 2], w[base + 3], sums[move], was_hot = own
        if was_hot:
            hot.add(move)
        self.total -= delta
        board[move] = 0
        self.hash ^= self.lay.zobrist[mark][move]
        candidates = self.candidates
        candidates -= added
        if was:
            candidates.add(move)
        self.occupied.discard(move)
        self.stones -= 1
        self.mover = mark

    # --- what the weights say -------------------------------------------------------------------

    def wins(self, opponent: bool = False) -> list[int]:
        """The cells where the side to move (or, if ``opponent``, the other side) completes k in a row."""
        sums = self.sums
        if (self.mover == X) != opponent:
            found = [c for c in self.hot if sums[c] & LOW >= FIVE_W]
        else:
            found = [c for c in self.hot if sums[c] >= FIVE_HIGH]
        if len(found) > 1:
            found.sort()
        return found

    def completions(self, mark: str) -> tuple[list[int], list[int]]:
        """The cells where ``mark`` completes k in a row, and where the other side does, each in cell order."""
        sums = self.sums
        found = [c for c in self.hot if sums[c] >= FIVE_HIGH or sums[c] & LOW >= FIVE_W]
        if not found:
            return found, found
        found.sort()
        high = [c for c in found if sums[c] >= FIVE_HIGH]
        low = [c for c in found if sums[c] & LOW >= FIVE_W]
        return (low, high) if mark == X else (high, low)

    def threats(self, mark: str, weight: int) -> list[int]:
        """``mark``'s cells worth ``weight`` (THREE_W or more) or more (FOUR_W: its fours; THREE_W: its open
        threes too), strongest first, then those most in the other side's way."""
        sums = self.sums
        if mark == X:
            cells = [c for c in self.hot if sums[c] & LOW >= weight]
            cells.sort(key=lambda c: (-(2 * (sums[c] & LOW) + (sums[c] >> SHIFT)), c))
        else:
            bar = weight << SHIFT
            cells = [c for c in self.hot if sums[c] >= bar]
            cells.sort(key=lambda c: (-(2 * (sums[c] >> SHIFT) + (sums[c] & LOW)), c))
        return cells

    def has(self, mark: str, weight: int) -> bool:
        """Whether ``mark`` has a cell worth ``weight`` (THREE_W or more) or more (DOUBLE_W: a double to make)."""
        sums = self.sums
        if mark == X:
            return any(sums[c] & LOW >= weight for c in self.hot)
        bar = weight << SHIFT
        return any(sums[c] >= bar for c in self.hot)

    def answers(self, mark: str) -> list[int] | None:
        """The other side's only hopes against ``mark``'s double in the making (an open three, say): the cells
        where ``mark`` would make a four, those it wants most first, then the other side's own fours; None if
        ``mark`` has no double to make.

        Any other move leaves the double: a stone spoils a double only on its cell or on one of its
        completions, and each of those is, before the double is made, a cell where ``mark`` makes a four.
        """
        sums = self.sums
        cand = self.hot
        if mark == X:
            if not any(sums[c] & LOW >= DOUBLE_W for c in cand):
                return None
            cells = [c for c in cand if sums[c] & LOW >= FOUR_W or sums[c] >= FOUR_HIGH]
            cells.sort(key=lambda c: (-(sums[c] & LOW), -(sums[c] >> SHIFT), c))
        else:
            if not any(sums[c] >= DOUBLE_HIGH for c in cand):
                return None
            cells = [c for c in cand if sums[c] >= FOUR_HIGH or sums[c] & LOW >= FOUR_W]
            cells.sort(key=lambda c: (-(sums[c] >> SHIFT), -(sums[c] & LOW), c))
        return cells

    def worth(self, cell: int, mark: str) -> int:
        """The weight of a stone of ``mark`` on ``cell``: its shapes' weights summed over the four directions."""
        s = self.sums[cell]
        return s & LOW if mark == X else s >> SHIFT

    def forcing(self) -> list[int]:
        """The moves that make at least a four for the side to move, strongest first (then most in the way)."""
        me = self.mover
        sums = self.sums
        if me == X:
            fours = [c for c in self.hot if sums[c] & LOW >= FOUR_W]
            fours.sort(key=lambda c: (-(sums[c] & LOW), -(sums[c] >> SHIFT), c))
        else:
            fours = [c for c in self.hot if sums[c] >> SHIFT >= FOUR_W]
            fours.sort(key=lambda c: (-(sums[c] >> SHIFT), -(sums[c] & LOW), c))
        return fours

    def moves(self, limit: int | None = None) -> list[int]:
        """The moves worth searching, best-looking first: near the stones, strongest in attack and defence."""
        if not self.candidates:
            return [self.lay.centre] if self.stones == 0 else self.legal()
        sums = self.sums
        # Attack counts double, so that making a four goes before blocking a mere three, while
        # blocking a threat to make an open four or five still goes before a three of one's own.
        # One integer per cell sorts fastest: the priority, then the cell (the lower first among equals).
        if self.mover == X:
            keys = [(2 * (v & LOW) + (v >> SHIFT)) * 1024 + 1023 - c for c in self.candidates for v in (sums[c],)]
        else:
            keys = [(2 * (v >> SHIFT) + (v & LOW)) * 1024 + 1023 - c for c in self.candidates for v in (sums[c],)]
        keys.sort(reverse=True)
        if limit is not None:
            keys = keys[:limit]
        return [1023 - (key & 1023) for key in keys]

    def legal(self) -> list[int]:
        """Every empty cell."""
        return [c for c, code in enumerate(self.board) if not code]

    def full(self) -> bool:
        return self.stones == len(self.board)

    def dead(self) -> bool:
        """Whether no empty cell could ever be part of k in a row for either side: a certain draw."""
        return self.total == 0

    def key(self) -> int:
        return self.hash

    def evaluate(self) -> int:
        """A static judgement for the side to move: its threats and chances minus the opponent's."""
        tx, to = self.total & LOW, self.total >> SHIFT
        mine, theirs = (tx, to) if self.mover == X else (to, tx)
        # The side to move gets to use its threats first, so they count a little more.
        return mine + mine // 4 - theirs

    def score(self, move: int) -> tuple[int, int]:
        """(attack, defence): the weight of ``move`` for the side to move, and for the opponent."""
        s = self.sums[move]
        return (s & LOW, s >> SHIFT) if self.mover == X else (s >> SHIFT, s & LOW)

    def shape(self, cell: int, direction: int, mark: str) -> int:
        """The shape a stone of ``mark`` on the empty ``cell`` makes along ``direction`` (0 on a taken cell)."""
        value = self.w[cell * 4 + direction]
        return WEIGHTS.index(value & LOW if mark == X else value >> SHIFT)
