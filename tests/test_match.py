import random
import re
from dataclasses import replace

import pytest

from webapp.engine.rules import GameOverError, IllegalMoveError, InvalidMoveError
from webapp.match import (
    MOST,
    ConfirmationNeeded,
    NothingToUndoError,
    NotYourTurnError,
    Score,
    Scores,
    SettingError,
    Settings,
    StaleBoardError,
    Table,
    Tally,
    level_names,
    replay,
    shown,
)


def rng():
    return random.Random(3)


def table_after(*moves, **settings) -> Table:
    return Table(settings=Settings(**settings), moves=moves)


def test_against_the_computer_its_reply_comes_with_the_move():
    table = Table().new_game(Settings(difficulty="minimax"), rng()).move(4, rng())
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
    table = table.move(0, rng()).move(4, rng())
    assert table.position.board == "X...O...."


def test_a_form_drawn_from_another_game_is_refused():
    table = table_after(4, 0)
    table.check_drawn_from(table_after(4, 0).digest)
    for other in (table_after(4), table_after(0, 4), table_after(4, 0, mode="hvh"), table_after(4, 0, human="O")):
        with pytest.raises(StaleBoardError, match="changed in another tab"):
            table.check_drawn_from(other.digest)


def test_the_digest_is_short_hex_and_ignores_the_score_and_levels():
    table = table_after(4, 0)
    assert re.fullmatch(r"[0-9a-f]{12}", table.digest)
    assert table.digest == replace(table, scores=Scores.on("3x3", Score(hvh=Tally(3, 0, 0))), show_values=True).digest
    assert table.digest == table.with_levels(difficulty="random").digest


def test_moves_after_the_end_are_refused():
    # X X X / O O . / . . .
    table = table_after(0, 3, 1, 4, 2, mode="hvh")
    with pytest.raises(GameOverError, match="over"):
        table.move(8, rng())


def test_a_taken_square_is_refused():
    with pytest.raises(IllegalMoveError, match="already taken"):
        table_after(4, 0, mode="hvh").move(4, rng())


def test_people_cannot_move_for_the_computers():
    table = Table().new_game(Settings(mode="cvc"), rng())
    with pytest.raises(NotYourTurnError, match="computers are playing"):
        table.move(4, rng())


def test_computer_vs_computer_steps_one_move_at_a_time_to_the_end():
    table = Table().new_game(Settings(mode="cvc", x_level="minimax", o_level="minimax"), rng())
    for ply in range(9):
        table = table.step(rng())
        assert table.ply == ply + 1
        if table.position.is_over():
            break
    assert table.position.is_draw()
    assert table.score.cvc == Tally(0, 0, 1)
    with pytest.raises(GameOverError):
        table.step(rng())


def test_step_and_pause_belong_to_computer_vs_computer():
    with pytest.raises(NotYourTurnError):
        Table().step(rng())
    with pytest.raises(NotYourTurnError):
        Table().set_paused(True)
    cvc = Table(settings=Settings(mode="cvc"))
    assert cvc.set_paused(True).paused
    assert not cvc.set_paused(True).set_paused(False).paused


def test_undo_against_the_computer_takes_back_its_reply_too():
    table = Table().new_game(Settings(), rng()).move(4, rng())
    assert table.undo().moves == ()
    assert not table.undo().can_undo()
    with pytest.raises(NothingToUndoError):
        table.undo().undo()


def test_undo_never_takes_back_the_computers_opening():
    table = Table().new_game(Settings(human="O"), rng())
    assert not table.can_undo()
    played = table.move(next(iter(table.position.legal_moves())), rng())
    assert played.undo().moves == table.moves


def test_undo_in_human_vs_human_takes_one_move():
    assert table_after(4, 0, mode="hvh").undo().moves == (4,)


def test_undo_in_computer_vs_computer_pauses_the_game():
    table = table_after(4, 0, mode="cvc").undo()
    assert table.moves == (4,)
    assert table.paused


