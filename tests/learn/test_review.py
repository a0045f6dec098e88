import random

import pytest
from support import rank, reachable_boards, reference_analysis, unfinished_boards

from webapp.engine.boards import BY_KEY
from webapp.engine.rules import other, parse
from webapp.learn.review import (
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
    positions,
    proved_at_once,
    review,
    review_piece,
    threat_cells,
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
        # O's edge let X play a corner with two threat_cells at once.
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


def test_the_move_list_numbers_every_move_as_the_review_does():
    moves = parse_moves("4.1.0")
    game = review(moves)
    items = move_list(moves, game.moves)
    assert [(i.number, i.words, i.grade) for i in items] == [
        (1, "1. X centre", "best"),
        (2, "2. O top", "mistake"),
        (3, "3. X top-left", "best"),
    ]
    # The list names a move by the number the review's sentence gives it.
    assert explain(game.moves[1]).startswith(f"Move {items[1].number}, O top,")
    assert [i.grade for i in move_list(moves)] == ["", "", ""]


def test_the_board_marks_the_move_that_reached_it_and_the_better_ones():
    moves = parse_moves("4.1")
    game = review(moves)
    cells = board_cells(positions(moves)[2], last=1, graded=game.moves[1])
    assert [c.index for c in cells if c.is_better] == [0, 2, 6, 8]
    assert [(c.index, c.played) for c in cells if c.played] == [(1, "mistake")]
    assert cells[1].label == "Row 1, column 2, O, the last move, a mistake" and cells[1].is_last
    assert cells[0].label == "Row 1, column 1, empty, a better move"
    assert cells[4].label == "Row 2, column 2, X"
    # A best move needs no better one beside it.
    best = board_cells(positions(moves)[1], last=4, graded=game.moves[0])
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
            assert any(len(threat_cells(pos.play(cell), pos.to_move)) >= 2 for cell in pos.legal_moves())
    assert kinds == {"win at once", "fork", "win"}


# --- every board ---------------------------------------------------------------------------

B4, B7, B15 = BY_KEY["4x4"], BY_KEY["7x7"], BY_KEY["15x15"]
# 7×7, five in a row: X fills 0 to 3 on the top row while O fills 7 to 10 on the second.
TOP_ROW_RACE = "0.7.1.8.2.9.3"


@pytest.mark.parametrize(
    ("board", "text", "moves"),
    [(B4, "15.0.5", (15, 0, 5)), (B7, "48,24", (48, 24)), (B15, "224.112.0", (224, 112, 0))],
)
def test_a_move_list_is_read_on_its_own_board(board, text, moves):
    assert parse_moves(text, board) == moves
    assert positions(moves, board)[-1].geometry.n == board.n


@pytest.mark.parametrize(
    ("board", "text", "error", "words"),
    [
        (B4, "16", JunkMovesError, "squares are numbered 0 to 15"),
        (BY_KEY["3x3"], "9", JunkMovesError, "squares are numbered 0 to 8"),
        (B15, "225", JunkMovesError, "squares are numbered 0 to 224"),
        (B4, ".".join(["0"] * 17), TooManyMovesError, "a game has at most 16"),
        (B4, "0.4.1.5.2.6.3.7", MoveAfterEndError, "after the game ended when X won on move 7"),
    ],
)
def test_a_bad_move_list_is_judged_against_its_own_board(board, text, error, words):
    with pytest.raises(error, match=words):
        parse_moves(text, board)


def test_a_four_left_open_on_a_big_board_is_a_mistake_with_the_block_as_the_better_move():
    game = review(parse_moves(TOP_ROW_RACE + ".10.4", B7), board=B7)
    grades = [move.grade for move in game.moves]
    # O's 10 leaves X's four open (X completes at 4): proved to lose in 2, where the block at 4 is not.
    assert grades[7:] == ["mistake", "best"]
    assert game.moves[7].value == Outlook("loss", 2) and game.moves[7].best_cells == (4,)
    assert game.moves[8].value == game.moves[8].best == Outlook("win", 1)
    assert game.turning == game.moves[7]
    assert game.summary == "O's move 8, row 2, column 4, left a four open for X; row 1, column 5 blocked it."
    # Proved: the four left open and the five; the other moves are graded by Hard's estimate, and say so.
    assert [move.number for move in game.moves if not move.is_estimate] == [8, 9]


def test_a_missed_win_at_once_that_loses_at_once_is_a_proved_blunder():
    # X could win at 4; it plays 48 instead, and O then completes 7 to 11 at once.
    game = review(parse_moves(TOP_ROW_RACE + ".10.48", B7), board=B7)
    move = game.moves[8]
    assert (move.best, move.best_cells, move.value, move.grade) == (
        Outlook("win", 1),
        (4,),
        Outlook("loss", 2),
        "blunder",
    )
    # The game goes on, so the last move of either side that changed it is the one to look at: X's, after O's.
    assert game.moves[7].turned and game.turning == move
    assert explain(move, 7) == (
        "Move 9, X bottom-right, was a blunder: it gives up a win and lets O win at once. "
        "Better: row 1, column 5, which wins at once."
    )


def test_a_missed_win_at_once_is_a_mistake_even_when_nothing_else_is_proved():
    # X could win at 4 but plays far away, and O has no four to finish.
    game = review(parse_moves("0.7.1.8.2.9.3.14.48", B7), board=B7)
    move = game.moves[8]
    assert (move.grade, move.best, move.best_cells) == ("mistake", Outlook("win", 1), (4,))
    assert explain(move, 7) == (
        "Move 9, X bottom-right, was a mistake: it gives up a win. Better: row 1, column 5, which wins at once."
    )


def test_an_open_three_left_alone_is_the_mistake_and_the_moves_after_it_are_not_called_best():
    # 15×15: X builds an open three on row 8 while O plays in the corners; X then makes an open four and five.
    moves = parse_moves("112.0.113.14.114.210.115.224.116", B15)
    game = review(moves, board=B15)
    grades = [move.grade for move in game.moves]
    assert grades[5] == "mistake" and game.moves[5].best_cells  # O's 210 lets the three become an open four
    assert game.moves[5].why == "allowed" and game.moves[5].turned
    assert game.summary.startswith("O's move 6, the bottom-left corner, let X win by force; ")
    # O's last move could not stop the open four: no proof says it was worse than another; only Hard's estimate.
    assert game.moves[7].is_estimate and not game.moves[7].is_error
    # X's open four plays its proved forced win; its five is best.
    assert [(move.number, move.why) for move in game.moves[6:] if move.mover == "X"] == [(7, "kept"), (9, "five")]


def test_two_open_wins_at_once_mean_every_move_loses():
    # 7×7: O has 7 to 10 with 11 open and 14 to 17 with 18 open; X, to move, has no win at once.
    moves = parse_moves("0.7.1.8.2.9.5.10.21.14.22.15.23.16.28.17", B7)
    pos = positions(moves, B7)[-1]
    last = proved_at_once(pos)
    assert set(last.values()) == {Outlook("loss", 2)}


@pytest.mark.parametrize("seed", range(12))
def test_a_proved_grade_on_a_big_board_is_never_contradicted_by_the_rules(seed):
    """Random 7×7 games: "win in 1" completes a line; a loss in 2 lets the opponent complete one; a missed win
    had one at once or by force; the better moves of a mistake are empty squares."""
    rng = random.Random(seed)
    pos = positions((), B7)[0]
    moves = []
    while not pos.is_over():
        cell = rng.choice(pos.legal_moves())
        moves.append(cell)
        pos = pos.play(cell)
    seen = positions(tuple(moves), B7)
    for move, before in zip(review(tuple(moves), board=B7).moves, seen, strict=False):
        after = before.play(move.cell)
        if move.value == Outlook("win", 1):
            assert after.winner == move.mover
        elif move.value == Outlook("loss", 2):
            assert any(after.play(reply).winner == other(move.mover) for reply in after.legal_moves())
        if move.why == "five":
            assert after.winner == move.mover and move.grade == "best"
        if move.is_error:
            assert move.best_cells and all(before.board[cell] == "." for cell in move.best_cells)
            assert move.value.result == "loss" or move.why in ("missed", "estimate")
        assert move.is_estimate == (move.value == Outlook("unclear", None) and move.why == "estimate")


def test_a_long_big_board_game_is_graded_a_piece_at_a_time():
    moves = full_board_draw(15)
    # A piece stops when it is told there is no more time, one move at least: the next starts where it stopped.
    piece = review_piece(moves, B15, 200, more=lambda: False)
    assert [move.number for move in piece.moves] == [201] and piece.next == 201
    last = review_piece(moves, B15, 220)
    assert [move.number for move in last.moves] == [221, 222, 223, 224, 225] and last.next is None
    assert last.moves[-1].grade != "unclear"


def endgame_only(real):
    """An engine that keeps the ``analyze`` contract by proving only boards with at most 8 empty squares."""

    def analyze(board):
        if board.count(".") <= 8:
            return real(board)
        return {cell: ("unclear", None) for cell, c in enumerate(board) if c == "."}

    return analyze


def test_where_analyze_proves_nothing_a_solved_board_is_not_graded_either(monkeypatch):
    import webapp.learn.review

    monkeypatch.setattr(webapp.learn.review, "analyze", endgame_only(webapp.learn.review.analyze))
    webapp.learn.review._solved_choices.cache_clear()
    try:
        # 4×4: X takes the top row while O plays the second; the last moves are in the solved endgame.
        game = review(parse_moves("0.4.1.5.8.9.12.13.10.14.2.6.3", B4), board=B4)
    finally:
        webapp.learn.review._solved_choices.cache_clear()
    grades = [move.grade for move in game.moves]
    assert grades[:5] == ["unclear"] * 5
    assert all(grade != "unclear" for grade in grades[8:])
    assert game.moves[-1].value == Outlook("win", 1)


def test_the_move_list_and_the_board_speak_of_the_big_board():
    moves = parse_moves("112.0.113.4", B15)
    assert [item.words for item in move_list(moves, n=15)] == [
        "1. X centre",
        "2. O top-left",
        "3. X row 8, column 9",
        "4. O row 1, column 5",  # no "top edge" before a row and column that say it
    ]
    cells = board_cells(positions(moves, B15)[-1], last=4)
    assert len(cells) == 225 and cells[113].label == "Row 8, column 9, X"


def test_a_line_of_play_is_found_on_a_big_board_and_given_up_when_there_is_none():
    board = positions(parse_moves(TOP_ROW_RACE, B7), B7)[-1].board
    assert positions(line_to(board), B7)[-1].board == board
    # X has five in a row on the top row, and O has as many marks: no game can reach it.
    with pytest.raises(ValueError, match="No game reaches"):
        line_to("XXXXX" + "." * 2 + "OOOOO" + "." * 37)


def full_board_draw(n: int, seed: int = 0) -> tuple[int, ...]:
    """A legal game that fills the n×n board with no five in a row: pairs of marks in rows shifted against each
    other, played in a random order. Its forced wins, found and missed all game long, make it costly to review."""
    pattern = "XXOO" * n
    board = "".join(pattern[(row * 2 + row // 2) % 4 :][:n] for row in range(n))
    xs = [i for i, c in enumerate(board) if c == "X"]
    os = [i for i, c in enumerate(board) if c == "O"]
    rng = random.Random(seed)
    rng.shuffle(xs)
    rng.shuffle(os)
    return tuple(xs[i // 2] if i % 2 == 0 else os[i // 2] for i in range(n * n))
