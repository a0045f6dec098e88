import json
import random
from datetime import date

from webapp import strength
from webapp.engine.boards import BY_KEY
from webapp.engine.hard import Budget
from webapp.tournament import Measured


def test_hard_against_easy_on_7x7_is_recorded_from_hards_side():
    hard = ("Hard", strength.level_player("minimax", Budget(nodes=300)))
    easy = ("Easy", strength.level_player("random"))
    record = strength.match(BY_KEY["7x7"], hard, easy, "O", 2, random.Random(1))
    assert (record.player, record.opponent, record.player_as, record.games) == ("Hard", "Easy", "O", 2)
    assert record.wins + record.draws + record.losses == 2
    assert record.losses == 0


def test_new_results_replace_those_of_the_same_pairing_and_keep_the_rest():
    old = Measured("Hard", "Easy", "X", 10, 10, 0, 0)
    other_side = Measured("Hard", "Easy", "O", 10, 9, 1, 0)
    data = strength.merged({}, "7x7", [old, other_side], date(2026, 1, 2))
    new = Measured("Hard", "Easy", "X", 50, 49, 1, 0)
    data = strength.merged(data, "7x7", [new], date(2026, 1, 3))
    data = strength.merged(data, "15x15", [new], date(2026, 1, 3))
    assert data["measured"] == "2026-01-03"
    assert [row["games"] for row in data["boards"]["7x7"]] == [50, 10]
    assert data["boards"]["15x15"][0]["wins"] == 49


def test_the_shipped_strength_data_has_the_shape_the_tournament_page_reads():
    data = json.loads(strength.DATA.read_text())
    date.fromisoformat(data["measured"])
    assert set(data["boards"]) == {"4x4", "5x5", "7x7", "15x15"}
    # The top level never lost a measured game, on any board.
    assert all(row["losses"] == 0 for rows in data["boards"].values() for row in rows)
    for rows in data["boards"].values():
        for row in rows:
            assert set(row) == {"player", "opponent", "player_as", "games", "wins", "draws", "losses"}
            assert row["games"] == row["wins"] + row["draws"] + row["losses"] > 0
            assert row["player_as"] in ("X", "O")


def test_on_4x4_the_top_level_measured_is_impossible_and_it_does_not_lose(tmp_path):
    out = tmp_path / "strength.json"
    status = strength.main(["--board", "4x4", "--opponent", "one-ply", "--games", "1", "--out", str(out)])
    rows = json.loads(out.read_text())["boards"]["4x4"]
    assert [(r["player"], r["opponent"], r["player_as"]) for r in rows] == [
        ("Impossible", "Medium", "X"),
        ("Impossible", "Medium", "O"),
    ]
    assert status == 0 and all(r["losses"] == 0 for r in rows)
