"""Hard's budget (webapp/engine/big/budget.py): what a move may spend, on the pace's clock, and the meter that counts
it: nodes against the move's limit and one search's share, the clock read every ``CHECK`` nodes."""

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from webapp.engine import pacing
from webapp.engine.big import parameters
from webapp.engine.big.budget import DEFAULT_BUDGET, Budget, Exhausted, Meter, OutOfBudget

CHECK = Meter.CHECK


class Clock:
    """A clock for tests that says how often it was read: it reads ``now``, which the test moves on."""

    def __init__(self, now: float = 0.0):
        self.now, self.readings = now, 0

    def __call__(self) -> float:
        self.readings += 1
        return self.now


def ticks_until_stopped(meter: Meter, most: int = 10 * CHECK) -> tuple[int, type[Exception] | None]:
    """How many ticks the meter took before one raised (that one included), and what it raised."""
    for count in range(1, most + 1):
        try:
            meter.tick()
        except (OutOfBudget, Exhausted) as stop:
            return count, type(stop)
    return most, None


def test_the_hard_budget_reads_the_paces_clock():
    assert DEFAULT_BUDGET.clock is None  # the pace's clock: CPU time alone, the request's in a server
    assert pacing.current().clock.__name__ == "process_time"


def test_the_hard_budget_is_the_one_parameters_py_gives():
    assert (DEFAULT_BUDGET.seconds, DEFAULT_BUDGET.nodes, DEFAULT_BUDGET.first_nodes) == (
        parameters.SECONDS,
        None,
        parameters.FIRST_NODES,
    )
    assert (DEFAULT_BUDGET.opening_stones, DEFAULT_BUDGET.opening_nodes) == (
        parameters.OPENING_STONES,
        parameters.OPENING_NODES,
    )
    assert (DEFAULT_BUDGET.early_stones, DEFAULT_BUDGET.early_nodes) == (
        parameters.EARLY_STONES,
        parameters.EARLY_NODES,
    )
    assert (DEFAULT_BUDGET.depth, DEFAULT_BUDGET.start_fraction) == (parameters.MAX_DEPTH, parameters.START_FRACTION)


@pytest.mark.parametrize(
    ("nodes", "first_nodes", "expected"),
    [(None, 24_000, 24_000), (1_000, 24_000, 1_000), (50_000, 24_000, 24_000)],
)
def test_the_first_players_move_stops_at_the_fewer_of_its_own_nodes_and_the_budgets(nodes, first_nodes, expected):
    budget = Budget(
        seconds=0.75,
        nodes=nodes,
        start_fraction=0.12,
        opening_stones=12,
        opening_nodes=6_000,
        first_nodes=first_nodes,
        early_stones=6,
        early_nodes=4_000,
    )
    x = budget.for_mover("X")
    # Iterations start until the nodes run out, in the opening as past it; the rest of the budget is the move's.
    assert (x.nodes, x.start_fraction, x.opening_stones, x.first_nodes) == (expected, 1.0, 0, None)
    assert x == dataclasses.replace(budget, nodes=expected, start_fraction=1.0, opening_stones=0, first_nodes=None)


@pytest.mark.parametrize(("mover", "first_nodes"), [("O", 24_000), ("X", None)])
def test_the_second_player_and_a_budget_without_first_nodes_are_left_as_they_are(mover, first_nodes):
    budget = Budget(seconds=0.75, opening_stones=12, first_nodes=first_nodes)
    assert budget.for_mover(mover) is budget


@given(st.integers(0, 3 * CHECK))
def test_a_meter_of_n_nodes_stops_at_the_first_node_over_them(nodes):
    meter = Meter(nodes=nodes, clock=Clock())
    assert meter.spent() == (nodes == 0)
    assert ticks_until_stopped(meter) == (nodes + 1, OutOfBudget)
    assert meter.spent() and not meter.timed_out


def test_a_meter_counts_its_nodes_and_is_spent_when_they_reach_its_limit():
    meter = Meter(nodes=3, clock=Clock())
    assert (meter.nodes, meter.limit, meter.spent()) == (0, 3, False)
    for _ in range(2):
        meter.tick()
    assert (meter.nodes, meter.spent()) == (2, False)
    meter.tick()
    assert (meter.nodes, meter.spent()) == (3, True)