def test_a_finished_game_can_be_undone_and_stays_counted_once():
    # X X . / O O . / . . .  and X completes the top row
    started = Table().new_game(Settings(mode="hvh"), rng())
    table = started.move(0, rng()).move(3, rng()).move(1, rng()).move(4, rng()).move(2, rng())
    assert table.score.hvh == Tally(1, 0, 0)
    assert table.is_counted()
    assert table.can_undo()
    retried = table.undo()
    assert retried.moves == (0, 3, 1, 4)
    assert retried.score.hvh == Tally(1, 0, 0)  # taking the move back does not take the result back
    # Finished again, another way, the same game still counts once: its first result stands.
    again = retried.move(8, rng()).move(5, rng())
    assert again.position.winner == "O"
    assert again.score.hvh == Tally(1, 0, 0)
    # The next game is another game, and counts.
    after = again.new_game(again.settings, random.Random(4)).move(0, rng()).move(3, rng()).move(1, rng())
    after = after.move(4, rng()).move(2, rng())
    assert after.score.hvh == Tally(2, 0, 0)
    assert after.reset_score().score == Score()


def test_against_the_computer_undo_after_the_end_takes_back_the_last_move_of_the_person():
    table = Table().new_game(Settings(difficulty="random"), rng())
    while not table.position.is_over():
        table = table.move(table.position.legal_moves()[0], rng())
    assert table.can_undo()
    undone = table.undo()
    assert not undone.position.is_over()
    assert undone.is_humans_turn()
    assert undone.moves == table.moves[: -table._undone_moves()]
    assert undone.tally == table.tally


def test_a_game_gets_an_id_and_the_next_number_when_it_starts_and_the_ledger_keeps_the_last_few():
    first = Table().new_game(Settings(), rng())
    second = first.new_game(Settings(), random.Random(4))
    assert first.game_id != second.game_id
    assert (first.number, second.number) == (1, 2)
    assert second.scores == Scores()  # starting a game writes nothing into the score: only a result does
    scores = Scores(latest=6)
    for n in range(1, 7):
        scores = scores.with_counted(n, f"{n:012x}")
    assert scores.counted == tuple((n, f"{n:012x}") for n in range(3, 7))
    assert scores.floor == 2  # the games that left the ledger cannot count again
    with pytest.raises(ValueError, match="game id"):
        Table(game_id="not hex")
    with pytest.raises(ValueError, match="game ids"):
        Scores(counted=tuple((n, "0" * 12) for n in range(1, 6)), latest=5)
    with pytest.raises(ValueError, match="numbers"):
        Scores(counted=((3, "0" * 12),), latest=2)


def win_for_x(table: Table) -> Table:
    """``table``'s game, X X . / O O . / . . ., finished by X's win at 2 between two people."""
    for cell in (0, 3, 1, 4, 2):
        table = table.move(cell, rng())
    return table


def test_a_game_counts_once_however_many_games_come_between():
    started = Table().new_game(Settings(mode="hvh"), rng())
    won = win_for_x(started)
    assert won.score.hvh == Tally(1, 0, 0)
    later = won
    for _ in range(6):  # more games than the ledger remembers, each won
        later = win_for_x(later.new_game(Settings(mode="hvh"), rng()))
    assert later.score.hvh == Tally(7, 0, 0)
    # The first game's cookie, sent back from before its end, beside the score as it is now.
    replayed = win_for_x(replace(started, scores=later.scores))
    assert replayed.score.hvh == Tally(7, 0, 0) and replayed.is_counted()


def test_a_game_whose_score_cookie_was_lost_still_counts_once():
    game = Table().new_game(Settings(mode="hvh"), rng())
    won = win_for_x(replace(game, scores=Scores()))  # its number, 1, is past every game this score knows
    assert won.score.hvh == Tally(1, 0, 0) and won.scores.latest == 1 and won.is_counted()


def test_a_game_from_a_link_is_practice_and_never_counted():
    table = Table().new_game(Settings(mode="hvh"), rng()).play_from((0, 3), Settings(mode="hvh"), rng())
    assert table.practice and table.is_counted()
    for cell in (1, 4, 2):
        table = table.move(cell, rng())
    assert table.position.winner == "X" and table.score == Score()
    fresh = table.new_game(Settings(mode="hvh"), rng())
    assert not fresh.practice and not fresh.is_counted()


