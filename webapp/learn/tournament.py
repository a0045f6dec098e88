"""Every computer level against every other, as X and as O."""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from webapp.engine.boards import BOARDS, BY_KEY, Board
from webapp.engine.rules import Position
from webapp.solver import LEVELS, check_level, choose_move


@dataclass(frozen=True, slots=True)
class Pairing:
    """The results of ``games`` games between a level playing X and a level playing O."""

    x_level: str
    o_level: str
    x_wins: int
    o_wins: int
    draws: int

    @property
    def games(self) -> int:
        return self.x_wins + self.o_wins + self.draws


def play_game(x_level: str, o_level: str, rng: random.Random) -> Position:
    """Play one game between two levels and return the final position."""
    levels = {"X": check_level(x_level), "O": check_level(o_level)}
    pos = Position.empty()
    while not pos.is_over():
        pos = pos.play(choose_move(pos.board, levels[pos.to_move], rng))
    return pos


def play_pairing(x_level: str, o_level: str, games: int, rng: random.Random) -> Pairing:
    """Play ``games`` games between one level as X and one as O."""
    winners = [play_game(x_level, o_level, rng).winner for _ in range(games)]
    return Pairing(x_level, o_level, winners.count("X"), winners.count("O"), winners.count(None))


def tournament(games: int, rng: random.Random | None = None) -> list[Pairing]:
    """Every level as X against every level as O, ``games`` games each."""
    if games < 1:
        raise ValueError("A tournament needs at least one game per pairing.")
    rng = rng or random.Random()
    return [play_pairing(x, o, games, rng) for x in LEVELS for o in LEVELS]


@dataclass(frozen=True, slots=True)
class Record:
    """One side's wins, draws and losses over some games: the tournament's, the strength table's and the bench's.

    >>> Record(3, 1, 0).points, Record(3, 1, 0) + Record(0, 0, 4)
    (88, Record(wins=3, draws=1, losses=4))
    """

    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> int:
        """The share of the points, in whole per cent: a win is a point, a draw half a point."""
        return round(100 * (self.wins + self.draws / 2) / self.games)

    def __add__(self, other: Record) -> Record:
        return Record(self.wins + other.wins, self.draws + other.draws, self.losses + other.losses)


NO_GAMES = Record(0, 0, 0)


@dataclass(frozen=True, slots=True, kw_only=True)
class Standing(Record):
    """One level's record over a whole tournament, as X and as O together."""

    level: str


def standings(pairings: list[Pairing]) -> list[Standing]:
    """Each level's wins, draws and losses, summed over its games as X and as O."""
    table = []
    for level in LEVELS:
        total = NO_GAMES
        for p in pairings:
            if p.x_level == level:
                total += Record(p.x_wins, p.draws, p.o_wins)
            if p.o_level == level:
                total += Record(p.o_wins, p.draws, p.x_wins)
        table.append(Standing(total.wins, total.draws, total.losses, level=level))
    return table


# --- the bigger boards: measured ahead of time -----------------------------------------------

# Written by python -m tools.strength (games against programs written elsewhere, far too slow for a page):
# {"boards": {"15x15": {"suite": "Each game starts from ...", "rows": [{"opponent": ..., "half": "held-out",
#  "hard_as": "X", "wins": W, "draws": D, "losses": L}, ...]}}}
STRENGTH = Path(__file__).parent / "data" / "strength.json"
ROW_FIELDS = {"opponent": str, "half": str, "hard_as": str, "wins": int, "draws": int, "losses": int}
HALVES = ("dev", "held-out")


class StrengthFileError(ValueError):
    """The strength file is not in the shape the strength script writes."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Measured(Record):
    """Hard's results against one opponent with one colour, over the held-out openings.

    >>> Measured(3, 1, 0, opponent="Easy", hard_as="X").points
    88
    """

    opponent: str
    hard_as: str


@dataclass(frozen=True, slots=True)
class Measurement:
    """One board's measured results: what the games started from, in a line for players, and the held-out rows."""

    board: Board
    suite: str
    rows: tuple[Measured, ...]

    @property
    def versus(self) -> tuple[Versus, ...]:
        return versus(self.rows)

    @property
    def most_games(self) -> int:
        """The most games Hard played any one opponent here: a slow opponent may have played fewer."""
        return max((v.games for v in self.versus), default=0)


@dataclass(frozen=True, slots=True)
class Versus:
    """Hard's record against one opponent on one board: as X, as O, and the points of both together."""

    opponent: str  # as the page names it (see OPPONENTS)
    as_x: Measured | None
    as_o: Measured | None

    @property
    def both(self) -> Record:
        """The record over both colours."""
        return sum((side for side in (self.as_x, self.as_o) if side), NO_GAMES)

    @property
    def games(self) -> int:
        return self.both.games

    @property
    def points(self) -> int:
        """The share of the points over both colours, in whole per cent.

        >>> easy = {"opponent": "Easy"}
        >>> Versus("Easy", Measured(3, 1, 0, hard_as="X", **easy), Measured(0, 0, 4, hard_as="O", **easy)).points
        44
        """
        return self.both.points


