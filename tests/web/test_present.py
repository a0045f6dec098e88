import pytest

from webapp.match import Settings, Table
from webapp.web.present import Strike, controls_state, game_view, score_view, status_line


def table(*moves, **settings) -> Table:
    return Table(settings=Settings(**settings), moves=moves)


@pytest.mark.parametrize(
    ("t", "words"),
    [
        (table(), "You play X. Your turn."),
        (table(0, human="O"), "The computer took the top-left corner. Your turn."),
        (table(4, 8), "The computer took the bottom-right corner. Your turn."),
        (table(0, 3, 1, 4, 2), "You win!"),  # X X X / O O . / . . .
        (table(0, 3, 1, 4, 8, 5), "The computer wins."),
        (table(0, 4, 8, 1, 7, 6, 2, 5, 3), "It's a draw."),  # X O X / X O O / O X X
        (table(mode="hvh"), "X to move."),
        (table(0, 3, 1, 4, 2, mode="hvh"), "X wins!"),
        (table(mode="cvc"), "X to move."),
        (table(4, mode="cvc"), "X took the centre; O to move."),
        (table(0, 3, 1, 4, 8, 5, mode="cvc"), "O (Medium) wins."),
    ],
)
def test_the_status_line_says_whose_turn_and_what_happened(t, words):
    assert status_line(t) == words


@pytest.mark.parametrize(
    ("t", "tone"),
    [
        (table(0, 3), ""),
        (table(0, 3, 1, 4, 2), "win"),  # X X X / O O . / . . .
        (table(0, 3, 1, 4, 2, human="O"), "loss"),
        (table(0, 3, 1, 4, 8, 5), "loss"),
        (table(0, 4, 8, 1, 7, 6, 2, 5, 3), "draw"),
        (table(0, 3, 1, 4, 2, mode="hvh"), "win"),
        (table(0, 3, 1, 4, 8, 5, mode="cvc"), "win"),
    ],
)
def test_the_end_of_a_game_has_its_own_tone(t, tone):
    assert game_view(t).tone == tone


def test_a_paused_game_says_so():
    paused = Table(settings=Settings(mode="cvc"), paused=True)
    assert status_line(paused) == "Paused. X to move."
    assert not game_view(paused).is_running
    assert game_view(Table(settings=Settings(mode="cvc"))).is_running


def test_cells_are_named_for_screen_readers_and_flag_the_win():
    view = game_view(table(0, 3, 1, 4, 2, mode="hvh"))  # X X X / O O . / . . .
    assert view.status == "x-won"
    assert [c.label for c in view.cells[:5]] == [
        "Row 1, column 1, X",
        "Row 1, column 2, X",
        "Row 1, column 3, X, last move",
        "Row 2, column 1, O",
        "Row 2, column 2, O, the move before",
    ]
    assert [c.index for c in view.cells if c.is_winning] == [0, 1, 2]
    assert len(view.strikes) == 1
    assert not view.can_play


def test_move_values_label_every_empty_square():
    # X X . / O . . / . . .  -- O to move: blocking at 2 only delays the loss
    view = game_view(Table(moves=(0, 3, 1), show_values=True, settings=Settings(mode="hvh")))
    values = {c.index: c.value for c in view.cells if c.value}
    assert values == {2: "loss in 4"} | {i: "loss in 2" for i in (4, 5, 6, 7, 8)}
    assert "Row 1, column 3, empty, loss in 4 moves" in [c.label for c in view.cells]
    assert view.hint.startswith("Move values: the result with best play, and the moves of both sides")


@pytest.mark.parametrize(
    ("t", "marked"),
    [
        (table(), {}),
        (table(4, mode="hvh"), {4: "x"}),
        (table(4, 0), {4: "x", 0: "o"}),
        (table(4, 0, 8), {8: "x", 0: "o"}),  # X's first move is no longer its last
        (table(0, 3, 1, 4, 2, mode="hvh"), {2: "x", 4: "o"}),  # and at the end
    ],
)
def test_the_last_move_of_each_side_is_marked(t, marked):
    cells = game_view(t).cells
    assert {c.index: c.last_of for c in cells if c.last_of} == marked
    assert [c.index for c in cells if c.is_last] == ([t.moves[-1]] if t.moves else [])


def test_controls_redraw_only_when_they_change():
    assert controls_state(table(4, 0)) == controls_state(table(4, 0, 8, 2))
    assert controls_state(table()) != controls_state(table(4, 0))


# --- the bigger boards -----------------------------------------------------------------------

# 7×7, X to move: X X X X . . . on the top row, so 4 wins at once; O has three on the third row.
SEVEN_THREAT = (0, 14, 1, 15, 2, 16, 3, 42)


def test_squares_are_named_by_row_and_column_on_every_board():
    view = game_view(table(16, 17, 18, board="15x15", mode="hvh"))
    assert len(view.cells) == 225 and view.grid.n == 15
    assert view.cells[16].label == "Row 2, column 2, X"
    assert view.cells[18].label == "Row 2, column 4, X, last move"
    assert view.cells[224].label == "Row 15, column 15, empty"


def test_the_status_line_names_a_square_of_a_bigger_board_by_its_place():
    assert status_line(table(113, board="15x15", human="O")) == "The computer took row 8, column 9. Your turn."
    assert status_line(table(0, board="4x4", mode="cvc")) == "X took the top-left corner; O to move."


