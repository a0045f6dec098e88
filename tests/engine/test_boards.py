import pytest

from webapp.engine.boards import BOARDS, BY_CELLS, BY_KEY, DEFAULT, UnknownBoardSizeError, board_for, position
from webapp.engine.rules import InvalidBoardError


@pytest.mark.parametrize(
    ("cells", "key", "n", "k"),
    [(9, "3x3", 3, 3), (16, "4x4", 4, 4), (25, "5x5", 5, 4), (49, "7x7", 7, 5), (225, "15x15", 15, 5)],
)
def test_a_board_is_picked_by_its_length(cells, key, n, k):
    board = board_for("." * cells)
    assert (board.key, board.n, board.k, board.cells) == (key, n, k, cells)
    assert BY_KEY[key] is board is BY_CELLS[cells]
    assert board.empty == "." * cells


def test_the_default_is_the_classic_board():
    assert DEFAULT.key == "3x3"
    assert DEFAULT.name == "3×3"


def test_only_the_big_boards_are_left_to_a_time_limited_search():
    assert [b.key for b in BOARDS if b.is_solved()] == ["3x3", "4x4", "5x5"]


def test_every_board_cites_what_is_known_of_it():
    values = {b.key: b.known_value for b in BOARDS}
    assert values == {"3x3": "draw", "4x4": "draw", "5x5": "draw", "7x7": "draw", "15x15": "first player wins"}
    assert all(b.source for b in BOARDS)


@pytest.mark.parametrize("text", ["", "X", "." * 8, "." * 10, "." * 36, "." * 226])
def test_another_length_is_refused_with_the_sizes_listed(text):
    with pytest.raises(UnknownBoardSizeError) as error:
        board_for(text)
    assert str(error.value) == (
        f"A board has 9, 16, 25, 49 or 225 cells (3×3, 4×4, 5×5, 7×7 or 15×15); this one has {len(text)}."
    )
    # Views map the rules' board errors to 400, so this one is one of them.
    assert isinstance(error.value, InvalidBoardError)


@pytest.mark.parametrize("value", [None, 9, ["."] * 9])
def test_what_is_not_text_is_refused(value):
    with pytest.raises(UnknownBoardSizeError, match="this is not text"):
        board_for(value)


def test_position_reads_the_board_with_its_own_k():
    # Four in a row wins on 5×5: X has four on the top row.
    won = position("XXXX.OOO.................")
    assert won.winner == "X"
    assert won.geometry.k == 4
    # Three in a row is not a win on 4×4.
    assert position("XXX.OO..........").winner is None


def test_position_still_checks_the_marks():
    with pytest.raises(InvalidBoardError, match="X moves first"):
        position("OO" + "." * 14)


def test_what_is_not_text_is_named_so_in_the_message():
    with pytest.raises(UnknownBoardSizeError, match=r"^A board has 9, .* cells \(3×3, .*\); this is not text\.$"):
        board_for(None)