def test_the_score_against_the_computer_is_the_persons_and_kept_per_difficulty():
    o = Settings(human="O", difficulty="minimax")
    score = Score().counted(o, "O").counted(o, "X").counted(Settings(difficulty="random"), None)
    assert score.impossible == Tally(first=1, second=1, draws=0)
    assert score.easy == Tally(draws=1)
    assert score.medium == Tally()
    assert score.reset("hvc", "minimax") == Score(easy=Tally(draws=1))


def test_a_game_counts_as_the_weakest_difficulty_that_played_in_it():
    table = Table().new_game(Settings(difficulty="random"), rng()).move(4, rng())
    assert table.with_levels(difficulty="minimax").counts_as == "random"
    assert table.with_levels(difficulty="minimax").with_levels(difficulty="one-ply").counts_as == "random"
    # Before the first move, or once the game is over, the game simply counts as the new difficulty.
    assert Table().with_levels(difficulty="minimax").counts_as == "minimax"
    assert Table().new_game(Settings(difficulty="minimax"), rng()).counts_as == "minimax"


def test_the_score_saturates_and_never_goes_below_zero():
    assert Tally(MOST, 0, 0).plus(True) == Tally(MOST, 0, 0)
    assert Tally().plus(False).plus(None) == Tally(0, 1, 1)
    for bad in ((-1, 0, 0), (0, MOST + 1, 0)):
        with pytest.raises(ValueError, match="score count"):
            Tally(*bad)


def test_resetting_a_score_asks_first_unless_it_is_empty():
    table = table_after(0, 3, 1, 4, mode="hvh").move(2, rng())
    with pytest.raises(ConfirmationNeeded, match="Reset the Human vs Human score"):
        table.reset_score(confirmed=False)
    assert table.reset_score(confirmed=True).score == Score()
    assert Table().reset_score(confirmed=False) == Table()


def test_changing_mode_or_side_in_the_middle_of_a_game_asks_first():
    table = Table().new_game(Settings(), rng()).move(4, rng())
    for settings in (Settings(mode="hvh"), Settings(human="O")):
        with pytest.raises(ConfirmationNeeded, match="This one will be abandoned"):
            table.new_game(settings, rng(), confirmed=False)
        assert table.new_game(settings, rng(), confirmed=True).settings == settings
    # The same mode and side, a finished game, or no move of the person's yet: no question.
    assert table.new_game(Settings(difficulty="minimax"), rng(), confirmed=False).ply == 0
    assert Table().new_game(Settings(mode="hvh"), rng(), confirmed=False).settings.mode == "hvh"


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


def test_move_values_are_shown_or_hidden_as_asked():
    assert Table().with_values(True).show_values
    assert Table().with_values(True).with_values(True).show_values
    assert not Table().with_values(True).with_values(False).show_values


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


# --- what a person reads, and who counts as whom (added with the mutation run, docs/mutation.md) ---


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("x" * 40, "'" + "x" * 40 + "'"),  # as long as a message repeats: whole
        ("x" * 41, "'" + "x" * 40 + "…'"),  # one longer: cut, and the cut shows
    ],
)
def test_a_message_repeats_at_most_forty_characters_of_what_was_sent(text, quoted):
    assert shown(text) == quoted


