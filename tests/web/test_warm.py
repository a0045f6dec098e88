import functools

import pytest

from webapp.engine import levels as solver
from webapp.learn import numbers as stats
from webapp.web import learn, warm


@pytest.fixture
def cold(monkeypatch):
    """Fresh caches for the numbers, the tournament and the solver's choices, as in a new process."""
    monkeypatch.setattr(stats, "numbers", functools.cache(stats.numbers.__wrapped__))
    monkeypatch.setattr(learn, "tournament_results", functools.cache(learn.tournament_results.__wrapped__))
    monkeypatch.setattr(solver, "_candidates", functools.cache(solver._candidates.__wrapped__))
    monkeypatch.setattr(
        warm, "COLD_COSTS", warm.COLD_COSTS | {"the numbers": stats.numbers, "the tournament": learn.tournament_results}
    )


def test_warming_up_pays_every_cold_cost_once(cold):
    assert stats.numbers.cache_info().currsize == 0
    took = warm.warm_up()
    assert set(took) == {"the solver", "the big boards' engine", "the numbers", "the tournament"}
    assert stats.numbers.cache_info().currsize == 1
    assert learn.tournament_results.cache_info().currsize == 1
    # Every unfinished position at every level: 4,520 positions, three levels.
    assert solver._candidates.cache_info().currsize == 4520 * 3
    again = warm.warm_up()
    assert again["the numbers"] < took["the numbers"]
    assert stats.numbers.cache_info().hits >= 1


def test_every_template_is_compiled_in_advance(app, cold):
    compiled = []
    app.jinja_env.cache.clear()
    took = warm.warm_up(app)
    assert "the templates" in took
    for name in app.jinja_env.list_templates():
        compiled.append(name)
        # A compiled template is in Jinja's cache, keyed by its loader and name.
        assert any(key[1] == name for key, _ in app.jinja_env.cache.items()), name
    assert "numbers.html" in compiled and "partials/numbers_figures.html" in compiled


def test_the_gunicorn_master_warms_up_before_it_forks():
    import runpy
    from pathlib import Path

    config = runpy.run_path(str(Path(__file__).resolve().parents[2] / "gunicorn.conf.py"))
    assert config["preload_app"] is True
    assert callable(config["when_ready"])
