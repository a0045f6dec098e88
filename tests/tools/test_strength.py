import json
import random
from dataclasses import replace

import pytest

from tools import strength, suite
from webapp.engine.boards import BY_KEY
from webapp.engine.rules import O, X, parse
from webapp.learn.tournament import read_strength


def test_every_opening_is_played_once_with_hard_as_x_and_once_as_o():
    found = strength.jobs(["7x7"], ["easy", "medium"], ["dev"])
    dev = suite.load("7x7").half("dev")
    assert len(found) == 2 * 2 * len(dev)
    assert {(j.opponent, j.opening.id, j.hard) for j in found} == {
        (opponent, o.id, side) for opponent in ("easy", "medium") for o in dev for side in (X, O)
    }
    assert len({j.seed for j in found}) == len(found)
    # A game's seed is its own: asked for alone, it is the same game.
    alone = strength.jobs(["7x7"], ["easy"], ["dev"])[0]
    assert alone in found


def test_the_15x15_engines_play_15x15_only_and_mcts_plays_few_openings():
    rapfis = ["rapfi", "rapfi-strong", "rapfi-timed"]
    found = strength.jobs(["7x7", "15x15"], [*rapfis, "threatspace", "mcts"], suite.HALVES, mcts_openings=2)
    assert {j.board for j in found if j.opponent in (*rapfis, "threatspace")} == {"15x15"}
    assert [sum(j.opponent == name for j in found) for name in rapfis] == [2 * 32] * 3
    assert sum(j.opponent == "mcts" and j.board == "15x15" for j in found) == 2 * 2 * 2
    assert sum(j.opponent == "mcts" and j.board == "7x7" for j in found) == 2 * 2 * 2
    assert found[0].opponent == "mcts" and found[0].board == "7x7"  # the slowest first...
    assert {(j.opponent, j.board) for j in found[-8:]} == {("mcts", "15x15")}  # ...but 15×15 MCTS's, dearest, last


def test_a_game_goes_on_from_its_opening_to_its_end_by_the_rules():
    opening = suite.load("7x7").half("dev")[0]
    job = strength.Job("7x7", "easy", opening, X, seed=5, player="one-ply")  # Medium stands in for Hard: fast
    game = strength.play(job)
    assert game["moves"][:3] == list(opening.cells)
    pos = parse(BY_KEY["7x7"].empty, 7, 5)
    for move in game["moves"]:
        pos = pos.play(move)
    assert pos.is_over()
    assert game["result"] == {None: "draw", X: "win", O: "loss"}[pos.winner]
    # X's moves after the opening are the measured side's, each timed.
    assert len(game["hard_cpu"]) == len(game["moves"][3:][1::2])


def test_hard_takes_a_win_at_once():
    board = "XXXX..." + "OOOO..." + "." * 35
    assert strength.hard_player()(board, random.Random(0)) == 4


GAMES = [
    {"board": "7x7", "opponent": "easy", "half": "held-out", "hard": X, "result": "win", "hard_cpu": [0.1, 0.3]},
    {"board": "7x7", "opponent": "easy", "half": "held-out", "hard": O, "result": "draw", "hard_cpu": [0.2]},
    {"board": "7x7", "opponent": "easy", "half": "dev", "hard": O, "result": "loss", "hard_cpu": [0.4]},
    {"board": "15x15", "opponent": "rapfi", "half": "held-out", "hard": X, "result": "loss", "hard_cpu": [0.5]},
]


def test_the_table_gives_each_half_its_own_row_from_hards_side():
    text = strength.table(strength.tally(GAMES, strength.Settings()))
    lines = text.splitlines()
    assert lines[2].startswith("| 15×15 | Rapfi at 2,000 nodes | held-out | 1 | 0-0-1 | – | 0.0 % | – | 0.0 % |")
    assert "| 7×7 | Easy | dev | 1 | – | 0-0-1 | – | 0.0 % | 0.0 % | 0.40 s, 0.40 s |" in lines
    assert "| 7×7 | Easy | held-out | 2 | 1-0-0 | 0-1-0 | 100.0 % | 50.0 % | 75.0 % | 0.20 s, 0.30 s |" in lines


