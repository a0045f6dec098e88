"""A game between two friends: seats, turns, rounds, the score, and its line in the store."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from webapp.engine.rules import GameOverError, IllegalMoveError, InvalidMoveError
from webapp.friend_game import FriendGame, SeatError, SeatTakenError
from webapp.match import ConflictError


def seated(board="3x3") -> FriendGame:
    return FriendGame(board).joined_by_guest()


def test_the_seat_is_taken_once():
    game = seated()
    with pytest.raises(SeatTakenError):
        game.joined_by_guest()


@pytest.mark.parametrize(
    ("seat", "cell", "error"),
    [
        (None, 0, SeatError),  # a watcher
        ("guest", 0, SeatError),  # out of turn: X (the inviter) moves first
        ("inviter", 9, InvalidMoveError),
        ("inviter", -1, InvalidMoveError),
    ],
)
def test_a_move_is_checked_for_seat_turn_and_square(seat, cell, error):
    with pytest.raises(error):
        seated().move(seat, cell)


def test_a_taken_square_and_a_finished_game_refuse_a_move():
    game = seated().move("inviter", 4)
    with pytest.raises(IllegalMoveError):
        game.move("guest", 4)
    for seat, cell in (("guest", 0), ("inviter", 1), ("guest", 8), ("inviter", 7)):
        game = game.move(seat, cell)
    assert game.is_over and game.score == (1, 0, 0)
    with pytest.raises(GameOverError):
        game.move("guest", 2)


def test_the_inviter_chooses_a_side_before_the_first_move_only():
    game = seated().with_inviter_playing("inviter", "O")
    assert game.side_of("guest") == "X"
    with pytest.raises(SeatError):
        game.with_inviter_playing("guest", "X")
    with pytest.raises(ConflictError):
        game.move("guest", 0).with_inviter_playing("inviter", "X")


def test_a_rematch_swaps_sides_and_keeps_the_score_from_each_seat():
    game = seated()
    for seat, cell in (("inviter", 0), ("guest", 3), ("inviter", 1), ("guest", 4), ("inviter", 2)):
        game = game.move(seat, cell)
    with pytest.raises(SeatError):
        game.rematch(None)
    again = game.rematch("guest")
    assert (again.side_of("inviter"), again.round, again.moves) == ("O", 2, ())
    # Now the guest plays X and wins: the guest's count goes up, not X's.
    for seat, cell in (("guest", 0), ("inviter", 3), ("guest", 1), ("inviter", 4), ("guest", 2)):
        again = again.move(seat, cell)
    assert again.score == (1, 1, 0)
    with pytest.raises(ConflictError):
        again.rematch("guest").rematch("guest")


@given(st.lists(st.integers(0, 48), max_size=30), st.booleans())
def test_any_game_reads_back_from_its_line(cells, as_o):
    game = FriendGame("7x7").with_inviter_playing("inviter", "O" if as_o else "X").joined_by_guest()
    for cell in cells:
        seat = game.seat_of(game.to_move)
        try:
            game = game.move(seat, cell)
        except (IllegalMoveError, InvalidMoveError):
            continue
    assert FriendGame.from_line(game.to_line()) == game


@pytest.mark.parametrize(
    "line",
    [
        "",
        "f1|3x3|X|1|1|0.0.0|inviter|4.4",  # a square played twice
        "f1|3x3|X|1|1|0.0.0|inviter|9",  # off the board
        "f1|9x9|X|1|1|0.0.0|inviter|",  # no such board
        "f1|3x3|Z|1|1|0.0.0|inviter|",
        "f1|3x3|X|1|0|0.0.0|inviter|",
        "f1|3x3|X|1|1|0.0|inviter|",
        "f1|3x3|X|1|1|0.0.0|watcher|",
        "f2|3x3|X|1|1|0.0.0|inviter|",
        "f1|3x3|X|1|1|0.0.0|inviter|0.1.2.3.4.5.6.7",  # play after X has won
    ],
)
def test_a_line_that_is_not_a_game_is_refused(line):
    with pytest.raises(ValueError):
        FriendGame.from_line(line)
