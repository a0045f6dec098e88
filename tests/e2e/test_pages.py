"""The browser tests' own machinery: a page kept for the next test is put back as a new one would be."""

from browsing import put_back
from playwright.sync_api import expect


def test_a_kept_page_is_put_back_as_a_new_one_would_be(open_page, live_server):
    options = {"viewport": {"width": 400, "height": 600}, "color_scheme": "dark", "base_url": live_server}
    page = open_page(**options)
    attributes = set(vars(page))
    # Everything a test may leave behind: a game in the cookie, storage, a route, a permission, another page,
    # emulated colours and motion, and a note on the page object.
    page.goto("/")
    page.get_by_role("button", name="Row 2, column 2, empty").click()
    expect(page.locator("#board")).to_have_attribute("data-ply", "2")
    page.evaluate("() => { sessionStorage.setItem('left', 'behind'); localStorage.setItem('left', 'behind'); }")
    page.route("**/*", lambda route: route.abort())
    page.context.route("**/*", lambda route: route.abort())
    page.context.grant_permissions(["clipboard-read"])
    page.context.new_page()
    page.emulate_media(color_scheme="light", reduced_motion="reduce")
    page.expects_400 = True

    assert put_back(page, attributes, options)

    assert page.url == "about:blank"
    assert page.context.pages == [page]
    assert page.context.cookies() == []
    assert not hasattr(page, "expects_400")
    page.goto("/")  # no route left to abort it
    expect(page.locator("#board")).to_have_attribute("data-ply", "0")  # a new visitor's empty board
    assert page.evaluate("() => [sessionStorage.getItem('left'), localStorage.getItem('left')]") == [None, None]
    assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    assert page.evaluate("matchMedia('(prefers-reduced-motion: no-preference)').matches")
    state = page.evaluate("navigator.permissions.query({name: 'clipboard-read'}).then(p => p.state)")
    assert state == "prompt"
