import pytest

from webapp.engine.rules import Position, parse
from webapp.stats import SEARCHES, Tally, numbers, reachable, search_costs, tally, tree_size


def test_every_game_counted_by_result():
    # The published figures: 255,168 games, of which X wins 131,184, O wins 77,904, 46,080 drawn.
    assert tally(Position.empty()) == Tally(131_184, 77_904, 46_080)
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
