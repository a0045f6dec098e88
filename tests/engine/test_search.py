"""The search knows nothing of tic-tac-toe: it is checked here on a game it was not written for."""

import pytest

from webapp.engine.levels import GAME
from webapp.engine.rules import parse
from webapp.engine.search import INF, Bounds, Counter, Solver, alphabeta, best_move, children, lookahead_scores, minimax


class Nim:
    """Take 1, 2 or 3 from a pile; whoever takes the last one wins. A state is (pile, taken so far)."""

    def moves(self, state):
        pile, _ = state
        return [n for n in (1, 2, 3) if n <= pile]

    def play(self, state, move):
        pile, taken = state
        return pile - move, taken + move

    def terminal_value(self, state):
        pile, _ = state
        # The side to move faces an empty pile: the opponent took the last one.
        return -1 if pile == 0 else None

    def static_value(self, state):
        pile, _ = state
        return 1 if pile % 4 else -1  # the known theory, so ordering has something to work with

    def key(self, state):
        return state[0]  # what was taken so far does not change the value


NIM = Nim()


@pytest.mark.parametrize("pile", range(1, 14))
def test_every_variant_agrees_with_plain_minimax(pile):
    state = (pile, 0)
    expected = minimax(NIM, state)
    assert expected == (1 if pile % 4 else -1)
    assert alphabeta(NIM, state) == expected
    assert alphabeta(NIM, state, ordered=True) == expected
    assert alphabeta(NIM, state, ordered=True, table={}) == expected
    assert Solver(NIM).value(state) == expected


def test_pruning_visits_fewer_nodes_and_each_idea_helps():
    state = (14, 0)
    counts = {}
    for name, options in {
        "minimax": None,
        "alpha-beta": {},
        "ordered": {"ordered": True},
        "table": {"ordered": True, "table": {}},
    }.items():
        counter = Counter()
        if options is None:
            minimax(NIM, state, counter)
        else:
            alphabeta(NIM, state, counter=counter, **options)
        counts[name] = counter.nodes
    assert counts["minimax"] > counts["alpha-beta"] > counts["ordered"] > counts["table"]


def test_best_move_leaves_a_multiple_of_four():
    for pile in (5, 6, 7, 9, 10, 11):
        move, value = best_move(NIM, (pile, 0), ordered=True, table={})
        assert value == 1
        assert (pile - move) % 4 == 0
        assert best_move(NIM, (pile, 0), prune=False) == (move, 1)


def test_visited_paths_record_what_alpha_beta_looked_at():
    visited, counter = set(), Counter()
    alphabeta(NIM, (9, 0), visited=visited, counter=counter)
    assert () in visited
    assert (1,) in visited  # the first move is always searched
    assert all(sum(path) <= 9 for path in visited)
    assert len(visited) == counter.nodes  # one path per node: nothing counted twice
    assert counter.nodes < minimax_nodes((9, 0))


def minimax_nodes(state):
    counter = Counter()
    minimax(NIM, state, counter)
    return counter.nodes


def test_children_best_first_puts_the_winning_move_first():
    ordered = children(NIM, (6, 0), ordered=True)
    assert ordered[0][0] == 2  # leaves 4
    assert {m for m, _ in ordered} == {1, 2, 3}
    assert lookahead_scores(NIM, (6, 0)) == {1: -1, 2: 1, 3: -1}


def test_solver_move_values_and_best_moves():
    solver = Solver(NIM)
    assert solver.move_values((6, 0)) == {1: -1, 2: 1, 3: -1}
    assert solver.best_moves((6, 0)) == [2]
    assert solver.best_moves((5, 0)) == [1]


def test_bounds_narrow_as_searches_report():
    b = Bounds()
    assert not b.is_exact()
    assert b.narrowed(3, 5, 9) == Bounds(upper=3)  # failed low: at most 3
    assert b.narrowed(9, 0, 5) == Bounds(lower=9)  # failed high: at least 9
    assert b.narrowed(4, 0, 5) == Bounds(4, 4)
    assert Bounds(4, 4).is_exact()


# --- the table's contract, the bounds, and the node counts the stats and tree pages show ------------


def test_a_stored_bound_that_settles_the_window_is_returned_without_searching():
    state = (9, 0)  # a win for the mover (value 1), but the table's word is taken as it stands
    for bounds, alpha, beta, expected in [
        (Bounds(lower=3), 0, 3, 3),  # at least 3, at the window's top: fails high at once
        (Bounds(upper=0), 0, 3, 0),  # at most 0, at the window's bottom: fails low at once
        (Bounds(2, 2), -5, 5, 2),  # exact
    ]:
        counter = Counter()
        table = {NIM.key(state): bounds}
        assert alphabeta(NIM, state, alpha, beta, table=table, counter=counter) == expected
        assert counter.nodes == 1, bounds


@pytest.mark.parametrize("board", ["X........", "X...O....", "XO..X....", "XO.OX...."])
def test_the_table_is_keyed_on_each_positions_symmetry_class_and_keeps_the_value(board):
    pos = parse(board)
    table = {}
    value = alphabeta(GAME, pos, table=table)
    assert value == minimax(GAME, pos)
    assert table[GAME.key(pos)] == Bounds(value, value)  # searched with the full window: exact
    assert len(table) > 1
    assert all(key == GAME.key(parse(key)) for key in table)  # every key a canonical board


