import json
import subprocess
import sys

import pytest

from webapp.__main__ import main


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_stats_json_has_the_published_numbers(capsys):
    status, out, _ = run(capsys, "stats", "--json")
    assert status == 0
    result = json.loads(out)
    assert result["games"] == 255_168
    assert result["positions_up_to_symmetry"] == 765
    assert {s["name"] for s in result["searches"]} == {
        "minimax",
        "alpha-beta",
        "alpha-beta + ordering",
        "alpha-beta + transposition table",
    }


def test_stats_table_is_readable(capsys, monkeypatch):
    status, out, _ = run(capsys, "stats")
    assert status == 0
    assert "games" in out and "255,168" in out
    assert "549,946" in out


def test_tournament_json(capsys):
    status, out, _ = run(capsys, "tournament", "--games", "5", "--seed", "1", "--json")
    assert status == 0
    result = json.loads(out)
    assert len(result["pairings"]) == 9
    assert sum(p["x_wins"] + p["o_wins"] + p["draws"] for p in result["pairings"]) == 45
    minimax = next(s for s in result["standings"] if s["level"] == "minimax")
    assert minimax["losses"] == 0


def test_analyze_and_move(capsys):
    status, out, _ = run(capsys, "analyze", "XX.OO....")
    assert status == 0
    assert "cell 2: win in 1" in out
    status, out, _ = run(capsys, "move", "XX.OO....", "--level", "one-ply")
    assert (status, out.strip()) == (0, "2")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["analyze", "XXX"], "9, 16, 25, 49 or 225 cells"),
        (["move", "XXXOO...."], "game is over"),
        (["tournament", "--games", "0"], "at least one game"),
    ],
)
def test_bad_input_is_a_one_line_error(capsys, argv, message):
    status, _, err = run(capsys, *argv)
    assert status == 2
    assert message in err
    assert err.count("\n") == 1


def test_the_module_runs_as_a_script():
    done = subprocess.run(
        [sys.executable, "-m", "webapp", "move", "X........"], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "4"
