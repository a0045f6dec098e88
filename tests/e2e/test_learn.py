"""The learning pages in Chromium: the game tree explorer, the numbers and the tournament."""

import re

import pytest
from playwright.sync_api import Page, expect


def replies_to(page: Page, label: str):
    return page.get_by_role("list", name=f"Replies to {label}").get_by_role("listitem")


def test_explore_the_tree_from_the_game_page(page: Page, live_server, console_errors, shoot):
    page.goto(live_server + "/")
    page.get_by_role("link", name="Explore this position in the game tree").click()
    expect(page.get_by_role("heading", name="Game tree", level=1)).to_be_visible()
    expect(page.get_by_role("heading", name="X to move")).to_be_visible()
    expect(page.get_by_role("link", name="Game tree")).to_have_attribute("aria-current", "page")
    moves = page.get_by_role("list", name="Moves from the position above")
    expect(moves.get_by_role("listitem")).to_have_count(9)
    expect(page.get_by_text("549,946")).to_be_visible()

    # Opening a move brings its replies in place: the page is never reloaded.
    page.evaluate("window.stillTheSamePage = true")
    page.get_by_role("link", name="Show replies to X in row 1, column 1").click()
    expect(replies_to(page, "X in row 1, column 1")).to_have_count(8)
    expect(page.get_by_role("link", name="Hide replies to X in row 1, column 1")).to_be_focused()
    assert page.evaluate("window.stillTheSamePage") is True
    expect(page).to_have_url(re.compile(r"/tree\?path=0&board=\.{9}$"))

    # The switch keeps the opened move, and greys out the replies alpha-beta never looked at.
    switch = page.get_by_role("button", name="Show what alpha-beta skips")
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    replies = replies_to(page, "X in row 1, column 1")
    expect(replies).to_have_count(8)
    expect(replies.filter(has_text="Skipped by alpha-beta")).to_have_count(7)
    expect(replies.filter(has_not_text="Skipped by alpha-beta")).to_contain_text("O centre")
    assert page.evaluate("window.stillTheSamePage") is True
    shoot(page, "tree-pruning")

    page.get_by_role("link", name="Hide replies to X in row 1, column 1").click()
    expect(page.get_by_role("list", name="Replies to X in row 1, column 1")).to_have_count(0)
    expect(page.get_by_role("link", name="Show replies to X in row 1, column 1")).to_be_focused()


def test_the_tree_opens_without_javascript(open_page, live_server):
    page = open_page(java_script_enabled=False)
    page.goto(live_server + "/tree?board=X...O....")  # X . . / . O . / . . .
    page.get_by_role("link", name="Show replies to X in row 3, column 3").click()
    expect(page).to_have_url(re.compile(r"path=8"))
    expect(replies_to(page, "X in row 3, column 3")).to_have_count(6)
    page.get_by_role("button", name="Show what alpha-beta skips").click()
    expect(page.get_by_role("button", name="Show what alpha-beta skips")).to_have_attribute("aria-pressed", "true")
    expect(replies_to(page, "X in row 3, column 3")).to_have_count(6)


def test_the_numbers_page_shows_the_table_and_the_chart(page: Page, live_server, console_errors, shoot):
    page.goto(live_server + "/numbers")
    # The first count takes seconds, fetched after the page is up.
    table = page.get_by_role("table", name="Games and positions of tic-tac-toe")
    expect(table).to_be_visible(timeout=20_000)
    expect(table.get_by_role("row", name="Different games")).to_contain_text("255,168")
    expect(table.get_by_role("row", name="up to symmetry")).to_contain_text("765")
    chart = page.get_by_role("img", name=re.compile(r"^Nodes visited"))
    expect(chart).to_have_accessible_name(re.compile(r"Plain minimax: 549,946; .*transposition table: 243$"))
    expect(chart.locator("rect")).to_have_count(4)
    searches = page.get_by_role("table", name="Nodes visited by each search to choose X’s first move", exact=True)
    expect(searches.get_by_role("row")).to_have_count(5)
    expect(searches.get_by_role("row", name="Alpha-beta with move ordering 2,080", exact=True)).to_be_visible()
    # What each search does is one click away.
    more = page.get_by_text("How this is counted")
    expect(page.get_by_text("tries the most promising moves first")).to_be_hidden()
    more.click()
    expect(page.get_by_text("tries the most promising moves first")).to_be_visible()
    expect(page.get_by_role("link", name="Numbers")).to_have_attribute("aria-current", "page")
    shoot(page, "numbers")


