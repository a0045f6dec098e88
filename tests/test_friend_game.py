"""A game between two friends: seats, turns, rounds, the score, and its line in the store."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from webapp.engine.rules import GameOverError, IllegalMoveError, InvalidMoveError
from webapp.friend_game import DrawOfferError, FriendGame, SeatError, SeatTakenError, TransferError
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
        "f2|3x3|X|1|1|0.0.0|inviter|",  # an f2 line without its ending's fields
        "f1|3x3|X|1|1|0.0.0|inviter||||-1||0.0",  # an f1 line with them
        "f2|3x3|X|1|1|0.0.0|inviter||gave up||-1||0.0",
        "f2|3x3|X|1|1|0.0.0|inviter|||watcher|-1||0.0",
        "f2|3x3|X|1|1|0.0.0|inviter||||-2||0.0",
        "f2|3x3|X|1|1|0.0.0|inviter||||-1|inviter.short|0.0",
        "f2|3x3|X|1|1|0.0.0|inviter||||-1||0",
        "f1|3x3|X|1|1|0.0.0|inviter|0.1.2.3.4.5.6.7",  # play after X has won
    ],
)
def test_a_line_that_is_not_a_game_is_refused(line):
    with pytest.raises(ValueError):
        FriendGame.from_line(line)


NONCE = "n" * 22


def test_a_resignation_ends_the_round_as_the_other_seats_win_at_any_turn():
    game = seated().move("inviter", 4)
    # The guest plays O and resigns on their own turn; the inviter could as well on the guest's.
    for seat, score in (("guest", (1, 0, 0)), ("inviter", (0, 1, 0))):
        ended = game.resign(seat)
        assert ended.is_over and ended.resigned == seat and ended.score == score
        assert ended.winner == ended.side_of("inviter" if seat == "guest" else "guest")
        with pytest.raises(GameOverError):
            ended.move("guest", 0)
        with pytest.raises(GameOverError):
            ended.resign("inviter")
        again = ended.rematch(seat)
        assert (again.is_over, again.ending, again.score) == (False, "", score)


@pytest.mark.parametrize(("seat", "error"), [(None, SeatError), ("watcher", SeatError)])
def test_only_a_seat_resigns_or_offers_a_draw(seat, error):
    game = seated()
    for act in (game.resign, game.offer_draw, game.accept_draw, game.decline_draw):
        with pytest.raises(error):
            act(seat)


def test_nothing_ends_before_the_friend_has_come():
    for act in ("resign", "offer_draw"):
        with pytest.raises(SeatError):
            getattr(FriendGame("3x3"), act)("inviter")


def test_a_draw_offer_is_accepted_by_the_other_seat_only_and_counts_as_a_draw():
    offered = seated().move("inviter", 4).offer_draw("inviter")
    assert offered.draw_offer == "inviter" and not offered.is_over
    with pytest.raises(DrawOfferError):
        offered.accept_draw("inviter")
    with pytest.raises(DrawOfferError):
        offered.offer_draw("inviter")
    drawn = offered.accept_draw("guest")
    assert drawn.is_over and drawn.winner is None and drawn.score == (0, 0, 1) and drawn.draw_offer == ""
    # Two offers crossing are an agreement.
    assert offered.offer_draw("guest").score == (0, 0, 1)


def test_a_declined_offer_waits_for_a_move_and_a_move_declines_an_offer():
    offered = seated().offer_draw("inviter")
    declined = offered.decline_draw("guest")
    assert declined.draw_offer == "" and not declined.is_over
    for seat in ("inviter", "guest"):
        with pytest.raises(DrawOfferError):
            declined.offer_draw(seat)
    with pytest.raises(DrawOfferError):
        declined.accept_draw("guest")
    assert declined.move("inviter", 0).offer_draw("guest").draw_offer == "guest"
    assert offered.move("inviter", 0).draw_offer == ""


def test_a_transfer_is_used_once_and_a_newer_one_replaces_it():
    game = seated().with_transfer("guest", NONCE)
    moved, seat = game.transferred(NONCE)
    assert seat == "guest" and moved.transfer == "" and (moved.moves_of("guest"), moved.moves_of("inviter")) == (1, 0)
    assert FriendGame.from_line(moved.to_line()) == moved
    with pytest.raises(TransferError):
        moved.transferred(NONCE)  # replayed
    newer = game.with_transfer("inviter", "m" * 22)
    with pytest.raises(TransferError):
        newer.transferred(NONCE)  # replaced
    with pytest.raises(TransferError):
        seated().transferred(NONCE)  # never made
    with pytest.raises(SeatError):
        seated().with_transfer(None, NONCE)


ACTS = st.lists(
    st.tuples(
        st.sampled_from(["move", "resign", "offer_draw", "accept_draw", "decline_draw", "rematch"]),
        st.sampled_from(["inviter", "guest"]),
        st.integers(0, 8),
    ),
    max_size=40,
)


@given(ACTS)
def test_any_play_keeps_the_score_one_count_per_finished_round_and_reads_back(acts):
    game = seated()
    finished = 0
    for act, seat, cell in acts:
        was_over = game.is_over
        try:
            game = game.move(seat, cell) if act == "move" else getattr(game, act)(seat)
        except ValueError:
            continue
        finished += game.is_over and not was_over
        # Nothing but a rematch follows the end; an open offer never outlives its round.
        assert not was_over or act == "rematch"
        assert not (game.is_over and game.draw_offer)
    assert sum(game.score) == finished
    assert FriendGame.from_line(game.to_line()) == game
