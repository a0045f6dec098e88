import random

import pytest

from webapp.solver import LEVELS
from webapp.tournament import play_game, standings, tournament


@pytest.fixture(scope="module")
def pairings():
    return tournament(60, random.Random(11))


def test_every_level_meets_every_level_as_x_and_as_o(pairings):
    assert {(p.x_level, p.o_level) for p in pairings} == {(x, o) for x in LEVELS for o in LEVELS}
    assert all(p.games == 60 for p in pairings)


def test_minimax_never_loses_and_random_loses_most(pairings):
    table = {s.level: s for s in standings(pairings)}
    assert table["minimax"].losses == 0
    assert table["random"].losses == max(s.losses for s in table.values())
    assert table["random"].wins < table["one-ply"].wins
    assert all(s.games == 60 * 6 for s in table.values())


def test_minimax_against_itself_always_draws(pairings):
    (mirror,) = [p for p in pairings if p.x_level == p.o_level == "minimax"]
    assert mirror.draws == 60


def test_a_game_is_played_to_its_end():
    final = play_game("random", "minimax", random.Random(2))
    assert final.is_over()
    assert final.winner != "X"


@pytest.mark.parametrize("games", [0, -3])
def test_a_tournament_needs_games(games):
    with pytest.raises(ValueError, match="at least one game"):
        tournament(games)


def test_unknown_levels_are_refused():
    with pytest.raises(ValueError, match="Unknown level"):
        play_game("hard", "random", random.Random(1))
