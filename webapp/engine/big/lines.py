"""The big boards' line tables: what a stone makes of a line, and what never changes on an n×n board.

A line (a row, a column, a diagonal) is one integer, two bits a cell, and a cell's *window* along it
(the 2k-1 cells centred on it) is a shift and a mask away. This module holds the shape codes (five, open
four, four, open three...) and their weights, the table (built lazily, per k) that turns a window into
what a stone of X, and one of O, would make there, as Rapfi and Embryo do with their pattern codes, and
the ``Layout`` of each board: its lines, each cell's neighbours and windows, the Zobrist keys, and what
each line's contents make (``Layout.line_info``), remembered. ``board.py``'s board reads them all. The line
*patterns* (``pattern``: the shapes, with an open three told from a split one) are the evaluation's features:
what each line's contents are worth to the fitted evaluation, and what a stone on each of its cells would change
of it, are kept with what it makes.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

from webapp.engine.big.parameters import LINE_CACHE_LIMIT, PRIORITY, WEIGHTS

X, O, EMPTY, EDGE = "X", "O", ".", "#"
MARKS = (EMPTY, X, O)  # a cell's code on the board: 0 empty, 1 X, 2 O

# What a stone on a cell makes of one line through it, weakest first.
DEAD, ONE, TWO, OPEN_TWO, THREE, OPEN_THREE, FOUR, OPEN_FOUR, FIVE = range(9)
# Each shape's weight (``parameters.WEIGHTS``) is more than four of the shape below it, so a cell's sum over its
# four directions tells its strongest shape: a cell worth FOUR_W or more makes at least a four.
THREE_W, FOUR_W, FIVE_W = WEIGHTS[OPEN_THREE], WEIGHTS[FOUR], WEIGHTS[FIVE]
# Two fours (in two directions) or an open four: two ways to complete a line next move, which one
# block cannot stop. A four and up to three open threes stay below it (300 + 3 × 60 = 480).
DOUBLE_W = 2 * FOUR_W
# Two open threes at once (in two directions): below a four, and above one open three with the rest (60 + 3 × 14).
DOUBLE_THREE_W = 2 * THREE_W
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
# One step weaker for each shape a further stone would make: one move from an open four is an open three.
_WEAKER = {OPEN_FOUR: OPEN_THREE, FOUR: THREE, OPEN_THREE: OPEN_TWO, THREE: TWO, OPEN_TWO: ONE, TWO: ONE, ONE: ONE}
# X's weight and O's are kept in one integer, O's above X's: one addition updates both.
SHIFT = 32
LOW = (1 << SHIFT) - 1
FIVE_HIGH, FOUR_HIGH, DOUBLE_HIGH = FIVE_W << SHIFT, FOUR_W << SHIFT, DOUBLE_W << SHIFT
# A window's two bits for each cell: empty, X, O, or off the board.
_CODE_CHARS = (EMPTY, X, O, EDGE)
_NO_THREATS: tuple[()] = ()
# What a line's contents make (``Layout.line_info``): its weights' sum, its threats (cell, weights), its four cells, its
# five cells, each place's ordering part with X to move and with O, and its evaluation part with X to move and with O.
LineInfo = tuple[
    int, tuple[tuple[int, int], ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], int, int
]


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


# The line patterns, the evaluation's features (``evaluation.py``): what a stone on an empty cell makes of one line.
LINE_PATTERNS = ("five", "open_four", "four", "open_three", "split_three", "three", "open_two", "two")
NO_PATTERN = len(LINE_PATTERNS)  # a one, or a dead line: no feature
_PATTERN_OF_SHAPE = {FIVE: 0, OPEN_FOUR: 1, FOUR: 2, THREE: 5, OPEN_TWO: 6, TWO: 7}


@cache
def pattern(window: str, k: int) -> int:
    """The line pattern (an index into ``LINE_PATTERNS``) the ``X`` at the centre of ``window`` makes; ``O`` blocks.

    An open three is told from a split one by its ways to an open four: two for ``..XXX..``, one for ``.X.XX.``
    (or for a three with room on one side only).

    >>> [LINE_PATTERNS[pattern(w, 5)] for w in ("..XXXX...", "..XXX....", "...XX.X..", "OXXXX....", "O.XXX..O.")]
    ['open_four', 'open_three', 'split_three', 'four', 'split_three']
    """
    shape = _shape(window, k)
    if shape != OPEN_THREE:
        return _PATTERN_OF_SHAPE.get(shape, NO_PATTERN)
    empties = [i for i, c in enumerate(window) if c == EMPTY]
    ways = sum(1 for i in empties if _shape(window[:i] + X + window[i + 1 :], k) == OPEN_FOUR)
    return 3 if ways > 1 else 4


def patterns(code: int, k: int) -> tuple[int, int]:
    """The line patterns a stone of X, and one of O, would make at the (empty) centre of the window ``code``.

    >>> patterns(3 | 1 << 10 | 1 << 12 | 1 << 14, 5)  # '#....XXX.': X makes an open four, O nothing
    (1, 8)
    """
    for_x, for_o = _for_each_side(window_of(code, k), k)
    return pattern(for_x, k), pattern(for_o, k)


def _for_each_side(window: str, k: int) -> tuple[str, str]:
    """``window`` with a stone of X at its centre, and with one of O's shown as an X (the other side as O, the edge
    as a blocking O), so that one function reads both."""
    r = k - 1
    for_x = window.replace(EDGE, O)
    for_o = window.translate(str.maketrans(X + O + EDGE, O + X + O))
    return for_x[:r] + X + for_x[r + 1 :], for_o[:r] + X + for_o[r + 1 :]


def window_of(code: int, k: int) -> str:
    """The 2k-1 cells a window code stands for, from the far left: ``#`` is off the board.

    >>> window_of(3 | 1 << 10 | 1 << 12 | 1 << 14, 5)  # two bits a cell: an edge, four empty, then X X X
    '#....XXX.'
    """
    return "".join(_CODE_CHARS[code >> 2 * p & 3] for p in range(2 * k - 1))


def weigh(code: int, k: int) -> int:
    """What a stone of X, and one of O, would make at the (empty) centre of the window ``code``: both weights
    in one integer."""
    for_x, for_o = _for_each_side(window_of(code, k), k)
    return WEIGHTS[_shape(for_x, k)] | WEIGHTS[_shape(for_o, k)] << SHIFT


@cache
def weight_table(k: int) -> list[int | None]:
    """Window code -> both sides' weights, filled in as codes come up (at most 4**(2k-1) entries)."""
    return [None] * (4 ** (2 * k - 1))


