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


def test_a_moves_score_is_its_weight_in_attack_then_in_defence():
    # 15×15: X has an open three on the top row (columns 4 to 6); O two stones on the bottom row.
    text = "....XXX" + "." * 8 + "." * 195 + "OO" + "." * 13
    g = Gomoku.from_text(text, 15, 5)
    assert g.mover == "O"
    attack, defence = g.score(3)
    # O gains little at 3; X, were it to move, would make an open four there.
    assert (attack, defence) == (g.so[3], g.sx[3])
    assert defence >= WEIGHTS[OPEN_FOUR] > attack
    g.play(224)
    assert g.mover == "X"
    assert g.score(3) == (g.sx[3], g.so[3])
    assert g.score(3)[0] >= WEIGHTS[OPEN_FOUR]


@pytest.mark.parametrize(("n", "k"), BIG)
def test_a_fresh_layout_knows_each_cells_neighbours_windows_and_keys(n, k):
    # A new Layout, not the memoised one: a mutation run starts from a process that has built those.
    from webapp.engine.gomoku import DIRECTIONS, Layout

    lay = Layout(n, k)
    assert lay.centre == (n // 2) * (n + 1)
    for cell in range(n * n):
        r0, c0 = divmod(cell, n)
        near = {r * n + c for r in range(n) for c in range(n) if 0 < max(abs(r - r0), abs(c - c0)) <= 2}
        assert set(lay.near[cell]) == near
        for d, (dr, dc) in enumerate(DIRECTIONS):
            along = [(r0 + dr * s, c0 + dc * s) for s in range(-(k - 1), k)]
            reach = [r * n + c for r, c in along if 0 <= r < n and 0 <= c < n]
            assert [other for other, _, _ in lay.reach[cell][d]] == reach
            assert all(slot == other * 4 + d for other, _, slot in lay.reach[cell][d])
            # Each cell's window along a direction: k-1 cells either side, edge marks past the board.
            at = lay.index[d][cell]
            window = lay.texts[d][at - (k - 1) : at + k]
            assert window == "".join("." if 0 <= r < n and 0 <= c < n else "#" for r, c in along)
    again = Layout(n, k)
    assert again.zobrist == lay.zobrist  # the same keys in every process
    keys = lay.zobrist["X"] + lay.zobrist["O"]
    assert len(set(keys)) == 2 * n * n and max(keys) < 2**64 and max(keys) >= 2**60


def test_the_evaluation_counts_the_side_to_moves_chances_a_quarter_more():
    text = "O.....O" + "......." + "......." + ".XXX..." + "......." + "O......" + "......."
    g = Gomoku.from_text(text, 7, 5)
    assert g.mover == "X" and g.tx % 4  # so that a quarter of it is not a whole number
    assert g.evaluate() == g.tx + g.tx // 4 - g.to
    assert isinstance(g.evaluate(), int)
    g.play(42)
    assert g.evaluate() == g.to + g.to // 4 - g.tx


def test_play_and_undo_keep_the_positions_key_whatever_the_order():
    g = Gomoku(15, 5)
    start = g.key()
    for move in (112, 113, 97, 128):
        g.play(move)
    after = g.key()
    other = Gomoku(15, 5)
    for move in (97, 128, 112, 113):  # the same stones for each side, in another order
        other.play(move)
    assert other.key() == after != start
    g.undo()
    g.undo()
    two = Gomoku(15, 5)
    two.play(112)
    two.play(113)
    assert g.key() == two.key() != start
    g.undo()
    g.undo()
    assert g.key() == start


def test_an_empty_board_offers_the_centre_and_a_full_one_nothing():
    assert Gomoku(7, 5).moves() == [24]
    assert Gomoku(15, 5).moves() == [112]
    full = "XXOXOOOOOOXXXOOXOOOXOXOXOXXXXXXOXOOOOXOXXXXXOXOOX"
    assert Gomoku.from_text(full, 7, 5).moves() == []


def test_moves_rank_attack_double_and_fours_rank_by_attack_then_defence():
    # 15×15: each side has threes and twos about the middle, O to move.
    text = list("." * 225)
    for cell in (96, 97, 98, 126, 141, 80, 173):
        text[cell] = "X"
    for cell in (111, 112, 113, 127, 142, 65):
        text[cell] = "O"
    g = Gomoku.from_text("".join(text), 15, 5)
    assert g.mover == "O"

    def attack(c):
        return g.score(c)[0]

    def defence(c):
        return g.score(c)[1]

    ranked = sorted(g.candidates, key=lambda c: (-(2 * attack(c) + defence(c)), c))
    assert g.moves() == ranked
    assert g.moves(5) == ranked[:5]
    # Ranked by mine alone or by three times mine, the order would differ here.
    assert sorted(g.candidates, key=lambda c: (-(3 * attack(c) + defence(c)), c)) != ranked
    assert sorted(g.candidates, key=lambda c: (-(2 * defence(c) + attack(c)), c)) != ranked
    fours = [c for c in g.candidates if attack(c) >= WEIGHTS[FOUR]]
    assert len(fours) > 1
    assert g.forcing() == sorted(fours, key=lambda c: (-attack(c), -defence(c), c))
    assert sorted(fours, key=lambda c: (attack(c), -defence(c), c)) != g.forcing()
    assert sorted(fours, key=lambda c: (-attack(c), defence(c), c)) != g.forcing()
    # And with X to move, X's fours first, ranked by what they would also take from O.
    g.play(0)
    fours = [c for c in g.candidates if attack(c) >= WEIGHTS[FOUR]]
    assert g.mover == "X" and len(fours) > 1
    assert g.forcing() == sorted(fours, key=lambda c: (-attack(c), -defence(c), c))


def test_of_two_equally_strong_fours_the_one_that_also_blocks_more_comes_first():
    # X to move with a three in the middle row (111 to 113); O's stones at 83, 96 and 97 above it.
    text = "." * 83 + "O" + "." * 12 + "OO" + "." * 13 + "XXX" + "." * 111
    g = Gomoku.from_text(text, 15, 5)
    assert g.mover == "X"
    # 115 and 109 each make a four worth the same; 115 also takes more from O, so it goes first.
    assert g.forcing() == [110, 114, 115, 109]
    assert g.score(115)[0] == g.score(109)[0] and g.score(115)[1] > g.score(109)[1]
