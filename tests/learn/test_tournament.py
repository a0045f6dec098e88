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


def test_the_strength_file_is_read_in_the_catalogues_order_held_out_half_only():
    found = read_strength(FIXTURE)
    assert [m.board.key for m in found.boards] == ["7x7", "15x15"]
    fifteen = found.boards[1]
    assert fifteen.rows == (
        Measured(7, 1, 8, opponent="Rapfi at 2,000 nodes", hard_as="X"),
        Measured(4, 0, 12, opponent="Rapfi at 2,000 nodes", hard_as="O"),
    )
    assert fifteen.suite.startswith("Each game starts from one of 16 balanced three-stone openings")
    assert [(r.games, r.points) for r in fifteen.rows] == [(16, 47), (16, 25)]


def test_no_strength_file_means_not_measured_yet(tmp_path):
    assert read_strength(tmp_path / "strength.json") is None


ROW = '{"opponent": "Easy", "half": "held-out", "hard_as": "X", "wins": 1, "draws": 0, "losses": 0}'


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("not json", "is not JSON"),
        ("[]", 'needs "boards"'),
        ('{"boards": {"9x9": {}}}', "results for '9x9'"),
        ('{"boards": {"7x7": {"rows": []}}}', 'needs "suite"'),
        ('{"boards": {"7x7": {"suite": "s", "rows": [{"opponent": "Easy"}]}}}', "lacks one of opponent"),
        ('{"boards": {"7x7": {"suite": "s", "rows": [' + ROW.replace("held-out", "all") + "]}}}", "make sense"),
        ('{"boards": {"7x7": {"suite": "s", "rows": [' + ROW.replace('"wins": 1', '"wins": 0') + "]}}}", "make sense"),
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


def test_the_tournament_page_shows_the_held_out_figures_of_each_board(client, measured_at):
    measured_at(FIXTURE)
    html = client.get("/tournament").get_data(as_text=True)
    assert html.index("7×7, 5 in a row") < html.index("15×15, 5 in a row")
    assert "one of 16 balanced three-stone openings, played once with each colour" in html
    # Each opponent named once, with what it is, and one row a board: its games as X and as O, and the points.
    assert html.count("<dt>Rapfi</dt>") == 1 and "looking at 2,000 positions a move" in html
    assert re.search(r'<th scope="row">Rapfi</th>\s*<td>7–1–8</td>\s*<td>4–0–12</td>\s*<td>36 %</td>', html)
    assert "–13</td>" not in html.split("On the bigger boards")[1]  # the dev half's row is not shown
    assert "Rapfi at" not in html and "nodes" not in html
    assert "Every pairing" in html  # 3×3 is still played here


def test_the_tournament_page_without_measurements_says_so(client, measured_at, tmp_path):
    measured_at(tmp_path / "missing.json")
    response = client.get("/tournament")
    assert response.status_code == 200
    assert "The results on the bigger boards are not measured yet." in response.get_data(as_text=True)


def test_the_tournament_page_with_a_broken_file_still_shows_3x3(client, measured_at, tmp_path):
    broken = tmp_path / "strength.json"
    broken.write_text("{")
    measured_at(broken)
    response = client.get("/tournament")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "could not be read" in html and "Every pairing" in html and "Traceback" not in html


def test_the_rows_show_each_opponent_together_hard_as_x_first(tmp_path):
    # The strength run writes rows as its games end, so O's may come before X's and opponents interleave.
    def row(opponent: str, side: str) -> dict:
        return {"opponent": opponent, "half": "held-out", "hard_as": side, "wins": 1, "draws": 0, "losses": 0}

    rows = [row("Easy", "O"), row("MCTS", "X"), row("Easy", "X"), row("MCTS", "O")]
    path = tmp_path / "strength.json"
    path.write_text(json.dumps({"boards": {"15x15": {"suite": "Sixteen openings.", "rows": rows}}}))
    shown = [(r.opponent, r.hard_as) for r in read_strength(path).boards[0].rows]
    assert shown == [("Easy", "X"), ("Easy", "O"), ("MCTS", "X"), ("MCTS", "O")]


def test_a_slow_opponent_with_fewer_games_says_so_and_every_opponent_has_a_line(client, measured_at, tmp_path):
    def row(opponent: str, side: str, wins: int) -> dict:
        return {"opponent": opponent, "half": "held-out", "hard_as": side, "wins": wins, "draws": 0, "losses": 0}

    rows = [row("MCTS at 10,000 simulations", "X", 1), row("MCTS at 10,000 simulations", "O", 1)]
    rows += [row("ThreatSpace", "X", 16), row("ThreatSpace", "O", 16)]
    path = tmp_path / "strength.json"
    path.write_text(json.dumps({"boards": {"15x15": {"suite": "Sixteen openings.", "rows": rows}}}))
    measured_at(path)
    html = client.get("/tournament").get_data(as_text=True)
    assert html.index("<dt>Threat hunter</dt>") < html.index("<dt>Monte Carlo</dt>")  # the stronger first
    assert "plays out 10,000 random games" in html
    assert re.search(r'<th scope="row">Monte Carlo <span class="versus">2 games only: it is slow</span></th>', html)
    assert '<th scope="row">Threat hunter</th>' in html
