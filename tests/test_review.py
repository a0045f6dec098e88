import random

import pytest
from support import rank, reachable_boards, reference_analysis, unfinished_boards

from webapp.engine.rules import parse
from webapp.review import (
    JunkMovesError,
    MoveAfterEndError,
    Outlook,
    TakenSquareError,
    TooManyMovesError,
    board_cells,
    echo,
    explain,
    format_moves,
    grade_move,
    how_it_is_won,
    line_to,
    move_list,
    parse_moves,
    place,
    positions,
    review,
    spot,
    threats,
)
from webapp.solver import analyze

SCORES = {"win": 1, "draw": 0, "loss": -1}


# --- reading a move list ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "moves"),
    [
        ("", ()),
        ("4", (4,)),
        ("4.0.8", (4, 0, 8)),
        ("4,0,8", (4, 0, 8)),
        ("0.4.8.1.7.6.2.5.3", (0, 4, 8, 1, 7, 6, 2, 5, 3)),  # a full board, drawn
        ("0.3.1.4.2", (0, 3, 1, 4, 2)),  # X wins on the last move
    ],
)
def test_a_move_list_reads_back(text, moves):
    assert parse_moves(text) == moves
    assert parse_moves(format_moves(moves)) == moves


@pytest.mark.parametrize(
    ("text", "error", "words"),
    [
        ("abc", JunkMovesError, "Move 1 is “abc”, which is not a square"),
        ("4.x", JunkMovesError, "Move 2 is “x”"),
        ("4..0", JunkMovesError, "Move 2 is nothing"),
        ("4.", JunkMovesError, "Move 2 is nothing"),
        ("4.9", JunkMovesError, "Move 2 is “9”"),
        ("4.-1", JunkMovesError, "Move 2 is “-1”"),
        ("4.٣", JunkMovesError, "Move 2 is “٣”"),  # a digit, but not 0 to 8
        ("4 0", JunkMovesError, "Move 1 is “4 0”"),
        ("1" * 500, TooManyMovesError, "too long to be a game"),
        ("0.1.2.3.4.5.6.7.8.0", TooManyMovesError, "There are 10 moves, but a game has at most 9"),
        ("4.4", TakenSquareError, "Move 2 (square 4, row 2, column 2) is on a square already taken"),
        ("4.0.4", TakenSquareError, "Move 3 (square 4"),
        ("0.4.8.1.7.6.2.5.3.0", TooManyMovesError, "There are 10 moves"),
        ("0.3.1.4.2.5", MoveAfterEndError, "Move 6 (square 5, row 2, column 3) comes after the game ended when X"),
        ("0.3.1.4.2.5", MoveAfterEndError, "won on move 5"),
    ],
)
def test_a_bad_move_list_names_the_first_bad_move(text, error, words):
    with pytest.raises(error) as raised:
        parse_moves(text)
    assert words in str(raised.value)
    assert isinstance(raised.value, ValueError)


def test_what_is_echoed_back_is_cut_short():
    assert echo("z" * 40) == "z" * 40
    assert echo("z" * 100) == "z" * 40 + "…"
    with pytest.raises(TooManyMovesError) as raised:
        parse_moves("z" * 10_000)
    assert "z" not in str(raised.value)


# --- grades, held against an independent minimax on every position -------------------------


def expected_grade(board: str, cell: int) -> tuple[str, tuple[int, ...]]:
    """The grade and best cells worked out from the oracle in support.py, not from the solver."""
    found = {m: (SCORES[result], plies) for m, (result, plies) in reference_analysis(board).items()}
    best = max(found.values(), key=rank)
    drop = best[0] - found[cell][0]
    grade = {0: "best" if found[cell] == best else "good", 1: "mistake", 2: "blunder"}[drop]
    return grade, tuple(m for m, value in found.items() if value == best)


def test_every_move_of_every_position_is_graded_as_the_oracle_says():
    seen = set()
    for board in unfinished_boards():
        pos = parse(board)
        for cell in pos.legal_moves():
            move = grade_move(pos, cell, pos.ply + 1)
            assert (move.grade, move.best_cells) == expected_grade(board, cell), (board, cell)
            # The same values as analyze(), from the mover's side.
            assert (move.value.result, move.value.plies) == analyze(board)[cell]
            assert move.mover == pos.to_move
            seen.add(move.grade)
    assert seen == {"best", "good", "mistake", "blunder"}


