"""Exact play on the small boards beyond 3×3 (4×4 and 5×5, four in a row): a tuned negamax.

Values are negamax values on the scale of ``webapp.engine.levels``: 0 for a draw, and for a win
``WIN`` plus the empty cells left when the game ends (a loss is the negative), so a faster win
and a slower loss are worth more. What makes it fast, largest first:

* one scan of the lines still open at each node, which finds the side to move's immediate win,
  the opponent's threats (one is a forced block, two are a loss) and the lines nobody can complete
  any more; once no line is open the game is a draw, and the cells on no open line are all alike,
  so one of them stands for the rest;
* a transposition table keyed on the least of the position's eight rotations and reflections,
  holding both bounds a window search leaves and the best move (turned into the key's frame);
* that best move tried first, then the cells on the most lines;
* two integers for the board (webapp.engine.bitboard), the eight images kept up to date by addition.

>>> search = ExactSearch(4, 4)
>>> search.solve("." * 16)  # the empty 4×4 board is a draw
0
>>> search.value_of_move("XXX.OOO.........", 3) == WIN + 9  # X wins at once, 9 cells still empty
True
"""

from __future__ import annotations

from collections.abc import Callable
from operator import add

from webapp.engine.bitboard import BitGeometry, bit_geometry, bits_of
from webapp.engine.rules import EMPTY

# The same scale as webapp.engine.levels.WIN (a test holds them equal).
WIN = 100
INF = 10**6


class OutOfBudget(Exception):
    """A search was stopped at its node budget before it proved a value."""


