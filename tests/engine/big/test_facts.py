import pytest
from support import stones

from tests.engine.positions import DOUBLE_THREE, FOUR_THREE
from tests.proofs import wins_within
from webapp import solver
from webapp.engine.big.board import Gomoku
from webapp.engine.big.budget import Meter
from webapp.engine.big.facts import Threat, forced_win, move_notes, threats
from webapp.engine.big.threats import ThreatSearch
from webapp.engine.boards import UnknownBoardSizeError
from webapp.engine.rules import EMPTY, IllegalMoveError, InvalidBoardError, InvalidMoveError


def cell(r: int, c: int, n: int = 15) -> int:
    return r * n + c


def test_the_solver_answers_as_the_engine():
    board = stones(15, x=[(7, 7), (7, 8), (7, 9)], o=[(0, 0), (0, 1)])
    assert solver.threats(board) == threats(board)
    assert solver.forced_win(board) == forced_win(board)
    assert solver.move_notes(board, cell(7, 10)) == move_notes(board, cell(7, 10))


@pytest.mark.parametrize(
    ("board", "expected"),
    [
        # A five (X has won): longer than five counts too.
        (
            stones(15, x=[(0, c) for c in range(6)], o=[(2, 2 * c) for c in range(5)]),
            [("X", "five", tuple(range(6)), ())],
        ),
        # An open four and a closed four (the board's edge closes it).
        (
            stones(15, x=[(3, c) for c in range(4, 8)], o=[(5, c) for c in range(4)]),
            [
                ("X", "open-four", tuple(cell(3, c) for c in range(4, 8)), (cell(3, 3), cell(3, 8))),
                ("O", "four", tuple(cell(5, c) for c in range(4)), (cell(5, 4),)),
            ],
        ),
        # A split four: the gap completes it.
        (stones(15, x=[(4, 4), (5, 5), (7, 7), (8, 8)], o=[(1, 1), (1, 3), (1, 5)]), None),
    ],
    ids=["fives", "fours", "split-four"],
)
def test_threats_name_each_shape_with_its_stones_and_gaps(board, expected):
    found = threats(board)
    if expected is None:
        assert Threat("X", "four", (cell(4, 4), cell(5, 5), cell(7, 7), cell(8, 8)), (cell(6, 6),)) in found
        return
    assert [(t.side, t.kind, t.stones, t.gaps) for t in found if t.kind != "open-three"] == expected


def test_open_threes_are_threes_that_one_stone_makes_an_open_four():
    board = stones(15, x=[(7, 6), (7, 7), (7, 8)], o=[(0, 0), (1, 1), (9, 9)])
    three = [t for t in threats(board) if t.side == "X"]
    assert three == [Threat("X", "open-three", (cell(7, 6), cell(7, 7), cell(7, 8)), (cell(7, 5), cell(7, 9)))]
    # Closed on one side it is no open three: one more stone makes only a four.
    closed = stones(15, x=[(7, 6), (7, 7), (7, 8)], o=[(0, 0), (7, 5), (9, 9)])
    assert [t for t in threats(closed) if t.side == "X"] == []
    # A split three: its gap, and its ends, make an open four.
    split = stones(15, x=[(7, 5), (7, 7), (7, 8)], o=[(0, 0), (0, 2), (9, 9)])
    (found,) = [t for t in threats(split) if t.side == "X"]
    assert found.kind == "open-three" and cell(7, 6) in found.gaps


def test_threats_are_listed_strongest_first_the_side_to_move_first():
    board = FOUR_THREE[: cell(7, 8)] + "X" + FOUR_THREE[cell(7, 8) + 1 :]  # X played the four-three: O to move
    board = board[: cell(3, 3)] + "O" + board[cell(3, 3) + 1 :]
    kinds = [(t.kind, t.side) for t in threats(board)]
    assert kinds == sorted(kinds, key=lambda k: ("five", "open-four", "four", "open-three").index(k[0]))
    assert ("four", "X") in kinds and ("open-three", "X") in kinds


@pytest.mark.parametrize("board", [EMPTY * 9, "X" + EMPTY * 15, EMPTY * 12 + "X" + EMPTY * 12])
def test_on_the_solved_boards_there_is_nothing_to_add(board):
    assert threats(board) == () and forced_win(board) is None and move_notes(board, 1) == ()


@pytest.mark.parametrize(
    ("board", "error"),
    [("X" * 225, InvalidBoardError), ("." * 224, UnknownBoardSizeError), ("." * 48 + "?", InvalidBoardError)],
)
def test_a_bad_board_is_a_value_error_that_says_so(board, error):
    with pytest.raises(error):
        threats(board)
    with pytest.raises(error):
        forced_win(board)


@pytest.mark.parametrize(("where", "error"), [(225, InvalidMoveError), (-1, InvalidMoveError), (0, IllegalMoveError)])
def test_notes_on_a_square_that_cannot_be_played_are_a_value_error(where, error):
    with pytest.raises(error):
        move_notes(FOUR_THREE, where)


@pytest.mark.parametrize(
    ("board", "kind", "plies"), [(FOUR_THREE, "fours", 5), (DOUBLE_THREE, "threes", 5)], ids=["4-3", "3-3"]
)
def test_a_forced_win_is_proved_against_every_defence(board, kind, plies):
    win = forced_win(board)
    assert (win.side, win.kind, win.first, win.plies) == ("X", kind, cell(7, 8), plies)
    assert win.line[0] == win.first and len(win.line) == plies

    def find(game, side):
        return ThreatSearch(game, side, Meter(nodes=200_000)).vct(3)

    assert wins_within(Gomoku.from_text(board, 15, 5), "X", win.plies, find, first=win.first)


def test_the_side_not_to_move_is_asked_as_if_it_were_to_move():
    board = FOUR_THREE[:7] + "X" + FOUR_THREE[8:]  # one more X stone: O to move
    board = board[:9] + "O" + board[10:]  # and one more O: X to move again... and the same for O below
    assert forced_win(board, "O") is None
    o_to_move = FOUR_THREE[:7] + "X" + FOUR_THREE[8:]
    assert forced_win(o_to_move, "X").first == cell(7, 8)  # were X to move, its four-three wins


def test_an_immediate_five_is_a_win_in_one_and_a_side_facing_a_five_has_none():
    board = stones(15, x=[(0, c) for c in range(4)], o=[(2, c) for c in range(4)])
    win = forced_win(board)
    assert (win.side, win.first, win.plies, win.line) == ("X", 4, 1, (4,))
    assert forced_win(board, "O") is None or forced_win(board, "O").plies == 1  # as if O were to move


def test_move_notes_name_what_a_move_makes_and_what_it_blocks():
    assert move_notes(FOUR_THREE, cell(7, 8)) == ("makes a four", "makes an open three")
    assert move_notes(DOUBLE_THREE, cell(7, 8)) == ("makes two open threes",)
    assert move_notes(FOUR_THREE, cell(3, 3)) == ()
    # O to move after the four-three: the block names the four it stops.
    after = FOUR_THREE[: cell(7, 8)] + "X" + FOUR_THREE[cell(7, 8) + 1 :]
    assert move_notes(after, cell(7, 9)) == ("blocks X's four",)
    assert move_notes(after, cell(4, 8)) == ("blocks X's open three",)
    five = stones(15, x=[(0, c) for c in range(4)], o=[(2, c) for c in range(4)])
    assert move_notes(five, 4) == ("wins: five in a row",)
    assert move_notes(stones(15, x=[(3, c) for c in range(4, 7)], o=[(9, 9), (9, 11), (12, 3)]), cell(3, 7))[0] == (
        "makes an open four"
    )