@pytest.mark.parametrize(
    ("board", "cell", "grade"),
    [
        ("XX.OO....", 2, "best"),  # X . . wins at once
        ("XX.OO....", 6, "blunder"),  # lets O win at once
        ("XX.OO....", 5, "mistake"),  # blocks O, but only draws
        ("XOXOXO...", 7, "good"),  # still wins, but in 3 instead of 1
        ("X........", 1, "mistake"),  # O on an edge against a corner loses
        ("X........", 4, "best"),  # only the centre holds the draw
    ],
)
def test_grades_on_known_positions(board, cell, grade):
    assert grade_move(parse(board), cell, 1).grade == grade


# --- the review of a whole game ----------------------------------------------------------------


def random_games(count: int, seed: int = 10):
    rng = random.Random(seed)
    for _ in range(count):
        pos, moves = parse("........."), []
        while not pos.is_over():
            moves.append(rng.choice(pos.legal_moves()))
            pos = pos.play(moves[-1])
        yield tuple(moves)


def test_the_turning_point_is_the_losers_first_mistake_or_anyones_in_a_draw():
    kinds = set()
    for moves in random_games(1500):
        game = review(moves)
        winner = game.final.winner
        errors = [m for m in game.moves if m.grade in ("mistake", "blunder")]
        # A loser starts from a draw and only their own moves can make it worse, so they erred.
        expected = next((m for m in errors if m.mover != winner), None) if winner else next(iter(errors), None)
        assert expected is not None or winner is None
        assert game.turning == expected, moves
        kinds.add((winner is None, expected is None))
    assert kinds == {(False, False), (True, False), (True, True)}


@pytest.mark.parametrize(
    ("moves", "you", "summary"),
    [
        ("4.1.0.8.6.3.2", None, "O held the draw until move 2; the top edge let X win. Any corner held."),
        ("4.1.0.8.6.3.2", "O", "You held the draw until move 2; the top edge let X win. Any corner held."),
        ("4.1.0.8.6.3.2", "X", "O held the draw until move 2; the top edge let you win. Any corner held."),
        # X gave away the draw with a corner; O then missed its wins and X won.
        (
            "4.0.8.2.6.3.5.1",
            None,
            "X held the draw until move 5; the bottom-left corner let O win at once. The top edge held.",
        ),
        # O's corner lost, X's centre let it off, and X lost in the end anyway.
        (
            "3.2.4.7.6.0.8.1",
            None,
            "X was winning until move 3; the centre let O escape with a draw. The top-left corner won.",
        ),
        ("6.2.8.0.4.1", None, "X was winning until move 5; the centre let O win at once. The bottom edge won."),
        # O's edge let X play a corner with two threats at once.
        (
            "3.6.8.7.0.5.4",
            None,
            "O held the draw until move 4; the bottom edge let X fork. The centre or the right edge held.",
        ),
        ("0.1", None, "O held the draw until move 2; the top edge gave X a winning game. The centre held."),
        ("0.4.8.1.7.6.2.5.3", None, "Both sides played perfectly, so the game was a draw."),
        ("4.0", None, "No mistakes so far: both sides have kept what they had."),
        ("", None, "No moves yet: every first move holds the draw."),
    ],
)
def test_the_summary_says_what_happened_in_one_line(moves, you, summary):
    assert review(parse_moves(moves), you).summary == summary


def test_a_review_grades_each_move_against_the_position_before_it():
    moves = parse_moves("4.1.0.8.6.3.2")
    game = review(moves)
    assert [m.number for m in game.moves] == list(range(1, 8))
    assert [m.mover for m in game.moves] == list("XOXOXOX")
    assert [m.grade for m in game.moves] == ["best", "mistake", "best", "best", "best", "best", "best"]
    assert game.moves[1].best_cells == (0, 2, 6, 8)
    assert game.moves[1].value == Outlook("loss", 6) and game.moves[1].best == Outlook("draw", 8)
    assert game.final.board == "XOXOX.X.O" and game.final.winner == "X"


