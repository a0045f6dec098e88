"""A big board's review: every move graded, by proof where there is one, else by Hard's estimate; in pieces."""

import json
from pathlib import Path

import pytest

from webapp.engine.boards import BY_KEY
from webapp.learn.big_review import INACCURACY, estimated_grade, explain_big_move, graded_moves, summary, turning_point
from webapp.learn.grading import UNCLEAR, GradedMove
from webapp.learn.review import graded_move, parse_moves, positions, review_piece
from webapp.solver import estimate

B7, B15 = BY_KEY["7x7"], BY_KEY["15x15"]
GAMES = json.loads((Path(__file__).parent / "data" / "review-games.json").read_text())["games"]


def in_pieces(moves, board, size: int):
    """Every move of ``moves`` graded in pieces of ``size`` moves, each starting where the one before stopped."""
    graded, start, turning = [], 0, None
    while start is not None:
        count = iter(range(size))
        piece = review_piece(moves, board, start, turning, lambda count=count: next(count, None) is not None)
        graded.extend(piece.moves)
        start, turning = piece.next, piece.turning
    return tuple(graded), turning


@pytest.mark.parametrize("game", GAMES, ids=[game["name"] for game in GAMES])
def test_most_moves_of_a_15x15_game_are_graded_in_pieces_and_the_pieces_agree(game):
    moves = parse_moves(game["moves"], B15)
    graded, turning = in_pieces(moves, B15, 7)
    assert [move.number for move in graded] == list(range(1, len(moves) + 1))
    assert sum(move.grade != "unclear" for move in graded) >= 0.6 * len(moves)
    # A move's grade is the same graded alone, or as the first or the last of a piece.
    for at in (0, 6, 7, len(moves) - 1):
        assert graded_move(moves, B15, at) == graded[at]
    final = positions(moves, B15)[-1]
    assert final.winner == game["winner"]
    assert turning == turning_point(graded, final.winner)
    # Every grade is either proved or said to be an estimate, and an estimated one compares two chances.
    for move in graded:
        assert move.is_estimate or move.why in ("five", "keeps", "kept", "missed", "four", "allowed")
        if move.is_estimate:
            assert 0 <= move.after <= 1 and 0 <= move.before <= 1 and move.value == UNCLEAR


def test_an_estimated_grade_is_the_move_hard_would_play_or_the_chance_it_loses():
    # 7×7: quiet moves far from any line, where nothing is proved either way.
    moves = parse_moves("24.0.25.6", B7)
    for move, pos in zip(graded_moves(moves, B7), positions(moves, B7), strict=False):
        hard = estimate(pos.board).move
        assert move.is_estimate and move.best_cells == (hard,)
        if move.cell == hard:
            assert move.grade == "best" and move.before == move.after
        else:
            assert move.grade == estimated_grade(move.before - move.after)
            assert move.after == pytest.approx(1 - estimate(pos.play(move.cell).board).chance)
            assert move.before == pytest.approx(1 - estimate(pos.play(hard).board).chance)


@pytest.mark.parametrize(
    ("loss", "grade"), [(-0.2, "good"), (0.0, "good"), (INACCURACY, "inaccuracy"), (0.2, "mistake"), (0.9, "blunder")]
)
def test_the_chance_a_move_loses_grades_it(loss, grade):
    assert estimated_grade(loss) == grade


def estimated(number, mover, before, after, grade="mistake"):
    return GradedMove(
        number, 24, mover, UNCLEAR, UNCLEAR, grade, (25,), "estimate", before, after, before >= 0.5 > after
    )


def test_the_review_points_to_the_losers_last_move_that_changed_the_game():
    moves = (estimated(3, "X", 0.6, 0.3), estimated(8, "O", 0.7, 0.4), estimated(11, "X", 0.55, 0.2))
    assert turning_point(moves, "O") == 11  # X lost the lead twice: the second time decided it
    assert turning_point(moves, "X") == 8
    assert turning_point(moves, None) == 11
    assert turning_point(moves[:1], "X", before=5) == 5  # none here: the pieces before pointed to move 5
    assert turning_point((estimated(4, "X", 0.45, 0.1),), "O") is None  # X was behind already


def test_the_summary_names_the_move_its_chances_and_hards_move():
    move = estimated(11, "X", 0.55, 0.2)
    assert summary(move, B15, None, 40, "O") == (
        "X's move 11, row 2, column 10, handed the game to O by Hard's estimate: X's chance of winning fell from "
        "about 55 % to about 20 %. Hard would have played row 2, column 11."
    )
    assert summary(move, B15, "X", 40, "O").startswith("Your move 11, row 2, column 10, handed the game to O by ")
    assert "your chance of winning fell" in summary(move, B15, "X", 40, "O")


def test_an_estimate_says_it_is_one_and_names_hards_move():
    words = explain_big_move(estimated(11, "X", 0.55, 0.2), 15)
    assert words == (
        "Move 11, X row 2, column 10, was a mistake by Hard's estimate: X's chance of winning falls from about 55 % "
        "to about 20 %, and the lead goes to O. Hard would have played row 2, column 11."
    )
    assert "Hard's choice too" in explain_big_move(estimated(2, "O", 0.5, 0.5, "best"), 15)
    assert "was good by Hard's estimate" in explain_big_move(estimated(2, "O", 0.5, 0.45, "good"), 15)


def test_a_move_that_plays_a_proved_forced_win_is_best_and_says_so():
    # 7×7: X has an open three on the top row; its open four is a forced win, proved.
    moves = parse_moves("1.7.2.8.3.20", B7)
    move = graded_moves((*moves, 4), B7)[-1]
    assert (move.grade, move.why, move.is_estimate) == ("best", "keeps", False)
    assert "proved forced win" in explain_big_move(move, 7)
