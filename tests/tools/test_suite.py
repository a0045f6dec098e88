import json

import pytest

from tools import suite
from webapp.engine.boards import BY_KEY
from webapp.engine.rules import O, parse


@pytest.mark.parametrize(("key", "per_half"), [("15x15", 16), ("7x7", 8)])
def test_each_suite_has_two_halves_of_the_same_size_with_nothing_in_common(key, per_half):
    found = suite.load(key)
    dev, held_out = found.half("dev"), found.half("held-out")
    assert len(dev) == len(held_out) == per_half
    assert not {suite.canonical(o.board) for o in dev} & {suite.canonical(o.board) for o in held_out}
    assert found.about["split"] and found.about["region"]


@pytest.mark.parametrize("key", ["15x15", "7x7"])
def test_every_opening_is_x_o_x_near_the_centre_and_leaves_o_to_move(key):
    spec = BY_KEY[key]
    centre = spec.n // 2
    for opening in suite.load(key).openings:
        pos = parse(spec.empty, spec.n, spec.k)
        for cell in opening.cells:
            pos = pos.play(cell)
        assert pos.board == opening.board and pos.to_move == O and not pos.is_over()
        assert all(abs(c // spec.n - centre) <= suite.REACH[key] >= abs(c % spec.n - centre) for c in opening.cells)


def test_the_15x15_openings_were_judged_close_to_even():
    assert all(abs(o["eval"]) <= 200 for o in json.loads(suite.path_of("15x15").read_text())["openings"])


def write(tmp_path, rows, board="7x7"):
    path = tmp_path / "suite.json"
    path.write_text(json.dumps({"board": board, "about": {}, "openings": rows}))
    return path


GOOD = [{"id": "d00", "half": "dev", "cells": [24, 17, 25]}, {"id": "h00", "half": "held-out", "cells": [24, 16, 25]}]


@pytest.mark.parametrize(
    ("rows", "words"),
    [
        ([GOOD[0], GOOD[0] | {"id": "h00", "half": "held-out"}], "one position twice"),
        # The same position turned a quarter: a duplicate too.
        ([GOOD[0], {"id": "h00", "half": "held-out", "cells": [24, 23, 31]}], "mirror images or turns"),
        ([GOOD[0], GOOD[1] | {"cells": [24, 24, 25]}], "cannot be played"),
        ([GOOD[0], GOOD[1] | {"cells": [0, 16, 25]}], "farther than 1"),
        ([GOOD[0], GOOD[1] | {"half": "dev"}], "two halves of the same size"),
        ([GOOD[0], GOOD[1] | {"cells": [24, 25]}], "three squares"),
    ],
)
def test_a_broken_suite_is_refused_with_what_is_wrong(tmp_path, rows, words):
    with pytest.raises(suite.SuiteError, match=words):
        suite.read(write(tmp_path, rows), "7x7")


def test_a_suite_is_read_for_its_own_board_only(tmp_path):
    assert len(suite.read(write(tmp_path, GOOD), "7x7").openings) == 2
    with pytest.raises(suite.SuiteError, match="not '15x15'"):
        suite.read(write(tmp_path, GOOD), "15x15")
    with pytest.raises(suite.SuiteError, match="no suite"):
        suite.load("5x5")
    with pytest.raises(ValueError, match="half"):
        suite.load("7x7").half("test")
