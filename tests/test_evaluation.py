"""The static evaluation in webapp.solver: what it says of a position, the order it puts moves in,
and what Medium (one-ply), which sees nothing else, plays when no move wins or blocks.

Every expected value is counted by hand in the comment beside it. The evaluation, for the side to
move: 4 × (lines still open to it − lines still open to the opponent), + 1 per corner and + 2 for
the centre it holds, − the same for the opponent's; 60 (THREAT) if it can complete a line at once.
"""

import pytest

from webapp.engine.levels import GAME, PACKED, candidates, static_value
from webapp.engine.rules import parse
from webapp.engine.search import children


@pytest.mark.parametrize(
    ("board", "value"),
    [
        # . . . / . . . / . . .  X to move: every line open to both sides, nobody placed: 4·(8 − 8).
        (".........", 0),
        # . . . / . X . / . . .  O to move: 4 lines open to O, all 8 to X, X's centre: 4·(4 − 8) − 2.
        ("....X....", -18),
        # X . . / . . . / . . .  O to move: 5 lines open to O, 8 to X, X's corner: 4·(5 − 8) − 1.
        ("X........", -13),
        # . . X / . . . / . . .  the same for every corner.
        ("..X......", -13),
        ("......X..", -13),
        ("........X", -13),
        # . X . / . . . / . . .  O to move: an edge lies on 2 lines and earns no bonus: 4·(6 − 8).
        (".X.......", -8),
        # X . . / . O . / . . .  X to move: X has 4 open lines, O has 5; X's corner, O's centre: 4·(4 − 5) + 1 − 2.
        ("X...O....", -5),
        # O . . / . X . / . . .  X to move: X has 5 open lines, O has 4; X's centre, O's corner: 4·(5 − 4) + 2 − 1.
        ("O...X....", 5),
        # X . . / . X . / . O .  O to move: O has 2 open lines, X has 6; X's corner and centre: 4·(2 − 6) − 3.
        ("X...X..O.", -19),
        # X O . / . . . / . . .  X to move: X has 6 open lines, O has 5; X's corner: 4·(6 − 5) + 1.
        ("XO.......", 5),
        # X . O / . . . / . . .  X to move: 5 open lines each, a corner each: 4·(5 − 5) + 1 − 1.
        ("X.O......", 0),
    ],
)
def test_the_static_value_of_drawn_positions(board, value):
    assert static_value(parse(board)) == value


@pytest.mark.parametrize(
    "board",
    [
        "XX.OO....",  # X X . / O O . / . . .  X to move completes the top row
        "X.X.O.O..",  # X . X / . O . / O . .  X to move completes the top row in the middle
        "XO..XO...",  # X O . / . X O / . . .  X to move completes the diagonal
        "XX.OO.X..",  # X X . / O O . / X . .  O to move completes the middle row
    ],
)
def test_a_win_on_offer_is_worth_a_threat_whatever_else_is_on_the_board(board):
    # 60: above any quiet position (at most 4·8 + 6 = 38) and below any finished game (100 and more).
    assert static_value(parse(board)) == 60


def test_a_line_the_opponent_could_complete_is_no_threat_for_the_side_to_move():
    # X X . / O . . / . . .  O to move. X threatens the top row, which is not O's win:
    # O has 4 open lines, X has 6, and X holds a corner.
    assert static_value(parse("XX.O.....")) == 4 * (4 - 6) - 1


def test_the_static_value_is_general_in_the_run_length():
    # On 4×4 with 3 in a row, two marks of X's on an open line are a win on offer.
    assert static_value(parse("XX..OO..........", n=4, k=3)) == 60
    # 4×4, four in a row: 10 lines. X O . . / . . . .  X to move: 8 lines are open to X (all but
    # the top row and the second column), 7 to O (all but the top row, the first column and the
    # diagonal), and X holds a corner.
    assert static_value(parse("XO..............", n=4, k=4)) == 4 * (8 - 7) + 1
    # An even board has no centre: X on cell 8 (row 3, column 1) earns nothing. O to move: 8 lines
    # are open to O (all but the third row and the first column), 10 to X.
    assert static_value(parse("........X.......", n=4, k=4)) == 4 * (8 - 10)


@pytest.mark.parametrize(
    ("board", "order"),
    [
        # The empty board: the centre (−18 for O after it), then the corners (−13), then the edges (−8).
        (".........", [4, 0, 2, 6, 8, 1, 3, 5, 7]),
        # After X's centre, O looks at the corners (X's value then 5) before the edges (10).
        ("....X....", [0, 2, 6, 8, 1, 3, 5, 7]),
        # After X's corner, O looks at the centre (−5), the other corners (0), then the edges (5).
        ("X........", [4, 2, 6, 8, 1, 3, 5, 7]),
    ],
)
def test_moves_are_searched_best_looking_first(board, order):
    assert [move for move, _ in children(GAME, parse(board), ordered=True)] == order


def test_a_winning_move_is_searched_before_any_quiet_one():
    # X X . / O O . / . . .  X to move: 2 wins at once; the rest leave O a win on offer.
    (first, _), *_ = children(GAME, parse("XX.OO...."), ordered=True)
    assert first == 2


@pytest.mark.parametrize(
    ("board", "moves"),
    [
        # With nothing to win or block, Medium plays where the evaluation is best for it afterwards.
        (".........", (4,)),  # the centre: O is left with −18, against −13 after a corner
        ("....X....", (0, 2, 6, 8)),  # against the centre, a corner: X is left with 5, against 10 after an edge
        ("X........", (4,)),  # against a corner, the centre: X is left with −5, against 0 or 5
        # X . . / . O . / . . X  a corner (X is left with −5, against 0 after an edge), which loses to
        # X's fork on the other corner: the trap that one ply cannot see.
        ("X...O...X", (2, 6)),
    ],
)
def test_medium_plays_the_best_looking_move_when_nothing_wins_or_blocks(board, moves):
    assert candidates(board, "one-ply") == moves


def test_medium_prefers_a_win_to_a_block_and_a_block_to_a_quiet_move():
    # X X . / O O . / . . .  X to move: winning at 2 beats blocking nothing.
    assert candidates("XX.OO....", "one-ply") == (2,)
    # X X . / O . . / . . .  O to move: only 2 stops X's row; every other move leaves X a win on offer.
    assert candidates("XX.O.....", "one-ply") == (2,)


@pytest.mark.parametrize("board", [".........", "X...O....", "XX.OO....", "X...X..O.", "XO..XO..."])
def test_the_packed_game_judges_a_state_as_the_positions_evaluation_does(board):
    # The solver's packed states are never judged in play (perfect play needs no evaluation), but the
    # interface must agree with itself, as any game handed to a depth-limited search would be asked.
    assert PACKED.static_value(PACKED.state(parse(board))) == static_value(parse(board))
