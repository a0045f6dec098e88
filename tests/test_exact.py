"""The exact engine of 4×4 and 5×5 (four in a row), held against a plain negamax written from the rules."""

import random
from functools import cache

import pytest

from webapp.engine import perfect
from webapp.engine.bitboard import bit_geometry, bits_of, text_of
from webapp.engine.boards import position
from webapp.engine.exact import WIN, ExactSearch, OutOfBudget
from webapp.engine.levels import WIN as LEVELS_WIN
from webapp.engine.levels import analyze, candidates, choose_move
from webapp.engine.rules import Position, other


@cache
def reference(board: str) -> tuple[int, int]:
    """Plain negamax with no pruning and no symmetry: (1 win, 0 draw, -1 loss; plies to the end),
    the winner hurrying and the loser stalling."""
    pos = position(board)
    if pos.is_over():
        return (-1 if pos.winner else 0), 0
    return max((after(pos, m) for m in pos.legal_moves()), key=rank)


def after(pos: Position, move: int) -> tuple[int, int]:
    score, plies = reference(pos.play(move).board)
    return -score, plies + 1


def rank(outcome: tuple[int, int]) -> tuple[int, int]:
    score, plies = outcome
    return score, -plies if score > 0 else plies


def as_words(outcome: tuple[int, int]) -> tuple[str, int]:
    score, plies = outcome
    return {1: "win", 0: "draw", -1: "loss"}[score], plies


def random_position(rng: random.Random, empty: str, plies: int) -> Position | None:
    pos = position(empty)
    for _ in range(plies):
        pos = pos.play(rng.choice(pos.legal_moves()))
        if pos.is_over():
            return None
    return pos


def sample(seed: int, empty: str, plies: range, count: int) -> list[Position]:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        pos = random_position(rng, empty, rng.choice(plies))
        if pos is not None:
            found.append(pos)
    return found


def test_the_scales_of_the_two_engines_agree():
    assert WIN == LEVELS_WIN


def test_the_bit_board_reads_and_writes_the_text():
    board = "XO..X....O....X."
    me, them = bits_of(board)  # O to move, so X's cells are the opponent's
    assert text_of(them, me, 16) == board
    g = bit_geometry(4, 4)
    # Each image is the board turned or mirrored: all eight are boards of the same marks.
    for image in g.images(them, me):
        x, o = image & g.full, image >> g.cells
        assert bin(x).count("1") == 3 and bin(o).count("1") == 2


def test_every_symmetric_twin_has_the_same_key():
    g = bit_geometry(5, 4)
    board = "XO..X....O..X.....O......"
    keys = set()
    for perm in position(board).geometry.symmetries:
        twin = "".join(board[i] for i in perm)
        me, them = bits_of(twin)
        keys.add(min(g.images(me, them)))  # X is to move
    assert len(keys) == 1


def test_the_empty_4x4_board_is_a_draw_and_so_is_every_opening():
    search = ExactSearch(4, 4)
    assert search.solve("." * 16) == 0
    assert set(analyze("." * 16).values()) == {("draw", 16)}


def test_4x4_values_match_plain_negamax_on_two_thousand_positions_near_the_end():
    checked = 0
    for pos in sample(11, "." * 16, range(10, 15), 2000):
        got = perfect.analyze(pos.board)
        want = {m: as_words(after(pos, m)) for m in pos.legal_moves()}
        assert got == want, pos.board
        checked += len(want)
    assert checked > 4000


def test_4x4_values_match_plain_negamax_further_from_the_end():
    # Eight and nine empty cells: the reference's memo makes these affordable, and the search is no longer trivial.
    for pos in sample(12, "." * 16, range(7, 9), 12):
        search = ExactSearch(4, 4)
        empties = pos.board.count(".")
        for move in pos.legal_moves():
            assert perfect.describe(search.value_of_move(pos.board, move), empties) == as_words(after(pos, move))


def test_5x5_values_match_plain_negamax_near_the_end():
    for pos in sample(13, "." * 25, range(17, 21), 100):
        assert perfect.analyze(pos.board) == {m: as_words(after(pos, m)) for m in pos.legal_moves()}, pos.board