class ExactSearch:
    """Exact values on one n×n, k-in-a-row board, with one transposition table for its lifetime.

    Make one per request (or per book entry): the table is what makes the search fast, and it is
    dropped with the object, so nothing a visitor sends outlives the request that sent it.
    ``max_nodes`` bounds the nodes each call of ``solve``/``value_of_move`` may visit, and the table
    is emptied (and refilled as the search goes on) whenever it reaches ``table_limit`` positions.
    """

    def __init__(self, n: int, k: int, *, max_nodes: int | None = None, table_limit: int | None = None):
        self.geometry = bit_geometry(n, k)
        self.table: dict[int, tuple[int, int, int]] = {}
        self.nodes = 0
        self.max_nodes = max_nodes
        self.table_limit = INF**2 if table_limit is None else table_limit
        self._search = _make_search(self.geometry, self.table, self)
        self._limit = INF**2

    # --- positions ---------------------------------------------------------------------------

    def root(self, board: str) -> Root:
        """The search's view of a board text: the bits, the images and who is to move."""
        g = self.geometry
        if len(board) != g.cells:
            raise ValueError(f"a {g.n}×{g.n} board has {g.cells} cells, not {len(board)}")
        me, them = bits_of(board)
        x_to_move = board.count("X") == board.count("O")
        x, o = (me, them) if x_to_move else (them, me)
        return Root(me, them, g.images(x, o), x_to_move, board.count(EMPTY))

    # --- values --------------------------------------------------------------------------------

    def solve(self, board: str, alpha: int = -INF, beta: int = INF) -> int:
        """The negamax value of an unfinished ``board`` for the side to move (a bound outside the window)."""
        r = self.root(board)
        return self._run(r.me, r.them, r.keys, r.x_to_move, r.empties, alpha, beta)

    def value_of_move(self, board: str, cell: int, alpha: int = -INF, beta: int = INF) -> int:
        """The value, for the side to move in ``board``, of playing the empty ``cell``."""
        r = self.root(board)
        bit = 1 << cell
        mine = r.me | bit
        if any(line & bit and line & mine == line for line in self.geometry.lines):
            return WIN + r.empties - 1
        adds = self.geometry.adds[0 if r.x_to_move else 1][cell]
        keys = tuple(map(add, r.keys, adds))
        return -self._run(r.them, mine, keys, not r.x_to_move, r.empties - 1, -beta, -alpha)

    def _run(self, me: int, them: int, keys: tuple, x_to_move: bool, empties: int, alpha: int, beta: int) -> int:
        self._limit = INF**2 if self.max_nodes is None else self.nodes + self.max_nodes
        adds_x, adds_o = self.geometry.adds
        adds_me, adds_them = (adds_x, adds_o) if x_to_move else (adds_o, adds_x)
        return self._search(me, them, keys, adds_me, adds_them, empties, alpha, beta, self.geometry.lines)

    def move_values(self, board: str, *, total_nodes: int | None = None) -> dict[int, int | None]:
        """Each empty cell's exact value for the side to move; None where the node budget ran out.

        ``total_nodes`` bounds all the moves together: each may spend what the ones before it left,
        and the first pays for most of the table that makes the others cheap.
        """
        values: dict[int, int | None] = {}
        same = _interchangeable(self.geometry, board)
        saved = self.max_nodes
        stop = None if total_nodes is None else self.nodes + total_nodes
        try:
            for cell, ch in enumerate(board):
                if ch != EMPTY:
                    continue
                twin = same.get(cell)
                if twin is not None and twin in values:
                    values[cell] = values[twin]
                    continue
                if stop is not None:
                    self.max_nodes = stop - self.nodes
                    if self.max_nodes <= 0:
                        values[cell] = None
                        continue
                try:
                    values[cell] = self.value_of_move(board, cell)
                except OutOfBudget:
                    values[cell] = None
        finally:
            self.max_nodes = saved
        return values

    def best_move(self, board: str) -> tuple[int, int]:
        """(the best value, one cell that reaches it) for the side to move; exact, with no node budget."""
        saved, self.max_nodes = self.max_nodes, None
        try:
            best, chosen = -INF, -1
            for cell in self.root_order(board):
                # Once a best is known, each other move need only show it does no better (a cheap fail-low).
                value = self.value_of_move(board, cell, best, INF)
                if value > best:
                    best, chosen = value, cell
        finally:
            self.max_nodes = saved
        return best, chosen

    def root_order(self, board: str) -> list[int]:
        """The empty cells to try at the root: the table's best first, then by the lines through them;
        of the cells on no open line, only the first (the rest are alike)."""
        same = _interchangeable(self.geometry, board)
        cells = [c for c in self.geometry.order if board[c] == EMPTY and same.get(c, c) == c]
        r = self.root(board)
        entry = self.table.get(min(r.keys))
        if entry is not None:
            first = self.geometry.inverse[r.keys.index(min(r.keys))][entry[2]]
            if first in cells:
                cells.remove(first)
                cells.insert(0, first)
        return cells

    def optimal_moves(self, board: str, *, extra_nodes: int | None = None) -> tuple[int, tuple[int, ...]]:
        """(the best value, the cells proved to keep it) for the side to move.

        One best move is always found, whatever it costs. Each other move is then only asked whether it
        reaches the best value (a null window, far cheaper than its exact value when it does not),
        within ``extra_nodes`` in all if given; a move not settled by then is left out.
        """
        top, chosen = self.best_move(board)
        stop = None if extra_nodes is None else self.nodes + extra_nodes
        return top, self._as_good(board, top, chosen, stop)

    def _as_good(self, board: str, top: int, chosen: int, stop: int | None) -> tuple[int, ...]:
        same = _interchangeable(self.geometry, board)
        keeps = {chosen: True}
        saved = self.max_nodes
        try:
            for cell in self.root_order(board):
                if cell in keeps:
                    continue
                self.max_nodes = None if stop is None else stop - self.nodes
                if self.max_nodes is not None and self.max_nodes <= 0:
                    break
                keeps[cell] = self.value_of_move(board, cell, top - 1, top) >= top
        except OutOfBudget:
            pass
        finally:
            self.max_nodes = saved
        kept = {c for c, k in keeps.items() if k}
        kept |= {c for c, twin in same.items() if twin in kept}
        return tuple(sorted(kept))

    def best_moves(self, board: str, *, extra_nodes: int | None = None) -> tuple[int, ...]:
        """The cells proved to keep the best value (see optimal_moves, given ``extra_nodes``) that leave
        the opponent the most replies that lose something, if that is settled within ``extra_nodes``
        more; otherwise every cell proved to keep the value."""
        top, optimal = self.optimal_moves(board, extra_nodes=extra_nodes)
        if len(optimal) == 1:
            return optimal
        stop = None if extra_nodes is None else self.nodes + extra_nodes
        saved = self.max_nodes
        try:
            rope = {cell: self._mistakes_after(board, cell, top, stop) for cell in optimal}
        except OutOfBudget:
            return optimal
        finally:
            self.max_nodes = saved
        most = max(rope.values())
        return tuple(c for c in optimal if rope[c] == most)

    def _mistakes_after(self, board: str, cell: int, top: int, stop: int | None) -> int:
        """How many of the opponent's replies to ``cell`` give us more than ``top``."""
        mark = "X" if board.count("X") == board.count("O") else "O"
        after = board[:cell] + mark + board[cell + 1 :]
        count = 0
        for reply, ch in enumerate(after):
            if ch != EMPTY:
                continue
            if stop is not None:
                self.max_nodes = stop - self.nodes
                if self.max_nodes <= 0:
                    raise OutOfBudget
            # The reply's value for the opponent is below -top exactly when it gives us more than top.
            if self.value_of_move(after, reply, -top - 1, -top) < -top:
                count += 1
        return count