def test_bounds_at_the_edge_of_the_window_are_bounds_not_values():
    assert Bounds().narrowed(5, 5, 9) == Bounds(upper=5)  # equal to alpha: failed low
    assert Bounds().narrowed(5, 0, 5) == Bounds(lower=5)  # equal to beta: failed high
    assert Bounds(upper=8).narrowed(6, 0, 5) == Bounds(6, 8)  # a known upper bound is kept
    assert Bounds(lower=-8).narrowed(-6, -5, 0) == Bounds(-8, -6)


def test_children_come_in_the_games_order_unless_ordering_is_asked_for():
    assert [m for m, _ in children(NIM, (6, 0))] == [1, 2, 3]
    assert children(NIM, (6, 0), ordered=True)[0][0] == 2


def searched_by_hand(state, ordered: bool, table: dict | None) -> int:
    """The nodes best_move should count: the root, and each child's search with the window it is given."""
    nodes, alpha = 1, -INF
    for _, child in children(NIM, state, ordered=ordered):
        counter = Counter()
        alpha = max(alpha, -alphabeta(NIM, child, -INF, -alpha, ordered=ordered, table=table, counter=counter))
        nodes += counter.nodes
    return nodes


@pytest.mark.parametrize("pile", [9, 14])
def test_best_moves_node_count_is_the_root_and_what_each_childs_search_visited(pile):
    # The stats page shows these counts, so they must be the searches' own, not approximately them.
    state = (pile, 0)
    counter = Counter()
    assert best_move(NIM, state, prune=False, counter=counter) == (pile % 4, 1)
    assert counter.nodes == minimax_nodes(state)
    counts = {}
    for ordered, table in [(False, None), (True, None), (True, {})]:
        counter = Counter()
        options = {"ordered": True} if ordered else {}
        if table is not None:
            options["table"] = {}
        assert best_move(NIM, state, counter=counter, **options) == (pile % 4, 1)
        assert counter.nodes == searched_by_hand(state, ordered, table)
        counts[ordered, table is not None] = counter.nodes
    # Pruning is the default, ordering is not, and each of them and the table saves nodes here.
    assert minimax_nodes(state) > counts[False, False] > counts[True, False] > counts[True, True]


def test_of_equal_moves_best_move_keeps_the_first():
    assert best_move(NIM, (4, 0)) == (1, -1)  # every move loses
    assert best_move(NIM, (4, 0), prune=False) == (1, -1)


def test_a_counter_given_to_several_searches_adds_their_nodes_up():
    once = Counter()
    best_move(NIM, (9, 0), counter=once)
    twice = Counter()
    best_move(NIM, (9, 0), counter=twice)
    best_move(NIM, (9, 0), counter=twice)
    assert twice.nodes == 2 * once.nodes > 2


def test_a_move_that_reaches_the_top_of_the_window_ends_the_search_of_its_siblings():
    # From 5, taking 1 leaves 4 and wins: 1, the top of the window (-1, 1), so nothing can do better
    # and taking 2 or 3 is never looked at.
    visited = set()
    assert alphabeta(NIM, (5, 0), -1, 1, visited=visited) == 1
    assert {path[0] for path in visited if path} == {1}


# --- the solver's tie-break: the expected score against an opponent who moves at random -----------


def test_of_two_best_moves_the_solver_keeps_the_one_a_random_opponent_may_lose_after():
    # . . X
    # X . .
    # O X O   O to move: only 1 and 4 hold the draw (anywhere else X takes 4 or 1 with two threats).
    # At 4 O threatens 0, and a random X fails to block it, and loses, two times in three: 2/3.
    # At 1 O is two stones short of every line still open to it, with one move left: every game
    # ends drawn when X fills the board, an expected 0.
    assert Solver(GAME).best_moves(parse("..XX..OXO")) == [4]


def test_in_a_lost_game_the_solver_blocks_one_threat_so_a_random_opponent_may_miss_the_other():
    # . . .
    # X O X
    # O X O   X to move is lost: O threatens both 0 and 2. Blocking either leaves a random O one
    # chance in two of missing the other (it takes 1), and X then draws by filling the board: an
    # expected -1/2, against a certain loss at 1.
    assert Solver(GAME).best_moves(parse("...XOXOXO")) == [0, 2]


def test_a_draw_the_random_opponent_makes_by_filling_the_board_counts_as_a_draw():
    # O . X
    # . O .
    # X . X   O to move is lost: X threatens 5 and 7, and the board is symmetric about 0-4-8.
    # At 5 (or 7) O threatens 3 (or 1): a random X wins at 7, loses at 1, and blocks at 3, after which
    # O blocks at 7 and X fills the board for a draw: an expected (-1 + 1 + 0) / 3 = 0.
    # At 1 (or 3) O threatens 7 (or 5), a cell X wins at anyway: X wins twice in three, and loses
    # at 3 once: -1/3. Were the draw scored as a loss, all four moves would score -1/3.
    assert Solver(GAME).best_moves(parse("O.X.O.X.X")) == [5, 7]
