import pytest

from webapp.engine import levels
from webapp.engine.rules import (
    DRAW,
    GameOverError,
    IllegalMoveError,
    InvalidBoardError,
    InvalidMoveError,
    Outcome,
    Position,
    canonical_board,
    cell_name,
    geometry,
    parse,
)


def test_empty_board_has_x_to_move_and_nine_moves():
    pos = Position.empty()
    assert pos.board == "........."
    assert pos.to_move == "X"
    assert pos.ply == 0
    assert pos.legal_moves() == tuple(range(9))
    assert pos.outcome() is None


def test_play_returns_a_new_position_and_leaves_the_old_one_alone():
    before = Position.empty()
    after = before.play(4)
    assert before.board == "........."
    assert after.board == "....X...."
    assert after.to_move == "O"
    assert after.play(0).board == "O...X...."


def test_positions_are_immutable_values():
    pos = parse("X...O....")
    with pytest.raises(AttributeError):
        pos.board = "........."
    assert pos == parse("X...O....")
    assert hash(pos) == hash(parse("X...O...."))
    assert pos != parse("....O...X")
    assert Position("X...O....") == pos


@pytest.mark.parametrize(
    ("board", "winner", "line"),
    [
        ("XXXOO....", "X", (0, 1, 2)),  # X X X / O O . / . . .
        ("OO.XXX...", "X", (3, 4, 5)),  # O O . / X X X / . . .
        ("O.O...XXX", "X", (6, 7, 8)),  # O . O / . . . / X X X
        ("XO.XO.X..", "X", (0, 3, 6)),  # X O . / X O . / X . .
        ("XOXXO..O.", "O", (1, 4, 7)),  # X O X / X O . / . O .
        ("XXO.XO..O", "O", (2, 5, 8)),  # X X O / . X O / . . O
        ("XO.OX...X", "X", (0, 4, 8)),  # X O . / O X . / . . X
        ("XXOXO.O..", "O", (2, 4, 6)),  # X X O / X O . / O . .
    ],
)
def test_every_line_wins(board, winner, line):
    pos = parse(board)
    assert pos.winner == winner
    assert pos.winning_line == line
    assert pos.outcome() == Outcome(winner, line)
    assert pos.is_over()
    assert not pos.is_draw()
    assert pos.legal_moves() == ()


def test_a_move_that_completes_two_lines_reports_both():
    # . X X / X O O / X O O  -- X plays the corner and completes the top row and the left column
    pos = parse(".XXXOOXOO").play(0)
    assert pos.winner == "X"
    assert pos.winning_line == (0, 1, 2, 3, 6)
    assert parse(pos.board) == pos


def test_full_board_without_a_line_is_a_draw():
    pos = parse("XOXXOOOXX")  # X O X / X O O / O X X
    assert pos.is_draw()
    assert pos.outcome() == DRAW
    assert pos.winner is None
    assert pos.winning_line == ()
    assert pos.legal_moves() == ()


def test_playing_a_taken_cell_is_illegal():
    pos = parse("X........")
    with pytest.raises(IllegalMoveError, match="Row 1, column 1 is already taken"):
        pos.play(0)


def test_playing_after_the_game_is_over_is_illegal():
    with pytest.raises(GameOverError, match="game is over"):
        parse("XXXOO....").play(8)
    assert issubclass(GameOverError, IllegalMoveError)


@pytest.mark.parametrize("cell", [-1, 9, 100, "4", 4.0, None, True])
def test_moves_that_are_not_cells_are_invalid(cell):
    with pytest.raises(InvalidMoveError, match="There is no square"):
        Position.empty().play(cell)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "has 9 cells, but this one has 0"),
        ("X.......", "has 9 cells, but this one has 8"),
        ("..........", "has 9 cells, but this one has 10"),
        ("x........", "Cell 0 holds 'x'"),
        ("....0....", "Cell 4 holds '0'"),
        ("........ ", "Cell 8 holds ' '"),
        ("O........", "X has 0 marks and O has 1"),  # O cannot move first
        ("XX.......", "X has 2 marks and O has 0"),  # X moved twice
        ("XXXOOO...", "Both X and O have a line"),  # X X X / O O O / . . .
        ("XXXOO.O..", "O played on after X had already won"),  # X X X / O O . / O . .
        ("OOOXX.XX.", "X played on after O had already won"),  # O O O / X X . / X X .
        (None, "text of 9 characters"),
        (123456789, "text of 9 characters"),
    ],
)
def test_parse_names_the_problem(text, message):
    with pytest.raises(InvalidBoardError, match=message):
        parse(text)
    assert issubclass(InvalidBoardError, ValueError)