def test_a_meter_without_limits_reads_the_clock_every_check_nodes_and_never_stops():
    clock = Clock()
    meter = Meter(clock=clock)
    assert meter.limit == float("inf") and meter.deadline is None and clock.readings == 1  # the start
    for _ in range(CHECK - 1):
        meter.tick()
    assert clock.readings == 1
    meter.tick()
    assert clock.readings == 2
    for _ in range(CHECK):
        meter.tick()
    assert clock.readings == 3 and meter.nodes == 2 * CHECK and not meter.spent()
    assert ticks_until_stopped(meter) == (10 * CHECK, None)


@pytest.mark.parametrize(("late", "stopped"), [(0.5, False), (1.0, False), (1.25, True)])
def test_the_clock_stops_the_move_only_past_its_seconds_and_the_time_then_stays_spent(late, stopped):
    clock = Clock(now=10.0)
    meter = Meter(nodes=100 * CHECK, seconds=1.0, clock=clock)
    assert meter.start == 10.0 and meter.deadline == 11.0
    clock.now = 10.0 + late
    assert meter.elapsed() == late
    if stopped:
        assert ticks_until_stopped(meter) == (CHECK, OutOfBudget)  # at the first reading
        assert meter.timed_out and meter.spent()
        clock.now = 10.0  # a clock that went back does not make the time unspent
        assert meter.spent()
    else:
        assert ticks_until_stopped(meter, 3 * CHECK) == (3 * CHECK, None)
        assert not meter.timed_out and not meter.spent()


def test_a_search_may_visit_its_share_of_nodes_and_the_move_goes_on_after_it():
    meter = Meter(nodes=1_000, clock=Clock())
    for _ in range(10):
        meter.tick()
    with pytest.raises(Exhausted), meter.share(nodes=20):
        for _ in range(20):
            meter.tick()
        assert meter.nodes == 30
        meter.tick()
    # Its share over, the move's own limit holds again, the nodes of the share counted in it.
    assert meter.cap == float("inf") and meter.until is None
    assert ticks_until_stopped(meter) == (1_000 - 31 + 1, OutOfBudget)


@pytest.mark.parametrize("extra", [1, 10, CHECK - 1])
def test_a_share_or_a_limit_that_runs_past_a_reading_of_the_clock_still_ends_at_its_count(extra):
    clock = Clock()
    meter = Meter(nodes=CHECK + extra, clock=clock)
    assert ticks_until_stopped(meter) == (CHECK + extra + 1, OutOfBudget) and clock.readings == 2
    meter = Meter(clock=clock)
    with meter.share(nodes=CHECK + extra):
        assert ticks_until_stopped(meter) == (CHECK + extra + 1, Exhausted)
    saved = meter.begin(CHECK + extra)
    assert ticks_until_stopped(meter) == (CHECK + extra + 1, Exhausted)
    meter.end(saved)


def test_a_share_within_a_share_ends_at_the_sooner_of_the_two_and_puts_the_outer_back():
    clock = Clock(now=0.0)
    meter = Meter(clock=clock)
    with meter.share(nodes=50, until=8.0):
        with meter.share(nodes=100, until=9.0):
            assert (meter.cap, meter.until) == (50, 8.0)
        with meter.share(nodes=10, until=5.0):
            assert (meter.cap, meter.until) == (10, 5.0)
        with meter.share():
            assert (meter.cap, meter.until) == (50, 8.0)
        assert (meter.cap, meter.until) == (50, 8.0)
        assert ticks_until_stopped(meter) == (51, Exhausted)
    assert (meter.cap, meter.until) == (float("inf"), None)


@pytest.mark.parametrize(("now", "stopped"), [(4.0, False), (5.0, False), (5.5, True)])
def test_a_share_of_time_stops_a_search_at_the_first_reading_past_it(now, stopped):
    clock = Clock(now=0.0)
    meter = Meter(nodes=100 * CHECK, seconds=10.0, clock=clock)
    with meter.share(until=5.0):
        clock.now = now
        assert ticks_until_stopped(meter, 2 * CHECK) == ((CHECK, Exhausted) if stopped else (2 * CHECK, None))
    assert not meter.timed_out and not meter.spent()  # the move's own time is not up


