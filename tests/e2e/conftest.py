"""Browser tests: Debian's Chromium, driven by Playwright, against the app on a loopback port."""

import threading
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect
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
# A big board's search takes up to 0.8 s of CPU; on a busy two-core machine its wall time stretches several
# times over. Speed is measured by the benchmarks, not here, so waits allow for that.
expect.set_options(timeout=15_000)

SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    # If Chromium is missing or cannot start, launching fails and so does every browser test.
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


def serve(app):
    """Serve ``app`` on a free loopback port until the generator is closed; yields its address."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join()
    server.server_close()


@pytest.fixture(scope="session")
def live_server():
    """The app served on a free loopback port for the whole session."""
    yield from serve(create_app({"TESTING": True, "SECRET_KEY": "e2e", "RANDOM_SEED": 2026}))


SLOW_SECONDS = 0.3


@pytest.fixture(scope="session")
def slow_server():
    """The app behind a slow network: every POST is answered 300 ms late."""
    app = create_app({"TESTING": True, "SECRET_KEY": "e2e-slow", "RANDOM_SEED": 2026})
    wsgi = app.wsgi_app

    def late(environ, start_response):
        if environ["REQUEST_METHOD"] == "POST":
            time.sleep(SLOW_SECONDS)
        return wsgi(environ, start_response)

    app.wsgi_app = late
    yield from serve(app)


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


AXE = Path(__file__).resolve().parent / "vendor" / "axe-core-4.14.1.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


@pytest.fixture(scope="session")
def audit_browser(browser):
    """Contexts for axe: its script is injected inline, which the pages' own policy rightly forbids.
    Nothing moves in them, so that no colour is read halfway through a transition."""

    def open_page(width: int, height: int = 800, has_touch: bool = False):
        context = browser.new_context(
            viewport={"width": width, "height": height}, reduced_motion="reduce", bypass_csp=True, has_touch=has_touch
        )
        return context, context.new_page()

    return open_page


def axe_violations(page, tags=AXE_TAGS, rules=None, essential_targets=None) -> list[str]:
    """What axe-core finds on the page as it is now: for ``tags``, or only ``rules`` if given.

    ``essential_targets`` is a selector whose targets are exempt from the 24 px target size alone: WCAG 2.2's
    2.5.8 excepts targets whose presentation is essential, as a 15×15 board's squares are on a 320 px screen
    (the issue asks for about 20 px there). Every other rule still runs on them, and the target size on
    everything else.
    """
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=AXE)
    only = {"type": "rule", "values": rules} if rules else {"type": "tag", "values": tags}
    return page.evaluate(
        """([only, essential]) => {
          const report = r => r.violations.map(v => v.id + ': ' + v.help + ' at '
            + v.nodes.map(n => n.target.join(' ') + ' (' + (n.failureSummary || '').replace(/\\s+/g, ' ') + ')')
            .join('; '));
          const options = {runOnly: only, resultTypes: ['violations']};
          if (!essential) return axe.run(document, options).then(report);
          const sizing = {runOnly: {type: 'rule', values: ['target-size']}, resultTypes: ['violations']};
          return axe.run(document, {...options, rules: {'target-size': {enabled: false}}}).then(report)
            .then(found => axe.run({exclude: [[essential]]}, sizing).then(r => found.concat(report(r))));
        }""",
        [only, essential_targets],
    )


@pytest.fixture
def axe():
    """Check a page with axe-core in light and in dark; ``where`` names the state in the failure message.

    Every rule runs in light; only the colours change in dark, so dark runs the contrast rule alone.
    """

    def check(page, where: str, essential_targets: str | None = None) -> None:
        assert axe_violations(page, essential_targets=essential_targets) == [], f"{where}, light"
        page.emulate_media(color_scheme="dark")
        try:
            assert axe_violations(page, rules=["color-contrast"]) == [], f"{where}, dark"
        finally:
            page.emulate_media(color_scheme="light")

    return check
