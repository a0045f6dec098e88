"""Five in a row on the big boards (7×7 and 15×15): a mutable board that keeps its threats up to date.

The search asks the same few questions at every node: where can the side to move win at once, where
must it block, which moves make a four, which moves look best. Rescanning 225 cells for each answer is
what makes a pure-Python engine slow, so this board keeps, for every empty cell and each of the four
directions, what a stone there would make of that line (a five, an open four, a four, an open three...)
for each side, and refreshes only the cells a move can change: the k-1 cells either side of it along
each direction. Each side's directions add up to a per-cell weight, and those weights are the static
evaluation, the move ordering and the threat scan at once.

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

# What a stone on a cell makes of one line through it, weakest first.
DEAD, ONE, TWO, OPEN_TWO, THREE, OPEN_THREE, FOUR, OPEN_FOUR, FIVE = range(9)
# Each shape's weight is more than four of the shape below it, so a cell's sum over its four
# directions tells its strongest shape: a cell worth FOUR_W or more makes at least a four.
WEIGHTS = (0, 1, 4, 12, 14, 60, 300, 3000, 40000)
FOUR_W, FIVE_W = WEIGHTS[FOUR], WEIGHTS[FIVE]
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
# One step weaker for each shape a further stone would make: one move from an open four is an open three.
_WEAKER = {OPEN_FOUR: OPEN_THREE, FOUR: THREE, OPEN_THREE: OPEN_TWO, THREE: TWO, OPEN_TWO: ONE, TWO: ONE, ONE: ONE}
# The windows seen from O's side: O becomes the mover, X and the board's edge both block.
_AS_O = str.maketrans({X: O, O: X, EDGE: O})


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


# A line window as the board holds it ('X', 'O', '.', '#' at the edge, the centre empty) to the pair
# of weights a stone of X, and one of O, would have there. At most 4**(2k-2) keys (65,536 for k = 5).
_PAIRS: dict[str, tuple[int, int]] = {}


def _pair(window: str, k: int) -> tuple[int, int]:
    r = k - 1
    for_x = window[:r] + X + window[r + 1 :]
    for_o = window.translate(_AS_O)
    for_o = for_o[:r] + X + for_o[r + 1 :]
    pair = _PAIRS[window] = (WEIGHTS[_shape(for_x.replace(EDGE, O), k)], WEIGHTS[_shape(for_o, k)])
    return pair


class Layout:
    """What never changes on an n×n board with k to win: each direction's cells laid out as one text."""

    def __init__(self, n: int, k: int):
        self.n, self.k = n, k
        cells = n * n
        pad = k - 1
        # For each direction, every line of that direction one after the other, k-1 edge marks
        # between them, so that a window of k-1 cells either side never reads into the next line.
        self.texts: list[str] = []
        self.index: list[list[int]] = []
        for dr, dc in DIRECTIONS:
            index = [0] * cells
            at = pad
            for r0 in range(n):
                for c0 in range(n):
                    if 0 <= r0 - dr < n and 0 <= c0 - dc < n:
                        continue  # not the first cell of its line
                    r, c = r0, c0
                    while 0 <= r < n and 0 <= c < n:
                        index[r * n + c] = at
                        at += 1
                        r, c = r + dr, c + dc
                    at += pad
            text = [EDGE] * at
            for cell in range(cells):
                text[index[cell]] = EMPTY
            self.texts.append("".join(text))
            self.index.append(index)
        # For each cell, the (cell, text index, slot) of every cell whose window a stone there changes.
        self.reach: list[tuple[tuple[tuple[int, int, int], ...], ...]] = []
        for cell in range(cells):
            r0, c0 = divmod(cell, n)
            groups = []
            for d, (dr, dc) in enumerate(DIRECTIONS):
                group = []
                for step in range(-pad, pad + 1):
                    r, c = r0 + dr * step, c0 + dc * step
                    if 0 <= r < n and 0 <= c < n:
                        other_cell = r * n + c
                        group.append((other_cell, self.index[d][other_cell], other_cell * 4 + d))
                groups.append(tuple(group))
            self.reach.append(tuple(groups))
        # The cells within two steps: where a move is worth considering once a stone is near.
        self.near = [
            tuple(
                r * n + c
                for r in range(max(0, r0 - 2), min(n, r0 + 3))
                for c in range(max(0, c0 - 2), min(n, c0 + 3))
                if (r, c) != (r0, c0)
            )
            for r0, c0 in (divmod(cell, n) for cell in range(cells))
        ]
        # Zobrist keys: fixed constants, so a position's key is the same in every process.
        keys = random.Random(f"zobrist {n} {k}")
        self.zobrist = {mark: [keys.getrandbits(64) for _ in range(cells)] for mark in (X, O)}
        self.centre = (n // 2) * n + n // 2
        # The weights of the empty board, worked out once and copied by every new game.
        self.empty: tuple | None = None


@cache
def layout(n: int, k: int) -> Layout:
    """The layout for n×n, k to win, built once (the game only has a handful of boards)."""
    return Layout(n, k)


class Gomoku:
    """A position on a big board that the search changes in place with ``play`` and ``undo``.

    Every question is asked for the side to move, the one whose turn it is now.
    """

    def __init__(self, n: int, k: int):
        self.lay = lay = layout(n, k)
        self.n, self.k = n, k
        self.cells = [EMPTY] * (n * n)
        self.texts = list(lay.texts)
        empty = lay.empty
        if empty is None:
            # Per cell and direction (slot cell*4+d), the weight of a stone of X there, and of O.
            self.wx = [0] * (4 * n * n)
            self.wo = [0] * (4 * n * n)
            # Per cell, the sums over its four directions; and over the whole board.
            self.sx = [0] * (n * n)
            self.so = [0] * (n * n)
            self.tx = self.to = 0
            for cell in range(n * n):
                self._rescan(cell)
            lay.empty = (tuple(self.wx), tuple(self.wo), tuple(self.sx), tuple(self.so), self.tx, self.to)
        else:
            wx, wo, sx, so, self.tx, self.to = empty
            self.wx, self.wo, self.sx, self.so = list(wx), list(wo), list(sx), list(so)
        self.near = [0] * (n * n)
        self.candidates: set[int] = set()
        self.history: list[int] = []
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
        return "".join(self.cells)

    def _rescan(self, move: int) -> None:
        # The windows of the cells within k-1 of ``move`` along each direction have changed.
        k = self.k
        r = k - 1
        cells, texts, wx, wo, sx, so = self.cells, self.texts, self.wx, self.wo, self.sx, self.so
        pairs = _PAIRS
        dx = do = 0
        for d, group in enumerate(self.lay.reach[move]):
            text = texts[d]
            for cell, at, slot in group:
                if cells[cell] == EMPTY:
                    window = text[at - r : at + r + 1]
                    pair = pairs.get(window) or _pair(window, k)
                    nx, no = pair
                else:
                    nx = no = 0
                ox, oo = wx[slot], wo[slot]
                if nx != ox:
                    wx[slot] = nx
                    sx[cell] += nx - ox
                    dx += nx - ox
                if no != oo:
                    wo[slot] = no
                    so[cell] += no - oo
                    do += no - oo
        self.tx += dx
        self.to += do

    def _set(self, move: int, mark: str) -> None:
        self.cells[move] = mark
        texts, index = self.texts, self.lay.index
        for d in range(4):
            at = index[d][move]
            text = texts[d]
            texts[d] = text[:at] + mark + text[at + 1 :]
        self._rescan(move)

    def play(self, move: int) -> None:
        """The side to move puts a stone on the empty cell ``move``."""
        mark = self.mover
        self._set(move, mark)
        self.hash ^= self.lay.zobrist[mark][move]
        near, cells, candidates = self.near, self.cells, self.candidates
        for cell in self.lay.near[move]:
            near[cell] += 1
            if near[cell] == 1 and cells[cell] == EMPTY:
                candidates.add(cell)
        candidates.discard(move)
        self.history.append(move)
        self.stones += 1
        self.mover = O if mark == X else X

    def undo(self) -> None:
        """Take back the last stone played."""
        move = self.history.pop()
        mark = self.cells[move]
        self._set(move, EMPTY)
        self.hash ^= self.lay.zobrist[mark][move]
        near, candidates = self.near, self.candidates
        for cell in self.lay.near[move]:
            near[cell] -= 1
            if near[cell] == 0:
                candidates.discard(cell)
        if near[move]:
            candidates.add(move)
        self.stones -= 1
        self.mover = mark

    def _sums(self, opponent: bool) -> list[int]:
        mine = (self.mover == X) != opponent
        return self.sx if mine else self.so

    def wins(self, opponent: bool = False) -> list[int]:
        """The cells where the side to move (or, if ``opponent``, the other side) completes k in a row."""
        sums = self._sums(opponent)
        return sorted(c for c in self.candidates if sums[c] >= FIVE_W)

    def forcing(self) -> list[int]:
        """The moves that make at least a four for the side to move: a threat to win next move."""
        mine, theirs = self._sums(False), self._sums(True)
        fours = [c for c in self.candidates if mine[c] >= FOUR_W]
        fours.sort(key=lambda c: (-mine[c], -theirs[c], c))
        return fours

    def moves(self, limit: int | None = None) -> list[int]:
        """The moves worth searching, best-looking first: near the stones, strongest in attack and defence."""
        if not self.candidates:
            return [self.lay.centre] if self.stones == 0 else self.legal()
        mine, theirs = self._sums(False), self._sums(True)
        # Attack counts double, so that making a four goes before blocking a mere three, while
        # blocking a threat to make an open four or five still goes before a three of one's own.
        ranked = sorted(self.candidates, key=lambda c: (-(2 * mine[c] + theirs[c]), c))
        return ranked if limit is None else ranked[:limit]

    def legal(self) -> list[int]:
        """Every empty cell."""
        return [c for c, mark in enumerate(self.cells) if mark == EMPTY]

    def full(self) -> bool:
        return self.stones == len(self.cells)

    def dead(self) -> bool:
        """Whether no empty cell could ever be part of k in a row for either side: a certain draw."""
        return self.tx == 0 and self.to == 0

    def key(self) -> int:
        return self.hash

    def evaluate(self) -> int:
        """A static judgement for the side to move: its threats and chances minus the opponent's."""
        mine, theirs = (self.tx, self.to) if self.mover == X else (self.to, self.tx)
        # The side to move gets to use its threats first, so they count a little more.
        return mine + mine // 4 - theirs

    def score(self, move: int) -> tuple[int, int]:
        """(attack, defence): the weight of ``move`` for the side to move, and for the opponent."""
        return self._sums(False)[move], self._sums(True)[move]
