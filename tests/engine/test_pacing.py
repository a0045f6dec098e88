"""The pace a search runs at: its clock, its pauses and its deadline, one per context."""

import contextvars

import pytest

from webapp.engine.levels import choose_move
from webapp.engine.pacing import ALONE, Pace, current, pacing, within


def test_outside_any_block_the_pace_is_the_process_cpu_clock_with_no_deadline():
    assert current() is ALONE
    assert ALONE.deadline is None
    ALONE.pause()  # does nothing, and needs nothing


def test_a_block_installs_its_pace_and_restores_the_one_before():
    outer, inner = Pace(deadline=10.0), Pace(deadline=1.0)
    with pacing(outer):
        with pacing(inner) as installed:
            assert installed is inner
            assert current() is inner
        assert current() is outer
    assert current() is ALONE


def test_the_pace_is_restored_when_the_block_raises():
    try:
        with pacing(Pace(deadline=1.0)):
            raise KeyError("search failed")
    except KeyError:
        pass
    assert current() is ALONE


def test_each_context_has_its_own_pace():
    # Requests run in their own contexts (threads, or greenlets under gevent): one's pace is not another's.
    seen = []
    with pacing(Pace(deadline=3.0)):
        contextvars.Context().run(lambda: seen.append(current()))
        assert current().deadline == 3.0
    assert seen == [ALONE]


def test_the_deadline_is_the_sooner_of_the_search_budget_and_the_pace():
    assert Pace(deadline=4.0).stop_by(1.0, 2.0) == 3.0
    assert Pace(deadline=4.0).stop_by(5.0, 2.0) == 4.0
    assert Pace(deadline=4.0).stop_by(None, 2.0) == 4.0
    assert Pace().stop_by(0.5, 2.0) == 2.5
    assert Pace().stop_by(None, 2.0) is None


class Refused(Exception):
    """What the test's pace raises where a search begins."""


def refuse() -> None:
    raise Refused


def sparse(n: int, stones: dict[int, str]) -> str:
    return "".join(stones.get(i, ".") for i in range(n * n))


# Positions no book or memory of the engine knows (no other test plays them), so that a move must search.
UNKNOWN = [
    sparse(4, {0: "X", 5: "O", 15: "X"}),
    sparse(5, {0: "X", 4: "O", 6: "X", 10: "O", 16: "X", 20: "O"}),
    sparse(7, {0: "X", 24: "O", 48: "X"}),
    sparse(15, {100: "X", 118: "O", 130: "X"}),
]


@pytest.mark.parametrize("board", UNKNOWN, ids=["4x4", "5x5", "7x7", "15x15"])
def test_every_search_begins_before_its_first_node_where_the_pace_may_refuse_it(board):
    pauses = []
    with pacing(Pace(pause=lambda: pauses.append(1), begin=refuse)), pytest.raises(Refused):
        choose_move(board, "minimax")
    assert pauses == []


def test_a_sooner_deadline_keeps_the_paces_beginning():
    with pacing(Pace(begin=refuse)), within(1.0) as sooner:
        assert sooner.begin is refuse
