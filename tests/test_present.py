import pytest

from webapp.match import Settings, Table
from webapp.present import controls_state, game_view, headline


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
    assert headline(t) == words


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
    assert headline(paused) == "Paused. X to move."
    assert not game_view(paused).is_running
    assert game_view(Table(settings=Settings(mode="cvc"))).is_running


def test_cells_are_named_for_screen_readers_and_flag_the_win():
    view = game_view(table(0, 3, 1, 4, 2, mode="hvh"))  # X X X / O O . / . . .
    assert view.status == "x-won"
    assert [c.label for c in view.cells[:4]] == [
        "Row 1, column 1, X",
        "Row 1, column 2, X",
        "Row 1, column 3, X",
        "Row 2, column 1, O",
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


def test_controls_redraw_only_when_they_change():
    assert controls_state(table(4, 0)) == controls_state(table(4, 0, 8, 2))
    assert controls_state(table()) != controls_state(table(4, 0))