@pytest.mark.parametrize(
    ("refuse", "error", "message"),
    [
        (
            lambda: table_after(4).check_drawn_from("0" * 12),
            StaleBoardError,
            "The game changed in another tab or window; here is the game as it is now.",
        ),
        (lambda: Table().step(rng()), NotYourTurnError, "Only Computer vs Computer games play themselves."),
        (lambda: Table().set_paused(True), NotYourTurnError, "Only Computer vs Computer games can be paused."),
        (
            lambda: table_after(0, 3, 1, 4, 2, mode="cvc").step(rng()),
            GameOverError,
            "This game is over. Start a new game to watch another.",
        ),
        (
            lambda: table_after(0, 3, 1, 4, 2).move(8, rng()),
            GameOverError,
            "This game is over. Start a new game to play again.",
        ),
        (lambda: table_after(4).move(0, rng()), NotYourTurnError, "It is the computer's turn."),
        (lambda: Table().undo(), NothingToUndoError, "There is no move to undo."),
        (lambda: Table(settings=Settings(mode="hvh")).undo(), NothingToUndoError, "There is no move to undo."),
        (
            lambda: table_after(4, mode="cvc").move(0, rng()),
            NotYourTurnError,
            "The computers are playing this game; start a new game to play yourself.",
        ),
        (
            lambda: Table().play_from((0, 3, 1, 4, 2), Settings(), rng()),
            GameOverError,
            "That position is the end of the game; choose an earlier move to play from.",
        ),
        (
            lambda: Settings(mode="online"),
            SettingError,
            "There is no mode 'online'; choose Human vs Computer, Human vs Human, Computer vs Computer.",
        ),
        (
            lambda: Settings(difficulty="hard"),
            SettingError,
            "There is no difficulty 'hard'; choose Easy (random), Medium (one-ply), Impossible (minimax).",
        ),
    ],
)
def test_each_refusal_says_what_was_wrong_in_words(refuse, error, message):
    with pytest.raises(error) as refused:
        refuse()
    assert str(refused.value) == message


@pytest.mark.parametrize(
    ("settings", "winner", "score"),
    [
        (Settings(human="O"), "O", Score(medium=Tally(1, 0, 0))),  # the person, playing O, won
        (Settings(human="O"), "X", Score(medium=Tally(0, 1, 0))),  # the computer, playing X, won
        (Settings(mode="hvh", human="O"), "X", Score(hvh=Tally(1, 0, 0))),  # between people, X is first
        (Settings(mode="cvc", human="O"), "O", Score(cvc=Tally(0, 1, 0))),
    ],
)
def test_one_finished_game_counts_for_the_right_side(settings, winner, score):
    assert Score().counted(settings, winner) == score


def test_a_finished_game_is_nobodys_turn_and_nothing_to_lose():
    table = table_after(0, 3, 1, 4, mode="hvh").move(2, rng())  # X X X / O O . / . . .
    assert not table.is_humans_turn()
    assert not table.is_in_progress()
    # So starting another game as the other side needs no yes.
    assert table.new_game(Settings(human="O"), rng(), confirmed=False).settings.human == "O"


def test_a_computer_vs_computer_game_is_never_a_persons_game_in_progress():
    table = table_after(4, 0, 8, mode="cvc")
    assert not table.is_in_progress()
    assert table.new_game(Settings(mode="hvh"), rng(), confirmed=False).settings.mode == "hvh"


def test_each_computers_level_can_be_changed_alone():
    table = table_after(4, 0, mode="cvc").with_levels(x_level="random")
    assert (table.settings.x_level, table.settings.o_level) == ("random", "one-ply")
    table = table.with_levels(o_level="minimax")
    assert (table.settings.x_level, table.settings.o_level) == ("random", "minimax")
    assert table.moves == (4, 0)


def test_in_computer_vs_computer_each_side_plays_at_its_own_level_with_the_given_generator():
    table = Table(settings=Settings(mode="cvc", x_level="minimax", o_level="random"))
    # Impossible opens in a corner, where a careless opponent slips most (tests/engine/test_levels.py).
    assert {table.step(random.Random(seed)).moves for seed in range(20)} <= {(0,), (2,), (6,), (8,)}
    # Easy answers with any square, drawn from the generator the game is given.
    opened = table_after(0, mode="cvc", x_level="minimax", o_level="random")
    replies = [opened.step(random.Random(seed)).moves[-1] for seed in range(40)]
    assert replies == [random.Random(seed).choice(range(1, 9)) for seed in range(40)]


