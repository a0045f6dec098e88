"""The strength suite: the openings Hard's games start from, per board, in two halves (``tools/data/suite-*.json``).

Each opening is three stones, X, O, X, near the centre; O is to move after it. The dev half is for judging a
change to the engine; the held-out half only reports, so that no change can be fitted to it.
``tools/make_suite.py`` chooses the openings; this module reads and checks them.

>>> suite = load("7x7")
>>> len(suite.half("dev")) == len(suite.half("held-out")), suite.openings[0].board.count(".")
(True, 46)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from webapp.engine.boards import BY_KEY
from webapp.engine.rules import O, parse

DATA = Path(__file__).resolve().parent / "data"
HALVES = ("dev", "held-out")
# The suites' boards; each opening's stones lie within this distance of the centre, in rows and in columns.
REACH = {"7x7": 1, "15x15": 2}


class SuiteError(ValueError):
    """A suite file is not the shape this module reads."""


@dataclass(frozen=True, slots=True)
class Opening:
    """One opening of the suite: its name, its half, and its stones in the order played (X, O, X)."""

    id: str
    half: str | None  # "dev", "held-out" or "reserve"; None in a file that does not split them
    cells: tuple[int, ...]
    n: int

    @property
    def board(self) -> str:
        """The board after the opening, row by row ('X', 'O', '.')."""
        cells = ["."] * (self.n * self.n)
        for i, cell in enumerate(self.cells):
            cells[cell] = "XO"[i % 2]
        return "".join(cells)


@dataclass(frozen=True, slots=True)
class Suite:
    """A board's openings, dev half first, and how they were chosen (the file's ``about``)."""

    key: str
    about: dict
    openings: tuple[Opening, ...]

    def half(self, name: str) -> tuple[Opening, ...]:
        """The openings of one half, ``dev`` or ``held-out``."""
        if name not in HALVES:
            raise ValueError(f"A half is one of {', '.join(HALVES)}, not {name!r}.")
        return tuple(o for o in self.openings if o.half == name)


def path_of(key: str) -> Path:
    return DATA / f"suite-{key}.json"


@cache
def load(key: str) -> Suite:
    """The suite of board ``key`` (``7x7`` or ``15x15``), checked."""
    if key not in REACH:
        raise SuiteError(f"There is no suite for {key!r}: only for {', '.join(REACH)}.")
    return read(path_of(key), key)


def read(path: Path, key: str) -> Suite:
    """The suite in ``path`` for board ``key``; SuiteError says what is wrong with it."""
    try:
        found = json.loads(path.read_text())
        rows, about = found["openings"], found["about"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise SuiteError(f"{path.name} is not a suite: {error}") from None
    if found.get("board") != key:
        raise SuiteError(f"{path.name} is a suite for {found.get('board')!r}, not {key!r}.")
    spec = BY_KEY[key]
    openings = tuple(_opening(row, spec.n, spec.k, REACH[key], path.name) for row in rows)
    check(openings, path.name)
    return Suite(key, about, openings)


def _opening(row, n: int, k: int, reach: int, name: str) -> Opening:
    if not (isinstance(row, dict) and isinstance(row.get("id"), str) and isinstance(row.get("cells"), list)):
        raise SuiteError(f"An opening of {name} needs an id and its cells: {row!r}.")
    opening = Opening(row["id"], row.get("half"), tuple(row["cells"]), n)
    centre = n // 2
    if len(opening.cells) != 3 or not all(isinstance(c, int) and 0 <= c < n * n for c in opening.cells):
        raise SuiteError(f"Opening {opening.id} of {name} is not three squares of the board.")
    if any(max(abs(c // n - centre), abs(c % n - centre)) > reach for c in opening.cells):
        raise SuiteError(f"Opening {opening.id} of {name} has a stone farther than {reach} from the centre.")
    try:
        pos = parse("." * (n * n), n, k)
        for cell in opening.cells:
            pos = pos.play(cell)
    except ValueError as error:
        raise SuiteError(f"Opening {opening.id} of {name} cannot be played: {error}") from None
    if pos.is_over() or pos.to_move != O:
        raise SuiteError(f"After opening {opening.id} of {name} the game must go on with O to move.")
    return opening


def check(openings: tuple[Opening, ...], name: str) -> None:
    """SuiteError unless the ids and positions (up to symmetry) are distinct and the halves are the same size."""
    if len({o.id for o in openings}) != len(openings):
        raise SuiteError(f"{name} names an opening twice.")
    if len({canonical(o.board) for o in openings}) != len(openings):
        raise SuiteError(f"{name} has one position twice, or two that are mirror images or turns of each other.")
    sizes = [sum(o.half == half for o in openings) for half in HALVES]
    if any(o.half not in HALVES for o in openings) or sizes[0] != sizes[1] or not sizes[0]:
        raise SuiteError(f"{name} needs two halves of the same size, dev and held-out: {sizes}.")


def symmetries(n: int) -> list[list[int]]:
    """The board's 8 symmetries (turns and mirror images), each as the cell every cell's image comes from.

    >>> sorted(s[0] for s in symmetries(3))  # the top-left corner's image comes from each corner, twice
    [0, 0, 2, 2, 6, 6, 8, 8]
    """
    images = []
    for k in range(8):
        image = []
        for cell in range(n * n):
            r, c = divmod(cell, n)
            if k & 4:
                r, c = c, r
            if k & 1:
                r = n - 1 - r
            if k & 2:
                c = n - 1 - c
            image.append(r * n + c)
        images.append(image)
    return images


def canonical(board: str) -> str:
    """The least of ``board``'s 8 images as text: the same for a position and its turns and mirror images.

    >>> canonical("X........") == canonical("........X") == "........X"
    True
    """
    n = round(len(board) ** 0.5)
    return min("".join(board[i] for i in image) for image in _symmetries(n))


@cache
def _symmetries(n: int) -> list[list[int]]:
    return symmetries(n)
