import json
import random
import re
from pathlib import Path

import pytest

import webapp.learn.tournament
from webapp.learn.tournament import Measured, StrengthFileError, play_game, read_strength, standings, tournament
from webapp.solver import LEVELS


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


# --- the bigger boards: measured ahead of time ---------------------------------------------------

FIXTURE = Path(__file__).parent / "data" / "strength.json"


def test_the_strength_file_is_read_in_the_catalogues_order():
    found = read_strength(FIXTURE)
    assert found.measured == "2026-11-20"
    assert [board.key for board, _ in found.boards] == ["7x7", "15x15"]
    _, rows = found.boards[0]
    assert rows[1] == Measured("Hard", "Easy", "O", 100, 97, 3, 0)


def test_no_strength_file_means_not_measured_yet(tmp_path):
    assert read_strength(tmp_path / "strength.json") is None


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("not json", "is not JSON"),
        ("[]", 'needs "measured"'),
        ('{"measured": "2026-11-20", "boards": {"9x9": []}}', "a table for '9x9'"),
        ('{"measured": "2026-11-20", "boards": {"7x7": [{"player": "Hard"}]}}', "lacks one of player"),
        (
            '{"measured": "d", "boards": {"7x7": [{"player": "Hard", "opponent": "Easy", "player_as": "X",'
            ' "games": 10, "wins": 9, "draws": 0, "losses": 0}]}}',
            "does not add up",
        ),
    ],
)
def test_a_malformed_strength_file_says_what_is_wrong(tmp_path, text, words):
    path = tmp_path / "strength.json"
    path.write_text(text)
    with pytest.raises(StrengthFileError, match=words):
        read_strength(path)


@pytest.fixture
def measured_at(monkeypatch):
    """Point the tournament page at a strength file of the test's choosing, read afresh."""

    def point(path):
        monkeypatch.setattr(webapp.learn.tournament, "STRENGTH", path)
        webapp.learn.tournament._read_once.cache_clear()

    yield point
    webapp.learn.tournament._read_once.cache_clear()


def test_the_tournament_page_shows_each_measured_board(client, measured_at):
    measured_at(FIXTURE)
    html = client.get("/tournament").get_data(as_text=True)
    assert "2026-11-20" not in html  # when it was measured is for the docs, not for players
    assert html.index("7×7, 5 in a row") < html.index("15×15, 5 in a row")
    assert (
        'Hard as X <span class="versus">vs MCTS, 1,000 simulations</span></th>'
        "<td>20</td><td>12</td><td>8</td><td>0</td>" in html
    )
    assert "Every pairing" in html  # 3×3 is still played here


def test_the_tournament_page_without_measurements_says_so(client, measured_at, tmp_path):
    measured_at(tmp_path / "missing.json")
    response = client.get("/tournament")
    assert response.status_code == 200
    assert "The results on the bigger boards are not measured yet." in response.get_data(as_text=True)


def row(opponent: str, side: str, games: int = 20) -> dict:
    return {
        "player": "Hard",
        "opponent": opponent,
        "player_as": side,
        "games": games,
        "wins": games,
        "draws": 0,
        "losses": 0,
    }


def test_a_row_measured_later_shows_beside_its_partner(client, measured_at, tmp_path):
    # As the strength script leaves a file when a match is played again later: its row at the end, O before X.
    rows = [row("Easy", "X"), row("Medium", "X"), row("Easy", "O"), row("Medium", "O", 10), row("MCTS", "O", 10)]
    rows.append(row("MCTS", "X"))
    path = tmp_path / "strength.json"
    path.write_text(json.dumps({"measured": "2026-11-20", "boards": {"15x15": rows}}))
    measured_at(path)
    html = client.get("/tournament").get_data(as_text=True)
    shown = re.findall(
        r'<th scope="row">Hard as ([XO]) <span class="versus">vs ([^<]+)</span></th><td>(\d+)</td>', html
    )
    assert shown == [
        ("X", "Easy", "20"),
        ("O", "Easy", "20"),
        ("X", "Medium", "20"),
        ("O", "Medium", "10"),
        ("X", "MCTS", "20"),
        ("O", "MCTS", "10"),
    ]
    assert "as X first, then as O" in html  # the order is said


def test_the_tournament_page_with_a_broken_file_still_shows_3x3(client, measured_at, tmp_path):
    broken = tmp_path / "strength.json"
    broken.write_text("{")
    measured_at(broken)
    response = client.get("/tournament")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "could not be read" in html and "Every pairing" in html and "Traceback" not in html
