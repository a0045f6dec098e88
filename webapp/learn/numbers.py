"""The classic numbers of tic-tac-toe's game tree, and what each search variant pays to solve it."""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any

from webapp.engine.boards import BY_KEY, Board
from webapp.engine.rules import Position, canonical_board, geometry
from webapp.solver import GAME, Counter, best_move


@dataclass(frozen=True, slots=True)
class GameCount:
    """Complete games from a position, by how they end."""

    x_wins: int = 0
    o_wins: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        return self.x_wins + self.o_wins + self.draws

    def __add__(self, other: GameCount) -> GameCount:
        return GameCount(self.x_wins + other.x_wins, self.o_wins + other.o_wins, self.draws + other.draws)


@cache
def tally(pos: Position) -> GameCount:
    """Every game that can be played on from ``pos`` to its end, counted by result.

    The count depends only on the position, not on how play reached it, so it is memoized:
    a few thousand positions stand for 255,168 games.
    """
    outcome = pos.outcome()
    if outcome is not None:
        return GameCount(int(outcome.winner == "X"), int(outcome.winner == "O"), int(outcome.is_draw()))
    return sum((tally(pos.play(m)) for m in pos.legal_moves()), GameCount())


def tree_size(pos: Position) -> int:
    """The nodes in the full game tree below ``pos``, itself included: what plain minimax visits.

    Memoized for one count only: a cache shared by every count would grow with every board asked about.

    >>> tree_size(Position("XOXOXO..."))  # X wins at 6 or 8 at once; after 7, O has two replies
    8
    """
    sizes: dict[str, int] = {}

    def size(pos: Position) -> int:
        found = sizes.get(pos.board)
        if found is None:
            found = sizes[pos.board] = 1 + sum(size(pos.after_legal(m)) for m in pos.legal_moves())
        return found

    return size(pos)


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
# What the pages call each variant, the same on every page and chart (the command line keeps the short keys).
NAMES = {
    "minimax": "Plain minimax",
    "alpha-beta": "Alpha-beta",
    "alpha-beta + ordering": "Alpha-beta with move ordering",
    "alpha-beta + transposition table": "Alpha-beta with move ordering and a transposition table",
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
        found = best_move(GAME, root, counter=counter, **options)
        move, value = found
        assert move is not None, "the root is a game under way, so a search finds a move"
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


# --- bigger boards: counted once, ahead of time --------------------------------------------

# Counting 4×4 takes about a minute of CPU in pure Python, too long for a page or a server's start:
# ``python -m webapp stats --board 4x4 --write`` counts it once and writes this file, which
# is shipped with the package; tests/learn/test_numbers.py recounts the first plies and checks it agrees.
DATA = Path(__file__).parent / "data"
COUNTED_BOARDS = (BY_KEY["4x4"],)
# A search variant that visits more nodes than this is stopped, and its count is a lower bound.
NODE_CAP = 3_000_000


def census_file(key: str) -> Path:
    return DATA / f"numbers-{key}.json"


def census(board: Board, last_ply: int | None = None) -> list[dict]:
    """Every position reachable on ``board`` up to ``last_ply``, counted ply by ply, up to symmetry and not.

    Each row has, for one ply: the symmetry classes and positions; the game-tree nodes (move orders)
    that reach them; and for the finished ones, by how they ended (won_x, won_o, drawn), the classes,
    the positions and the games (move orders) that end there. Positions are two bitmasks, and
    a class is kept once with the number of move orders reaching each of its members.

    >>> rows = census(BY_KEY["3x3"])
    >>> sum(row["positions"] for row in rows), sum(row["classes"] for row in rows), sum(row["nodes"] for row in rows)
    (5478, 765, 549946)
    """
    g = geometry(board.n, board.k)
    cells, full = board.cells, (1 << board.cells) - 1
    images = _image_tables(g)
    through = [tuple(sum(1 << c for c in line) for line in g.lines if cell in line) for cell in range(cells)]

    def key_and_orbit(x: int, o: int) -> tuple[int, int]:
        seen = set()
        for tables in images:
            px = po = 0
            xs, os_ = x, o
            for table in tables:
                px |= table[xs & 255]
                po |= table[os_ & 255]
                xs >>= 8
                os_ >>= 8
            seen.add(px | po << cells)
        return min(seen), len(seen)

    # class key -> [move orders reaching any member, members, how it ended (None: it goes on)]
    layer: dict[int, list] = {0: [1, 1, None]}
    rows = []
    last = cells if last_ply is None else last_ply
    for ply in range(last + 1):
        row: dict[str, Any] = {"ply": ply, "classes": len(layer), "positions": 0, "nodes": 0}
        row.update({end: {"classes": 0, "positions": 0, "games": 0} for end in ENDINGS})
        following: dict[int, list] = {}
        for key, (orders, members, end) in layer.items():
            row["positions"] += members
            row["nodes"] += orders
            if end is not None:
                ending = row[end]
                ending["classes"] += 1
                ending["positions"] += members
                ending["games"] += orders
                continue
            if ply == last:
                continue
            x, o = key & full, key >> cells
            x_moves = ply % 2 == 0
            empty = full & ~(x | o)
            while empty:
                bit = empty & -empty
                empty ^= bit
                nx, no = (x | bit, o) if x_moves else (x, o | bit)
                child, child_members = key_and_orbit(nx, no)
                entry = following.get(child)
                if entry is not None:
                    # Every member of this class has a move into the child's class: its orders add up.
                    entry[0] += orders
                    continue
                mine = nx if x_moves else no
                ended: str | None
                if any(line & mine == line for line in through[bit.bit_length() - 1]):
                    ended = "won_x" if x_moves else "won_o"
                else:
                    ended = "drawn" if nx | no == full else None
                following[child] = [orders, child_members, ended]
        rows.append(row)
        layer = following
    return rows


ENDINGS = ("won_x", "won_o", "drawn")


def _image_tables(g) -> list[list[tuple[int, ...]]]:
    """For each symmetry, per byte of a bitmask, where that byte's bits go: a mask's image in a few lookups."""
    cells = g.cells
    found = []
    for perm in g.symmetries:  # new[i] = old[perm[i]], so the old bit perm[i] moves to bit i
        to = {old: new for new, old in enumerate(perm)}
        found.append(
            [
                tuple(
                    sum(1 << to[base + b] for b in range(8) if byte >> b & 1 and base + b < cells)
                    for byte in range(256)
                )
                for base in range(0, cells, 8)
            ]
        )
    return found


def census_totals(rows: list[dict]) -> dict:
    """The whole game's figures from a census: positions, classes, tree nodes, and games and positions by ending."""
    totals = {
        "positions": sum(row["positions"] for row in rows),
        "positions_up_to_symmetry": sum(row["classes"] for row in rows),
        "tree_nodes": sum(row["nodes"] for row in rows),
    }
    for end in ENDINGS:
        for what in ("classes", "positions", "games"):
            totals[f"{end}_{what}"] = sum(row[end][what] for row in rows)
    totals["terminal_positions"] = sum(totals[f"{end}_positions"] for end in ENDINGS)
    totals["terminal_up_to_symmetry"] = sum(totals[f"{end}_classes"] for end in ENDINGS)
    totals["games"] = sum(totals[f"{end}_games"] for end in ENDINGS)
    return totals


class _Capped(Counter):
    """A node counter that stops the search once it has counted more than NODE_CAP nodes."""

    def __setattr__(self, name, value):
        if value > NODE_CAP:
            raise _OverCap
        object.__setattr__(self, name, value)


class _OverCap(Exception):
    """The search visited more than NODE_CAP nodes."""


def capped_search_costs(board: Board) -> list[dict]:
    """Each search variant from ``board``'s empty board, stopped past NODE_CAP nodes, in CPU seconds.

    Plain minimax is not run: the census counts the nodes it would visit, the whole game tree.
    """
    root = Position.empty(board.n, board.k)
    found = []
    for name, options in SEARCHES.items():
        if name == "minimax":
            continue
        options = {**options, "table": {}} if "table" in options else dict(options)
        counter, start = _Capped(), time.process_time()
        try:
            best_move(GAME, root, counter=counter, **options)
            complete = True
        except _OverCap:
            complete = False
        found.append(
            {"name": name, "nodes": counter.nodes, "seconds": time.process_time() - start, "complete": complete}
        )
    return found


def count_board(board: Board) -> dict:
    """Everything the numbers page shows for ``board``: the census and the searches, with what each cost."""
    start = time.process_time()
    rows = census(board)
    took = time.process_time() - start
    totals = census_totals(rows)
    searches = [{"name": "minimax", "nodes": totals["tree_nodes"], "seconds": None, "complete": True}]
    searches += capped_search_costs(board)
    return {
        "board": board.key,
        "counted": date.today().isoformat(),
        "census_cpu_seconds": round(took, 1),
        "node_cap": NODE_CAP,
        "totals": totals,
        "plies": rows,
        "searches": searches,
    }


def write_counts(board: Board) -> Path:
    """Count ``board`` and write the figures to its data file; return the file's path."""
    path = census_file(board.key)
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(count_board(board), indent=1) + "\n")
    return path


