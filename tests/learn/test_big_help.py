import pytest

from webapp.engine.big.facts import ForcedWin, Threat
from webapp.learn.big_help import CHOICES, LISTED, NO_FORCED_WIN, choices, facts, forced_words, move_words, threat_words
from webapp.solver import search_view


def seven(*rows: str) -> str:
    """A 7×7 board from its top rows; the rest empty."""
    return "".join(rows) + "." * (49 - 7 * len(rows))


@pytest.mark.parametrize(
    ("threat", "words"),
    [
        (Threat("X", "five", (0, 1, 2, 3, 4), ()), "X has five in a row on row 1, columns 1–5."),
        (
            Threat("O", "open-four", (8, 9, 10, 11), (7, 12)),
            "O has an open four on row 2, columns 2–5: it makes five at row 2, column 1 or 6, "
            "and one block cannot stop both.",
        ),
        (
            Threat("X", "four", (0, 7, 14, 21), (28,)),
            "X has a four on column 1, rows 1–4: it makes five at row 5, column 1.",
        ),
        (
            Threat("O", "open-three", (8, 16, 24), (0, 32)),
            "O has an open three on row 2, column 2 to row 4, column 4: "
            "it makes an open four at row 1, column 1 or row 5, column 5.",
        ),
    ],
)
def test_each_kind_of_threat_says_whose_where_and_where_it_is_played(threat, words):
    assert threat_words(threat, 7) == words


def test_the_threats_of_both_sides_strongest_first_and_a_count_of_the_rest():
    board = seven(
        ".XXX...",  # X: an open three on the top row
        ".......",
        "OOOO...",  # O: a four, closed by the edge at its left end; X to move
        ".......",
        ".X.....",
    )
    found = facts(board)
    assert found.threats == (
        "O has a four on row 3, columns 1–4: it makes five at row 3, column 5.",
        # Made four at row 1, column 1 it would touch the edge: only column 5 makes it an open four.
        "X has an open three on row 1, columns 2–4: it makes an open four at row 1, column 5.",
    )
    assert found.unlisted == 0
    # X to move must block the four; O, if it had the move, would win at once.
    assert found.forced == (
        "O threatens a forced win with continuous fours from row 3, column 5, if it gets the move: X must stop it.",
    )


def test_only_the_first_threats_are_listed():
    # 15×15: X has an open three on four rows and O on three, far apart; X to move.
    rows = ["." * 15] * 15
    for r in (1, 3, 5, 7):
        rows[r] = "....XXX........"
    for r in (9, 11, 13):
        rows[r] = "....OOO........"
    rows[14] = "OOO" + "." * 12  # O's last three stones, closed by the edge and the board's corner
    found = facts("".join(rows))
    assert len(found.threats) == LISTED and found.unlisted == 7 - LISTED


def test_no_forced_win_is_claimed_where_none_was_found():
    assert facts("." * 112 + "X" + "." * 112).forced == (NO_FORCED_WIN,)


@pytest.mark.parametrize(
    ("win", "to_move", "words"),
    [
        (ForcedWin("X", "fours", 4, 1, (4,)), True, "X, to move, wins at once at row 1, column 5: five in a row."),
        (
            ForcedWin("O", "threes", 24, 9, (24, 25, 26, 27, 28, 29, 30, 31, 32)),
            True,
            "O, to move, wins by force with fours and threes from row 4, column 4: five within 9 moves of both sides.",
        ),
        (
            ForcedWin("X", "fours", 24, 5, (24, 25, 26, 27, 28)),
            False,
            "X threatens a forced win with continuous fours from row 4, column 4, if it gets the move: O must stop it.",
        ),
    ],
)
def test_a_forced_win_is_said_for_the_side_to_move_or_as_a_danger(win, to_move, words):
    assert forced_words(win, 7, to_move=to_move) == words


@pytest.mark.parametrize(
    ("board", "cell", "words"),
    [
        (seven("XXXX...", ".OOO.O."), 4, "wins: five in a row"),
        (seven("XXXX...", ".OOO.O."), 11, "blocks O's four"),
        (seven(".XX....", ".......", ".......", ".......", ".......", ".......", "O.....O"), 3, "makes an open three"),
        (seven(".XX....", ".......", ".......", ".......", ".......", ".......", "O.....O"), 24, ""),  # nothing
    ],
)
def test_what_a_move_does_in_the_hints_words(board, cell, words):
    assert move_words(board, cell) == words


def test_the_searchs_choices_are_its_best_first_then_its_next():
    board = "." * 112 + "X" + "." * 112
    found = choices(board)
    view = search_view(board)
    assert len(found) == CHOICES and found[0] in view.best and len(set(found)) == CHOICES
    assert choices("." * 9) == ()  # a solved board has exact values, no choices