def test_the_tournament_page_shows_bars(page: Page, live_server, console_errors, shoot):
    page.goto(live_server + "/tournament")
    chart = page.get_by_role("img", name=re.compile(r"^Results of 100 games for each pairing"))
    expect(chart).to_be_visible()
    expect(chart.locator("rect")).not_to_have_count(0)
    standings = page.get_by_role("table", name=re.compile("Each level"))
    expect(standings.get_by_role("row", name=re.compile("^Impossible"))).to_have_text(
        re.compile(r"^Impossible\s*\d+\s*\d+\s*0$")
    )
    shoot(page, "tournament")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_tree_on_a_phone(open_page, live_server, scheme, shoot):
    page = open_page(viewport={"width": 375, "height": 812}, color_scheme=scheme, has_touch=True)
    page.goto(live_server + "/tree?board=X...O....&path=8&pruning=1")  # X . . / . O . / . . .
    expect(replies_to(page, "X in row 3, column 3")).to_have_count(6)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    shoot(page, f"tree-phone-{scheme}")


# Bigger boards near their end, so that the engine in use answers at once whatever it is.
NEAR_END_4 = "XOXOOXOX........"
GAME_7 = (
    "39.16.23.47.44.35.1.32.17.4.12.9.30.41.21.34.8.24.0.38.11.25.15.10.48.27.13.5.14.46.37.18.19.2.43.3.22.29.20.31.33"
)
BIG_PAGES = [
    f"/tree?board={NEAR_END_4}&path=8",
    f"/review?board=7x7&moves={GAME_7}.26",
    "/?board=15x15&moves=112.0.113&at=2",
    "/play-from?board=15x15&moves=112.0.113",
    "/numbers",
]


@pytest.mark.parametrize(
    "path",
    ["/", "/tree?board=X.O......", "/tree?path=0.4.8.2.6.3.5.1", "/numbers/figures", "/tournament", *BIG_PAGES],
)
def test_the_narrowest_phone_never_scrolls_sideways(open_page, live_server, path):
    page = open_page(viewport={"width": 320, "height": 640})
    page.goto(live_server + path)
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 320