def test_a_window_search_returns_bounds_on_the_right_side():
    board = "..O.OOX.O..XX..X"  # X to move wins in 3
    exact = ExactSearch(4, 4).solve(board)
    assert exact == WIN + 8 - 3  # 8 cells empty now, 5 when X has won
    assert ExactSearch(4, 4).solve(board, exact, exact + 1) <= exact  # fails low: an upper bound
    assert ExactSearch(4, 4).solve(board, exact - 1, exact) >= exact  # fails high: a lower bound


def test_impossible_takes_the_fastest_win():
    # . . O .
    # O O X .
    # O . . X
    # X . . X    X to move: 3 wins in 3 plies; 13 and 14 win too, but only in 5
    board = "..O.OOX.O..XX..X"
    values = analyze(board)
    assert values[3] == ("win", 3)
    assert values[13] == values[14] == ("win", 5)
    assert candidates(board, "minimax") == (3,)


def test_impossible_stalls_a_lost_game():
    # X O O O
    # X X . X
    # . O . .
    # . . X .    O to move is lost: 6 blocks and loses in 6, every other move loses in 2
    board = "XOOOXX.X.O....X."
    values = analyze(board)
    assert values[6] == ("loss", 6)
    assert {values[c] for c in values if c != 6} == {("loss", 2)}
    assert candidates(board, "minimax") == (6,)


def test_every_impossible_choice_keeps_the_best_value():
    for pos in sample(14, "." * 16, range(8, 13), 60):
        best = max((after(pos, m) for m in pos.legal_moves()), key=rank)
        for move in candidates(pos.board, "minimax"):
            assert after(pos, move) == best, (pos.board, move)


def test_equal_moves_are_narrowed_to_those_that_leave_the_most_losing_replies():
    # . . . . / . O X X / O . O . / X . . .   X to move: ten moves hold the draw, and after 3 or 9
    # eight of O's replies lose, more than after any other
    board = ".....OXXO.O.X..."
    search = ExactSearch(4, 4)
    top, optimal = search.optimal_moves(board)
    assert top == 0 and len(optimal) == 10
    rope = {cell: search._mistakes_after(board, cell, top, None) for cell in optimal}
    assert rope[3] == rope[9] == 8 == max(rope.values())
    assert candidates(board, "minimax") == (3, 9)
    # Each reply counted as a mistake is one: it gives X more than the draw.
    pos = position(board).play(3)
    losing = [m for m in pos.legal_moves() if after(pos, m)[0] < 0]
    assert len(losing) == 8


def test_a_node_budget_stops_the_search_and_the_analysis_says_unclear(monkeypatch):
    with pytest.raises(OutOfBudget):
        ExactSearch(5, 4, max_nodes=50).solve("." * 25)
    monkeypatch.setattr(perfect, "ANALYSIS_NODES", 25 * 30)
    board = "......X...........O......"  # not in the book
    perfect._analysis.cache_clear()
    try:
        values = perfect.analyze(board)
    finally:
        perfect._analysis.cache_clear()
    assert ("unclear", None) in values.values()
    assert all(result == "unclear" or plies is not None for result, plies in values.values())


def test_the_caches_are_bounded():
    for cached in (perfect.candidates, perfect._analysis, perfect.outlook):
        assert cached.cache_info().maxsize == perfect.CACHED_BOARDS


def play_game(empty: str, levels: dict[str, str], rng: random.Random) -> Position:
    pos = position(empty)
    while not pos.is_over():
        pos = pos.play(choose_move(pos.board, levels[pos.to_move], rng))
    return pos


@pytest.mark.parametrize("empty", ["." * 16, "." * 25], ids=["4x4", "5x5"])
@pytest.mark.parametrize("opponent", ["random", "one-ply"])
@pytest.mark.parametrize("side", ["X", "O"])
def test_impossible_never_loses(empty, opponent, side):
    rng = random.Random(f"{empty}{opponent}{side}")
    # One game on 5×5, whose moves just past the book are searched live for a second or more.
    for _ in range(2 if len(empty) == 16 else 1):
        end = play_game(empty, {side: "minimax", other(side): opponent}, rng)
        assert end.winner != other(side), end.board


@pytest.mark.parametrize(("cells", "exact"), [(9, False), (16, True), (25, True), (49, False), (225, False)])
def test_impossible_plays_by_the_exact_search_on_4x4_and_5x5_only(cells, exact):
    assert perfect.is_exact_board("." * cells) is exact
