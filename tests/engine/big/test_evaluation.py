"""Hard's fitted evaluation (webapp/engine/big/evaluation.py): its features, its weights file and its symmetry."""

import json
import math
import random

import pytest
from support import stones

from tests.engine.positions import random_game, reference_evaluation
from webapp.engine.big import evaluation
from webapp.engine.big.board import Gomoku
from webapp.engine.big.evaluation import FEATURES, FITTED, SCALE, Weights, features, win_probability

# What X's stone on (7, 7) would make along row 7, with X's stones and O's blocks on that row as given; the other O
# stones, as many as X's, are in the corners, out of the way.
CORNERS = [(0, 0), (0, 14), (14, 0), (14, 14)]
ROW_PATTERNS = [
    ("five", [(7, 3), (7, 4), (7, 5), (7, 6)], []),
    ("open_four", [(7, 4), (7, 5), (7, 6)], []),
    ("four", [(7, 4), (7, 5), (7, 6)], [(7, 3)]),
    ("open_three", [(7, 5), (7, 6)], []),
    ("split_three", [(7, 4), (7, 6)], []),  # X . X X: one way to an open four
    ("three", [(7, 5), (7, 6)], [(7, 4)]),
    ("open_two", [(7, 6)], []),
    ("two", [(7, 6)], [(7, 5)]),
]


@pytest.mark.parametrize(("name", "x", "blocks"), ROW_PATTERNS, ids=[name for name, *_ in ROW_PATTERNS])
def test_a_stone_on_an_empty_cell_counts_the_pattern_it_would_make_along_each_line(name, x, blocks):
    board = stones(15, x=x, o=[*blocks, *CORNERS][: len(x)])
    game = Gomoku.for_board(board)
    line, shift = game.lay.windows[112][0]  # (7, 7) along its row
    assert game.mover == "X" and board[112] == "."
    assert evaluation.LINE_PATTERNS[game.lay.pair(game.lines[line] >> shift & game.lay.mask)[0]] == name


def test_the_counts_are_the_side_to_moves_and_the_others_and_a_four_three_is_a_combination():
    # X to move; (7, 8) makes a four on row 7 (closed by O at (7, 4)) and an open three in column 8.
    board = stones(15, x=[(7, 5), (7, 6), (7, 7), (5, 8), (6, 8)], o=[(7, 4), *CORNERS])
    mine, theirs = features(Gomoku.for_board(board))
    assert mine["four_three"] >= 1 and theirs["four_three"] == 0
    assert mine["four"] >= 1 and mine["five"] == 0
    # O to move (one more X stone far away): the same combination, now the other side's.
    swapped, same = features(Gomoku.for_board(board[:200] + "X" + board[201:]))
    assert same["four_three"] == mine["four_three"] and swapped["four_three"] == 0


@pytest.mark.parametrize("n", [7, 15])
@pytest.mark.parametrize("seed", [4, 5, 6])
def test_the_evaluation_is_the_weighted_sum_of_the_features_counted_afresh(n, seed):
    game = random_game(n, 5, random.Random(seed), 8 + 4 * seed)
    assert game.evaluate() == reference_evaluation(game)
    mine, theirs = features(game)
    assert game.evaluate() == FITTED.constant + sum(
        FITTED.mover[i] * mine[name] + FITTED.other[i] * theirs[name] for i, name in enumerate(FEATURES)
    )


def mirror(board: str, n: int) -> str:
    """The board turned about its main diagonal."""
    return "".join(board[(cell % n) * n + cell // n] for cell in range(n * n))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_position_and_its_mirror_image_are_worth_the_same(seed):
    game = random_game(15, 5, random.Random(seed), 15)
    assert Gomoku.for_board(game.text).evaluate() == Gomoku.for_board(mirror(game.text, 15)).evaluate()


def test_the_weights_file_names_every_feature_for_both_sides_and_says_how_it_was_fitted():
    found = json.loads(evaluation.PATH.read_text())
    assert set(found["mover"]) == set(found["other"]) == set(FEATURES)
    assert "make tune" in found["about"]["fitted by"]
    # Read into the engine's unit: thousandths, rounded; read afresh here, as the engine read it at import.
    for weights in (evaluation.load(), FITTED):
        assert weights.mover == tuple(round(SCALE * found["mover"][name]) for name in FEATURES)
        assert weights.other == tuple(round(SCALE * found["other"][name]) for name in FEATURES)
        assert weights.constant == round(SCALE * found["constant"])


def test_the_weights_say_what_a_player_knows():
    # Not a fit to one game: the signs any player would give. A threat of one's own is good, the other side's bad,
    # and a four of the other side's to block (a five for it to make) is the worst of the quiet features.
    mover, other = dict(zip(FEATURES, FITTED.mover, strict=True)), dict(zip(FEATURES, FITTED.other, strict=True))
    for name in ("open_four", "four", "open_three", "split_three", "open_two", "four_three"):
        assert mover[name] > 0 > other[name], name
    assert other["five"] == min(other.values())
    assert mover["four"] > mover["open_three"] > mover["open_two"] > mover["two"] > 0


def test_a_weights_file_is_read_into_integers_per_cell_part():
    weights = Weights(dict.fromkeys(FEATURES, 0.5), dict.fromkeys(FEATURES, -0.25), 0.1)
    assert weights.constant == 100 and weights.mover[0] == 500 and weights.other[0] == -250
    # A cell where X makes a five and O nothing: with X to move 500, with O to move -250.
    assert weights.part((0, evaluation.NO_PATTERN)) == (500, -250)


def test_the_win_probability_is_the_logistic_of_the_evaluation():
    assert win_probability(0) == 0.5
    assert win_probability(-SCALE) == pytest.approx(1 - win_probability(SCALE))
    assert win_probability(10**9) == pytest.approx(1.0) and win_probability(-(10**9)) == pytest.approx(0.0)


@pytest.mark.parametrize("logits", [-3.0, -1.0, 0.5, 2.0, 49.5])
def test_an_evaluation_is_read_as_thousandths_of_a_logit(logits):
    assert win_probability(round(logits * SCALE)) == pytest.approx(1 / (1 + math.exp(-logits)))


def test_past_fifty_logits_the_win_probability_is_fifty_logits_worth():
    # Held at ±50 logits, where math.exp would otherwise overflow; at +50 the probability is already 1.0 in floats.
    assert win_probability(-(10**9)) == win_probability(-50 * SCALE) == 1 / (1 + math.exp(50)) > 0
    assert win_probability(10**9) == win_probability(50 * SCALE) == 1.0
