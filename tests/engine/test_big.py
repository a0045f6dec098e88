"""The big boards' levels (webapp/engine/big.py): what the Hard search's view remembers."""

from webapp.engine import big, pacing
from webapp.engine.budget import DEFAULT_BUDGET

# 7×7: X to move completes the top row at cell 4.
WIN_AT_4 = "X" * 4 + "." * 3 + "O" * 4 + "." * 38


def short_of_the_budget() -> pacing.Pace:
    """A pace that leaves a search a tenth of Hard's budget, as a tree's second level or a hint's move may."""
    return pacing.Pace(clock=lambda: 100.0, deadline=100.0 + DEFAULT_BUDGET.seconds / 10)


def test_a_search_cut_short_by_its_requests_deadline_is_never_the_one_the_game_plays_from():
    big._hard.cache_clear()
    with pacing.pacing(short_of_the_budget()):
        hurried = big.view(WIN_AT_4)
        assert big.view(WIN_AT_4) is hurried  # remembered for the next request as short of time
    whole = big.view(WIN_AT_4)
    assert whole is not hurried and whole.best == (4,)
    assert big._hard.cache_info().misses == 2 and big._hard.cache_info().hits == 1


def test_a_search_with_its_whole_budget_is_remembered_for_the_game():
    big._hard.cache_clear()
    with pacing.pacing(pacing.Pace(clock=lambda: 0.0, deadline=DEFAULT_BUDGET.seconds + 0.05)):
        first = big.view(WIN_AT_4)
    assert big.view(WIN_AT_4) is first