def test_a_share_begun_and_ended_by_hand_is_a_share_too():
    meter = Meter(nodes=1_000, clock=Clock())
    meter.tick()
    saved = meter.begin(5)
    assert meter.cap == 6 and saved == (float("inf"), None)
    inner = meter.begin(100)
    assert meter.cap == 6 and inner == (6, None)  # a wider share within keeps the narrower
    meter.end(inner)
    assert ticks_until_stopped(meter) == (6, Exhausted)
    meter.end(saved)
    assert (meter.cap, meter.until) == (float("inf"), None)
    assert ticks_until_stopped(meter) == (1_000 - 7 + 1, OutOfBudget)


@pytest.mark.parametrize("nodes", [5, CHECK - 1, CHECK, 2 * CHECK])
def test_a_share_begun_by_hand_ends_at_its_count_and_the_clock_is_still_read_on_time(nodes):
    clock = Clock()
    meter = Meter(clock=clock)
    saved = meter.begin(nodes)
    assert ticks_until_stopped(meter) == (nodes + 1, Exhausted)
    assert clock.readings == 1 + nodes // CHECK  # the start, then every CHECK nodes
    meter.end(saved)
    before = clock.readings
    for _ in range(CHECK):
        meter.tick()
    assert clock.readings == before + 1


def test_the_move_limit_comes_before_a_share_that_reaches_past_it():
    meter = Meter(nodes=10, clock=Clock())
    with meter.share(nodes=50):
        assert ticks_until_stopped(meter) == (11, OutOfBudget)
    with meter.share(nodes=0):  # a share spent already: the move's limit, passed too, is what stops it
        assert ticks_until_stopped(meter) == (1, OutOfBudget)


@pytest.mark.parametrize(
    ("elapsed", "fraction", "seconds", "past"),
    [(0.5, 0.5, 1.0, False), (0.6, 0.5, 1.0, True), (0.6, 0.5, 2.0, False), (100.0, 0.5, None, False)],
)
def test_past_a_fraction_means_more_of_the_seconds_than_it_gone_since_the_start(elapsed, fraction, seconds, past):
    clock = Clock(now=3.0)
    meter = Meter(clock=clock)
    clock.now = 3.0 + elapsed
    assert meter.past(fraction, seconds) is past


def test_without_a_clock_of_its_own_the_meter_keeps_to_the_paces_clock_deadline_and_pauses():
    clock, paused, begun = Clock(now=100.0), [], []
    pace = pacing.Pace(
        clock=clock, pause=lambda: paused.append(clock.now), deadline=102.0, begin=lambda: begun.append(clock.readings)
    )
    with pacing.pacing(pace):
        meter = Meter(seconds=5.0)
    assert begun == [0] and meter.start == 100.0 and meter.deadline == 102.0  # the pace's deadline, the sooner
    for _ in range(2 * CHECK):
        meter.tick()
    assert paused == [100.0, 100.0]  # one pause at each reading of the clock
    clock.now = 102.5
    assert ticks_until_stopped(meter) == (CHECK, OutOfBudget) and meter.timed_out
    assert paused == [100.0, 100.0]


def test_under_a_pace_the_moves_own_seconds_end_it_when_they_come_first():
    with pacing.pacing(pacing.Pace(clock=Clock(now=100.0), deadline=102.0)):
        assert Meter(seconds=1.0).deadline == 101.0 and Meter().deadline == 102.0


def test_a_meter_with_a_clock_of_its_own_never_calls_the_paces_pause():
    paused = []
    with pacing.pacing(pacing.Pace(pause=lambda: paused.append(1))):
        meter = Meter(seconds=5.0, clock=Clock())
        for _ in range(2 * CHECK):
            meter.tick()
    assert paused == [] and meter.deadline == 5.0


def test_a_pace_that_refuses_the_search_refuses_it_before_the_first_node():
    def refuse() -> None:
        raise OutOfBudget

    with pacing.pacing(pacing.Pace(begin=refuse)), pytest.raises(OutOfBudget):
        Meter()