# What the page calls each opponent of the strength file, found by the start of its name there, and what it is in a
# line; {budget} is the number the file's name gives ("Rapfi at 2,000 nodes"). The page lists them in this order,
# the strongest first.
OPPONENTS = {
    "Rapfi": ("Rapfi", "one of the strongest gomoku programs, held back here to looking at {budget} positions a move."),
    "ThreatSpace": ("Threat hunter", "looks for a chain of fours and threes that wins by force, else a rule of thumb."),
    "MCTS": ("Monte Carlo", "plays out {budget} random games from each position and keeps the move that won most."),
    "Medium": ("Medium", "this game's own level: it looks one move ahead."),
    "Easy": ("Easy", "this game's own level: it plays anywhere."),
}


def opponent(name: str) -> tuple[str, str]:
    """The page's name for an opponent of the strength file, and what it is in a line.

    >>> opponent("Rapfi at 2,000 nodes")
    ('Rapfi', 'one of the strongest gomoku programs, held back here to looking at 2,000 positions a move.')
    >>> opponent("Someone else")
    ('Someone else', '')
    """
    for start, (shown, about) in OPPONENTS.items():
        if name.startswith(start):
            budget = re.search(r" at ([\d,]+)", name)
            return shown, about.format(budget=budget.group(1) if budget else "some")
    return name, ""


@dataclass(frozen=True, slots=True)
class Strength:
    """The measured boards, in the catalogue's order."""

    boards: tuple[Measurement, ...]

    @property
    def opponents(self) -> tuple[tuple[str, str], ...]:
        """Each opponent once, as the page names it, with what it is: in the order the boards first name them."""
        found: dict[str, str] = {}
        for board in self.boards:
            for row in board.rows:
                found.setdefault(*opponent(row.opponent))
        return tuple(sorted(found.items(), key=lambda item: _rank(item[0])))


def versus(rows: tuple[Measured, ...]) -> tuple[Versus, ...]:
    """One board's rows, one an opponent, its games as X and as O together, in OPPONENTS' order."""
    found: dict[str, Versus] = {}
    for row in rows:
        name = opponent(row.opponent)[0]
        was = found.get(name, Versus(name, None, None))
        found[name] = Versus(name, row if row.hard_as == "X" else was.as_x, row if row.hard_as == "O" else was.as_o)
    return tuple(sorted(found.values(), key=lambda v: _rank(v.opponent)))


def _rank(name: str) -> int:
    """Where an opponent the page names comes in OPPONENTS' order; one it does not know, after them."""
    shown = [shown for shown, _ in OPPONENTS.values()]
    return shown.index(name) if name in shown else len(shown)


def read_strength(path: Path) -> Strength | None:
    """The held-out results in ``path``; None if there is no file; StrengthFileError if it is malformed."""
    try:
        found = json.loads(path.read_text())
    except FileNotFoundError:
        return None
    except ValueError as error:
        raise StrengthFileError(f"{path.name} is not JSON: {error}") from None
    if not (isinstance(found, dict) and isinstance(found.get("boards"), dict)):
        raise StrengthFileError(f'{path.name} needs "boards" (the results by board).')
    measured = []
    for key, table in found["boards"].items():
        if key not in BY_KEY:
            raise StrengthFileError(f"{path.name} has results for {key!r}, which is not a board of the game.")
        if not (
            isinstance(table, dict) and isinstance(table.get("suite"), str) and isinstance(table.get("rows"), list)
        ):
            raise StrengthFileError(f'{path.name} needs "suite" (a line) and "rows" (a list) for {key}.')
        rows = [_row(row, path.name, key) for row in table["rows"]]
        held_out = _in_order(
            Measured(**{f: r[f] for f in ROW_FIELDS if f != "half"}) for r in rows if r["half"] == "held-out"
        )
        measured.append(Measurement(BY_KEY[key], table["suite"], held_out))
    measured.sort(key=lambda m: BOARDS.index(m.board))
    return Strength(tuple(measured))


def _in_order(rows) -> tuple[Measured, ...]:
    """The rows in the order the file first names each opponent, Hard as X before as O.

    >>> [(r.opponent, r.hard_as) for r in _in_order([Measured(1, 0, 0, opponent="Easy", hard_as="O"),
    ...     Measured(1, 0, 0, opponent="MCTS", hard_as="X"), Measured(1, 0, 0, opponent="Easy", hard_as="X")])]
    [('Easy', 'X'), ('Easy', 'O'), ('MCTS', 'X')]
    """
    rows = list(rows)
    first: dict[str, int] = {}
    for row in rows:
        first.setdefault(row.opponent, len(first))
    return tuple(sorted(rows, key=lambda row: (first[row.opponent], row.hard_as != "X")))


def _row(row, name: str, key: str) -> dict:
    if not (isinstance(row, dict) and all(isinstance(row.get(f), t) for f, t in ROW_FIELDS.items())):
        raise StrengthFileError(f"A row of {name} for {key} lacks one of {', '.join(ROW_FIELDS)}.")
    counts = [row["wins"], row["draws"], row["losses"]]
    if row["half"] not in HALVES or row["hard_as"] not in ("X", "O") or min(counts) < 0 or not sum(counts):
        raise StrengthFileError(f"A row of {name} for {key} does not make sense: {row}.")
    return row


def strength() -> Strength | None:
    """The measured results of STRENGTH, read once per process."""
    return _read_once(STRENGTH)


@cache
def _read_once(path: Path) -> Strength | None:
    return read_strength(path)