@cache
def counted(key: str) -> dict | None:
    """The figures written for the board ``key`` ahead of time, or None if there are none."""
    try:
        return json.loads(census_file(key).read_text())
    except FileNotFoundError:
        return None


# --- what is known of each board, said once for every page ------------------------------------------------

RESULTS = {"draw": "a draw", "first player wins": "a win for the first player"}
COUNTS = {3: "three", 4: "four", 5: "five"}


def known(board: Board) -> str:
    """What is known of ``board`` with perfect play, where that comes from, and whether the computer here plays it
    perfectly: one statement, the same on the numbers page and in the game tree.

    >>> known(BY_KEY["3x3"])
    '3×3, three in a row: a draw with perfect play. This game has worked out every position.'
    >>> known(BY_KEY["15x15"])  # doctest: +NORMALIZE_WHITESPACE
    '15×15, five or more in a row: a win for the first player with perfect play, proved by Allis, 1994. The
     computer here does not know that proof: Hard searches ahead under a time limit instead.'
    """
    rule = f"{board.name}, {COUNTS[board.k]}{' or more' if board.n == 15 else ''} in a row"
    value = f"{rule}: {RESULTS[board.known_value]} with perfect play"
    if board.source == "every position is solved here":
        return f"{value}. This game has worked out every position."
    if board.is_solved():
        return f"{value}, shown by {board.source}. Impossible plays it perfectly here."
    return f"{value}, proved by {board.source}. {unproved_here(board)}"


def unproved_here(board: Board) -> str:
    """What the computer here knows of a board it has not solved: the game tree says it beside the proved value."""
    return "The computer here does not know that proof: Hard searches ahead under a time limit instead."
