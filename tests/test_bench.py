import itertools
import random

from webapp import bench
from webapp.engine.boards import BY_KEY
from webapp.engine.rules import parse


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
