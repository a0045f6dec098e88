"""Hard's evaluation of a quiet position on the big boards: line patterns as features, their weights fitted.

A position is described by the patterns its lines hold, for the side to move and for the other. Each empty
cell, along each of its four lines, is one of these for a side, by what that side's stone there would make:

- ``five``: it completes a line, so the side has a four there (a closed four gives one such cell, an open four two);
- ``open_four``: it makes an open four, so the side has an open three (a plain three gives two such cells);
- ``four``: it makes a closed four (a closed three, or a three's far ends);
- ``open_three``: it makes an open three with two ways to an open four; ``split_three``: with one way (``.X.XX.``,
  or a three short of room on one side);
- ``three``: a closed three; ``open_two`` and ``two``: likewise, one stone further back.

and two combinations at one cell, over its four lines: ``four_three`` (a four and an open three at once) and
``three_three`` (two open threes). The evaluation is a weighted sum of the counts, the side to move's and the
other's with weights of their own, plus a constant: a logit, the log-odds that the side to move wins. The
weights are fitted by logistic regression on positions from games (``make tune``, ``tools/tune.py``; Texel's
method) and read from ``weights.json``; the engine works in thousandths of a logit, as integers.

>>> from webapp.engine.big.board import Gomoku
>>> mine, theirs = features(Gomoku.for_board("." * 96 + "XXX" + "." * 12 + "OO" + "." * 112))  # O against an open three
>>> theirs["open_four"], theirs["four"], mine["open_three"], mine["split_three"]  # its two ends; O's two, each way
(2, 2, 2, 2)
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Protocol

from webapp.engine import big
from webapp.engine.big.lines import LINE_PATTERNS, NO_PATTERN, Layout, O, X

__all__ = ["FEATURES", "FITTED", "SCALE", "Weights", "features", "load", "win_probability"]

# Beside the package's sources, where this module runs compiled (``build/engine/``) or not.
PATH = Path(big.__file__).with_name("weights.json")
# The combinations at one cell, over its four lines.
CELL_FEATURES = ("four_three", "three_three")
FEATURES = LINE_PATTERNS + CELL_FEATURES
# The engine's unit: thousandths of a logit, so that every sum is an integer, the same on every machine.
SCALE = 1000


class Weights:
    """The fitted weights, in the engine's unit: the side to move's per feature, the other's, and the constant."""

    def __init__(self, mover: dict[str, float], other: dict[str, float], constant: float):
        self.mover = tuple(round(SCALE * mover[name]) for name in FEATURES)
        self.other = tuple(round(SCALE * other[name]) for name in FEATURES)
        self.constant = round(SCALE * constant)
        lines = len(LINE_PATTERNS)
        # Per line pattern (and NO_PATTERN, worth 0): its weight for the side to move, and for the other.
        self.line_mover = (*self.mover[:lines], 0)
        self.line_other = (*self.other[:lines], 0)
        # The combinations' weights (four-three, three-three), for the side to move and for the other.
        self.cell_mover, self.cell_other = self.mover[lines:], self.other[lines:]

    def part(self, pair: tuple[int, int]) -> tuple[int, int]:
        """What one cell's line patterns for X and O add: with X to move, and with O to move."""
        x, o = pair
        return self.line_mover[x] + self.line_other[o], self.line_mover[o] + self.line_other[x]


def load(path: Path = PATH) -> Weights:
    """The weights file ``make tune`` writes: ``{"mover": {feature: w}, "other": {...}, "constant": c, ...}``."""
    found = json.loads(path.read_text())
    return Weights(found["mover"], found["other"], found["constant"])


FITTED = load()


class Counted(Protocol):
    """What ``features`` reads of a position (``board.Gomoku``'s, which imports this module)."""

    lay: Layout
    lines: list[int]
    board: list[int]
    mover: str

    def combinations(self) -> dict[str, tuple[int, int]]: ...


def features(game: Counted) -> tuple[dict[str, int], dict[str, int]]:
    """The side to move's feature counts in ``game``'s position, and the other side's, counted afresh."""
    lay, lines, mask = game.lay, game.lines, game.lay.mask
    counts = {X: [0] * len(FEATURES), O: [0] * len(FEATURES)}
    for cell, code in enumerate(game.board):
        if code:
            continue
        for line, shift in lay.windows[cell]:
            x, o = lay.pair(lines[line] >> shift & mask)
            for side, found in ((X, x), (O, o)):
                if found != NO_PATTERN:
                    counts[side][found] += 1
    for side, (fours_threes, threes_threes) in game.combinations().items():
        counts[side][len(LINE_PATTERNS)] = fours_threes
        counts[side][len(LINE_PATTERNS) + 1] = threes_threes
    them = O if game.mover == X else X
    return dict(zip(FEATURES, counts[game.mover], strict=True)), dict(zip(FEATURES, counts[them], strict=True))


def win_probability(value: int) -> float:
    """The probability that the side to move wins, by the fit, from an evaluation in the engine's unit.

    >>> win_probability(0), round(win_probability(SCALE), 3)
    (0.5, 0.731)
    """
    return 1 / (1 + math.exp(-max(-50.0, min(50.0, value / SCALE))))