def test_six_in_a_row_on_15x15_is_struck_through_once_from_end_to_end():
    # X: 0 1 2 4 5, then 3 joins them into six; O plays along the third row, never five.
    won = table(0, 30, 1, 31, 2, 32, 4, 33, 5, 45, 3, board="15x15", mode="hvh")
    view = game_view(won)
    assert view.status == "x-won"
    assert [c.index for c in view.cells if c.is_winning] == [0, 1, 2, 3, 4, 5]
    # Squares are 100 units wide: the stroke runs from the first centre to the last, a quarter past each.
    assert view.strikes == (Strike(25, 50, 575, 50),)


def test_a_diagonal_win_on_7x7_is_struck_along_its_diagonal():
    # X on the anti-diagonal from the top-right: 6, 12, 18, 24, 30.
    view = game_view(table(6, 0, 12, 1, 18, 2, 24, 7, 30, board="7x7", mode="hvh"))
    assert view.strikes == (Strike(675, 25, 225, 475),)


def test_move_values_on_a_big_board_show_what_is_proved_and_number_the_searchs_choices():
    view = game_view(table(*SEVEN_THREAT, board="7x7", mode="hvh"), hint=False)
    shown = game_view(Table(settings=Settings(board="7x7", mode="hvh"), moves=SEVEN_THREAT, show_values=True))
    assert view.cells[4].value == "" and view.facts is None  # nothing without Move values
    assert shown.cells[4].value == "W1" and shown.cells[4].result == "win"
    assert shown.cells[4].label == "Row 1, column 5, empty, W1, win in 1 move"  # what it shows, then what it means
    assert [c.index for c in shown.cells if c.value] == [4]  # no "?" on every other square
    # The key names what the board shows, and nothing else.
    assert shown.hint == "Proved with best play: W1, a win in 1 move."
    # Beside the board, the threats: X's four on the top row (O's three on the third has the edge at one end).
    assert shown.facts.threats == ("X has a four on row 1, columns 1–4: it makes five at row 1, column 5.",)
    assert shown.facts.forced == ("X, to move, wins at once at row 1, column 5: five in a row.",)


def values_of(*moves: int, board: str = "15x15"):
    return game_view(Table(settings=Settings(board=board, mode="hvh"), moves=moves, show_values=True))


def test_when_most_moves_lose_the_values_mark_those_that_do_not():
    # 15×15, O to move: X's open three on row 8 makes an open four unless O blocks an end.
    shown = values_of(111, 0, 112, 14, 113)
    assert {c.result for c in shown.cells if c.value} <= {"choice", "unclear"}
    assert {110, 114} <= {c.index for c in shown.cells if c.value}
    assert shown.hint.startswith("Unmarked squares lose.") and "L2" not in shown.hint


def test_when_every_move_loses_alike_no_square_shows_a_value_and_the_key_says_so():
    # 15×15, O to move: X has an open four on row 8; every move loses in 2.
    shown = values_of(111, 0, 112, 14, 113, 28, 114)
    assert [c for c in shown.cells if c.value] == []
    assert shown.hint == "Every move loses in 2, proved."
    # The threats beside the board say it once: the open four, decisive, and no forced win to "stop" as well.
    assert shown.facts.threats[0].startswith("X has an open four on row 8")
    assert not any("must stop it" in line for line in shown.facts.forced)


def test_move_values_on_a_quiet_big_board_number_the_searchs_first_choices():
    shown = game_view(Table(settings=Settings(board="15x15", mode="hvh"), moves=(112, 113), show_values=True))
    choices = sorted((c for c in shown.cells if c.choice), key=lambda c: c.choice)
    assert [c.choice for c in choices] == [1, 2, 3]
    assert [c.value for c in choices] == ["1", "2", "3"] and {c.result for c in choices} == {"choice"}
    assert choices[0].label.endswith(", empty, 1: the search's first choice, not proved")
    # Nothing is proved yet: only the choices carry a value. (Board order against rank order: which cell the
    # search ranks first depends on the depth its clock reached.)
    assert sorted(c.index for c in shown.cells if c.value) == sorted(c.index for c in choices)
    assert shown.hint == "1–3: the search's choices, not proved."
    assert shown.facts.threats == () and shown.facts.forced[0].startswith("No forced win was found")


def test_a_hint_where_nothing_is_proved_gives_the_searchs_preference_as_such():
    view = game_view(table(board="7x7", mode="hvh"), hint=True)
    picks = [c for c in view.cells if c.is_pick]
    assert len(picks) == 1
    assert all(not c.is_proved and c.label.endswith(", Pick: the search's choice, not proved") for c in picks)
    assert "Best move" not in " ".join(c.label for c in view.cells)
    assert view.hint.startswith("Hint: the search prefers") and view.hint.endswith("; nothing is proved.")


def test_a_hint_in_a_lost_big_board_marks_the_moves_that_hold_out_not_every_losing_square():
    # X's open four: every move loses in 2, and the search would block an end of it.
    view = game_view(table(111, 0, 112, 14, 113, 28, 114, board="15x15", mode="hvh"), hint=True)
    assert [c.index for c in view.cells if c.is_pick] == [110, 115]
    assert view.hint == "Hint: every move loses; the two marked squares hold out longest."


def test_a_hint_on_a_big_board_is_exact_where_a_win_is_proved():
    view = game_view(table(*SEVEN_THREAT, board="7x7", mode="hvh"), hint=True)
    assert [c.index for c in view.cells if c.is_pick] == [4]
    assert view.cells[4].is_proved and view.cells[4].label.endswith(", Best move")
    assert view.hint == "Hint: row 1, column 5 wins at once."


def test_the_score_names_its_board_beyond_3x3():
    assert score_view(table(board="7x7", difficulty="minimax")).title == "Score against Hard, 7×7"
    assert score_view(table(board="4x4", mode="hvh")).title == "Score, Human vs Human, 4×4"
    assert score_view(table(difficulty="minimax")).title == "Score against Impossible"
