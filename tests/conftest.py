import os
import secrets

import pytest
import tiers
from hypothesis import settings
from jinja2 import BytecodeCache
from servers import Gunicorn, server_environment

from webapp import create_app

# Few examples in `make test`, so that CI stays quick, fewer in `make check`; `make fuzz` runs the same properties
# with many more.
settings.register_profile("ci", max_examples=40, deadline=None)
settings.register_profile("check", max_examples=10, deadline=None)
settings.register_profile("fuzz", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_addoption(parser):
    parser.addoption(
        "--fast",
        action="store_true",
        help="the fast tier (`make check`): only the tests that need no server process and no browser (tests/tiers.py)",
    )


def pytest_configure(config):
    if config.getoption("fast"):
        tiers.watch_processes()


def pytest_ignore_collect(collection_path, config):
    # The browser tests' folder is not even collected in the fast tier: its conftest starts the browser's plugin.
    if config.getoption("fast") and any(collection_path.resolve() == folder for folder in tiers.SLOW_FOLDERS):
        return True
    return None


def pytest_collection_modifyitems(config, items):
    """Mark the tests that need a server or a browser `slow`; in the fast tier, leave them out."""
    slow = [item for item in items if tiers.is_slow(item)]
    for item in slow:
        item.add_marker(pytest.mark.slow)
    if config.getoption("fast") and slow:
        config.hook.pytest_deselected(items=slow)
        left_out = set(slow)
        items[:] = [item for item in items if item not in left_out]


@pytest.fixture(autouse=True)
def _no_process_outlives_a_fast_test(request):
    """In the fast tier, a test that leaves a process running (a server) fails: it belongs to the slow tier."""
    yield
    if request.config.getoption("fast") and (running := tiers.WATCH.still_running()):
        raise tiers.SlowTestInFastTier(f"{request.node.nodeid} left {running} running: mark it slow (tests/tiers.py)")


class CompiledTemplates(BytecodeCache):
    """Jinja's compiled templates, kept in memory for the whole test process.

    Each app has its own Jinja environment, so each test's fresh app parsed and compiled every template it drew
    again: about 50 ms of a test's first page, half of the web tests' CPU. The compiled code depends on nothing of
    the app (its globals and filters are looked up when a template runs), and Jinja checks each entry against
    the template's source, so an edited template is compiled afresh.
    """

    def __init__(self):
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket):
        if bucket.key in self.code:
            bucket.bytecode_from_string(self.code[bucket.key])

    def dump_bytecode(self, bucket):
        self.code[bucket.key] = bucket.bytecode_to_string()


COMPILED_TEMPLATES = CompiledTemplates()


@pytest.fixture
def app():
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "RANDOM_SEED": 7})
    app.jinja_env.bytecode_cache = COMPILED_TEMPLATES
    return app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def servers():
    """Two production servers, one worker each, sharing nothing but the SECRET_KEY."""
    env = server_environment(SECRET_KEY=secrets.token_hex(32), WEB_CONCURRENCY="1")
    started = []
    try:
        for _ in range(2):
            started.append(Gunicorn(env))
        for server in started:
            server.wait_until_healthy()
        yield started
    finally:
        for server in started:
            server.stop()


@pytest.fixture(scope="session")
def server(servers):
    return servers[0]


@pytest.fixture(scope="session")
def production():
    """One server exactly as the platform runs it: the Procfile with its default two workers."""
    started = Gunicorn(server_environment(SECRET_KEY=secrets.token_hex(32)))
    try:
        started.wait_until_healthy()
        yield started
    finally:
        started.stop()


@pytest.fixture(scope="session")
def redis_url():
    """A real redis-server for this test process's whole session (started on first use); its address."""
    import subprocess
    from pathlib import Path

    from redis_server import RedisServer

    subprocess.run([str(Path(__file__).resolve().parent.parent / "scripts" / "ensure-redis")], check=True)
    with RedisServer() as server:
        yield server.url


@pytest.fixture
def fresh_redis(redis_url):
    """The session's Redis, emptied for this test."""
    import redis

    redis.Redis.from_url(redis_url).flushall()
    return redis_url
