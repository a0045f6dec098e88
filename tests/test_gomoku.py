import random

import pytest

from webapp.engine.gomoku import (
    DEAD,
    FIVE,
    FOUR,
    ONE,
    OPEN_FOUR,
    OPEN_THREE,
    OPEN_TWO,
    THREE,
    TWO,
    WEIGHTS,
    Gomoku,
    _shape,
)
from webapp.engine.rules import EMPTY, geometry, parse

BIG = [(7, 5), (15, 5)]


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


def random_game(n: int, k: int, rng: random.Random, stones: int) -> Gomoku:
    """A game of ``stones`` random moves near the stones already played, stopped before anyone wins."""
    g = Gomoku(n, k)
    for _ in range(stones):
        if g.wins() or g.full():
            break
        g.play(rng.choice(g.moves()) if g.candidates else g.lay.centre)
    return g


def wins_by_the_rules(text: str, n: int, k: int) -> set[int]:
    """The empty cells where the side to move completes k or more in a row, as rules.py judges it."""
    pos = parse(text, n, k)
    return {c for c in pos.legal_moves() if pos.play(c).winner == pos.to_move}


def completes(board: str, cell: int, mark: str, n: int, k: int) -> bool:
    """Whether ``mark`` on the empty ``cell`` would make k in a row (rules.py's lines)."""
    board = board[:cell] + mark + board[cell + 1 :]
    return any(marks_of(board) == (mark,) * k for _, marks_of in geometry(n, k).lines_through[cell])


@pytest.mark.parametrize(("n", "k"), BIG)
def test_the_win_and_four_scans_agree_with_the_rules(n, k):
    rng = random.Random(n)
    checked = 0
    for _ in range(25 if n < 10 else 8):
        g = random_game(n, k, rng, rng.randrange(4, 50))
        text, me = g.text, g.mover
        assert set(g.wins()) == wins_by_the_rules(text, n, k), text
        if g.wins():
            continue
        # A four: a stone after which the same side could complete a line with one more.
        for move in g.candidates:
            after = text[:move] + me + text[move + 1 :]
            # With no line to complete before, a completion now is on a line through the new stone.
            reach = {c for line, _ in geometry(n, k).lines_through[move] for c in line if after[c] == EMPTY}
            four = any(completes(after, c, me, n, k) for c in reach)
            assert (move in g.forcing()) == four, (text, move)
            checked += four
    assert checked > 5


@pytest.mark.parametrize(("n", "k"), BIG)
def test_incremental_updates_match_a_full_rescan_and_undo_restores_everything(n, k):
    rng = random.Random(k + n)
    fresh = Gomoku(n, k)
    snapshot = (list(fresh.texts), list(fresh.wx), list(fresh.wo), fresh.tx, fresh.to, fresh.hash)
    g = random_game(n, k, rng, 40)
    mine = (list(g.wx), list(g.wo), list(g.sx), list(g.so), g.tx, g.to)
    for cell in range(n * n):
        g._rescan(cell)
    assert (list(g.wx), list(g.wo), list(g.sx), list(g.so), g.tx, g.to) == mine
    assert sum(g.sx) == g.tx and sum(g.so) == g.to
    while g.history:
        g.undo()
    assert (list(g.texts), list(g.wx), list(g.wo), g.tx, g.to, g.hash) == snapshot
    assert g.candidates == set() and g.stones == 0 and g.mover == "X"


def test_five_inside_a_longer_row_wins_on_15x15():
    # X X X X . X on the top row: the gap makes six in a row, which free-style counts as a win
    text = "XXXX.X" + "." * 9 + "OOOO." + "." * 10 + "O" + "." * 194
    g = Gomoku.from_text(text, 15, 5)
    assert g.wins() == [4]
    assert parse(text, 15, 5).play(4).winner == "X"


def test_the_side_with_an_open_three_is_judged_better():
    # X has an open three in the middle of the 7×7 board; O's stones are scattered
    text = "O.....O" + "......." + "......." + ".XXX..." + "......." + "O......" + "......."
    g = Gomoku.from_text(text, 7, 5)
    assert g.mover == "X"
    assert g.evaluate() > 0
    g.play(0 + 7 * 6)  # X plays a corner far away; now O is to move and X still has the three
    assert g.evaluate() < 0


def test_the_search_is_offered_moves_near_the_stones_strongest_first():
    # O to move must deal with X's four: the block is first in line
    text = "." * 49
    text = text[:22] + "XXXX" + text[26:]  # row 3, columns 1 to 4
    text = text[:21] + "O" + text[22:]
    text = text[:0] + "O" + text[1:]
    text = text[:48] + "O" + text[49:]
    g = Gomoku.from_text(text, 7, 5)
    assert g.mover == "O"
    assert g.moves()[0] == 26
    assert g.wins(opponent=True) == [26]
    assert all(g.cells[m] == EMPTY for m in g.moves())


def test_a_board_where_nobody_can_complete_a_line_is_dead():
    # 7×7 with one cell left, and every line of five through it holds both marks
    text = "XXOXOOOOOOXXXOOXOOOXOXOXOXXXXXXOXOOOOXOXXXXXOXOO."
    g = Gomoku.from_text(text, 7, 5)
    assert g.dead()
    assert not Gomoku.from_text("." * 49, 7, 5).dead()


def test_weights_tell_the_strongest_shape():
    # The thresholds the threat scans rely on.
    for shape in (FOUR, OPEN_FOUR, FIVE):
        assert WEIGHTS[shape] > 4 * WEIGHTS[shape - 1]
