"""Impossible on 4×4 and 5×5 (four in a row): the opening book where there is one, else live exact search.

4×4 is solved live from any position (the empty board in about 12 thousand nodes). On 5×5 the
first moves would take minutes to solve, so they come from the book (webapp.engine.book), built
ahead of time by the same search; past the book the live search is quick again (docs/benchmarks.md).

Both functions are remembered for a few hundred boards at most: the JSON API and the tree explorer
take any position a visitor sends, so nothing here may grow without bound.
"""

from __future__ import annotations

from functools import lru_cache

from webapp.engine import book
from webapp.engine.boards import board_for
from webapp.engine.exact import WIN, ExactSearch, OutOfBudget
from webapp.engine.rules import EMPTY

# Once one best move is found (whatever that costs), the nodes that may go on finding the other moves
# as good, and as many again for the tie-break between them (together about half a second). A move
# not proved as good by then is left out; a tie-break not settled leaves every move proved as good.
# Nodes, not seconds, so the choice is the same on any machine.
EXTRA_NODES = 50_000
# Nodes the analysis of one position may spend on all its moves together (about 1 s of CPU); a move
# not proved within what the moves before it left is "unclear".
ANALYSIS_NODES = 200_000
# The live search's table is dropped and begun again past this many positions: memory stays bounded
# (about 60 MB) even for a position no book covers.
TABLE_LIMIT = 400_000
CACHED_BOARDS = 256


def is_exact_board(board: str) -> bool:
    """Whether ``board`` is on one of the boards this module plays perfectly (4×4 and 5×5)."""
    spec = board_for(board)
    return spec.solved and spec.cells > 9


@lru_cache(maxsize=CACHED_BOARDS)
def candidates(board: str) -> tuple[int, ...]:
    """The moves Impossible picks among in the unfinished ``board``: best value, then the most rope."""
    entry = book.lookup(board)
    if entry is not None:
        return entry.candidates
    spec = board_for(board)
    search = ExactSearch(spec.n, spec.k, table_limit=TABLE_LIMIT)
    return tuple(sorted(search.best_moves(board, extra_nodes=EXTRA_NODES)))


def analyze(board: str) -> dict[int, tuple[str, int | None]]:
    """Each empty cell's (result, plies to the end with the move) in the unfinished ``board``;
    ("unclear", None) for a move not proved within the budget."""
    return dict(_analysis(board))


@lru_cache(maxsize=CACHED_BOARDS)
def _analysis(board: str) -> tuple[tuple[int, tuple[str, int | None]], ...]:
    entry = book.lookup(board)
    if entry is not None:
        values = entry.values
    else:
        spec = board_for(board)
        search = ExactSearch(spec.n, spec.k, table_limit=TABLE_LIMIT)
        values = search.move_values(board, total_nodes=ANALYSIS_NODES)
    empties = board.count(EMPTY)
    return tuple((cell, describe(value, empties)) for cell, value in sorted(values.items()))


@lru_cache(maxsize=CACHED_BOARDS)
def outlook(board: str) -> tuple[str, int | None]:
    """The unfinished ``board``'s (result, plies to the end) for the side to move, or ("unclear", None)."""
    entry = book.lookup(board)
    empties = board.count(EMPTY)
    if entry is not None:
        return describe(max(entry.values.values()), empties)
    spec = board_for(board)
    search = ExactSearch(spec.n, spec.k, max_nodes=ANALYSIS_NODES, table_limit=TABLE_LIMIT)
    try:
        return describe(search.solve(board), empties)
    except OutOfBudget:
        return "unclear", None


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
