"""Hard's budget (webapp/engine/big/budget.py): what a move may spend, on the pace's clock."""

from webapp.engine import pacing
from webapp.engine.big.budget import DEFAULT_BUDGET


def test_the_hard_budget_reads_the_paces_clock():
    assert DEFAULT_BUDGET.clock is None  # the pace's clock: CPU time alone, the request's in a server
    assert pacing.current().clock.__name__ == "process_time"