def test_the_computer_draws_its_replies_from_the_generator_the_game_is_given():
    easy = Settings(difficulty="random")
    replies = [Table().new_game(easy, rng()).move(4, random.Random(seed)).moves[-1] for seed in range(40)]
    assert replies == [random.Random(seed).choice([0, 1, 2, 3, 5, 6, 7, 8]) for seed in range(40)]
    as_o = Settings(human="O", difficulty="random")

    def after_the_game_id(seed: int) -> random.Random:
        # A new game draws its id from the generator first, then the computer's opening.
        generator = random.Random(seed)
        generator.getrandbits(48)
        return generator

    openings = [Table().new_game(as_o, random.Random(seed)).moves for seed in range(40)]
    assert openings == [(after_the_game_id(seed).choice(range(9)),) for seed in range(40)]
    from_here = [Table().play_from((4, 0), as_o, random.Random(seed)).moves for seed in range(40)]
    assert from_here == [(4, 0, after_the_game_id(seed).choice([1, 2, 3, 5, 6, 7, 8])) for seed in range(40)]


def test_against_the_computer_the_difficulty_plays_not_the_computer_vs_computer_levels():
    settings = Settings(difficulty="minimax", x_level="random", o_level="random")
    assert (settings.level("X"), settings.level("O")) == (None, "minimax")


def test_a_new_game_starts_afresh_and_unpaused_keeping_only_the_score():
    paused = table_after(4, 0, mode="cvc").set_paused(True)
    fresh = paused.new_game(Settings(mode="cvc", x_level="random"), rng())
    assert fresh == Table(
        settings=Settings(mode="cvc", x_level="random"),
        scores=paused.scores,
        game_id=fresh.game_id,
        number=paused.scores.next_number(after=paused.number),
    )
    assert fresh.game_id != paused.game_id


def test_play_from_takes_the_settings_it_is_given():
    before = table_after(4, 0)
    table = before.play_from((4, 0), Settings(mode="hvh", difficulty="random"), rng())
    assert table == Table(
        settings=Settings(mode="hvh", difficulty="random"),
        moves=(4, 0),
        scores=before.scores,
        game_id=table.game_id,
        practice=True,
    )


def test_a_game_is_counted_under_the_difficulty_it_counts_as_not_the_one_set_now():
    # X X O / . O . / . . X  O threatens the diagonal 2-4-6 and X plays 8: Impossible takes 6 and wins.
    table = Table(settings=Settings(difficulty="minimax"), moves=(0, 4, 1, 2), counts_as="random").move(8, rng())
    assert table.position.winner == "O"
    assert table.score == Score(easy=Tally(0, 1, 0))


def test_between_people_and_between_computers_nothing_is_undone_before_the_first_move():
    for mode in ("hvh", "cvc"):
        assert not Table(settings=Settings(mode=mode)).can_undo()
        assert table_after(4, mode=mode).can_undo()


# --- the boards ------------------------------------------------------------------------------


def test_a_game_is_played_on_the_board_of_its_settings():
    table = Table().new_game(Settings(board="7x7", mode="hvh"), rng()).move(48, rng()).move(0, rng())
    assert table.position.board == "O" + "." * 47 + "X"
    assert table.position.geometry.k == 5
    assert table.move(47, rng()).position.board[47] == "X"
    with pytest.raises(InvalidMoveError, match="numbered 0 to 48"):
        table.move(49, rng())


@pytest.mark.parametrize("board", ["9x9", "", "3X3", "3x3 ", "x" * 5000])
def test_a_board_that_is_not_in_the_catalogue_is_refused_by_name(board):
    with pytest.raises(
        SettingError, match=r"^There is no board .*; choose 3×3 \(3x3\), 4×4 \(4x4\), 5×5 .* 15×15"
    ) as error:
        Settings(board=board)
    assert len(str(error.value)) < 200


def test_a_new_board_mid_game_asks_first_and_then_starts_afresh_on_it():
    table = table_after(4, 0)
    with pytest.raises(ConfirmationNeeded, match=r"^Start a new 15×15 game\? This one will be abandoned\.$"):
        table.new_game(Settings(board="15x15"), rng(), confirmed=False)
    fresh = table.new_game(Settings(board="15x15"), rng(), confirmed=True)
    assert fresh.moves == () and fresh.position.board == "." * 225
    # Before a person has moved there is nothing to lose, so nothing to ask.
    assert Table().new_game(Settings(board="5x5"), rng(), confirmed=False).settings.board == "5x5"


