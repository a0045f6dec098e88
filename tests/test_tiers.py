"""The fast tier's guard (tests/tiers.py): slow tests are told apart, and one that slips in fails."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import tiers

TESTS = Path(__file__).resolve().parent


def item(path: Path, *fixtures: str, marked: bool = False) -> SimpleNamespace:
    """A stand-in for a collected test: its file, the fixtures it asks for, and whether it is marked slow."""
    return SimpleNamespace(
        path=path, fixturenames=list(fixtures), get_closest_marker=lambda name: object() if marked else None
    )


@pytest.mark.parametrize(
    "test",
    [
        item(TESTS / "e2e" / "test_play.py"),
        item(TESTS / "test_production.py"),
        item(TESTS / "test_attacks.py"),
        item(TESTS / "web" / "test_game.py", "client", "servers"),
        item(TESTS / "web" / "test_friend_store.py", "fresh_redis"),
        item(TESTS / "web" / "test_game.py", marked=True),
    ],
    ids=["browser folder", "production module", "attacks module", "server fixture", "redis fixture", "marked"],
)
def test_a_test_that_needs_a_server_or_a_browser_is_slow(test):
    assert tiers.is_slow(test)


def test_a_test_with_the_app_and_its_client_alone_is_fast():
    assert not tiers.is_slow(item(TESTS / "web" / "test_game.py", "app", "client", "tmp_path"))


@pytest.mark.parametrize(
    "command",
    [
        [sys.executable, "-m", "gunicorn", "webapp:create_app()"],
        ["/usr/bin/redis-server", "--port", "0"],
        ["/usr/bin/chromium", "--headless"],
        "haproxy -f scripts/haproxy.cfg",
    ],
)
def test_the_fast_tier_refuses_to_start_a_server_or_a_browser(command):
    with pytest.raises(tiers.SlowTestInFastTier):
        tiers.ProcessWatch().refuse_servers(command)


def test_a_process_left_running_when_its_test_ends_is_reported_and_one_that_ended_is_not():
    watch = tiers.ProcessWatch()
    watch.refuse_servers([sys.executable, "-c", "pass"])  # a short program is let through
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    lingering = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        ended.wait()
        watch.started += [ended, lingering]
        running = watch.still_running()
        assert len(running) == 1 and "time.sleep(60)" in running[0]
        assert watch.still_running() == []  # each check looks only at what started since the last
    finally:
        lingering.kill()
        lingering.wait()
