"""The lines of the big boards (webapp/engine/big/lines.py): each shape, its weight, each cell's layout and memory."""

import random

import pytest

from tests.engine.positions import BIG, check_against_a_full_scan, random_game, reference_window
from webapp.engine.big.board import Gomoku
from webapp.engine.big.evaluation import FITTED
from webapp.engine.big.lines import (
    DEAD,
    DIRECTIONS,
    FIVE,
    FOUR,
    ONE,
    OPEN_FOUR,
    OPEN_THREE,
    OPEN_TWO,
    THREE,
    TWO,
    WEIGHTS,
    _shape,
    window_of,
)


@pytest.mark.parametrize(
    ("window", "shape"),
    [
        ("XXXXX....", FIVE),
        ("..XXXXX..", FIVE),
        (".XXXX....", OPEN_FOUR),
        ("XX.XX.XX.", OPEN_FOUR),  # two completions in one line: a double four
        ("OXXXX....", FOUR),
        ("..XX.XX..", FOUR),
        ("...XXX...", OPEN_THREE),
        ("..X.XX...", OPEN_THREE),
        ("..OXXX...", THREE),
        ("O.XXX.O..", THREE),  # room for five, but never for an open four
        ("...XX....", OPEN_TWO),
        ("..OXX....", TWO),
        ("....X....", ONE),
        ("OO..XO...", DEAD),  # no five cells in a row without an O
    ],
)
def test_a_stone_makes_the_shape_a_player_would_name(window, shape):
    assert _shape(window, 5) == shape


def test_the_lines_memory_is_emptied_at_its_bound_and_the_board_stays_right(monkeypatch):
    # Whatever positions a visitor asks about, a layout remembers at most LINE_CACHE_LIMIT lines' contents.
    monkeypatch.setattr("webapp.engine.big.lines.LINE_CACHE_LIMIT", 40)
    g = random_game(15, 5, random.Random(7), 50)
    kept = sum(len(known) for known in g.lay.known)
    assert 0 < kept == g.lay.remembered <= 40
    check_against_a_full_scan(g)


def test_weights_tell_the_strongest_shape():
    # The thresholds the threat scans rely on.
    for shape in (FOUR, OPEN_FOUR, FIVE):
        assert WEIGHTS[shape] > 4 * WEIGHTS[shape - 1]


@pytest.mark.parametrize(("n", "k"), BIG)
def test_a_fresh_layout_knows_each_cells_neighbours_codes_and_keys(n, k):
    # A new Layout, not the memoised one: a mutation run starts from a process that has built those.
    from webapp.engine.big.lines import Layout

    lay = Layout(n, k, FITTED.part)
    assert lay.centre == (n // 2) * (n + 1)
    empty = "." * (n * n)
    for cell in range(n * n):
        r0, c0 = divmod(cell, n)
        near = {r * n + c for r in range(n) for c in range(n) if 0 < max(abs(r - r0), abs(c - c0)) <= 2}
        assert set(lay.near[cell]) == near
        fresh = Gomoku(n, k)
        for d in range(4):
            window = reference_window(empty, n, k, cell, d)
            assert window_of(fresh.window(cell, d), k) == window
        # A stone here changes the windows of the cells up to k-1 steps along each line, and the cells of its four
        # lines are the cells of those lines.
        reach = {
            r * n + c
            for dr, dc in DIRECTIONS
            for s in range(-(k - 1), k)
            if s
            for r, c in [(r0 + dr * s, c0 + dc * s)]
            if 0 <= r < n and 0 <= c < n
        }
        assert lay.reach[cell] == reach
        lines = [lay.line_cells[line] for line, _ in lay.lines[cell]]
        assert all(cell in line for line in lines) and len({frozenset(line) for line in lines}) == 4
        assert reach <= set().union(*lines)
    again = Layout(n, k, FITTED.part)
    assert again.zobrist == lay.zobrist and again.pass_key == lay.pass_key  # the same keys in every process
    keys = [*lay.zobrist["X"], *lay.zobrist["O"], lay.pass_key]
    assert len(set(keys)) == 2 * n * n + 1 and max(keys) < 2**64 and max(keys) >= 2**60