def test_two_separate_lines_on_a_bigger_board_are_impossible():
    # X X X . / O . O . / X X X . / O O . O  -- three in a row, twice, with no cell in common
    board = "XXX.O.O.XXX.OO.O"
    with pytest.raises(InvalidBoardError, match="two separate lines"):
        parse(board, n=4, k=3)


def test_geometry_is_general():
    assert len(geometry(3, 3).lines) == 8
    assert len(geometry(4, 4).lines) == 10
    assert len(geometry(4, 3).lines) == 24
    assert len(set(geometry(3, 3).symmetries)) == 8
    pos = Position.empty(4, 3).play(5).play(0).play(6).play(1).play(7)  # X at 5, 6, 7: a row of 3
    assert pos.winner == "X"
    assert pos.winning_line == (5, 6, 7)
    with pytest.raises(ValueError):
        geometry(3, 4)


def test_symmetric_boards_share_one_canonical_form():
    # X . . / . O . / . . .  turned and mirrored every way
    images = set(parse("X...O....").symmetric_boards())
    assert len(images) == 4  # the corner can sit in any of the 4 corners
    assert {canonical_board(b) for b in images} == {parse("X...O....").canonical()}
    assert parse("X...O....").canonical() != parse(".X..O....").canonical()


def test_cells_have_names_a_screen_reader_can_say():
    assert cell_name(0) == "Row 1, column 1"
    assert cell_name(8) == "Row 3, column 3"
    assert cell_name(5, 4) == "Row 2, column 2"


# --- bigger boards and the edges of the rules (added with the mutation run, docs/mutation.md) ---


@pytest.mark.parametrize(("n", "k"), [(2, 2), (3, 2), (3, 3), (4, 2), (4, 4), (15, 5)])
def test_k_in_a_row_may_be_anything_from_two_to_the_side_of_the_board(n, k):
    assert (geometry(n, k).n, geometry(n, k).k, geometry(n, k).cells) == (n, k, n * n)


@pytest.mark.parametrize(("n", "k"), [(3, 1), (3, 0), (3, -3), (3, 4), (2, 3), (1, 1)])
def test_k_in_a_row_outside_two_to_n_is_refused(n, k):
    with pytest.raises(ValueError, match=f"k must be between 2 and n; got n={n}, k={k}"):
        geometry(n, k)


def test_the_lines_of_four_on_a_four_by_four_board():
    assert set(geometry(4, 4).lines) == {
        (0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11), (12, 13, 14, 15),  # rows
        (0, 4, 8, 12), (1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15),  # columns
        (0, 5, 10, 15), (3, 6, 9, 12),  # the diagonals, down to the right and down to the left
    }  # fmt: skip
    assert len(geometry(4, 4).lines) == 10


def test_every_run_of_two_is_a_line_when_two_in_a_row_wins():
    # . . . / . . . / . . .  each of the 20 pairs of neighbouring cells, the slanting ones included
    lines = geometry(3, 2).lines
    assert len(lines) == len(set(lines)) == 20
    assert {(1, 3), (2, 4), (4, 6), (5, 7)} <= set(lines)  # down to the left
    assert {(0, 4), (1, 5), (3, 7), (4, 8)} <= set(lines)  # down to the right
    assert (0, 2) not in lines and (2, 3) not in lines


