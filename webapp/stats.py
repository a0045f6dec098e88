"""The classic numbers of tic-tac-toe's game tree, and what each search variant pays to solve it."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from functools import cache

from webapp.engine.levels import GAME
from webapp.engine.rules import Position, canonical_board
from webapp.engine.search import Counter, best_move


@dataclass(frozen=True, slots=True)
class Tally:
    """Complete games from a position, by how they end."""

    x_wins: int = 0
    o_wins: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        return self.x_wins + self.o_wins + self.draws

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.x_wins + other.x_wins, self.o_wins + other.o_wins, self.draws + other.draws)


@cache
def tally(pos: Position) -> Tally:
    """Every game that can be played on from ``pos`` to its end, counted by result.

    The count depends only on the position, not on how play reached it, so it is memoized:
    a few thousand positions stand for 255,168 games.
    """
    outcome = pos.outcome()
    if outcome is not None:
        return Tally(int(outcome.winner == "X"), int(outcome.winner == "O"), int(outcome.is_draw()))
    return sum((tally(pos.play(m)) for m in pos.legal_moves()), Tally())


@cache
def tree_size(pos: Position) -> int:
    """The nodes in the full game tree below ``pos``, itself included: what plain minimax visits."""
    return 1 + sum(tree_size(pos.play(m)) for m in pos.legal_moves())


def reachable(root: Position | None = None) -> set[Position]:
    """Every position reachable from ``root`` (the empty board by default), finished ones included."""
    seen = set()
    frontier = [root or Position.empty()]
    while frontier:
        pos = frontier.pop()
        if pos not in seen:
            seen.add(pos)
            frontier.extend(pos.play(m) for m in pos.legal_moves())
    return seen


@dataclass(frozen=True, slots=True)
class SearchCost:
    """What one search variant did to find the value of a position."""

    name: str
    nodes: int
    seconds: float
    move: int
    value: int


# Each variant adds one idea to the one before it; the last keeps the move ordering too.
SEARCHES: dict[str, dict] = {
    "minimax": {"prune": False},
    "alpha-beta": {},
    "alpha-beta + ordering": {"ordered": True},
    "alpha-beta + transposition table": {"ordered": True, "table": dict},
}


def search_costs(root: Position | None = None, only: tuple[str, ...] = tuple(SEARCHES)) -> list[SearchCost]:
    """Find a best move from ``root`` with each search variant from a cold start, counting and timing."""
    root = root or Position.empty()
    costs = []
    for name in only:
        options = dict(SEARCHES[name])
        if "table" in options:
            options["table"] = {}  # a fresh table: the variant pays for everything it learns
        counter = Counter()
        start = time.perf_counter()
        move, value = best_move(GAME, root, counter=counter, **options)
        costs.append(SearchCost(name, counter.nodes, time.perf_counter() - start, move, int(value)))
    return costs


@cache
def numbers() -> dict:
    """The published facts about tic-tac-toe, and the cost of each search from the empty board.

    Worked out once per process: plain minimax alone takes a few seconds.
    """
    empty = Position.empty()
    games = tally(empty)
    positions = reachable(empty)
    costs = search_costs(empty)
    return {
        "games": games.games,
        "x_wins": games.x_wins,
        "o_wins": games.o_wins,
        "draws": games.draws,
        "positions": len(positions),
        "positions_up_to_symmetry": len({canonical_board(p.board) for p in positions}),
        "terminal_positions": sum(1 for p in positions if p.is_over()),
        "searches": [asdict(c) for c in costs],
    }
