"""The compiled engine (``make engine``) plays as its sources do: the same fixed-node searches, compiled and as
Python, find the same moves, values, depths and node counts, so that the two can never drift apart."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.engine.positions import FOUR_THREE, MIDDLEGAMES, QUIET_7, QUIET_15

ROOT = Path(__file__).resolve().parents[3]
BOARDS = [QUIET_15, FOUR_THREE, QUIET_7, *MIDDLEGAMES]
# Each search within nodes alone (no clock), so that its result depends on the position and the code only.
SEARCHES = """
import json, sys
from webapp.engine.big import ENGINE, hard
from webapp.engine.big.board import Gomoku
from webapp.engine.big.budget import Budget
found = []
for board in json.loads(sys.argv[1]):
    result = hard.search(Gomoku.for_board(board), Budget(nodes=3000))
    found.append([list(result.best), result.value, result.depth, result.nodes, result.reason, result.scores])
print(json.dumps({"engine": ENGINE, "results": found}))
"""


def searches(pure: bool) -> dict[str, object]:
    """The searches' results in a fresh interpreter, run as Python when ``pure``, else as built."""
    env = {key: value for key, value in os.environ.items() if key != "ENGINE_PURE"}
    if pure:
        env["ENGINE_PURE"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", SEARCHES, json.dumps(BOARDS)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env=env,
    )
    found: dict[str, object] = json.loads(done.stdout)
    return found


def test_the_compiled_engine_finds_what_the_sources_find():
    compiled = searches(pure=False)
    if compiled["engine"] == "pure Python":
        pytest.skip("no current build of the engine: `make engine` compiles it")
    pure = searches(pure=True)
    assert pure["engine"] == "pure Python"
    assert compiled["results"] == pure["results"]


def test_engine_pure_runs_the_sources():
    assert searches(pure=True)["engine"] == "pure Python"
