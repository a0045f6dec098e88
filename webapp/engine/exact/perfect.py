"""Impossible on 4×4 and 5×5 (four in a row): the book where it knows, else the exact search, under a budget.

Every question here is answered within a budget of nodes (the same on any machine; about 0.3 s of CPU)
and of seconds on the request's clock (``webapp.engine.pacing``), whatever the position: a move, every
move's value, the outlook. On 5×5 the book (webapp.engine.exact.book) holds the exact value of every position
with six marks or fewer, so with five or fewer every move's value is known at once, and with six the
search only has to find a move that keeps the value the book gives; past the book the search is quick
(docs/benchmarks.md). 4×4 needs no book: the empty board is solved in a few thousand nodes.

Nothing is claimed that was not proved. A value the budget could not settle is "unclear"; and if the
budget runs out before the best move is proved (docs/benchmarks.md says how rarely), the move played is
the best proved: a proved win if there is one, else a move proved not to lose.

Results are remembered for a few hundred boards at most, and only when they are complete: the JSON API
and the tree explorer take any position a visitor sends, so nothing here may grow without bound, and
an answer cut short by a busy request's clock is not kept for the next.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Generic, TypeVar

from webapp.engine.boards import board_for
from webapp.engine.exact import book
from webapp.engine.exact.negamax import WIN, AllowanceSpent
from webapp.engine.exact.parameters import (
    ANALYSIS_NODES,
    CACHED_BOARDS,
    EXTRA_NODES,
    MOVE_NODES,
    OUTLOOK_NODES,
    SECONDS,
    TABLE_LIMIT,
)
from webapp.engine.exact.search import Choice, ExactSearch
from webapp.engine.rules import EMPTY


@dataclass(frozen=True, slots=True)
class Decision:
    """Impossible's move in one position: the cells it picks among, and whether the best is proved.

    ``exact`` when the cells are proved to keep the board's best value; otherwise ``choice`` is the budget's
    fallback (see ``webapp.engine.exact.Choice``): the best move proved when the budget ran out.
    """

    cells: tuple[int, ...]
    choice: Choice

    @property
    def exact(self) -> bool:
        return self.choice.exact


K = TypeVar("K")
V = TypeVar("V")


class _Remembered(Generic[K, V]):
    """A least-recently-used memory of complete answers, bounded by entries."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.entries: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        found = self.entries.get(key)
        if found is not None:
            self.entries.move_to_end(key)
        return found

    def put(self, key: K, value: V) -> None:
        self.entries[key] = value
        self.entries.move_to_end(key)
        while len(self.entries) > self.size:
            self.entries.popitem(last=False)

    def clear(self) -> None:
        self.entries.clear()


# An analysis: each cell's (result, plies), and each cell's value.
Analysis = tuple[tuple[tuple[int, tuple[str, int | None]], ...], tuple[tuple[int, int], ...]]
DECISIONS: _Remembered[str, Decision] = _Remembered(CACHED_BOARDS)
ANALYSES: _Remembered[str, Analysis] = _Remembered(CACHED_BOARDS)
OUTLOOKS: _Remembered[str, tuple[str, int | None]] = _Remembered(CACHED_BOARDS)
# The values an unfinished analysis did prove: not an answer, but the move's search need not prove them again.
PROVED: _Remembered[str, dict[int, int]] = _Remembered(CACHED_BOARDS)


def forget() -> None:
    """Drop every remembered answer (for benchmarks and tests that time or count the work itself)."""
    for memory in (DECISIONS, ANALYSES, OUTLOOKS, PROVED):
        memory.clear()


def search_for(board: str, nodes: int) -> ExactSearch:
    """A fresh search for ``board``'s geometry, with the book where there is one, and a budget of ``nodes``."""
    spec = board_for(board)
    known = book.value if spec.cells == book.N * book.N and spec.k == book.K else None
    return ExactSearch(spec.n, spec.k, max_nodes=nodes, seconds=SECONDS, table_limit=TABLE_LIMIT, known=known)


def decide(board: str) -> Decision:
    """Impossible's move in the unfinished ``board``: the best value, then the most rope, within budget."""
    found = DECISIONS.get(board)
    if found is None:
        # What an analysis of this board has just proved (a hint asks for both): all the values, or some.
        analysis = ANALYSES.get(board)
        with search_for(board, MOVE_NODES) as search:
            if analysis is None:
                search.given(board, PROVED.get(board) or {})
            choice, cells = search.best_moves(board, extra_nodes=EXTRA_NODES, values=analysis and dict(analysis[1]))
        found = Decision(tuple(sorted(cells)), choice)
        if found.exact:
            DECISIONS.put(board, found)
    return found


def candidates(board: str) -> tuple[int, ...]:
    """The moves Impossible picks among in the unfinished ``board``."""
    return decide(board).cells


def analyze(board: str) -> dict[int, tuple[str, int | None]]:
    """Each empty cell's (result, plies to the end with the move) in the unfinished ``board``;
    ("unclear", None) for a move not proved within the budget."""
    found = ANALYSES.get(board)
    if found is None:
        with search_for(board, ANALYSIS_NODES) as search:
            values = search.move_values(board)
        empties = board.count(EMPTY)
        described = tuple((cell, describe(value, empties)) for cell, value in sorted(values.items()))
        proved = {cell: value for cell, value in values.items() if value is not None}
        if len(proved) == len(values):
            ANALYSES.put(board, (described, tuple(proved.items())))
        else:
            PROVED.put(board, proved)
        return dict(described)
    return dict(found[0])


def outlook(board: str) -> tuple[str, int | None]:
    """The unfinished ``board``'s (result, plies to the end) for the side to move, or ("unclear", None)."""
    found = OUTLOOKS.get(board)
    if found is None:
        try:
            with search_for(board, OUTLOOK_NODES) as search:
                found = describe(search.exact_value(board), board.count(EMPTY))
        except AllowanceSpent:
            return "unclear", None
        OUTLOOKS.put(board, found)
    return found


def describe(value: int | None, empties: int) -> tuple[str, int | None]:
    """A move's value as (result, plies to the end, the move included), or ("unclear", None).

    >>> describe(WIN + 3, 8), describe(0, 8), describe(-(WIN + 4), 8), describe(None, 8)
    (('win', 5), ('draw', 8), ('loss', 4), ('unclear', None))
    """
    if value is None:
        return "unclear", None
    if value == 0:
        return "draw", empties
    return ("win" if value > 0 else "loss"), empties - (abs(value) - WIN)
