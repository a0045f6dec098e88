"""Five in a row on the big boards (7×7 and 15×15): a mutable board that keeps its threats up to date.

The searches ask the same few questions at every node: where can a side win at once, where does it
make a four, an open three, two ways to win; which moves look best. Rescanning 225 cells for each
answer is what makes a pure-Python engine slow. So this board keeps each line (a row, a column, a
diagonal) as one integer, two bits a cell, and a cell's *window* along a line (the 2k-1 cells centred
on it) is a shift and a mask away: a table turns a window into what a stone of X, and one of O, would
make of that line there (``lines.py`` holds the shapes, their weights, the tables and each board's
``Layout``). Those shapes' weights, summed per cell over its four lines, are every threat scan; the line
*patterns*, weighed by the fit (``evaluation.py``), are the static evaluation and the alpha-beta's move
ordering.

A stone changes four integers. What a line's contents make (its empty cells' weights summed, and the
cells where a side would make an open three or more) is looked up per line (``Layout.line_info``), and
lines repeat all through a search, so a move costs four lookups rather than a window for each of the
cells it touches.

Wins are free-style, as the rules module counts them: k or more in a row.

>>> g = Gomoku.from_text("XXXX" + "." * 11 + "OOOO" + "." * 206, 15, 5)
>>> g.wins()  # X to move completes the top row at once
[4]
>>> g.wins(opponent=True)  # and O would complete the second row on either side
[19]
"""

from __future__ import annotations

from functools import cache
from typing import Literal, cast

from webapp.engine.big.evaluation import FITTED
from webapp.engine.big.lines import (
    DEAD,
    DIRECTIONS,
    DOUBLE_HIGH,
    DOUBLE_THREE_W,
    DOUBLE_W,
    EMPTY,
    FIVE_HIGH,
    FIVE_W,
    FOUR_HIGH,
    FOUR_W,
    LOW,
    MARKS,
    OPEN_THREE,
    SHIFT,
    THREE_W,
    Layout,
    LineInfo,
    O,
    X,
)
from webapp.engine.big.parameters import WEIGHTS
from webapp.engine.boards import board_for


@cache
def layout(n: int, k: int) -> Layout:
    """The layout for n×n, k to win, with the fitted weights: built once (the game only has a handful of boards).

    >>> layout(15, 5) is layout(15, 5), layout(7, 5).n
    (True, 7)
    """
    return Layout(n, k, FITTED.part)


PASS = -1  # in a game's history: the side to move let the other move (see Gomoku.pass_turn)
_NO_CELLS: frozenset[int] = frozenset()
# A cell's combinations, counted per side in one integer (``Gomoku.combos``): X's four-threes in the lowest 16 bits,
# then X's three-threes, O's four-threes and O's three-threes.
FIELD = 16
_FIELD_MASK = (1 << FIELD) - 1
# Added to a move's change of the evaluation in its sort key (``Gomoku.valued``), which must not go below zero.
_ORDER_OFFSET = 1 << 40


def _combination(weight: int) -> int:
    """One side's threat weight at a cell as its combination there: 1 a four-three, 1 << FIELD a three-three.

    >>> _combination(FOUR_W + THREE_W), _combination(2 * THREE_W) == 1 << FIELD, _combination(2 * FOUR_W)
    (1, True, 0)
    """
    if FOUR_W + THREE_W <= weight < DOUBLE_W:  # a four and an open three or more, but not two fours: those win
        return 1
    if DOUBLE_THREE_W <= weight < FOUR_W:
        return 1 << FIELD
    return 0


def _sums() -> set[int]:
    """Every threat weight a cell can have for one side: over its four lines, each none, or a three's or more."""
    found = {0}
    for _ in DIRECTIONS:
        found |= {s + w for s in found for w in WEIGHTS[OPEN_THREE:]}
    return found


# Both sides' threat weights at a cell -> both sides' combinations there, packed as in ``Gomoku.combos``.
COMBINATIONS = {x | o << SHIFT: _combination(x) | _combination(o) << 2 * FIELD for x in _sums() for o in _sums()}


