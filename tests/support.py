"""Helpers shared by the tests: reading boards out of pages, an independent minimax oracle, and the scripts."""

import importlib.util
import re
import sys
from functools import cache
from pathlib import Path

from webapp.engine.boards import position
from webapp.engine.rules import EMPTY, Position, parse

HX = {"HX-Request": "true"}


def board_of(response) -> dict[str, str]:
    """The data attributes of the element with id="board" in a page or fragment."""
    html = response.get_data(as_text=True)
    tag = re.search(r'<div id="board"[^>]*>', html)
    assert tag, "no board in the response"
    return dict(re.findall(r'data-(board|status|ply|game)="([^"]*)"', tag.group(0)))


def page(client) -> dict[str, str]:
    """The board as the full page shows it now, with the digest its forms send."""
    return board_of(client.get("/"))


def send(client, path: str, headers=None, **fields):
    """Post a form from the page as it is now: its fields, and the digest of the game it shows."""
    data = {"game": page(client)["game"], **{name: str(value) for name, value in fields.items()}}
    return client.post(path, data=data, headers=headers or {})


def play(client, *cells, headers=None):
    """Play ``cells`` in turn, each as a form from the page as it is then."""
    for cell in cells:
        send(client, "/move", cell=cell, headers=headers)


@cache
def reachable_boards() -> tuple[str, ...]:
    """Every board a game can reach, finished ones included, found by playing every move."""
    seen, frontier = set(), ["........."]
    while frontier:
        board = frontier.pop()
        if board not in seen:
            seen.add(board)
            pos = parse(board)
            frontier.extend(pos.play(m).board for m in pos.legal_moves())
    return tuple(sorted(seen))


def unfinished_boards() -> list[str]:
    return [b for b in reachable_boards() if not parse(b).is_over()]


@cache
def reference(board: str) -> tuple[int, int]:
    """Plain, unpruned minimax written straight from the rules, as the oracle for the solvers of 3×3 to 5×5.

    Returns (1 win, 0 draw, -1 loss for the side to move; plies until the game ends), the
    winner hurrying and the loser stalling.
    """
    pos = position(board)
    if pos.is_over():
        return (-1 if pos.winner else 0), 0
    return max((after(pos, m) for m in pos.legal_moves()), key=rank)


def after(pos: Position, move: int) -> tuple[int, int]:
    """The reference's outcome of ``move`` in ``pos``, for the side that plays it."""
    score, plies = reference(pos.play(move).board)
    return -score, plies + 1


def rank(outcome: tuple[int, int]) -> tuple[int, int]:
    """An outcome's rank for ``max``: a win, sooner first; a loss, later first."""
    score, plies = outcome
    return score, -plies if score > 0 else plies


def reference_analysis(board: str) -> dict[int, tuple[str, int]]:
    """What ``analyze`` should say, worked out by the oracle."""
    pos = parse(board)
    words = {1: "win", 0: "draw", -1: "loss"}
    return {m: (words[s], p) for m in pos.legal_moves() for s, p in [after(pos, m)]}


def load_script(name: str):
    """A module of scripts/ (they are programs, not a package), such as the instances and the player of scale_out."""
    if name not in sys.modules:
        path = Path(__file__).resolve().parent.parent / "scripts" / f"{name}.py"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # before running it: its dataclasses look their module up
        spec.loader.exec_module(module)
    return sys.modules[name]


def stones(n: int, x=(), o=()) -> str:
    """An n×n board with X's and O's stones at the (row, column) pairs given.

    >>> stones(3, x=[(1, 1)], o=[(0, 2)])
    '..O.X....'
    """
    cells = [EMPTY] * (n * n)
    for mark, marks in (("X", x), ("O", o)):
        for r, c in marks:
            cells[r * n + c] = mark
    return "".join(cells)


def full_15x15_draw() -> tuple[int, ...]:
    """225 moves that fill the 15×15 board with no five in a row: pairs of columns, alternating by row."""
    xs = [r * 15 + c for r in range(15) for c in range(15) if (c // 2 + r) % 2 == 0]
    os_ = [r * 15 + c for r in range(15) for c in range(15) if (c // 2 + r) % 2 == 1]
    return tuple(cell for pair in zip(xs, [*os_, None], strict=True) for cell in pair if cell is not None)