def _threat_part(value: int) -> int:
    """Of both sides' weights ``value``, the part that is an open three or more: what the threat scans read.

    >>> _threat_part(WEIGHTS[FOUR] | WEIGHTS[TWO] << SHIFT) == WEIGHTS[FOUR]
    True
    """
    x, o = value & LOW, value >> SHIFT
    return (x if x >= THREE_W else 0) | (o if o >= THREE_W else 0) << SHIFT


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
    """What never changes on an n×n board with k to win: its lines, neighbours and keys.

    Each line is one integer, two bits a cell (as ``MARKS`` numbers them), padded with k-1 cells off the board
    at each end, so that a cell's window is ``contents >> shift & mask``.
    """

    def __init__(self, n: int, k: int, values: Callable[[tuple[int, int]], tuple[int, int]]):
        self.n, self.k = n, k
        # A cell's line patterns for X and O -> what they add to the evaluation with X to move, and with O to move
        # (``evaluation.Weights.part``).
        self.values = values
        # Window code -> that, and the patterns themselves, filled in as codes come up.
        self.parts: list[tuple[int, int] | None] = [None] * (4 ** (2 * k - 1))
        self.pairs: list[tuple[int, int] | None] = [None] * (4 ** (2 * k - 1))
        cells = n * n
        r = k - 1
        self.mask = (1 << 2 * (2 * r + 1)) - 1
        where: dict[tuple[int, int], tuple[int, int]] = {}  # (direction, cell) -> (line, position in it)
        self.line_cells: list[tuple[int, ...]] = []
        self.line_start: list[int] = []
        for d, (dr, dc) in enumerate(DIRECTIONS):
            for first in range(cells):
                row, col = divmod(first, n)
                if 0 <= row - dr < n and 0 <= col - dc < n:
                    continue  # not the first cell of its line
                line: list[int] = []
                while 0 <= row < n and 0 <= col < n:
                    where[d, row * n + col] = (len(self.line_cells), len(line))
                    line.append(row * n + col)
                    row, col = row + dr, col + dc
                self.line_cells.append(tuple(line))
                edges = 0
                for p in [*range(r), *range(len(line) + r, len(line) + 2 * r)]:
                    edges |= 3 << 2 * p
                self.line_start.append(edges)
        # For each cell and direction: its line, and its place along it (its index in what the line makes).
        self.places = [tuple(where[d, c] for d in range(4)) for c in range(cells)]
        # For each cell, its four lines alone.
        self.cell_lines = [tuple(line for line, _ in places) for places in self.places]
        # For each cell, its four lines: (line, what a stone of X here adds to it; O's adds twice as much).
        self.lines = [tuple((line, 1 << 2 * (p + r)) for line, p in places) for places in self.places]
        # For each cell and direction: its line, and the shift that brings the cell's window to the low bits.
        self.windows = [tuple((line, 2 * p) for line, p in places) for places in self.places]
        # The cells within two steps: where a move is worth considering once a stone is near.
        self.near = [_square_around(cell, n, 2) for cell in range(cells)]
        self.near_sets = [frozenset(cells_near) for cells_near in self.near]
        # The cells a stone's lines reach: up to k-1 steps along each direction.
        self.reach = [
            frozenset(
                row * n + col
                for dr, dc in DIRECTIONS
                for s in range(-r, k)
                if s
                for row, col in [(cell // n + dr * s, cell % n + dc * s)]
                if 0 <= row < n and 0 <= col < n
            )
            for cell in range(cells)
        ]
        # The (up to) eight cells around each cell.
        self.around = [frozenset(_square_around(cell, n, 1)) for cell in range(cells)]
        # Zobrist keys: fixed constants, so a position's key is the same in every process.
        keys = random.Random(f"zobrist {n} {k}")
        self.zobrist = {mark: [keys.getrandbits(64) for _ in range(cells)] for mark in (X, O)}
        # Flipped in the key by a pass, so that the same stones with the other side to move differ.
        self.pass_key = keys.getrandbits(64)
        self.centre = (n // 2) * n + n // 2
        self.table = weight_table(k)
        # What a stone adds to each of its four lines, by the side's code (1, X: ``lines`` itself; 2, O: twice that).
        self.steps: tuple[list[tuple[tuple[int, int], ...]], ...] = (
            [],
            self.lines,
            [tuple((line, 2 * unit) for line, unit in ls) for ls in self.lines],
        )
        # For each line, its contents -> what it makes: lines repeat all through a search, so most are looked up.
        self.known: list[dict[int, LineInfo]] = [{} for _ in self.line_cells]
        # For each line, its contents -> what a stone on each place changes of the fitted evaluation (``changes``).
        self.changes_known: list[dict[int, tuple[tuple[int, ...], tuple[int, ...]]]] = [{} for _ in self.line_cells]
        self.remembered = 0  # entries in them all
        self.empty = [self.line_info(line, start) for line, start in enumerate(self.line_start)]

    def weight(self, code: int) -> int:
        """Both sides' weights at the centre of the window ``code``."""
        value = self.table[code]
        if value is None:
            value = self.table[code] = weigh(code, self.k)
        return value

    def part(self, code: int) -> tuple[int, int]:
        """What the centre of the window ``code`` adds to the evaluation: with X to move, and with O to move."""
        value = self.parts[code]
        if value is None:
            value = self.parts[code] = self.values(self.pair(code))
        return value

    def pair(self, code: int) -> tuple[int, int]:
        """The line patterns a stone of X, and one of O, would make at the centre of the window ``code``."""
        found = self.pairs[code]
        if found is None:
            found = self.pairs[code] = patterns(code, self.k)
        return found

    def line_info(self, line: int, contents: int) -> LineInfo:
        """What ``line`` holding ``contents`` makes: its empty cells' weights summed (both sides in one integer),
        (cell, threat weights) for each cell where either side would make an open three or more, the cells where
        either side would make a four or more, those where either side would complete the line, and each place's
        part of a move's priority there in the threat searches' ordering (``PRIORITY``), with X to move and with O
        (0 where taken); then its part of the fitted evaluation with X to move and with O."""
        info = self.known[line].get(contents)
        if info is not None:
            return info
        r, mask, weight, part = self.k - 1, self.mask, self.weight, self.part
        total = 0
        threats: list[tuple[int, int]] = []
        fours: list[int] = []
        fives: list[int] = []
        cells = self.line_cells[line]
        for_x, for_o = [0] * len(cells), [0] * len(cells)
        x_to_move = o_to_move = 0
        for p, cell in enumerate(cells):
            if contents >> 2 * (p + r) & 3:
                continue  # taken
            code = contents >> 2 * p & mask
            value = weight(code)
            total += value
            fitted = part(code)
            x_to_move += fitted[0]
            o_to_move += fitted[1]
            x, o = value & LOW, value >> SHIFT
            for_x[p], for_o[p] = PRIORITY * x + o, PRIORITY * o + x
            strongest = max(x, o)  # either side's shape there
            if strongest >= THREE_W:
                threats.append((cell, _threat_part(value)))
                if strongest >= FOUR_W:
                    fours.append(cell)
                    if strongest >= FIVE_W:
                        fives.append(cell)
        self._room()
        info = self.known[line][contents] = (
            total,
            tuple(threats) or _NO_THREATS,
            tuple(fours) or _NO_THREATS,
            tuple(fives) or _NO_THREATS,
            tuple(for_x),
            tuple(for_o),
            x_to_move,
            o_to_move,
        )
        return info

    def _room(self) -> None:
        """Count one more entry remembered, emptying every memory first when they hold ``LINE_CACHE_LIMIT``."""
        if self.remembered >= LINE_CACHE_LIMIT:
            for known in self.known:
                known.clear()
            for changes in self.changes_known:
                changes.clear()
            self.remembered = 0
        self.remembered += 1

    def changes(self, line: int, contents: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """What a stone on each empty place of ``line`` holding ``contents`` would change of the line's part of the
        fitted evaluation for the side to move next: X's stone of the part with O to move, O's of the part with X
        to move (0 where taken). A stone reaches the windows of the k-1 places either side of it, so only those are
        read again. Asked only by the move ordering, so kept apart from ``line_info``, which every stone asks."""
        found = self.changes_known[line].get(contents)
        if found is not None:
            return found
        r, mask, part = self.k - 1, self.mask, self.part
        size = len(self.line_cells[line])
        empty = [not contents >> 2 * (p + r) & 3 for p in range(size)]
        values = [part(contents >> 2 * p & mask) if empty[p] else (0, 0) for p in range(size)]
        after_x, after_o = [0] * size, [0] * size
        for p in range(size):
            if not empty[p]:
                continue
            near = [q for q in range(max(0, p - r), min(size, p + r + 1)) if q != p and empty[q]]
            for code, after, side in ((1, after_x, 1), (2, after_o, 0)):  # side: the index of the side to move next
                placed = contents + (code << 2 * (p + r))
                change = -values[p][side]
                for q in near:
                    change += part(placed >> 2 * q & mask)[side] - values[q][side]
                after[p] = change
        self._room()
        found = self.changes_known[line][contents] = (tuple(after_x), tuple(after_o))
        return found
