"""Browser tests: Debian's Chromium, driven by Playwright, against the app on a loopback port."""

import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from webapp import create_app

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    # If Chromium is missing or cannot start, launching fails and so does every browser test.
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def live_server():
    """The app served on a free loopback port for the whole session."""
    app = create_app({"TESTING": True, "SECRET_KEY": "e2e", "RANDOM_SEED": 2026})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join()
    server.server_close()


@pytest.fixture(scope="session")
def base_url(live_server):
    # Ours instead of the pytest-base-url plugin's, so that page.goto("/") reaches the live server.
    return live_server


@pytest.fixture
def console_errors(page):
    """Errors the page logs; each test that uses it must end with none."""
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield errors
    assert errors == []


@pytest.fixture
def shoot():
    """Save a screenshot of a page to the ignored artifacts folder, to look at."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def save(page, name: str) -> None:
        page.screenshot(path=SCREENSHOTS / f"{name}.png", full_page=True, animations="disabled")

    return save