def grid(n: int, stones: dict[int, str]) -> str:
    """The text of an n×n board with ``stones`` (cell -> mark) on it, for examples.

    >>> grid(3, {4: X})
    '....X....'
    """
    return "".join(stones.get(cell, EMPTY) for cell in range(n * n))


def _recount(gone: tuple[int, ...], come: tuple[int, ...], counts: list[int], members: set[int]) -> None:
    """One line's ``gone`` cells out of ``counts`` (how many lines give each cell a shape) and its ``come`` cells in,
    ``members`` kept to the cells with any."""
    for cell in gone:
        left = counts[cell] = counts[cell] - 1
        if not left:
            members.discard(cell)
    for cell in come:
        now = counts[cell] = counts[cell] + 1
        if now == 1:
            members.add(cell)


class Gomoku:
    """A position on a big board that the searches change in place with ``play`` and ``undo``.

    Questions without a side are asked for the side to move, the one whose turn it is now. The board keeps,
    per cell, both sides' *threat* weights (open threes and more, summed over its four lines): what every
    threat question reads, with the set of cells that have any. A cell's weights in full (for the move
    ordering) are read off its four windows when asked.
    """

    def __init__(self, n: int, k: int):
        self.lay = lay = layout(n, k)
        self.n, self.k = n, k
        self.board = [0] * (n * n)  # 0 empty, 1 X, 2 O
        self.lines = list(lay.line_start)
        self.infos = list(lay.empty)
        self.threat = [0] * (n * n)
        # Per cell, how many of its lines give either side a four or more there, and the cells with any: a few, where
        # every question about fours and fives looks.
        self.four_lines = [0] * (n * n)
        # The same for a five: the cells where a side completes a line, asked about at every node of every search.
        self.five_lines = [0] * (n * n)
        for _, threats, fours, fives, *_ in self.infos:
            for cell, value in threats:
                self.threat[cell] += value
            for cell in fours:
                self.four_lines[cell] += 1
            for cell in fives:
                self.five_lines[cell] += 1
        self.fours: set[int] = {c for c, v in enumerate(self.four_lines) if v}
        self.fives: set[int] = {c for c, v in enumerate(self.five_lines) if v}
        # The empty cells where either side would make an open three or more: where every threat lies.
        self.hot: set[int] = {c for c, v in enumerate(self.threat) if v}
        # Every empty cell's weights in full, summed: zero when nobody can complete a line any more.
        self.total = sum(info[0] for info in self.infos)
        # The lines' parts of the fitted evaluation, with X to move and with O to move, and the cells' combinations.
        self.value_x = sum(info[6] for info in self.infos)
        self.value_o = sum(info[7] for info in self.infos)
        # The empty cells within two steps of a stone (where a move is worth considering), and the taken ones.
        self.candidates: set[int] = set()
        self.occupied: set[int] = set()
        self.history: list[int] = []
        # For each stone played, what undo puts back: its lines' infos, and the candidates it added.
        self.log: list[tuple[list[LineInfo], frozenset[int], bool, tuple[int, int, int]]] = []
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

    @classmethod
    def for_board(cls, text: str) -> Gomoku:
        """The board ``text`` describes, on whichever board its length names (validated by the caller).

        >>> Gomoku.for_board("." * 112 + "X" + "." * 112).n
        15
        """
        spec = board_for(text)
        return cls.from_text(text, spec.n, spec.k)

    @property
    def text(self) -> str:
        return "".join(MARKS[c] for c in self.board)

    @property
    def cells(self) -> list[str]:
        """The board as marks, cell by cell."""
        return [MARKS[c] for c in self.board]

    def play(self, move: int) -> None:
        """The side to move puts a stone on the empty cell ``move``.

        Its four lines change by one addition each; each line's old threats leave the cells' sums and its new
        ones come in. The old infos are logged, so that ``undo`` swaps them back without a lookup.
        """
        # The cells near the stone that were not yet candidates (nor taken) become candidates.
        candidates, occupied = self.candidates, self.occupied
        added = self.lay.near_sets[move].difference(candidates, occupied)
        was = move in candidates
        self._place(move, added, was)
        candidates |= added
        candidates.discard(move)
        occupied.add(move)

    def push(self, move: int) -> None:
        """``play`` for the threat searches and the alpha-beta's horizon, which never ask which moves are worth
        searching: the candidates (a set difference and two updates a stone) are left as they were until ``undo``
        takes it back. Every push is undone before ``moves`` is asked again (engine.md, *Inside the alpha-beta*)."""
        self._place(move, _NO_CELLS, False)

    def _place(self, move: int, added: frozenset[int], was: bool) -> None:
        """The stone of the side to move on ``move``, its lines, key and turn updated; logged for ``undo`` with its
        lines' old infos and the total before it, and (from ``play``) the candidates it adds and whether it was one."""
        mark = self.mover
        code = 1 if mark == X else 2
        self.board[move] = code
        lines, infos = self.lines, self.infos
        lay = self.lay
        known, line_info = lay.known, lay.line_info
        total, value_x, value_o = before = self.total, self.value_x, self.value_o
        old_infos: list[LineInfo] = []
        for line, step in lay.steps[code][move]:
            contents = lines[line] = lines[line] + step
            old = infos[line]
            new = known[line].get(contents) or line_info(line, contents)
            infos[line] = new
            old_infos.append(old)
            total += new[0] - old[0]
            value_x += new[6] - old[6]
            value_o += new[7] - old[7]
            if old[1] != new[1]:
                self._swap(old, new)
        self.total, self.value_x, self.value_o = total, value_x, value_o
        self.log.append((old_infos, added, was, before))
        self.hash ^= lay.zobrist[mark][move]
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
        board, lines, infos = self.board, self.lines, self.infos
        code = board[move]
        mark = MARKS[code]
        old_infos, added, was, (self.total, self.value_x, self.value_o) = self.log.pop()
        for (line, step), old in zip(self.lay.steps[code][move], old_infos, strict=True):
            lines[line] -= step
            new = infos[line]
            infos[line] = old
            if new[1] != old[1]:
                self._swap(new, old)
        board[move] = 0
        self.hash ^= self.lay.zobrist[mark][move]
        candidates = self.candidates
        candidates -= added
        if was:
            candidates.add(move)
        self.occupied.discard(move)
        self.stones -= 1
        self.mover = mark

    def _swap(self, gone: LineInfo, come: LineInfo) -> None:
        """One line's threats out of the cells' sums and its new ones in (``gone`` and ``come`` are line infos),
        the hot set, the four cells and the five cells kept to the cells with any. Called only when the threats
        differ: most stones change a line's weights but not its threats, and skip the call."""
        threat, hot = self.threat, self.hot
        for cell, value in gone[1]:
            left = threat[cell] = threat[cell] - value
            if not left:
                hot.discard(cell)
        for cell, value in come[1]:
            now = threat[cell] = threat[cell] + value
            if now == value:
                hot.add(cell)
        if gone[2] != come[2]:
            _recount(gone[2], come[2], self.four_lines, self.fours)
            if gone[3] != come[3]:  # a line's fives are among its fours
                _recount(gone[3], come[3], self.five_lines, self.fives)

    # --- what the weights say -------------------------------------------------------------------

    def weights(self, cell: int) -> int:
        """Both sides' weights in full for a stone on the empty ``cell``, summed over its four windows."""
        return self.weights_of((cell,))[0]

    def weights_of(self, cells: list[int] | tuple[int, ...]) -> list[int]:
        """``weights`` of each of ``cells``, in one pass (``ranked`` orders the answers and fours by them).

        >>> g = Gomoku.from_text(grid(15, {112: X}), 15, 5)
        >>> g.weights_of([111, 113]) == [g.weights(111), g.weights(113)]
        True
        """
        lines, lay = self.lines, self.lay
        # Every window around an empty cell was weighed when its line's info was made: no entry read here is None.
        table, mask, windows = cast("list[int]", lay.table), lay.mask, lay.windows
        found = []
        try:
            # The four windows unrolled, with no call per cell.
            for cell in cells:
                (l0, s0), (l1, s1), (l2, s2), (l3, s3) = windows[cell]
                found.append(
                    table[lines[l0] >> s0 & mask]
                    + table[lines[l1] >> s1 & mask]
                    + table[lines[l2] >> s2 & mask]
                    + table[lines[l3] >> s3 & mask]
                )
        except TypeError:  # a window not weighed yet (the table fills lazily): weigh each one
            weight = lay.weight
            return [sum(weight(lines[line] >> shift & mask) for line, shift in windows[cell]) for cell in cells]
        return found

    def wins(self, opponent: bool = False) -> list[int]:
        """The cells where the side to move (or, if ``opponent``, the other side) completes k in a row."""
        threat = self.threat
        if (self.mover == X) != opponent:
            found = [c for c in self.fives if threat[c] & LOW >= FIVE_W]
        else:
            found = [c for c in self.fives if threat[c] >= FIVE_HIGH]
        if len(found) > 1:
            found.sort()
        return found

    def completions(self, mark: str) -> tuple[list[int], list[int]]:
        """The cells where ``mark`` completes k in a row, and where the other side does, each in cell order."""
        if not self.fives:
            return [], []
        threat = self.threat
        found = sorted(self.fives)
        high = [c for c in found if threat[c] >= FIVE_HIGH]
        low = [c for c in found if threat[c] & LOW >= FIVE_W]
        return (low, high) if mark == X else (high, low)

    def threats(self, mark: str, weight: int) -> list[int]:
        """``mark``'s cells worth ``weight`` (THREE_W or more) or more (FOUR_W: its fours; THREE_W: its open
        threes too), strongest first (by their weights in full), then those most in the other side's way."""
        threat = self.threat
        scan = self.fours if weight >= FOUR_W else self.hot
        if mark == X:
            cells = [c for c in scan if threat[c] & LOW >= weight]
        else:
            bar = weight << SHIFT
            cells = [c for c in scan if threat[c] >= bar]
        return self.ranked(cells, mark) if len(cells) > 1 else cells

    def has(self, mark: str, weight: int) -> bool:
        """Whether ``mark`` has a cell worth ``weight`` (THREE_W or more) or more (DOUBLE_W: a double to make)."""
        threat = self.threat
        scan = self.fours if weight >= FOUR_W else self.hot
        if mark == X:
            return any(threat[c] & LOW >= weight for c in scan)
        bar = weight << SHIFT
        return any(threat[c] >= bar for c in scan)

    def double_three(self, mark: str) -> bool:
        """Whether ``mark`` has a cell where its stone makes two open threes or more (and no four): a double
        that wins unless the other side can answer with fours.

        >>> g = Gomoku.from_text(grid(15, {95: X, 96: X, 127: X, 142: X, 0: O, 14: O, 210: O, 224: O}), 15, 5)
        >>> g.double_three("X"), g.double_three("O"), g.threat_worth(97, "X")  # X X at 95, 96 and X . X X below 97
        (True, False, 120)
        """
        threat = self.threat
        if mark == X:
            return any(DOUBLE_THREE_W <= threat[c] & LOW < FOUR_W for c in self.hot)
        return any(DOUBLE_THREE_W <= threat[c] >> SHIFT < FOUR_W for c in self.hot)

    def answers(self, mark: str) -> list[int] | None:
        """The other side's only hopes against ``mark``'s double in the making (an open three, say): the cells
        where ``mark`` would make a four, those it wants most first, then the other side's own fours; None if
        ``mark`` has no double to make.

        Any other move leaves the double: a stone spoils a double only on its cell or on one of its
        completions, and each of those is, before the double is made, a cell where ``mark`` makes a four.
        """
        threat = self.threat
        hot = self.fours  # a four or more, for one side or the other: all the cells asked about here
        if mark == X:
            if not any(threat[c] & LOW >= DOUBLE_W for c in hot):
                return None
        elif not any(threat[c] >= DOUBLE_HIGH for c in hot):
            return None
        cells = [c for c in hot if threat[c] & LOW >= FOUR_W or threat[c] >= FOUR_HIGH]
        return self.ranked(cells, mark, own_first=True)

    def worth(self, cell: int, mark: str) -> int:
        """The weight of a stone of ``mark`` on the empty ``cell``: its shapes' weights summed over the four lines."""
        s = self.weights(cell)
        return s & LOW if mark == X else s >> SHIFT

    def threat_worth(self, cell: int, mark: str) -> int:
        """``worth`` counting only the open threes and more: the same as it from an open three up, and cheaper."""
        s = self.threat[cell]
        return s & LOW if mark == X else s >> SHIFT

    def forcing(self) -> list[int]:
        """The moves that make at least a four for the side to move, strongest first (then most in the way)."""
        threat = self.threat
        if self.mover == X:
            fours = [c for c in self.fours if threat[c] & LOW >= FOUR_W]
        else:
            fours = [c for c in self.fours if threat[c] >> SHIFT >= FOUR_W]
        return self.ranked(fours, self.mover, own_first=True)

    def moves(self, limit: int | None = None) -> list[int]:
        """The moves worth searching, best first by the fitted evaluation of the position each leaves (``valued``):
        the empty cells near the stones."""
        if not self.candidates:
            return [self.lay.centre] if self.stones == 0 else self.legal()
        return self.valued(list(self.candidates), limit)

    def valued(self, cells: list[int], limit: int | None = None) -> list[int]:
        """``cells`` (empty) best first for the side to move by the fitted evaluation of the position each leaves
        (the lines through it alone change), then the lower cell first; the first ``limit`` of them, and any as good
        as the last of those.

        >>> g = Gomoku.from_text(grid(15, {112: X, 113: X, 0: O, 14: O}), 15, 5)  # X to move, an open two
        >>> g.valued([1, 111, 114, 100])[:2]  # the two that make it an open three, the lower first
        [111, 114]
        """
        lay, lines = self.lay, self.lines
        places, cell_lines, known, changes = lay.places, lay.cell_lines, lay.changes_known, lay.changes
        i = 0 if self.mover == X else 1  # what the stone changes of the other side's evaluation, which we want low
        # Each line the cells lie on, read once: what a stone on each of its places would change.
        of = {
            line: (known[line].get(lines[line]) or changes(line, lines[line]))[i]
            for line in set().union(*[cell_lines[cell] for cell in cells])
        }
        keys = []
        for cell in cells:
            (l0, p0), (l1, p1), (l2, p2), (l3, p3) = places[cell]
            change = of[l0][p0] + of[l1][p1] + of[l2][p2] + of[l3][p3]
            keys.append((_ORDER_OFFSET - change) << 10 | 1023 - cell)
        keys.sort(reverse=True)
        if limit is not None and limit < len(keys):
            # Never cut between equals: mirror images of one move stay together, as a symmetric position needs.
            last = keys[limit - 1] >> 10
            while limit < len(keys) and keys[limit] >> 10 == last:
                limit += 1
            keys = keys[:limit]
        return [1023 - (key & 1023) for key in keys]

    def ranked(self, cells: list[int], mark: str, own_first: bool = False, limit: int | None = None) -> list[int]:
        """``cells`` (empty) best first for ``mark``, then the lower cell first; the first ``limit`` of them.

        By the move ordering's priority (``PRIORITY``): attack counts double, so that making a four goes before
        blocking a mere three, while blocking a threat to make an open four or five still goes before a three of
        one's own. With ``own_first``, by ``mark``'s own weight there, then the other side's.

        >>> g = Gomoku.from_text(grid(15, {112: X, 113: X, 114: X, 96: O, 97: O}), 15, 5)  # X's three, O's two
        >>> g.ranked([0, 95, 98, 111, 115], "O"), g.ranked([0, 95, 98, 111, 115], "O", own_first=True)
        ([111, 115, 98, 95, 0], [98, 95, 111, 115, 0])
        """
        # One integer per cell sorts fastest: the priority, then the cell (the lower first among equals).
        if own_first:
            weights = self.weights_of(cells)
            if mark == X:
                keys = [((v & LOW) << 20 | v >> SHIFT) << 10 | 1023 - c for c, v in zip(cells, weights, strict=True)]
            else:
                keys = [((v >> SHIFT) << 20 | v & LOW) << 10 | 1023 - c for c, v in zip(cells, weights, strict=True)]
        else:
            keys = self._priorities(cells, mark)
        keys.sort(reverse=True)
        if limit is not None:
            keys = keys[:limit]
        return [1023 - (key & 1023) for key in keys]

    def _priorities(self, cells: list[int], mark: str) -> list[int]:
        """Each cell's sort key in the move ordering for ``mark``: its priority, summed over its four lines' parts
        (each line's kept with what it makes, so no window is read here), then the cell."""
        infos, places = self.infos, self.lay.places
        i: Literal[4, 5] = 4 if mark == X else 5
        keys = []
        for cell in cells:
            (l0, p0), (l1, p1), (l2, p2), (l3, p3) = places[cell]
            priority = infos[l0][i][p0] + infos[l1][i][p1] + infos[l2][i][p2] + infos[l3][i][p3]
            keys.append(priority << 10 | 1023 - cell)
        return keys

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
        """The fitted evaluation for the side to move (``evaluation.py``): the log-odds of its winning, in thousandths.

        >>> g = Gomoku.from_text(grid(15, {112: X, 113: X, 0: O, 14: O}), 15, 5)  # X to move, an open two
        >>> g.evaluate() > 0
        True
        >>> g.play(111); g.evaluate() < 0  # O to move against X's open three
        True
        """
        c = self.combos()
        x_fours_threes, x_threes_threes = c & _FIELD_MASK, c >> FIELD & _FIELD_MASK
        o_fours_threes, o_threes_threes = c >> 2 * FIELD & _FIELD_MASK, c >> 3 * FIELD
        (mine_43, mine_33), (theirs_43, theirs_33) = FITTED.cell_mover, FITTED.cell_other
        if self.mover == X:
            return (
                self.value_x
                + FITTED.constant
                + mine_43 * x_fours_threes
                + mine_33 * x_threes_threes
                + theirs_43 * o_fours_threes
                + theirs_33 * o_threes_threes
            )
        return (
            self.value_o
            + FITTED.constant
            + mine_43 * o_fours_threes
            + mine_33 * o_threes_threes
            + theirs_43 * x_fours_threes
            + theirs_33 * x_threes_threes
        )

    def combos(self) -> int:
        """Both sides' combinations, packed (``COMBINATIONS``): read off the few cells with a threat, when asked, since
        the threat searches change the board far more often than the alpha-beta evaluates it."""
        threat = self.threat
        return sum([COMBINATIONS[threat[cell]] for cell in self.hot])

    def combinations(self) -> dict[str, tuple[int, int]]:
        """Each side's cells where its stone makes a four-three, and where it makes a three-three.

        >>> g = Gomoku.from_text(grid(15, {95: X, 96: X, 127: X, 142: X, 0: O, 14: O, 210: O, 224: O}), 15, 5)
        >>> g.combinations()  # X at 97 makes two open threes
        {'X': (0, 1), 'O': (0, 0)}
        """
        c = self.combos()
        return {
            X: (c & _FIELD_MASK, c >> FIELD & _FIELD_MASK),
            O: (c >> 2 * FIELD & _FIELD_MASK, c >> 3 * FIELD),
        }

    def score(self, move: int) -> tuple[int, int]:
        """(attack, defence): the weight of ``move`` for the side to move, and for the opponent."""
        s = self.weights(move)
        return (s & LOW, s >> SHIFT) if self.mover == X else (s >> SHIFT, s & LOW)

    def window(self, cell: int, direction: int) -> int:
        """The window code of ``cell`` along ``direction``: its line's 2k-1 cells centred on it."""
        line, shift = self.lay.windows[cell][direction]
        return self.lines[line] >> shift & self.lay.mask

    def shape(self, cell: int, direction: int, mark: str) -> int:
        """The shape a stone of ``mark`` on the empty ``cell`` makes along ``direction`` (0 on a taken cell)."""
        if self.board[cell]:
            return DEAD
        value = self.lay.weight(self.window(cell, direction))
        return WEIGHTS.index(value & LOW if mark == X else value >> SHIFT)
