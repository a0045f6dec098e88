"""The wins Hard missed in the strength suite's games: each one proved within the shipped budget, or said not to be.

``missed_wins.json`` holds the positions ``python -m tools.missed_wins`` found in the games of the suite's dev half
(the previous engine's, against Rapfi and ThreatSpace), where Hard had a forced win that Rapfi confirms at a million
nodes and played on past it, and the four positions of an earlier run kept before the games were. ``proved`` says
whether Hard's threat search proves the win within the shipped budget now; where it does, a short proof is also
checked against every defence (the threat search's proofs in general are, in test_threats.py).
"""

import dataclasses
import itertools
import json
from pathlib import Path

import pytest

from tests.proofs import wins_within
from webapp.engine.big import hard
from webapp.engine.big.board import Gomoku
from webapp.engine.big.budget import DEFAULT_BUDGET, Meter
from webapp.engine.big.threats import ThreatSearch

MISSED = json.loads(Path(__file__).with_name("missed_wins.json").read_text())
# The shipped budget on a clock that reads this much later at each reading (every 256 nodes): the development
# machine's pace, about 28,000 nodes a CPU second, so that the test sees what a move there sees, on any machine.
PACE = 256 / 28_000


def shipped():
    ticks = itertools.count()
    return dataclasses.replace(DEFAULT_BUDGET, clock=lambda: next(ticks) * PACE)


def checker(game: Gomoku, side: str):
    return ThreatSearch(game, side, Meter(nodes=300_000)).vct(3)


@pytest.mark.parametrize(
    "case",
    MISSED,
    ids=[f"{c['found']}, {'proved' if c['proved'] else 'not proved'} within the budget" for c in MISSED],
)
def test_each_missed_win_is_proved_within_the_shipped_budget_or_said_not_to_be(case):
    game = Gomoku.for_board(case["board"])
    assert game.mover == case["side"]
    result = hard.search(game, shipped())
    assert result.proved == case["proved"], (result.reason, result.best)
    if result.proved:
        win = result.forced
        assert win.first in result.best and case["board"][win.first] == "."
        if win.plies <= 9:
            assert wins_within(game, case["side"], win.plies, checker, first=win.first)