def test_the_pages_data_is_what_the_page_reads_held_out_half_only(tmp_path):
    path = tmp_path / "strength.json"
    path.write_text(json.dumps(strength.page_data(strength.tally(GAMES, strength.Settings()))))
    found = read_strength(path)
    assert [m.board.key for m in found.boards] == ["7x7", "15x15"]
    seven = found.boards[0]
    assert [(r.opponent, r.hard_as, r.wins, r.draws, r.losses) for r in seven.rows] == [
        ("Easy", X, 1, 0, 0),
        ("Easy", O, 0, 1, 0),
    ]
    assert "one of 8 three-stone openings" in seven.suite and "never used to tune Hard" in seven.suite


def test_the_shipped_data_has_both_halves_and_both_colours_for_every_opponent():
    data = json.loads(strength.DATA.read_text())
    assert set(data["boards"]) == {"7x7", "15x15"}
    for key, table in data["boards"].items():
        opponents = {row["opponent"] for row in table["rows"]}
        assert {"Medium", "Easy", "MCTS at 10,000 simulations"} <= opponents
        assert len([name for name in opponents if name.startswith("Rapfi")]) <= 1  # the page shows one Rapfi
        for opponent in opponents:
            cells = {(r["half"], r["hard_as"]) for r in table["rows"] if r["opponent"] == opponent}
            assert cells == {(half, side) for half in suite.HALVES for side in (X, O)}, (key, opponent)
    assert read_strength(strength.DATA).boards


def test_the_page_leaves_off_the_opponents_it_is_told_to():
    games = [dict(GAMES[-1], opponent="rapfi-timed"), *GAMES]
    settings = strength.Settings()
    data = strength.page_data(strength.tally(games, settings), hidden={settings.name("rapfi-timed")})
    shown = {row["opponent"] for table in data["boards"].values() for row in table["rows"]}
    assert settings.name("rapfi") in shown and settings.name("rapfi-timed") not in shown


def test_the_table_is_written_between_its_markers_and_nowhere_else():
    doc = f"# Before\n\n{strength.BEGIN}\nold table\n{strength.END}\n\n## After\n"
    written = strength.with_table(doc, "| new |")
    assert written == f"# Before\n\n{strength.BEGIN}\n\n| new |\n{strength.END}\n\n## After\n"
    assert strength.with_table(written, "| new |") == written
    assert strength.with_table("no markers here\n", "| new |") == "no markers here\n"


def test_the_docs_have_the_markers_the_table_goes_between():
    text = strength.DOC.read_text()
    assert text.count(strength.BEGIN) == 1 and text.index(strength.BEGIN) < text.index(strength.END)


def test_without_rapfi_its_games_are_skipped_and_said_to_be(monkeypatch, capsys, tmp_path):
    monkeypatch.delenv("RAPFI", raising=False)
    before = strength.DATA.read_text()
    argv = ["--opponent", "rapfi", "--opponent", "rapfi-strong", "--opponent", "rapfi-timed"]
    assert strength.main([*argv, "--games", str(tmp_path / "games.jsonl")]) == 0
    out = capsys.readouterr()
    assert "Rapfi was not played" in out.out and "RAPFI" in out.err
    assert strength.DATA.read_text() == before  # a narrowed run writes nothing


@pytest.mark.parametrize("argv", [["--half", "test"], ["--opponent", "nobody"]])
def test_unknown_halves_and_opponents_are_refused(argv):
    with pytest.raises(SystemExit):
        strength.main(argv)


def test_a_run_cut_short_goes_on_without_playing_its_games_again(tmp_path, monkeypatch):
    found = [replace(job, player="random") for job in strength.jobs(["7x7"], ["easy"], ["dev"], openings=1)]
    log = tmp_path / "games.jsonl"
    first = strength.run(found[:1], strength.Settings(), 1, log)
    monkeypatch.setattr(strength, "play", lambda job, settings: pytest.fail("played again"))
    with pytest.raises(pytest.fail.Exception):
        strength.run(found, strength.Settings(), 1, log, resume=True)
    monkeypatch.undo()
    again = strength.run(found, strength.Settings(), 1, log, resume=True)
    assert again[0] == first[0] and len(again) == 2
    assert [json.loads(line) for line in log.read_text().splitlines()] == again