@pytest.mark.parametrize(
    ("board", "line"),
    [
        ("...X..X..X..OO..", (3, 6, 9)),  # . . . X / . . X . / . X . . / O O . .  down to the left from a corner
        ("OO.....X..X..X..", (7, 10, 13)),  # O O . . / . . . X / . . X . / . X . .  down to the left, lower
        (".X....X....XOO..", (1, 6, 11)),  # . X . . / . . X . / . . . X / O O . .  down to the right
    ],
)
def test_a_slanting_line_wins_on_a_bigger_board(board, line):
    pos = parse(board, n=4, k=3)
    assert (pos.winner, pos.winning_line) == ("X", line)


def test_the_symmetries_of_a_bigger_board():
    # . X . . / . . . . / . . . . / . . . .  an edge cell next to a corner has 8 distinct images
    images = Position.empty(4, 4).play(1).symmetric_boards()
    assert sorted(board.index("X") for board in images) == [1, 2, 4, 7, 8, 11, 13, 14]
    assert parse("X" + "." * 15, n=4, k=4).canonical() == "." * 15 + "X"


def test_a_position_built_directly_is_checked_for_its_board_size_and_knows_its_result():
    assert Position("." * 16, n=4, k=4) == Position.empty(4, 4)
    assert Position("." * 16, n=4, k=4).geometry == geometry(4, 4)
    assert Position("XXXOO....").winner == "X"
    assert Position("XXXOO....").legal_moves() == ()
    with pytest.raises(InvalidBoardError, match="has 16 cells"):
        Position(".........", n=4, k=4)


@pytest.mark.parametrize(
    ("n", "k", "cell", "message"),
    [
        (3, 3, 9, "There is no square 9; squares are numbered 0 to 8."),
        (4, 3, -1, "There is no square -1; squares are numbered 0 to 15."),
    ],
)
def test_a_move_off_the_board_names_the_squares_there_are(n, k, cell, message):
    with pytest.raises(InvalidMoveError) as refused:
        Position.empty(n, k).play(cell)
    assert str(refused.value) == message


def test_the_messages_for_a_move_that_cannot_be_played_now():
    with pytest.raises(IllegalMoveError) as refused:
        Position.empty(4, 4).play(5).play(5)  # . . . . / . X . . / ...
    assert str(refused.value) == "Row 2, column 2 is already taken."
    with pytest.raises(GameOverError) as refused:
        parse("XXXOO....").play(8)
    assert str(refused.value) == "The game is over; start a new game to play again."


@pytest.mark.parametrize(("n", "k", "count"), [(3, 3, 8), (3, 2, 20), (4, 4, 10), (4, 3, 24), (5, 4, 28), (7, 5, 60)])
def test_the_lines_are_worked_out_afresh_as_every_run_of_k_in_four_directions(n, k, count):
    # rules._lines itself, not the geometry that memoises it: a mutation run starts from a process that
    # has built the common boards' geometry already, so only a direct call shows a changed line.
    from webapp.engine.rules import _lines

    lines = _lines(n, k)
    assert len(lines) == len(set(lines)) == count
    assert set(lines) == set(geometry(n, k).lines)
    expected = set()
    for row in range(n):
        for col in range(n):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(row + dr * i, col + dc * i) for i in range(k)]
                if all(0 <= r < n and 0 <= c < n for r, c in cells):
                    expected.add(tuple(r * n + c for r, c in cells))
    assert set(lines) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # The whole message, as a visitor reads it: a pattern that matches a part would pass a mangled one.
        ("XXXOOO...", "Both X and O have a line, but the game stops at the first one."),
    ],
)
def test_parse_gives_the_whole_message(text, message):
    with pytest.raises(InvalidBoardError) as refused:
        parse(text)
    assert str(refused.value) == message


@pytest.mark.parametrize(
    ("board", "message"),
    [
        ("XOXXOOOXX", "The game is over (a draw); there is no move to make."),  # X O X / X O O / O X X
        ("XXXOO....", "The game is over (won by X); there is no move to make."),
    ],
)
def test_asking_a_level_about_a_finished_game_says_how_it_ended(board, message):
    with pytest.raises(GameOverError) as refused:
        levels.candidates(board, "random")
    assert str(refused.value) == message
