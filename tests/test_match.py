import random

import pytest

from webapp.game import GameOverError, IllegalMoveError
from webapp.match import (
    NothingToUndoError,
    NotYourTurnError,
    Score,
    SettingError,
    Settings,
    StaleBoardError,
    Table,
    Tally,
)


def rng():
    return random.Random(3)


def table_after(*moves, **settings) -> Table:
    return Table(settings=Settings(**settings), moves=moves)


def test_against_the_computer_its_reply_comes_with_the_move():
    table = Table().new_game(Settings(difficulty="minimax"), rng()).move(4, 0, rng())
    assert table.ply == 2
    assert table.position.board[4] == "X"
    assert table.position.board.count("O") == 1
    assert table.is_humans_turn()


def test_the_computer_opens_when_the_person_plays_o():
    table = Table().new_game(Settings(human="O", difficulty="minimax"), rng())
    assert table.ply == 1
    assert table.position.to_move == "O"
    assert table.is_humans_turn()


def test_human_vs_human_takes_turns_without_the_computer():
    table = Table().new_game(Settings(mode="hvh"), rng())
    table = table.move(0, 0, rng()).move(4, 1, rng())
    assert table.position.board == "X...O...."


def test_a_stale_ply_is_refused():
    table = table_after(4, 0)
    with pytest.raises(StaleBoardError, match="changed in another tab"):
        table.move(1, 0, rng())


def test_moves_after_the_end_are_refused():
    # X X X / O O . / . . .
    table = table_after(0, 3, 1, 4, 2, mode="hvh")
    with pytest.raises(GameOverError, match="over"):
        table.move(8, 5, rng())


def test_a_taken_square_is_refused():
    with pytest.raises(IllegalMoveError, match="already taken"):
        table_after(4, 0, mode="hvh").move(4, 2, rng())


def test_people_cannot_move_for_the_computers():
    table = Table().new_game(Settings(mode="cvc"), rng())
    with pytest.raises(NotYourTurnError, match="computers are playing"):
        table.move(4, 0, rng())


def test_computer_vs_computer_steps_one_move_at_a_time_to_the_end():
    table = Table().new_game(Settings(mode="cvc", x_level="minimax", o_level="minimax"), rng())
    for ply in range(9):
        table = table.step(ply, rng())
        assert table.ply == ply + 1
        if table.position.is_over():
            break
    assert table.position.is_draw()
    assert table.score.cvc == Tally(0, 0, 1)
    with pytest.raises(GameOverError):
        table.step(table.ply, rng())


def test_step_and_pause_belong_to_computer_vs_computer():
    with pytest.raises(NotYourTurnError):
        Table().step(0, rng())
    with pytest.raises(NotYourTurnError):
        Table().set_paused(True)
    cvc = Table(settings=Settings(mode="cvc"))
    assert cvc.set_paused(True).paused
    assert not cvc.set_paused(True).set_paused(False).paused


def test_undo_against_the_computer_takes_back_its_reply_too():
    table = Table().new_game(Settings(), rng()).move(4, 0, rng())
    assert table.undo().moves == ()
    assert not table.undo().can_undo()
    with pytest.raises(NothingToUndoError):
        table.undo().undo()


def test_undo_never_takes_back_the_computers_opening():
    table = Table().new_game(Settings(human="O"), rng())
    assert not table.can_undo()
    played = table.move(next(iter(table.position.legal_moves())), 1, rng())
    assert played.undo().moves == table.moves


def test_undo_with_a_stale_ply_is_refused():
    with pytest.raises(StaleBoardError):
        table_after(4, 0, mode="hvh").undo(ply=1)


def test_undo_in_human_vs_human_takes_one_move():
    assert table_after(4, 0, mode="hvh").undo().moves == (4,)


def test_undo_in_computer_vs_computer_pauses_the_game():
    table = table_after(4, 0, mode="cvc").undo()
    assert table.moves == (4,)
    assert table.paused


def test_the_score_counts_each_finished_game_once_and_undo_takes_it_back():
    # X X . / O O . / . . .  and X completes the top row
    table = table_after(0, 3, 1, 4, mode="hvh").move(2, 4, rng())
    assert table.score.hvh == Tally(1, 0, 0)
    assert table.undo().score.hvh == Tally(0, 0, 0)
    assert table.reset_score().score == Score()


def test_the_score_against_the_computer_is_the_persons():
    score = Score().counted(Settings(human="O"), "O").counted(Settings(human="O"), "X").counted(Settings(), None)
    assert score.hvc == Tally(first=1, second=1, draws=1)


def test_changing_levels_keeps_the_game():
    table = table_after(4, 0).with_levels(difficulty="minimax")
    assert table.moves == (4, 0)
    assert table.settings.difficulty == "minimax"
    with pytest.raises(SettingError, match="no difficulty 'hard'"):
        table.with_levels(difficulty="hard")


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"mode": "online"}, "no mode 'online'"),
        ({"human": "Z"}, "no side 'Z'"),
        ({"difficulty": "expert"}, "no difficulty 'expert'"),
        ({"x_level": ""}, "no difficulty ''"),
    ],
)
def test_settings_name_what_is_wrong(settings, message):
    with pytest.raises(SettingError, match=message):
        Settings(**settings)


def test_move_values_toggle_is_remembered():
    assert Table().toggle_values().show_values
    assert not Table().toggle_values().toggle_values().show_values


# --- play from a position (the review's "Play from here") ------------------------------------


def test_play_from_replaces_the_moves_and_keeps_the_score():
    won = Table(settings=Settings(mode="hvh"))
    for cell in (0, 3, 1, 4, 2):
        won = won._played(cell)
    assert won.score.hvh == Tally(first=1)
    table = won.play_from((4, 1), won.settings, random.Random(1))
    assert table.moves == (4, 1) and table.position.board == ".O..X...."
    assert table.score == won.score


def test_play_from_against_the_computer_lets_it_reply_on_its_turn():
    settings = Settings(mode="hvc", human="X", difficulty="minimax")
    table = Table(settings=settings).play_from((4,), settings, random.Random(1))
    assert len(table.moves) == 2 and table.moves[0] == 4


def test_play_from_pauses_a_computer_game():
    settings = Settings(mode="cvc")
    table = Table(settings=settings).play_from((4, 0), settings, random.Random(1))
    assert table.paused and table.moves == (4, 0)


def test_play_from_the_end_of_a_game_is_refused():
    with pytest.raises(GameOverError):
        Table().play_from((0, 3, 1, 4, 2), Settings(), random.Random(1))