def test_explanations():
    game = review(parse_moves("0.1.5"))
    assert explain(game.moves[0]) == "Move 1, X top-left, was a best move: it keeps a draw."
    assert explain(game.moves[1]) == (
        "Move 2, O top, was a mistake: it turns a draw into a loss in 6 moves. Better: the centre."
    )
    assert explain(game.moves[2]) == (
        "Move 3, X right, was a mistake: it turns a win in 5 moves into a draw. "
        "Better: the left edge, the centre or the bottom-left corner."
    )
    good = review(parse_moves("0.1.2.3.4.5.7"))  # X could have won at once on a bottom corner
    assert explain(good.moves[6]) == (
        "Move 7, X bottom, was good: it keeps a win in 3 moves, where a win in 1 move was on offer. "
        "Better: the bottom-left corner or the bottom-right corner."
    )


# --- words and drawings ------------------------------------------------------------------------


def test_squares_in_words():
    assert [spot(cell) for cell in range(9)] == [
        "top-left", "top", "top-right", "left", "centre", "right", "bottom-left", "bottom", "bottom-right",
    ]  # fmt: skip
    assert [place(cell) for cell in (0, 1, 4, 5, 8)] == [
        "the top-left corner", "the top edge", "the centre", "the right edge", "the bottom-right corner",
    ]  # fmt: skip


def test_squares_in_words_on_a_bigger_board():
    # 4×4: four corners, edges of two squares each, no centre.
    assert spot(0, 4) == "top-left" and spot(15, 4) == "bottom-right"
    assert spot(1, 4) == "top edge, row 1, column 2"
    assert spot(5, 4) == "row 2, column 2"
    assert place(12, 4) == "the bottom-left corner"


def test_the_move_list_comes_in_rounds_with_grades():
    moves = parse_moves("4.1.0")
    rows = move_list(moves, review(moves).moves)
    assert [[(i.number, i.words, i.grade) for i in row] for row in rows] == [
        [(1, "X centre", "best"), (2, "O top", "mistake")],
        [(3, "X top-left", "best")],
    ]
    assert [[i.grade for i in row] for row in move_list(moves)] == [["", ""], [""]]


def test_the_board_marks_the_move_played_next_and_the_better_ones():
    moves = parse_moves("4.1")
    game = review(moves)
    cells = board_cells(positions(moves)[1], last=4, next_move=game.moves[1])
    assert [c.index for c in cells if c.is_better] == [0, 2, 6, 8]
    assert [(c.index, c.played) for c in cells if c.played] == [(1, "mistake")]
    assert cells[1].label == "Row 1, column 2, empty, played next, a mistake"
    assert cells[0].label == "Row 1, column 1, empty, a better move"
    assert cells[4].label == "Row 2, column 2, X, the last move" and cells[4].is_last
    # A best move needs no better one beside it.
    best = board_cells(positions(moves)[0], last=None, next_move=game.moves[0])
    assert not any(c.is_better for c in best) and best[4].played == "best"


def test_a_won_board_marks_the_line():
    moves = parse_moves("0.3.1.4.2")
    cells = board_cells(positions(moves)[-1], last=2)
    assert [c.index for c in cells if c.is_winning] == [0, 1, 2]


# --- a line of play for the tree explorer ------------------------------------------------------


def test_every_reachable_board_has_a_line_of_play_that_reaches_it():
    for board in reachable_boards():
        moves = line_to(board)
        assert positions(moves)[-1].board == board, board


@pytest.mark.parametrize(
    ("hint", "moves"),
    [
        ("4.1.0", (4, 1, 0)),  # the game the link came with
        ("0.1.4", (0, 1, 4)),
        ("4.1.8", (0, 1, 4)),  # another board: the first line found instead
        ("junk", (0, 1, 4)),
        (None, (0, 1, 4)),
    ],
)
def test_a_line_of_play_keeps_the_hint_when_it_reaches_the_board(hint, moves):
    assert line_to("XO..X....", hint) == moves


def test_how_a_won_position_is_won_agrees_with_the_solver():
    kinds = set()
    for board in unfinished_boards():
        pos = parse(board)
        wins = [plies for result, plies in analyze(board).values() if result == "win"]
        if not wins:
            continue
        how = how_it_is_won(pos)
        kinds.add(how)
        # "At once" exactly when a square wins in one move; a fork needs more than one move.
        assert (how == "win at once") == (min(wins) == 1), board
        if how == "fork":
            assert any(len(threats(pos.play(cell), pos.to_move)) >= 2 for cell in pos.legal_moves())
    assert kinds == {"win at once", "fork", "win"}
