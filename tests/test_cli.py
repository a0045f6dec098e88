import json
import subprocess
import sys

import pytest

from webapp.cli import main


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
        [sys.executable, "-m", "webapp.solver", "move", "X........"], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "4"


def test_bench_reports_every_figure(capsys):
    status, out, _ = run(capsys, "bench", "--games", "300", "--json")
    report = json.loads(out)
    assert set(report) == {"warm", "first_call_ms", "versus_random", "goals", "met"}
    assert report["warm"]["calls"] == 4520
    assert [r["losses"] for r in report["versus_random"]] == [0, 0]
    assert status in (0, 1)  # the timing goals are for the benchmark to judge, not a test


def test_bench_on_4x4_times_every_kind_of_request(capsys):
    status, out, _ = run(capsys, "bench", "--board", "4x4", "--games", "2", "--positions", "5", "--json")
    report = json.loads(out)
    timing = report["timing"]
    assert timing["board"] == "4x4"
    assert timing["random_positions"] == 5 and timing["game_positions"] >= 4 and timing["examples"] == 3
    assert timing["positions"] == 5 + timing["game_positions"] + 3
    for kind in ("move", "analysis", "outlook", "hint"):
        assert timing[kind]["calls"] == timing["positions"]
        assert 0 <= timing[kind]["median_s"] <= timing[kind]["worst_s"]
    assert timing["exact_moves"] + timing["fallbacks"] == timing["positions"]
    assert timing["book_load_s"] is None and timing["in_book"] == 0
    assert set(report["met"]) == {"worst_s", "positions"}
    assert status == 1  # a dozen positions are fewer than the 200 the goal asks for


def test_bench_on_5x5_reads_the_book(capsys):
    status, out, _ = run(capsys, "bench", "--board", "5x5", "--games", "1", "--positions", "3")
    assert "the book: 521,369 positions" in out
    assert "moves proved best: " in out and "move values proved: " in out
    assert status == 1  # a few positions are fewer than the 200 the goal asks for


def test_bench_refuses_an_unknown_board(capsys):
    with pytest.raises(SystemExit):
        run(capsys, "bench", "--board", "6x6")
    assert "invalid choice: '6x6'" in capsys.readouterr().err
