"""Exact play on the small boards beyond 3×3 (4×4 and 5×5, four in a row): a tuned negamax under a budget.

Values are negamax values on the scale of ``webapp.engine.levels``: 0 for a draw, and for a win
``WIN`` plus the empty cells left when the game ends (a loss is the negative), so a faster win
and a slower loss are worth more. What makes it fast, largest first:

* pairings: when every line the opponent can still complete holds two empty cells that no other such
  line needs (once the side to move has taken one cell of its choice), that side answers each of the
  opponent's moves into a pair with its twin and the opponent can never win (a pairing strategy, as in
  Hales and Jewett). Asked only whether it can win
  (a window at or above 0), a position whose opponent has such a pairing needs no search at all; and the
  same for the other side. So the value is asked win/draw/loss first (a window around 0, where these
  cuts apply everywhere), and the distance to the end only after, for a win or a loss;
* one scan of the lines still open at each node, which finds the side to move's immediate win,
  the opponent's threats (one is a forced block, two are a loss) and the lines nobody can complete
  any more; once no line is open the game is a draw, and the cells on no open line are all alike,
  so one of them stands for the rest;
* a transposition table keyed on the least of the position's eight rotations and reflections,
  holding both bounds a window search leaves and the best move (turned into the key's frame);
* that best move tried first, then the cells on the most lines;
* two integers for the board (webapp.engine.exact.bitboard), the eight images kept up to date by addition.

A search has a budget, in nodes (the same on any machine) and in seconds of its pace's clock
(``webapp.engine.pacing``), and lets the server's other work run every 256 nodes. Out of budget, a
question gets no answer (``AllowanceSpent``), never a guess; the callers below keep what was proved.

>>> search = ExactSearch(4, 4)
>>> search.solve("." * 16)  # the empty 4×4 board is a draw
0
>>> search.value_of_move("XXX.OOO.........", 3) == WIN + 9  # X wins at once, 9 cells still empty
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from operator import add

from webapp.engine.exact.bitboard import BitGeometry, bit_geometry, bits_of
from webapp.engine.exact.negamax import (
    INF,
    WIN,
    Allowance,
    AllowanceSpent,
    make_search,
    unpack,
)
from webapp.engine.rules import EMPTY


@dataclass(frozen=True, slots=True)
class Choice:
    """What ``best_move`` settled: the cell to play, its value as far as proved, and whether that is exact.

    ``low`` is a proved lower bound of the cell's value (the cell can do no worse); when ``exact`` the
    cell's value is ``low`` and no other cell does better. Otherwise the budget ran out first, and the cell
    is the best one proved so far: ``low`` ≥ 0 means it is proved not to lose.
    """

    cell: int
    low: int
    exact: bool


class ExactSearch:
    """Exact values on one n×n, k-in-a-row board, with one bounded transposition table for its lifetime.

    Make one per request (or per book entry): the table is what makes the search fast, and it is
    dropped with the object, so nothing a visitor sends outlives the request that sent it.
    ``max_nodes`` and ``seconds`` bound all the work of the object's lifetime together (every call of
    every method); past either, a question raises AllowanceSpent. The table is emptied (and refilled as the
    search goes on) whenever it reaches ``table_limit`` positions. ``known(board)``, if given, is the
    exact value of an unfinished board where one is known without search (else None).
    """

    def __init__(
        self,
        n: int,
        k: int,
        *,
        max_nodes: int | None = None,
        seconds: float | None = None,
        table_limit: int | None = None,
        known: Callable[[str], int | None] | None = None,
    ):
        self.geometry = bit_geometry(n, k)
        # Exact values known ahead of time (the 5×5 book), asked for each position a question starts from.
        self.known = known
        # Moves' values proved before, by an earlier search of the same board (see ``given``).
        self.proved: dict[str, dict[int, int]] = {}
        self.table: dict[int, int] = {}
        self.table_limit = INF**2 if table_limit is None else table_limit
        self.budget = Allowance(max_nodes, seconds)
        # The search holds the table and the budget but not this object, so that dropping the object frees
        # the table at once (a cycle would keep it until the garbage collector's next full pass).
        self._search = make_search(self.geometry, self.table, self.budget, self.table_limit)

    @property
    def nodes(self) -> int:
        """The nodes visited over the object's lifetime (a step of a look for a pairing counts as one)."""
        return self.budget.nodes

    @nodes.setter
    def nodes(self, count: int) -> None:
        self.budget.nodes = count
        self.budget.arm()

    def _arm(self, stop: int | None = None) -> None:
        self.budget.arm(stop)

    def close(self) -> None:
        """Empty the table now. The recursive search refers to itself, so the object is freed only by the
        garbage collector's next pass over such cycles; its table should not wait for that."""
        self.table.clear()

    def __enter__(self) -> ExactSearch:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

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
        if self.known is not None and (value := self.known(board)) is not None:
            return value
        return self._run(r.me, r.them, r.keys, r.x_to_move, r.empties, alpha, beta)

    def value_of_move(self, board: str, cell: int, alpha: int = -INF, beta: int = INF) -> int:
        """The value, for the side to move in ``board``, of playing the empty ``cell``."""
        settled = self.settled(board, cell)
        if settled is not None:
            return settled
        r = self.root(board)
        adds = self.geometry.adds[0 if r.x_to_move else 1][cell]
        keys = tuple(map(add, r.keys, adds))
        return -self._run(r.them, r.me | 1 << cell, keys, not r.x_to_move, r.empties - 1, -beta, -alpha)

    def given(self, board: str, values: dict[int, int]) -> None:
        """Take ``values``, exact values of moves in ``board`` proved by an earlier search, as settled: they
        are not searched again, and the best of them is tried first."""
        self.proved = {board: dict(values)}

    def settled(self, board: str, cell: int) -> int | None:
        """The exact value of playing ``cell`` in ``board`` where it needs no search (a win at once, a
        position whose value is known, or a value given), else None."""
        given = self.proved.get(board, {}).get(cell)
        if given is not None:
            return given
        me, _ = bits_of(board)
        mine = me | 1 << cell
        if any(line >> cell & 1 and line & mine == line for line in self.geometry.lines):
            return WIN + board.count(EMPTY) - 1
        if self.known is not None:
            mark = "X" if board.count("X") == board.count("O") else "O"
            value = self.known(board[:cell] + mark + board[cell + 1 :])
            if value is not None:
                return -value
        return None

    def _run(
        self, me: int, them: int, keys: tuple[int, ...], x_to_move: bool, empties: int, alpha: int, beta: int
    ) -> int:
        if self.budget.nodes >= self.budget.node_stop:
            raise AllowanceSpent
        adds_x, adds_o = self.geometry.adds
        adds_me, adds_them = (adds_x, adds_o) if x_to_move else (adds_o, adds_x)
        return self._search(me, them, keys, adds_me, adds_them, empties, alpha, beta, self.geometry.lines)

    def exact_value(self, board: str) -> int:
        """The exact value of an unfinished ``board``: win, draw or loss first, then the distance."""
        return self._exact(self.solve(board, -1, 1), lambda a, b: self.solve(board, a, b))

    def exact_value_of_move(self, board: str, cell: int) -> int:
        """The exact value of playing ``cell`` in ``board``: win, draw or loss first, then the distance."""
        return self._exact(self.value_of_move(board, cell, -1, 1), lambda a, b: self.value_of_move(board, cell, a, b))

    @staticmethod
    def _exact(sign: int, search: Callable[[int, int], int]) -> int:
        # A value outside (-1, 1) is only a bound; the window that follows holds every win (or every loss),
        # and keeps to one side of 0, where the pairings still cut.
        if sign >= 1:
            return search(WIN - 1, INF)
        if sign <= -1:
            return search(-INF, 1 - WIN)
        return 0

    def move_values(self, board: str, *, total_nodes: int | None = None) -> dict[int, int | None]:
        """Each empty cell's exact value for the side to move; None where the budget ran out first.

        Every move is asked win, draw or loss first (a draw is then exact), and only then are the wins'
        and losses' distances sought, so a budget too small for all goes to the cheaper answers first.
        ``total_nodes`` bounds this call's work (besides the object's own budget).
        """
        same = _interchangeable(self.geometry, board)
        cells = [c for c, ch in enumerate(board) if ch == EMPTY]
        # The moves that need no search (a win at once, a position known ahead of time) first, for nothing.
        values: dict[int, int | None] = {c: self.settled(board, c) for c in cells if same.get(c, c) == c}
        asked = [c for c, value in values.items() if value is None]
        # No move does better than the board's own value: known ahead of time, it caps every window. Where
        # the board is a draw, a move is then a draw as soon as it is proved not to lose (half the work).
        ceiling = None if self.known is None else self.known(board)
        top = 1 if ceiling is None or ceiling > 0 else 0
        signs = dict.fromkeys(asked, -1)  # where the board is lost, every move is: only the distance is sought
        self._arm(None if total_nodes is None else self.nodes + total_nodes)
        try:
            if ceiling is None or ceiling >= 0:
                for cell in asked:
                    sign = signs[cell] = self.value_of_move(board, cell, -1, top)
                    if sign > -1 and (sign < 1 or top == 0):
                        values[cell] = 0  # a draw: inside the window, or not losing where nothing wins
            for cell in asked:
                if values[cell] is None:

                    def value_of(alpha: int, beta: int, cell: int = cell) -> int:
                        return self.value_of_move(board, cell, alpha, beta)

                    values[cell] = self._exact(signs[cell], value_of)
        except AllowanceSpent:
            pass
        finally:
            self._arm()
        return {cell: values[same.get(cell, cell)] for cell in cells}

    def best_move(self, board: str) -> Choice:
        """The best move for the side to move, exact if the budget allows, else the safest proved so far.

        First win, draw or loss, move by move in root order (each later move only asked whether it does
        better than the best so far, a cheap null window when it does not); then, for a win or a loss, the
        fastest win or the slowest loss. Where the board's value is known ahead of time, each move is only
        asked whether it reaches it. If the budget runs out in the first part, the move kept is the best
        proved: a proved win before anything else, then a move proved not to lose; in the second, the
        proved win (or the loss) from the first.
        """
        cells = self.root_order(board)
        known = None if self.known is None else self.known(board)
        if known is not None:
            return self._reach(board, cells, known)
        best, chosen = -INF, cells[0]
        try:
            for cell in cells:
                value = self.value_of_move(board, cell, max(best, -1), 1)
                if value > best:
                    best, chosen = value, cell
                    if best >= 1:
                        break
        except AllowanceSpent:
            # Only what was proved: each value above is a lower bound once it beat the window's bottom.
            return Choice(chosen, best if best > -1 else -INF, False)
        if -1 < best < 1:
            return Choice(chosen, 0, True)
        # The distance: a window just under every win (or every loss), so the pairings still cut.
        low, high = (WIN - 1, INF) if best >= 1 else (-INF, 1 - WIN)
        sure = best if best >= 1 else -INF  # a loss's bound from the first part is only an upper one
        top, first = -INF, chosen
        try:
            for cell in [chosen] + [c for c in cells if c != chosen]:
                value = self.value_of_move(board, cell, max(top, low), high)
                if value > top:
                    top, first = value, cell
        except AllowanceSpent:
            if top > max(sure, low):
                return Choice(first, top, False)
            return Choice(chosen, sure, False)
        return Choice(first, top, True)

    def _reach(self, board: str, cells: list[int], known: int) -> Choice:
        """best_move where the board's value is ``known``: a move that keeps the same result first (win,
        draw or loss), then one that keeps the value itself, each asked with a null window."""
        sign = (known > 0) - (known < 0)
        chosen, sure = cells[0], -INF
        try:
            if sign >= 0:
                for cell in cells:
                    if self.value_of_move(board, cell, sign - 1, sign) >= sign:
                        chosen, sure = cell, sign
                        break
            if sign == 0:
                return Choice(chosen, 0, True)
            for cell in [chosen] + [c for c in cells if c != chosen]:
                if self.value_of_move(board, cell, known - 1, known) >= known:
                    return Choice(cell, known, True)
        except AllowanceSpent:
            pass
        return Choice(chosen, sure, False)

    def root_order(self, board: str) -> list[int]:
        """The empty cells to try at the root: one that wins at once, else the best given, else the table's
        best first, then by the lines through them; of the cells on no open line, only the first (the rest
        are alike)."""
        same = _interchangeable(self.geometry, board)
        cells = [c for c in self.geometry.order if board[c] == EMPTY and same.get(c, c) == c]
        r = self.root(board)
        for cell in cells:
            if any(line >> cell & 1 and line & (r.me | 1 << cell) == line for line in self.geometry.lines):
                return [cell] + [c for c in cells if c != cell]
        given = self.proved.get(board, {})
        ranked = [c for c in cells if c in given]
        if ranked:
            # The best move proved before: the window after it is then as narrow as it can be.
            best = max(ranked, key=given.__getitem__)
            return [best] + [c for c in cells if c != best]
        entry = self.table.get(min(r.keys))
        if entry is not None:
            stored = unpack(entry)[2]
            if stored >= 0:
                first = self.geometry.inverse[r.keys.index(min(r.keys))][stored]
                if first in cells:
                    cells.remove(first)
                    cells.insert(0, first)
        return cells

    def optimal_moves(self, board: str, *, extra_nodes: int | None = None) -> tuple[Choice, tuple[int, ...]]:
        """(the best move's Choice, the cells proved to keep its value) for the side to move.

        The best move takes what it needs of the object's budget. If it is exact, each other move is then
        only asked whether it reaches the same value (a null window, far cheaper than its exact value when it
        does not), within ``extra_nodes`` in all if given; a move not settled by then is left out.
        """
        choice = self.best_move(board)
        if not choice.exact:
            return choice, (choice.cell,)
        stop = None if extra_nodes is None else self.nodes + extra_nodes
        return choice, self._as_good(board, choice.low, choice.cell, stop)

    def _as_good(self, board: str, top: int, chosen: int, stop: int | None) -> tuple[int, ...]:
        same = _interchangeable(self.geometry, board)
        keeps = {chosen: True}
        self._arm(stop)
        try:
            for cell in self.root_order(board):
                if cell not in keeps:
                    keeps[cell] = self.value_of_move(board, cell, top - 1, top) >= top
        except AllowanceSpent:
            pass
        finally:
            self._arm()
        kept = {c for c, k in keeps.items() if k}
        kept |= {c for c, twin in same.items() if twin in kept}
        return tuple(sorted(kept))

    def best_moves(
        self, board: str, *, extra_nodes: int | None = None, values: dict[int, int] | None = None
    ) -> tuple[Choice, tuple[int, ...]]:
        """(the best move's Choice, the cells to pick among): the cells proved to keep the best value (see
        optimal_moves) that leave the opponent the most replies that lose something, if that is settled
        within ``extra_nodes`` more; otherwise every cell proved to keep the value.

        ``values``, every move's exact value if already known (a complete analysis), spares the search for
        the best moves: only the tie-break is left.
        """
        if values:
            top = max(values.values())
            optimal = tuple(sorted(c for c, value in values.items() if value == top))
            choice = Choice(optimal[0], top, True)
        else:
            choice, optimal = self.optimal_moves(board, extra_nodes=extra_nodes)
        if len(optimal) == 1:
            return choice, optimal
        stop = None if extra_nodes is None else self.nodes + extra_nodes
        self._arm(stop)
        try:
            rope = {cell: self._mistakes_after(board, cell, choice.low) for cell in optimal}
        except AllowanceSpent:
            return choice, optimal
        finally:
            self._arm()
        most = max(rope.values())
        return choice, tuple(c for c in optimal if rope[c] == most)

    def _mistakes_after(self, board: str, cell: int, top: int) -> int:
        """How many of the opponent's replies to ``cell`` give us more than ``top``."""
        mark = "X" if board.count("X") == board.count("O") else "O"
        after = board[:cell] + mark + board[cell + 1 :]
        count = 0
        for reply, ch in enumerate(after):
            # The reply's value for the opponent is below -top exactly when it gives us more than top.
            if ch == EMPTY and self.value_of_move(after, reply, -top - 1, -top) < -top:
                count += 1
        return count


class Root:
    """A board text turned into the search's terms."""

    __slots__ = ("empties", "keys", "me", "them", "x_to_move")

    def __init__(self, me: int, them: int, keys: tuple[int, ...], x_to_move: bool, empties: int) -> None:
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