@pytest.mark.parametrize("width", [320, 375, 1280])
def test_tree_rows_leave_no_card_alone_and_replies_open_below_their_row(open_page, live_server, width):
    page = open_page(viewport={"width": width, "height": 800})
    page.goto(live_server + "/tree?board=X...O....&path=8")  # 7 moves; the last one opened, with 6 replies
    top = page.get_by_role("list", name="Moves from the position above")
    cards = top.locator(":scope > li > .tree-card")
    expect(cards).to_have_count(7)
    rows: dict[int, list[dict]] = {}
    for found in cards.evaluate_all("cs => cs.map(c => c.getBoundingClientRect().toJSON())"):
        rows.setdefault(round(found["y"]), []).append(found)
    assert all(len(row) >= 2 for row in rows.values()), f"a card alone in a row at {width} px"
    opened = page.locator("#node-8 > .tree-card").bounding_box()
    row = rows[round(opened["y"])]
    replies = page.get_by_role("list", name="Replies to X in row 3, column 3").bounding_box()
    assert replies["y"] >= max(card["y"] + card["height"] for card in row), "the replies split the row"
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_the_4x4_tree_on_the_narrowest_phone(open_page, live_server, shoot):
    page = open_page(viewport={"width": 320, "height": 640})
    page.goto(f"{live_server}/tree?board={NEAR_END_4}")
    expect(page.get_by_role("heading", name="X to move")).to_be_visible()
    moves = page.get_by_role("list", name="Moves from the position above").get_by_role("listitem")
    expect(moves).to_have_count(8)
    page.get_by_role("link", name="Show replies to X in row 3, column 1").click()
    expect(replies_to(page, "X in row 3, column 1")).to_have_count(7)
    expect(page).to_have_url(re.compile(r"path=8"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    shoot(page, "tree-4x4-320")


def test_choosing_a_board_in_the_tree_explorer_gives_a_link_to_share(page: Page, live_server, console_errors):
    page.goto(f"{live_server}/tree?board={NEAR_END_4}")
    page.get_by_label("Board").select_option("3x3")
    page.get_by_role("button", name="Explore its empty board").click()
    expect(page).to_have_url(re.compile(r"/tree\?board=3x3$"))
    expect(page.get_by_role("list", name="Moves from the position above").get_by_role("listitem")).to_have_count(9)


def test_a_7x7_review_on_the_narrowest_phone(open_page, live_server, shoot):
    page = open_page(viewport={"width": 320, "height": 640})
    page.goto(f"{live_server}/review?board=7x7&moves={GAME_7}.26")
    expect(page.get_by_role("heading", name="Game review")).to_be_visible()
    # The loser's move that decided the game, once every move is graded, and a link to it.
    expect(page.locator(".review-summary")).to_have_text(re.compile(r"^X's move \d+, .+\. See move \d+$"))
    board = page.get_by_role("list", name=re.compile(r"^Board at move"))
    expect(board.get_by_role("listitem")).to_have_count(49)
    page.get_by_role("link", name="Start", exact=True).click()
    expect(page.locator("#review-status")).to_have_text(re.compile(r"^You are looking at the start of the game"))
    page.get_by_role("link", name=re.compile(r"^42\. O row 4, column 6, best$")).click()
    expect(page.locator("#review-status")).to_have_text(
        re.compile(r"^You are looking at move 42 of 42: O .* O wins\.$")
    )
    expect(page).to_have_url(re.compile(r"board=7x7.*at=42|at=42.*board=7x7"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    page.get_by_role("link", name="Back", exact=True).click()
    expect(page.locator("#review-status")).to_contain_text("move 41 of 42")
    shoot(page, "review-7x7-320")


@pytest.mark.parametrize("width", [320, 1280])
def test_the_7x7_tree_shows_unclear_values_and_the_search_accessibly(audit_page, live_server, axe, width, monkeypatch):
    """With the top level as it is on a board that is not solved: one value proved, the rest unclear, and the
    search's view under a node budget, so that its figures do not depend on the machine."""
    import webapp.learn.tree
    from webapp.engine import levels
    from webapp.engine.big import levels as big
    from webapp.engine.big.budget import Budget

    def analyze(board):
        proved = {5: ("draw", 30), 6: ("loss", 2)}
        return {c: proved.get(c, ("unclear", None)) for c, mark in enumerate(board) if mark == "."}

    budget = Budget(nodes=3000)
    monkeypatch.setattr(webapp.learn.tree, "analyze", analyze)
    monkeypatch.setattr(webapp.learn.tree, "search_view", lambda board: levels.search_view(board, budget))
    # O to move: O just above the centre, X in it and one square down to the right.
    board = "." * 17 + "O" + "." * 6 + "X" + "." * 7 + "X" + "." * 16
    root = big.view(board, budget)
    move = root.best[0]
    reply = big.view(board[:move] + "O" + board[move + 1 :], budget)
    page = audit_page(width)
    page.goto(f"{live_server}/tree?board={board}&path={move}")
    expect(page.get_by_text(re.compile(r"^7×7, five in a row: a draw with perfect play, proved by "))).to_be_visible()
    # How far the search looked, at the root and at the opened move; the replies' figures labelled as estimates.
    expect(page.get_by_text(re.compile(r"^Hard looked \d+ moves ahead"))).to_have_count(2)
    expect(page.get_by_text(f"Hard looked {root.depth} moves ahead").first).to_be_visible()
    replies = page.get_by_role("list", name=re.compile(r"^Replies to O in")).get_by_role("listitem")
    expect(replies).to_have_count(len({*reply.best, 5}))  # the ones the search prefers, and the proved draw
    if 6 not in reply.best:  # a proved loss is counted, not drawn as a card
        expect(page.get_by_text("The 1 other reply is proved to lose, so it is left out.")).to_be_visible()
    expect(replies.first).to_contain_text("Search’s estimate for X")
    expect(page.locator(".tree-preferred")).to_have_count(len(root.best) + len(reply.best))
    expect(page.locator(".tree-card.tone-unclear").first).to_contain_text("Unclear")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    axe(page, f"the 7×7 tree at {width} px")


# Where every text and bar of every chart on the page is, and whatever of it breaks the rules: a label outside its
# card or over another, a count away from its bar, an axis short of the longest bar, text under 12 px.
CHART_PROBLEMS = """() => {
  const problems = [];
  const box = e => e.getBoundingClientRect();
  const apart = (a, b) => a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
  for (const svg of document.querySelectorAll('svg.chart')) {
    const chart = box(svg), card = box(svg.closest('.panel'));
    if (chart.left < card.left || chart.right > card.right) problems.push('the chart leaves its card');
    const texts = [...svg.querySelectorAll('text')];
    for (const t of texts) {
      const b = box(t), name = t.textContent;
      const left = Math.max(chart.left, card.left), right = Math.min(chart.right, card.right);
      if (b.left < left - 0.5 || b.right > right + 0.5) problems.push(`"${name}" is cut`);
      const size = parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a;
      if (size < 12) problems.push(`"${name}" is ${size} px`);
    }
    texts.forEach((t, i) => texts.slice(i + 1).forEach(u => {
      if (!apart(box(t), box(u))) problems.push(`"${t.textContent}" overlaps "${u.textContent}"`);
    }));
    // Each count is drawn right after its bar: inside it, or past its end.
    for (const count of svg.querySelectorAll('text.chart-count')) {
      const bar = box(count.previousElementSibling), b = box(count);
      const inside = b.left >= bar.left && b.right <= bar.right + 0.5
        && b.top >= bar.top - 1 && b.bottom <= bar.bottom + 1;
      const past = b.left >= bar.right && !count.classList.contains('is-inside');
      if (!inside && !past) problems.push(`"${count.textContent}" is not on its bar`);
    }
    for (const name of svg.querySelectorAll('text.chart-name')) {
      const bar = svg.querySelector(`rect[y="${name.nextElementSibling.getAttribute('y')}"]`);
      if (box(name).bottom > box(bar).top) problems.push(`"${name.textContent}" runs into its bar`);
    }
    const grid = [...svg.querySelectorAll('line.chart-grid')].map(l => box(l).right);
    for (const bar of svg.querySelectorAll('rect.chart-bar'))
      if (grid.length && box(bar).right > Math.max(...grid) + 0.5) problems.push('a bar runs past the axis');
  }
  return problems;
}"""


def tables_too_wide(page: Page) -> list[str]:
    """The tables that would scroll in their box, or that reach past their card: none may, on any screen."""
    scrolling = page.locator(".table-scroll").evaluate_all(
        "regions => regions.filter(r => r.scrollWidth > r.clientWidth).map(r => r.getAttribute('aria-label'))"
    )
    outside = page.locator("table.figures").evaluate_all(
        "tables => tables.filter(t => t.getBoundingClientRect().right > t.closest('.panel').getBoundingClientRect()"
        ".right).map(t => t.getAttribute('aria-labelledby') || t.caption.textContent)"
    )
    return scrolling + outside


SCREENS = [
    pytest.param({"width": 320, "height": 640}, "light", id="320-light"),
    pytest.param({"width": 360, "height": 740}, "light", id="360-light"),
    pytest.param({"width": 360, "height": 740}, "dark", id="360-dark"),
    pytest.param({"width": 1280, "height": 800}, "light", id="1280-light"),
    pytest.param({"width": 1280, "height": 800}, "dark", id="1280-dark"),
]


@pytest.mark.parametrize(("viewport", "scheme"), SCREENS)
def test_the_charts_fit_the_screen_with_every_label_readable(open_page, live_server, viewport, scheme, shoot):
    phone = viewport["width"] < 400
    page = open_page(viewport=viewport, color_scheme=scheme, has_touch=phone, is_mobile=phone)
    page.goto(live_server + "/numbers")
    chart = page.get_by_role("img", name=re.compile(r"^Nodes visited"))
    # Every bar keeps its count, and the axis reaches past the largest, minimax's 549,946.
    for count in ("549,946", "20,866", "2,080", "243"):
        expect(chart.get_by_text(count, exact=True)).to_be_visible()
    expect(chart.locator("text.chart-tick").last).to_have_text("1M")
    assert page.evaluate(CHART_PROBLEMS) == []
    assert tables_too_wide(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    shoot(page, f"numbers-{viewport['width']}-{scheme}")

    page.goto(live_server + "/tournament")
    chart = page.get_by_role("img", name=re.compile(r"^Results of 100 games"))
    expect(chart.locator("text.chart-name")).to_have_count(9)
    expect(chart.locator("text.chart-name").first).to_have_text("Easy vs Easy")
    assert page.evaluate(CHART_PROBLEMS) == []
    assert tables_too_wide(page) == []  # the bigger boards' results too: four columns, under 320 px
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    shoot(page, f"tournament-{viewport['width']}-{scheme}")


@pytest.mark.parametrize(("viewport", "scheme"), SCREENS[1:])
def test_the_tree_comes_first_and_how_it_is_counted_is_one_click_away(open_page, live_server, viewport, scheme, shoot):
    phone = viewport["width"] < 400
    page = open_page(viewport=viewport, color_scheme=scheme, has_touch=phone, is_mobile=phone)
    page.goto(live_server + "/tree")
    # The first screen holds the position, what each search visits and the pruning button.
    counts = page.get_by_role("definition")
    expect(counts).to_have_text(["549,946", "2,080"])
    expect(page.get_by_role("term")).to_have_text(["Plain minimax", "Alpha-beta with move ordering"])
    button = page.get_by_role("button", name="Show what alpha-beta skips")
    for shown in (page.get_by_role("heading", name="X to move"), counts.last, button):
        assert shown.bounding_box()["y"] + shown.bounding_box()["height"] <= viewport["height"]
    if not phone:  # on a desktop the moves themselves too
        first = page.get_by_role("list", name="Moves from the position above").get_by_role("listitem").first
        assert first.bounding_box()["y"] < viewport["height"]
    expect(button).to_have_accessible_description(re.compile(r"finds the same value from 264 times fewer nodes"))
    # The longer story: folded, under the summary, and opened by a tap or a click.
    story = page.get_by_text("A node is a position as one order of moves reaches it")
    expect(story).to_be_hidden()
    page.get_by_text("How this is counted").click()
    expect(story).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    shoot(page, f"tree-counted-{viewport['width']}-{scheme}")

    page.goto(live_server + "/tree?board=15x15")
    # One statement of the value: the one proved, not "unclear" above it.
    expect(page.locator(".tree-best")).to_have_text("With best play: a win for the first player, proved by Allis, 1994")
    expect(page.get_by_text("The computer here does not know that proof")).to_be_visible()
    expect(page.get_by_text("One move is one side’s turn")).to_be_hidden()
    card = page.get_by_role("list", name="Moves from the position above").get_by_role("listitem").first
    expect(card).to_contain_text("Hard’s choice")
    if not phone:
        assert card.bounding_box()["y"] < viewport["height"]
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    shoot(page, f"tree-15x15-{viewport['width']}-{scheme}")
