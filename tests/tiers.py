"""The two tiers of the suite: `make check` runs the fast one (no server process, no browser), `make test` both.

A test is slow when it lives in tests/e2e/ or in one of SLOW_MODULES, when it asks for one of SERVER_FIXTURES, or
when it carries the `slow` marker itself. In the fast tier (pytest --fast) the slow tests are deselected, and
every process a test starts is watched: a server or a browser (SERVER_PROGRAMS) is refused outright, and any other
process still running when its test ends fails that test, so that a slow test cannot pass unnoticed as a fast one.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
SLOW_FOLDERS = (TESTS / "e2e",)
# Each starts the production server (gunicorn), HAProxy, Redis or a fresh virtual environment for its tests.
SLOW_MODULES = {
    TESTS / name
    for name in (
        "test_production.py",
        "test_scale_out.py",
        "test_friend_scale_out.py",
        "test_friend_integrity.py",
        "test_friend_streams.py",
        "test_deploy.py",
        "test_attacks.py",
    )
}
# The conftest fixtures that start a server process or a browser.
SERVER_FIXTURES = {
    "servers",
    "server",
    "production",
    "redis_url",
    "fresh_redis",
    "live_server",
    "slow_server",
    "browser",
    "page",
    "open_page",
    "audit_page",
    "pooled",  # a search pool's processes (tests/serving/test_searches.py), kept for the module
}
# Programs that are servers or browsers, refused in the fast tier as soon as a test starts one.
SERVER_PROGRAMS = ("gunicorn", "redis-server", "haproxy", "chromium", "chrome", "playwright", "node", "wrk")


def is_slow(item: pytest.Item) -> bool:
    """Whether ``item`` needs a server process or a browser."""
    path = Path(str(item.path)).resolve()
    return (
        item.get_closest_marker("slow") is not None
        or path in SLOW_MODULES
        or any(folder in path.parents for folder in SLOW_FOLDERS)
        or bool(SERVER_FIXTURES & set(getattr(item, "fixturenames", ())))
    )


def program_of(command: object) -> str:
    """The words of a command as Popen was given it, to look for a server's name in."""
    if isinstance(command, str | bytes | Path):
        return str(command)
    return " ".join(str(word) for word in command)  # type: ignore[attr-defined]  # Popen takes any sequence


class ProcessWatch:
    """The processes started since the last check, and a refusal of servers and browsers."""

    def __init__(self) -> None:
        self.started: list[subprocess.Popen] = []

    def refuse_servers(self, command: object) -> None:
        words = program_of(command)
        named = [name for name in SERVER_PROGRAMS if name in Path(words.split()[0]).name or f"-m {name}" in words]
        if named:
            raise SlowTestInFastTier(f"the fast tier starts no server or browser: {words[:200]}")

    def still_running(self) -> list[str]:
        """The commands of the processes started since the last call that are still running; forgets the rest."""
        running = [process for process in self.started if process.poll() is None]
        self.started = []
        return [program_of(process.args)[:200] for process in running]


class SlowTestInFastTier(AssertionError):
    """A test that needs a server process or a browser ran in the fast tier: mark it slow (tests/tiers.py)."""


WATCH = ProcessWatch()


class WatchedPopen(subprocess.Popen):
    """subprocess.Popen in the fast tier: servers and browsers refused, every other process remembered."""

    def __init__(self, args, *rest, **options) -> None:
        WATCH.refuse_servers(args)
        super().__init__(args, *rest, **options)
        WATCH.started.append(self)


def watch_processes() -> None:
    """From now on, in this process, every subprocess goes through WatchedPopen."""
    subprocess.Popen = WatchedPopen  # type: ignore[misc]  # asyncio and subprocess.run look the name up at each call
