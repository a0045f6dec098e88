"""The search knows nothing of tic-tac-toe: it is checked here on a game it was not written for."""

import pytest

from webapp.engine.search import Bounds, Counter, Solver, alphabeta, best_move, children, lookahead_scores, minimax


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