def test_the_digest_tells_the_boards_apart():
    assert table_after(0).digest != table_after(0, board="4x4").digest
    assert table_after(0, board="5x5").digest != table_after(0, board="7x7").digest


def test_each_board_keeps_its_own_score():
    # X wins along the top row of 4×4 between two people: counted on 4×4 alone.
    won = table_after(0, 4, 1, 5, 2, 6, board="4x4", mode="hvh").move(3, rng())
    assert won.position.winner == "X"
    assert won.score.hvh == Tally(1, 0, 0)
    assert won.scores.of("3x3") == Score() and won.scores.of("15x15") == Score()
    back_on_3x3 = won.new_game(Settings(mode="hvh"), rng())
    assert back_on_3x3.score == Score() and back_on_3x3.scores.of("4x4").hvh == Tally(1, 0, 0)
    assert back_on_3x3.reset_score().scores.boards == won.scores.boards  # resetting 3×3 leaves 4×4 alone


def test_the_top_level_is_called_hard_where_it_searches_under_a_time_limit():
    assert [level_names(key)["minimax"] for key in ("3x3", "4x4", "5x5", "7x7", "15x15")] == [
        "Impossible",
        "Impossible",
        "Impossible",
        "Hard",
        "Hard",
    ]
    assert table_after(board="7x7", difficulty="minimax").score_name == "Hard"
    assert table_after(board="5x5", difficulty="minimax").score_name == "Impossible"


def test_a_score_set_holds_one_score_per_board():
    with pytest.raises(ValueError, match="one Score for each of the 5 boards"):
        Scores((Score(),) * 4)
    assert Scores.on("7x7", Score(cvc=Tally(1, 0, 0))).of("7x7").cvc == Tally(1, 0, 0)


def test_a_whole_15x15_game_replays_to_a_draw():
    xs = [r * 15 + c for r in range(15) for c in range(15) if (c // 2 + r) % 2 == 0]
    os_ = [r * 15 + c for r in range(15) for c in range(15) if (c // 2 + r) % 2 == 1]
    moves = tuple(cell for pair in zip(xs, [*os_, None], strict=True) for cell in pair if cell is not None)
    table = table_after(*moves, board="15x15", mode="hvh")
    assert table.ply == 225 and table.position.is_draw()
    assert replay(moves, "15x15") is replay(moves, "15x15")  # remembered, not replayed twice


def test_a_new_game_needs_no_yes_unless_asked_and_the_question_names_what_changes():
    table = Table().new_game(Settings(), rng()).move(4, rng())
    # The buttons that start a new game say yes themselves: by default nothing is asked.
    assert table.new_game(Settings(mode="hvh"), rng()).settings.mode == "hvh"
    for settings, kind in [
        (Settings(mode="hvh"), "Human vs Human"),
        (Settings(mode="cvc"), "Computer vs Computer"),
        (Settings(human="O"), "Human vs Computer"),
        (Settings(board="4x4"), "4×4"),
        (Settings(board="4x4", mode="hvh"), "4×4"),
    ]:
        with pytest.raises(ConfirmationNeeded, match=f"^Start a new {kind} game\\? This one will be abandoned\\.$"):
            table.new_game(settings, rng(), confirmed=False)


def test_play_from_reads_the_moves_on_the_board_of_the_settings_given():
    on_4x4 = Settings(mode="hvh", board="4x4")
    # Cell 15 exists only on 4×4; and X's top row of three has not won there.
    table = Table().play_from((0, 15, 1, 14, 2), on_4x4, rng())
    assert table.moves == (0, 15, 1, 14, 2)
    assert table.position.to_move == "O"
    with pytest.raises(GameOverError, match="That position is the end of the game"):
        Table().play_from((0, 15, 1, 14, 2, 13, 3), on_4x4, rng())
