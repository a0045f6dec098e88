from pathlib import Path

import pytest

import webapp.__main__ as cli
from webapp.engine.boards import BOARDS, BY_KEY
from webapp.engine.rules import Position, parse
from webapp.learn import numbers as stats
from webapp.learn.numbers import (
    SEARCHES,
    GameCount,
    census,
    census_totals,
    counted,
    numbers,
    reachable,
    search_costs,
    tally,
    tree_size,
)


def test_every_game_counted_by_result():
    # The published figures: 255,168 games, of which X wins 131,184, O wins 77,904, 46,080 drawn.
    assert tally(Position.empty()) == GameCount(131_184, 77_904, 46_080)
    assert tally(Position.empty()).games == 255_168


def test_positions_counted_with_and_without_symmetry():
    positions = reachable()
    assert len(positions) == 5478
    assert len({p.canonical() for p in positions}) == 765
    assert sum(1 for p in positions if p.is_over()) == 958


def test_tree_size_is_what_plain_minimax_visits():
    assert tree_size(Position.empty()) == 549_946
    # X . . / . O . / . . .
    root = parse("X...O....")
    (cost,) = search_costs(root, only=("minimax",))
    assert cost.nodes == tree_size(root)


def test_each_search_idea_visits_fewer_nodes_and_all_agree():
    costs = search_costs(Position.empty(), only=tuple(SEARCHES)[1:])
    nodes = [c.nodes for c in costs]
    assert nodes == sorted(nodes, reverse=True)
    assert len(set(nodes)) == len(nodes)
    assert {c.value for c in costs} == {0}
    assert all(c.seconds > 0 for c in costs)


@pytest.mark.parametrize("board", ["X...O....", "XO..X....", "XOX.O...."])
def test_every_variant_finds_the_same_value(board):
    costs = search_costs(parse(board))
    assert len({c.value for c in costs}) == 1
    assert costs[0].nodes > costs[1].nodes > costs[2].nodes


def test_numbers_has_every_published_key():
    result = numbers()
    assert {k: result[k] for k in ("games", "x_wins", "o_wins", "draws")} == {
        "games": 255_168,
        "x_wins": 131_184,
        "o_wins": 77_904,
        "draws": 46_080,
    }
    assert (result["positions"], result["positions_up_to_symmetry"], result["terminal_positions"]) == (5478, 765, 958)
    assert [s["name"] for s in result["searches"]] == list(SEARCHES)
    assert result["searches"][0]["nodes"] == 549_946


# --- 4×4, counted ahead of time ----------------------------------------------------------------

B4 = BY_KEY["4x4"]


def test_the_census_of_3x3_agrees_with_the_published_figures():
    totals = census_totals(census(BY_KEY["3x3"]))
    assert (totals["games"], totals["won_x_games"], totals["won_o_games"], totals["drawn_games"]) == (
        255_168,
        131_184,
        77_904,
        46_080,
    )
    assert (totals["positions"], totals["positions_up_to_symmetry"], totals["terminal_positions"]) == (5478, 765, 958)
    assert totals["tree_nodes"] == tree_size(Position.empty())


def brute_force(n: int, k: int, last_ply: int) -> list[tuple[int, int, int]]:
    """Positions, symmetry classes and move orders per ply, by playing every move of every order."""
    rows, layer = [], {Position.empty(n, k): 1}
    for _ in range(last_ply + 1):
        rows.append((len(layer), len({pos.canonical() for pos in layer}), sum(layer.values())))
        following = {}
        for pos, orders in layer.items():
            for move in pos.legal_moves():
                child = pos.play(move)
                following[child] = following.get(child, 0) + orders
        layer = following
    return rows


def test_the_4x4_census_agrees_with_playing_every_move_for_five_plies():
    rows = census(B4, last_ply=5)
    assert [(row["positions"], row["classes"], row["nodes"]) for row in rows] == brute_force(4, 4, 5)


def test_the_4x4_data_file_agrees_with_a_recount_of_its_first_plies():
    written = counted("4x4")
    assert written is not None, "count it with: python -m webapp stats --board 4x4 --write"
    assert written["plies"][:6] == census(B4, last_ply=5)
    # The totals are the sums of the plies, all sixteen of them and the empty board.
    assert len(written["plies"]) == 17
    assert written["totals"] == census_totals(written["plies"])
    totals = written["totals"]
    assert totals["positions"] == 9_722_011 and totals["positions_up_to_symmetry"] == 1_217_977
    # Every game ends in a finished position, and four in a row needs seven moves at least.
    assert sum(row["won_x"]["games"] for row in written["plies"][:7]) == 0
    assert written["searches"][0] == {
        "name": "minimax",
        "nodes": totals["tree_nodes"],
        "seconds": None,
        "complete": True,
    }


def test_the_4x4_search_with_a_table_finds_the_draw_within_the_cap():
    written = counted("4x4")
    with_table = next(s for s in written["searches"] if s["name"] == "alpha-beta + transposition table")
    assert with_table["complete"] and with_table["nodes"] < written["node_cap"]


def test_the_stats_command_prints_the_4x4_figures(capsys):
    assert cli.main(["stats", "--board", "4x4"]) == 0
    out = capsys.readouterr().out
    assert "4×4, 4 in a row" in out and "9,722,011" in out and "1,217,977" in out
    assert cli.main(["stats", "--board", "9x9"]) == 2
    assert "There are figures for 3x3, 4x4, not '9x9'" in capsys.readouterr().err


def test_the_numbers_page_shows_4x4_and_cites_every_board(client):
    html = client.get("/numbers").get_data(as_text=True)
    assert "4×4, 4 in a row" in html and "9,722,011" in html and "1,217,977" in html
    assert "over 3,000,000" in html  # the searches stopped at the cap say so
    # One sentence a board, its names and sources as they are written: the tree says the same.
    for board in BOARDS:
        assert f"<li>{stats.known(board)}</li>" in html, board.key
    assert "proved by Allis, 1994" in html and "C. Y. Lee, in Winning Ways" in html
    assert "15×15, five or more in a row: a win for the first player with perfect play" in html


def test_the_numbers_page_says_when_a_board_is_not_counted(client, monkeypatch):
    monkeypatch.setattr(stats, "census_file", lambda key: Path("/nonexistent") / f"numbers-{key}.json")
    stats.counted.cache_clear()
    try:
        html = client.get("/numbers").get_data(as_text=True)
    finally:
        stats.counted.cache_clear()
    assert "The figures for 4×4 are not counted yet." in html
