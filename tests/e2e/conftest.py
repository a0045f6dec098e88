"""Browser tests: Debian's Chromium, driven by Playwright, against the app on a loopback port."""

import os
import time
from pathlib import Path

import pytest
from browsing import put_back
from live import serve
from playwright.sync_api import Page, expect

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


FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.failed:
        item.stash[FAILED] = True  # so that open_page keeps none of the pages the test left
    return report


@pytest.fixture(scope="module")
def kept_pages(browser):
    """The pages a module's tests pass on to each other, one for each kind of context (see open_page)."""
    kept: dict[str, tuple[Page, set[str]]] = {}
    yield kept
    for page, _ in kept.values():
        page.context.close()


@pytest.fixture
def open_page(kept_pages, browser, request):
    """``open_page(**options)``: a page of a context made with ``options`` (Browser.new_context's, and
    ``init_script``, a script the context runs in every document), as a new one would be: on about:blank, no
    cookies, nothing stored, no routes, permissions or other pages, the context's own colour scheme and motion.

    A new context and its page cost Chromium a second of CPU, more than most tests' own work: a page is kept for
    the module's next test that asks for the same options, and put back as above after each test. Listeners a
    test adds stay, to no effect on the next one (they fill lists of a test that has ended). A test whose changes
    could not be put back (a clock installed, a script added to the page) or that needs a cold cache (what a
    page does while it loads) makes a context of its own instead. After a test that failed its pages are closed,
    so nothing of a failure carries over to the next test.
    """
    opened = []

    def open_(init_script: str | None = None, **options) -> Page:
        key = repr((init_script, sorted(options.items())))
        page, attributes = kept_pages.pop(key, (None, None))
        if page is None:
            context = browser.new_context(**options)
            if init_script:
                context.add_init_script(script=init_script)
            page = context.new_page()
            attributes = set(vars(page))
        opened.append((key, page, attributes, options))
        return page

    yield open_
    failed = request.node.stash.get(FAILED, False)
    for key, page, attributes, options in opened:
        if failed or key in kept_pages or not put_back(page, attributes, options):
            page.context.close()
        else:
            kept_pages[key] = (page, attributes)


@pytest.fixture
def page(open_page, browser_context_args):
    """pytest-playwright's page, but one kept from test to test (see open_page)."""
    return open_page(**browser_context_args)


@pytest.fixture
def console_errors(page):
    """Errors the page logs; each test that uses it must end with none."""
    errors = []

    def console(message):
        if message.type == "error":
            errors.append(message.text)

    def page_error(error):
        errors.append(str(error))

    page.on("console", console)
    page.on("pageerror", page_error)
    yield errors
    page.remove_listener("console", console)
    page.remove_listener("pageerror", page_error)
    assert errors == []


@pytest.fixture
def shoot():
    """Save a screenshot of a page to the ignored artifacts folder, to look at, when SCREENSHOTS=1 is set (as
    `make screenshots` does). They are for a person's eyes and no test reads them; taking them cost the browser
    tests about a sixth of their time, so `make test` leaves them out."""
    if os.environ.get("SCREENSHOTS") != "1":
        return lambda page, name: None
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def save(page, name: str) -> None:
        page.screenshot(path=SCREENSHOTS / f"{name}.png", full_page=True, animations="disabled")

    return save


AXE = Path(__file__).resolve().parent / "vendor" / "axe-core-4.14.1.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
# Rules axe keeps back as experimental, run here too: WCAG 2.5.3, a control's name holds the words it shows.
AXE_EXPERIMENTAL = {"label-content-name-mismatch": {"enabled": True}}


@pytest.fixture
def audit_page(open_page):
    """Pages for axe: its script is injected inline, which the pages' own policy rightly forbids.
    Nothing moves in them, so that no colour is read halfway through a transition."""

    def open_(width: int, height: int = 800, has_touch: bool = False) -> Page:
        return open_page(
            viewport={"width": width, "height": height}, reduced_motion="reduce", bypass_csp=True, has_touch=has_touch
        )

    return open_


def axe_violations(page, tags=AXE_TAGS, rules=None, essential_targets=None) -> list[str]:
    """What axe-core finds on the page as it is now: for ``tags``, or only ``rules`` if given.

    ``essential_targets`` is a selector whose targets are exempt from the 24 px target size alone: WCAG 2.2's
    2.5.8 excepts targets whose presentation is essential, as a 15×15 board's squares are on a 320 px screen
    (about 20 px there). Every other rule still runs on them, and the target size on
    everything else.
    """
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=AXE)
    only = {"type": "rule", "values": rules} if rules else {"type": "tag", "values": tags}
    return page.evaluate(
        """([only, essential, experimental]) => {
          const report = r => r.violations.map(v => v.id + ': ' + v.help + ' at '
            + v.nodes.map(n => n.target.join(' ') + ' (' + (n.failureSummary || '').replace(/\\s+/g, ' ') + ')')
            .join('; '));
          const options = {runOnly: only, resultTypes: ['violations'], rules: only.type === 'tag' ? experimental : {}};
          if (!essential) return axe.run(document, options).then(report);
          const sizing = {runOnly: {type: 'rule', values: ['target-size']}, resultTypes: ['violations']};
          return axe.run(document, {...options, rules: {...options.rules, 'target-size': {enabled: false}}})
            .then(report)
            .then(found => axe.run({exclude: [[essential]]}, sizing).then(r => found.concat(report(r))));
        }""",
        [only, essential_targets, AXE_EXPERIMENTAL],
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