class Root:
    """A board text turned into the search's terms."""

    __slots__ = ("empties", "keys", "me", "them", "x_to_move")

    def __init__(self, me: int, them: int, keys: tuple, x_to_move: bool, empties: int):
        self.me, self.them, self.keys, self.x_to_move, self.empties = me, them, keys, x_to_move, empties


def _interchangeable(g: BitGeometry, board: str) -> dict[int, int]:
    """Empty cells on no line either side can still complete, each mapped to the first of them.

    Such cells are alike: playing any of them leaves the same game to come, so one search does for all.
    """
    me, them = bits_of(board)
    cover = 0
    for line in g.lines:
        if not (line & me and line & them):
            cover |= line
    dead = [c for c, ch in enumerate(board) if ch == EMPTY and not cover >> c & 1]
    return {c: dead[0] for c in dead}


def _make_search(g: BitGeometry, table: dict, owner: ExactSearch) -> Callable:
    """The recursive search over ``g``, closed over its table and the owner's node count."""
    order, inverse, perms, full = g.order, g.inverse, g.perms, g.full
    get = table.get
    table_limit = owner.table_limit
    # Lines one mark short of a threat: their cells, ours then theirs, are tried first where that pays.
    pre = g.k - 2
    threat_order = g.threat_order

    def search(me, them, keys, adds_me, adds_them, empties, alpha, beta, lines):
        owner.nodes += 1
        if owner.nodes > owner._limit:
            raise OutOfBudget
        # The scan: our immediate win ends it here; the opponent's threats, the open lines and the
        # cells they cover are gathered for what follows.
        threat = cover = hot = warm = 0
        live = []
        for line in lines:
            mine = me & line
            theirs = them & line
            if mine:
                if theirs:
                    continue  # dead: holds both marks
                rest = line ^ mine
                if not rest & (rest - 1):
                    return WIN + empties - 1
                if mine.bit_count() == pre:
                    hot |= rest
            elif theirs:
                rest = line ^ theirs
                if not rest & (rest - 1):
                    threat |= rest
                elif theirs.bit_count() == pre:
                    warm |= rest
            live.append(line)
            cover |= line
        if not live:
            return 0  # nobody can make a line any more
        if threat & (threat - 1):
            return -(WIN + empties - 2)  # two threats: one is blocked, the other wins
        # Bounds from the distance to the end: no win before our next move, no loss before theirs.
        upper = WIN + empties - 3 if empties >= 3 else 0
        lower = -(WIN + empties - 4) if empties >= 4 else 0
        if upper <= alpha:
            return upper
        if lower >= beta:
            return lower
        if beta > upper:
            beta = upper
        if alpha < lower:
            alpha = lower
        key = min(keys)
        entry = get(key)
        first = -1
        if entry is not None:
            low, high, stored = entry
            if low >= beta:
                return low
            if high <= alpha or low == high:
                return high
            if low > alpha:
                alpha = low
            if high < beta:
                beta = high
            first = inverse[keys.index(key)][stored]
        else:
            low, high = -INF, INF
        empty = full ^ (me | them)
        if threat:
            moves = [threat.bit_length() - 1]
        else:
            cover &= empty
            if threat_order:
                # Where a move would make a threat of ours, then where it would stop one of theirs.
                hot &= empty
                warm &= empty & ~hot
                moves = [c for c in order if hot >> c & 1]
                if warm:
                    moves += [c for c in order if warm >> c & 1]
                rest = cover & ~(hot | warm)
                moves += [c for c in order if rest >> c & 1]
            else:
                moves = [c for c in order if cover >> c & 1]
            dead = empty ^ cover
            if dead:
                moves.append((dead & -dead).bit_length() - 1)
            if first >= 0 and first in moves:
                moves.remove(first)
                moves.insert(0, first)
        start_alpha = alpha
        best, best_cell = -INF, moves[0]
        left = empties - 1
        for cell in moves:
            value = -search(
                them,
                me | (1 << cell),
                tuple(map(add, keys, adds_me[cell])),
                adds_them,
                adds_me,
                left,
                -beta,
                -alpha,
                live,
            )
            if value > best:
                best, best_cell = value, cell
                if value > alpha:
                    alpha = value
                    if value >= beta:
                        break
        if best <= start_alpha:
            high = min(high, best)
        elif best >= beta:
            low = max(low, best)
        else:
            low = high = best
        if len(table) >= table_limit:
            table.clear()
        table[key] = (low, high, perms[keys.index(key)][best_cell])
        return best

    return search
