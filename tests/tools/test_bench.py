import itertools
import json
import random

import pytest

from tools import bench
from webapp.engine.boards import BY_KEY
from webapp.engine.rules import parse
from webapp.learn.numbers import reachable


def test_the_big_boards_positions_come_from_real_games_and_are_unfinished():
    spec = BY_KEY["7x7"]
    boards = bench.game_positions(spec, 40, random.Random(3))
    assert len(boards) == 40 and boards[0] == spec.empty
    assert all(not parse(board, 7, 5).is_over() for board in boards)
    # Each position is the one before it plus one stone, or a new game's empty board.
    for before, after in itertools.pairwise(boards):
        assert after == spec.empty or sum(a != b for a, b in zip(before, after, strict=True)) == 1


def test_the_top_level_is_timed_on_each_position_with_its_depth_and_the_memory():
    spec = BY_KEY["7x7"]
    boards = bench.game_positions(spec, 3, random.Random(5))
    timing = bench.time_top_level(spec, boards)
    assert (timing.board, timing.calls) == ("7x7", 3)
    assert 0 < timing.median_ms <= timing.worst_ms and timing.worst_board in boards
    assert timing.nodes_per_second > 0 and timing.least_depth >= 0 and timing.peak_mb > 10


def run(capsys, *argv):
    status = bench.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_bench_reports_every_figure(capsys):
    status, out, _ = run(capsys, "--games", "300", "--json")
    report = json.loads(out)
    assert set(report) == {"warm", "first_call_ms", "versus_random", "goals", "met"}
    # Every position a game can reach and go on from, each timed.
    assert report["warm"]["calls"] == sum(not pos.is_over() for pos in reachable())
    assert [r["losses"] for r in report["versus_random"]] == [0, 0]
    assert status in (0, 1)  # the timing goals are for the benchmark to judge, not a test


def test_bench_on_4x4_times_every_kind_of_request(capsys):
    status, out, _ = run(capsys, "--board", "4x4", "--games", "2", "--positions", "5", "--json")
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
    status, out, _ = run(capsys, "--board", "5x5", "--games", "1", "--positions", "3")
    assert "the book: 521,369 positions" in out
    assert "moves proved best: " in out and "move values proved: " in out
    assert status == 1  # a few positions are fewer than the 200 the goal asks for


def test_bench_refuses_an_unknown_board(capsys):
    with pytest.raises(SystemExit):
        run(capsys, "--board", "6x6")
    assert "invalid choice: '6x6'" in capsys.readouterr().err
