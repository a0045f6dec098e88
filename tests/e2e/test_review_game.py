"""The review, the move history and shared links in Chromium, with JavaScript on and off."""

import re

import pytest
from browsing import DEVICES, choose, settled
from playwright.sync_api import Page, expect

from webapp.engine.rules import cell_name
from webapp.learn.grading import GRADES
from webapp.solver import analyze

PHONE = {"width": 320, "height": 720}
DESKTOP = {"width": 1280, "height": 900}
LOST = "4.1.0.8.6.3.2"  # O answers the centre on an edge and loses to a fork


@pytest.fixture(params=[True, False], ids=["js", "no-js"])
def visitor(request, open_page, live_server):
    """A page with no cookie, as a fresh browser has it, with JavaScript on or off; it must log no errors."""
    page = open_page(java_script_enabled=request.param, base_url=live_server, viewport=DESKTOP)
    errors = []
    # Chromium logs every 4xx page it loads: a test that opens one on purpose says so in expects_400.
    expected = "Failed to load resource: the server responded with a status of 400 (BAD REQUEST)"

    def log(message):
        if message.type == "error" and not (getattr(page, "expects_400", False) and message.text == expected):
            errors.append(message.text)

    def page_error(error):
        errors.append(str(error))

    page.on("console", log)
    page.on("pageerror", page_error)
    page.javascript = request.param
    yield page
    page.remove_listener("console", log)
    page.remove_listener("pageerror", page_error)
    assert errors == []


def board(page: Page) -> str:
    return page.locator("#board").get_attribute("data-board")


def lose_to_impossible(page: Page) -> None:
    """Start a game against Impossible as X and walk into a loss: every move one that loses, if any does."""
    page.goto("/")
    choose(page, Difficulty="minimax")
    if page.javascript:
        # The dropdown posts at once: let that answer arrive before New game, so no click overtakes it.
        expect(page.get_by_text("Difficulty: Impossible, from the computer's next move.")).to_be_visible()
    page.get_by_role("button", name="New game").click()
    expect(page.locator("#board")).to_have_attribute("data-ply", "0")
    while page.locator("#board").get_attribute("data-status") == "playing":
        values = analyze(board(page))
        cell = next((c for c, (result, _) in values.items() if result == "loss"), min(values))
        before = page.locator("#board").get_attribute("data-ply")
        settled(page)
        page.get_by_role("button", name=f"{cell_name(cell)}, empty").click()
        expect(page.locator("#board")).not_to_have_attribute("data-ply", before)
    expect(page.locator("#status")).to_have_text("The computer wins.")


def start_hvh(page: Page, javascript: bool = True) -> None:
    """A new Human vs Human game: with JavaScript the mode starts it, without, the New game button."""
    page.goto("/")
    choose(page, Mode="hvh")
    if not javascript:
        page.get_by_role("button", name="New game").click()
    expect(page.locator("#status")).to_have_text("X to move.")


def play_cells(page: Page, *cells: int) -> None:
    for cell in cells:
        before = page.locator("#board").get_attribute("data-ply")
        settled(page)
        page.get_by_role("button", name=f"{cell_name(cell)}, empty").click()
        expect(page.locator("#board")).not_to_have_attribute("data-ply", before)


def poking_out(page: Page, selector: str) -> list[str]:
    """The elements inside ``selector`` that reach past its right edge."""
    return page.locator(selector).evaluate(
        "box => { const edge = box.getBoundingClientRect().right;"
        " return [...box.querySelectorAll('*')].filter(e => e.getBoundingClientRect().right > edge)"
        ".map(e => e.tagName + '.' + e.className); }"
    )


def where(page: Page):
    return page.locator("#review-status")


def test_lose_to_impossible_then_review_step_and_play_from_an_earlier_move(visitor: Page, shoot):
    page = visitor
    lose_to_impossible(page)
    moves = page.get_by_role("list", name="Moves")
    expect(moves.get_by_role("link")).to_have_count(int(page.locator("#board").get_attribute("data-ply")))

    page.get_by_role("link", name="Review", exact=True).click()
    expect(page.get_by_role("heading", name="Game review", level=1)).to_be_visible()
    # X's first losing move: from a draw, so it is a mistake (a blunder throws away a win).
    summary = page.locator(".review-summary")
    expect(summary).to_have_text(
        re.compile(r"^You held the draw until move \d; .+ let O (win|win at once|fork)\. .+\.$")
    )
    k = int(re.search(r"until move (\d)", summary.inner_text()).group(1))
    turning = page.locator(".move.is-turning")
    expect(turning).to_have_count(1)
    expect(turning).to_contain_text("mistake")
    expect(turning).to_have_accessible_name(re.compile(rf"^{k}\. X .+, mistake, the turning point$"))
    # One numbering: the list's entry, the review's sentence and the link's at= all name that move k.
    expect(turning.locator(".move-number")).to_have_text(f"{k}.")
    expect(turning).to_have_attribute("href", re.compile(rf"[?&]at={k}(&|$)"))
    # The move picked is the move explained: the board after it, its square graded and the better ones.
    expect(turning).to_have_attribute("aria-current", "step")
    expect(where(page)).to_have_text(re.compile(rf"^You are looking at move {k} of \d: X .+ O to move\.$"))
    expect(page.locator(".review-explain")).to_have_text(re.compile(rf"^Move {k}, X .+, was a mistake: "))
    expect(page.locator("#board .is-played")).to_contain_text("Mistake")
    expect(page.locator("#board .is-played")).to_have_class(re.compile(r"\bhas-x\b"))
    expect(page.locator("#board .is-better").first).to_contain_text("Better")
    expect(
        page.get_by_role("list", name=re.compile("^Board at move"))
        .get_by_role("listitem")
        .filter(has_text="a better move")
        .first
    ).to_be_attached()
    shoot(page, f"review-desktop-{'js' if page.javascript else 'no-js'}")
    # Taking a screenshot leaves empty style attributes behind, which htmx would copy over on a swap
    # and the Content-Security-Policy refuse: start again from a clean page.
    page.reload()

    # Step forward and back: each step explains the move it shows.
    page.get_by_role("link", name="Forward", exact=True).click()
    expect(where(page)).to_have_text(re.compile(rf"^You are looking at move {k + 1} of \d: O "))
    expect(page.locator(".review-explain")).to_have_text(re.compile(rf"^Move {k + 1}, O "))
    page.get_by_role("link", name="Back", exact=True).click()
    expect(where(page)).to_have_text(re.compile(rf"^You are looking at move {k} of \d: X "))
    page.get_by_role("link", name="Back", exact=True).click()
    expect(where(page)).to_have_text(re.compile(rf"^You are looking at move {k - 1} of \d: O "))
    expect(page.locator(".review-explain")).to_have_text(re.compile(rf"^Move {k - 1}, O "))
    expect(page.get_by_role("list", name="Moves").locator("[aria-current='step']")).to_have_count(1)
    if page.javascript:
        # The arrow keys step too while the list has focus, and the focus stays on the move shown.
        shown = page.get_by_role("list", name="Moves").locator("[aria-current='step']")
        expect(shown.locator(".move-number")).to_have_text(f"{k - 1}.")  # the list has caught up with the step
        shown.focus()
        page.keyboard.press("ArrowRight")
        expect(where(page)).to_have_text(re.compile(rf"^You are looking at move {k} of"))
        expect(page.locator(".move-list [aria-current='step']")).to_be_focused()
        page.keyboard.press("Home")
        expect(where(page)).to_have_text(re.compile(r"^You are looking at the start of the game"))
        expect(page).to_have_url(re.compile(r"/review\?at=0&moves="))
    else:
        page.get_by_role("link", name="Start", exact=True).click()
        expect(where(page)).to_have_text(re.compile(r"^You are looking at the start of the game"))

    # Play from the start instead, against the same computer: nothing changes until confirmed.
    page.get_by_role("button", name="Play from here").click()
    expect(page.get_by_role("heading", name="Play from the empty board?")).to_be_visible()
    page.get_by_role("button", name="Play from here").click()
    expect(page.locator("#board")).to_have_attribute("data-board", ".........")
    expect(page.locator("#status")).to_have_text("You play X. Your turn.")
    expect(page.get_by_text("Playing from the empty board: you play X against Impossible.")).to_be_visible()
    # The loss stays in the score: only finishing a game counts, and looking never does.
    expect(page.locator(".tally div").nth(1)).to_have_text(re.compile(r"Computer\s*1"))


def test_play_from_an_earlier_move_of_the_live_game(visitor: Page):
    page = visitor
    start_hvh(page, page.javascript)
    play_cells(page, 4, 0, 8, 2)
    # Choose move 2 in the list: that position, read-only.
    page.get_by_role("list", name="Moves").get_by_role("link", name="O top-left").click()
    expect(where(page)).to_have_text("You are looking at move 2 of 4: O top-left. X to move.")
    expect(page.locator("#board")).to_have_attribute("data-board", "O...X....")
    expect(page.get_by_role("button", name=re.compile("^Row"))).to_have_count(0)
    page.get_by_role("link", name="Forward", exact=True).click()
    expect(where(page)).to_have_text("You are looking at move 3 of 4: X bottom-right. O to move.")
    page.get_by_role("link", name="Back", exact=True).click()
    expect(where(page)).to_have_text(re.compile("^You are looking at move 2 of 4"))
    page.get_by_role("button", name="Play from here").click()
    expect(page.get_by_text("The game you are playing now (4 moves) will be dropped.")).to_be_visible()
    page.get_by_role("button", name="Play from here").click()
    expect(page.locator("#board")).to_have_attribute("data-board", "O...X....")
    expect(page.locator("#status")).to_have_text("X to move.")
    expect(page.get_by_role("list", name="Moves").get_by_role("link")).to_have_count(2)


def test_a_shared_link_opens_in_a_fresh_browser_without_touching_its_game(visitor: Page, shoot):
    page = visitor
    page.goto(f"/review?moves={LOST}")
    expect(page.locator(".review-summary")).to_have_text(
        "O held the draw until move 2; the top edge let X win. Any corner held."
    )
    expect(page.locator("#board .is-better")).to_have_count(4)
    link = page.get_by_label("Link to this review")
    # The server writes a path; with JavaScript the page completes it from its own address.
    origin = re.escape(page.evaluate("location.origin")) if page.javascript else ""
    expect(link).to_have_value(re.compile(rf"^{origin}/review\?moves={re.escape(LOST)}&at=2$"))
    copy = page.get_by_role("button", name="Copy link")
    if page.javascript:
        page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        copy.click()
        expect(page.get_by_text("Link copied.")).to_be_visible()
        assert page.evaluate("navigator.clipboard.readText()") == link.input_value()
    else:
        expect(copy).to_be_hidden()  # the address is there to select instead
    page.goto(f"/?moves={LOST}&at=5")
    expect(where(page)).to_have_text("You are looking at move 5 of 7: X bottom-left. O to move.")
    page.get_by_role("link", name="Explore this position in the game tree").click()
    expect(page.get_by_role("heading", name="Game tree", level=1)).to_be_visible()
    page.get_by_role("link", name="Review the moves to here").click()
    expect(page).to_have_url(re.compile(r"/review\?moves=4\.1\.0\.8\.6&at=5$"))
    expect(page.locator(".review-explain")).to_have_text(re.compile(r"^Move 5, X bottom-left, "))
    # A visitor who came by the link has no game of their own yet: the way to the game says so. Their board is
    # still the empty one they got on arrival.
    expect(page.get_by_role("link", name="Back to your game")).to_have_count(0)
    page.get_by_role("link", name="Start a game").click()
    expect(page.locator("#board")).to_have_attribute("data-board", ".........")
    expect(page.get_by_role("list", name="Moves")).to_have_count(0)


def test_play_from_a_reply_deep_in_the_tree(visitor: Page):
    page = visitor
    page.goto("/tree?board=X...O....&path=8")  # X . . / . O . / . . . with X's bottom-right corner opened
    replies = page.get_by_role("list", name="Replies to X in row 3, column 3")
    replies.get_by_role("link", name="Play from here after O in row 1, column 3").click()
    expect(page.get_by_role("heading", name="Play from move 4?")).to_be_visible()
    page.get_by_role("button", name="Play from here").click()
    expect(page.locator("#board")).to_have_attribute("data-board", "X.O.O...X")
    expect(page.get_by_role("list", name="Moves").get_by_role("link")).to_have_count(4)


@pytest.mark.parametrize("link", ["/?moves=4.4", "/review?moves=0.3.1.4.2.5", "/review?moves=banana", "/?moves=4&at=7"])
def test_a_malformed_link_gets_a_friendly_page(visitor: Page, link):
    page = visitor
    page.expects_400 = True
    response = page.goto(link)
    assert response.status == 400
    expect(page.get_by_role("heading", name="This link does not hold a game")).to_be_visible()
    page.get_by_role("button", name="Start a new game").click()
    expect(page.locator("#board")).to_have_attribute("data-board", ".........")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots_on_a_phone(open_page, live_server, scheme, shoot):
    page = open_page(base_url=live_server, viewport=PHONE, color_scheme=scheme)
    page.goto(f"/review?moves={LOST}")
    expect(page.locator("#board .is-better")).to_have_count(4)
    # Nothing is wider than the phone, and nothing pokes out of the panel of moves and links.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert poking_out(page, ".review-side") == []
    shoot(page, f"review-phone-{scheme}")
    page.goto(f"/play-from?moves={LOST[:3]}")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(page, f"play-from-phone-{scheme}")
    start_hvh(page)
    play_cells(page, 4, 0, 8)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(page, f"game-with-moves-phone-{scheme}")


def test_screenshot_of_the_game_with_its_moves_on_a_desktop(open_page, live_server, shoot):
    page = open_page(base_url=live_server, viewport=DESKTOP, color_scheme="dark")
    start_hvh(page)
    play_cells(page, 0, 3, 1, 4, 2)
    expect(page.get_by_role("link", name="Review", exact=True)).to_be_visible()
    shoot(page, "game-with-moves-desktop-dark")


@pytest.mark.parametrize("device", DEVICES)
def test_a_big_boards_review_grades_in_pieces_and_names_the_move_that_let_the_win_through(
    open_page, live_server, device
):
    # 15×15: X builds an open three on row 8 while O plays in the corners; X then makes an open four and five.
    page = open_page(base_url=live_server, **DEVICES[device])
    page.goto("/review?board=15x15&moves=112.0.113.14.114.210.115.224.116")
    expect(where(page)).to_have_text("You are looking at move 9 of 9: X row 8, column 12. X wins.")
    summary = page.locator(".review-summary")
    expect(summary).to_have_text(
        "O's move 6, the bottom-left corner, let X win by force; row 8, column 7 or 11 was better. See move 6"
    )
    moves = page.get_by_role("list", name="Moves")
    expect(moves.get_by_role("link", name=re.compile(r", (best|good|inaccuracy|mistake|blunder)"))).to_have_count(9)
    expect(moves.locator(".is-turning")).to_have_accessible_name("6. O bottom-left, mistake, changed the game")
    expect(moves.get_by_role("link", name="9. X row 8, column 12, best")).to_be_visible()  # proved: five in a row
    expect(moves.get_by_role("link", name=re.compile(r" by estimate$")).first).to_be_visible()
    summary.get_by_role("link", name="See move 6").click()
    expect(where(page)).to_have_text("You are looking at move 6 of 9: O bottom-left. X to move.")
    expect(page.locator(".review-explain")).to_contain_text("Move 6, O bottom-left, was a mistake")
    expect(moves.locator("[aria-current='step']")).to_have_accessible_name(re.compile(r"^6\. O bottom-left, "))
    # The board's rows and columns are numbered, as the words name its squares.
    expect(page.locator(".review-board .ruler-columns span")).to_have_count(15)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        expect(page.locator("#board .is-better")).to_have_count(2)
        assert page.evaluate("document.documentElement.scrollWidth") <= DEVICES[device]["viewport"]["width"]


def test_choosing_a_move_in_the_list_keeps_the_focus_on_it(open_page, live_server):
    page = open_page(base_url=live_server, viewport=DESKTOP)
    start_hvh(page)
    play_cells(page, 4, 0, 8, 2)
    # From the game's own list, with the keyboard: the position's page opens with the focus on that move.
    page.get_by_role("list", name="Moves").get_by_role("link", name="2. O top-left").focus()
    page.keyboard.press("Enter")
    expect(where(page)).to_have_text("You are looking at move 2 of 4: O top-left. X to move.")
    chosen = page.locator(".move-list [aria-current='step']")
    expect(chosen).to_be_focused()
    # So the arrow keys step at once, without a Tab first.
    page.keyboard.press("ArrowRight")
    expect(where(page)).to_have_text(re.compile(r"^You are looking at move 3 of 4"))
    expect(chosen).to_be_focused()
    # And in the list of a review, choosing another move keeps the focus on it too.
    page.get_by_role("list", name="Moves").get_by_role("link", name="1. X centre").focus()
    page.keyboard.press("Enter")
    expect(where(page)).to_have_text(re.compile(r"^You are looking at move 1 of 4"))
    expect(chosen).to_be_focused()


# --- the move picked is the move explained; the keys and the phone's screen follow it ----------------------------

GRADED_3 = "0.8.2.7.5.6"  # best, good, mistake and blunder moves in one short game
WALKS = [("3x3", None, LOST, 3), ("15x15", "15x15", "112.0.113.14.114.210.115.224.116", 15)]


@pytest.mark.parametrize(("name", "key", "line", "n"), WALKS, ids=[walk[0] for walk in WALKS])
def test_each_move_picked_in_a_review_is_the_move_explained(visitor: Page, name, key, line, n):
    page = visitor
    moves = [int(cell) for cell in line.split(".")]
    page.goto(f"/review?{'board=' + key + '&' if key else ''}moves={line}&at=0")
    listed = page.get_by_role("list", name="Moves")
    if key and page.javascript:
        expect(page.get_by_text(f"All {len(moves)} moves are graded.")).to_be_visible()
    for at, cell in enumerate(moves, 1):
        listed.locator(f"#move-{at} a").click()
        mover = "X" if at % 2 else "O"
        expect(where(page)).to_have_text(re.compile(rf"^You are looking at move {at} of {len(moves)}: {mover} "))
        # The words, the graded square and the move picked in the list: all this one move.
        expect(page.locator(".review-explain")).to_have_text(re.compile(rf"^Move {at}, {mover} "))
        expect(page.locator("#board .is-played")).to_have_attribute("data-cell", str(cell))
        expect(listed.locator("[aria-current='step']")).to_have_accessible_name(re.compile(rf"^{at}\. {mover} "))
        if not page.javascript and key:
            continue  # without JavaScript a big board's list has no grades: the board and the words give it
        if at == 1:
            # The list's grade and the board's say the same, once the list has its grades (a big board's come later).
            expect(listed.locator("#move-1 .grade")).to_have_count(1)
        grade = listed.locator(f"#move-{at} .grade").inner_text()
        expect(page.locator("#board .is-played")).to_have_class(re.compile(rf"\bgrade-{grade}\b"))
    assert n in (3, 15)


def test_arrow_keys_step_from_the_move_that_has_the_focus(open_page, live_server):
    page = open_page(base_url=live_server, viewport=DESKTOP)
    page.goto(f"/review?moves={LOST}&at=2")
    listed = page.get_by_role("list", name="Moves")
    # The reader tabs along the list to move 5 while move 2 is on screen: the keys step from move 5.
    listed.get_by_role("link", name=re.compile(r"^2\. ")).focus()
    for _ in range(3):
        page.keyboard.press("Tab")
    expect(listed.get_by_role("link", name=re.compile(r"^5\. "))).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(where(page)).to_have_text(re.compile(r"^You are looking at move 6 of 7"))
    expect(listed.get_by_role("link", name=re.compile(r"^6\. "))).to_be_focused()
    listed.get_by_role("link", name=re.compile(r"^3\. ")).focus()
    page.keyboard.press("ArrowUp")
    expect(where(page)).to_have_text(re.compile(r"^You are looking at move 2 of 7"))
    expect(listed.get_by_role("link", name=re.compile(r"^2\. "))).to_be_focused()
    listed.get_by_role("link", name=re.compile(r"^1\. ")).focus()
    page.keyboard.press("ArrowLeft")
    expect(where(page)).to_have_text(re.compile(r"^You are looking at the start of the game"))
    page.keyboard.press("End")
    expect(where(page)).to_have_text(re.compile(r"^You are looking at move 7 of 7"))


@pytest.mark.parametrize("line", [LOST, "112.0.113.14.114.210.115.224.116"], ids=["3x3", "15x15"])
def test_on_a_phone_forward_keeps_the_words_about_the_move_in_view(open_page, live_server, line):
    page = open_page(base_url=live_server, **DEVICES["phone"])
    key = "" if line == LOST else "board=15x15&"
    page.goto(f"/review?{key}moves={line}&at=1")
    for at in (2, 3):
        # The reader scrolls down to reach Forward, as a thumb does.
        page.get_by_role("link", name="Forward", exact=True).scroll_into_view_if_needed()
        page.evaluate("window.scrollBy(0, document.body.scrollHeight)")
        page.get_by_role("link", name="Forward", exact=True).click()
        expect(where(page)).to_have_text(re.compile(rf"^You are looking at move {at} of "))
        expect(where(page)).to_be_in_viewport()
        expect(page.locator(".review-explain")).to_be_in_viewport()


@pytest.mark.parametrize(("key", "line"), [(None, GRADED_3), ("15x15", "112.0.113.14.114.210.115.224.116")])
def test_every_grade_label_has_enough_contrast_picked_or_not(audit_page, live_server, axe, key, line):
    page = audit_page(1280)
    page.goto(f"{live_server}/review?{'board=' + key + '&' if key else ''}moves={line}")
    listed = page.get_by_role("list", name="Moves")
    expect(listed.locator(".grade")).to_have_count(len(line.split(".")))
    # Every grade there is, on this page: a grade no move of this game earned gets a copy of a move to wear it.
    page.evaluate(
        """grades => { const list = document.querySelector('.review-side .move-list');
          for (const grade of grades) {
            if (list.querySelector('.grade-' + grade)) continue;
            const item = list.lastElementChild.cloneNode(true);
            item.removeAttribute('id');
            const link = item.querySelector('a');
            link.className = 'move grade-' + grade;
            link.removeAttribute('aria-current');
            link.setAttribute('aria-label', link.textContent.replace(/\\s+\\S+$/, ' ' + grade).trim());
            link.querySelector('.grade').textContent = grade;
            list.append(item);
          } }""",
        list(GRADES),
    )
    axe(page, "the grades, one picked")
    page.evaluate(
        "document.querySelectorAll('.review-side .move').forEach(m => m.setAttribute('aria-current', 'step'))"
    )
    axe(page, "every grade picked")


def test_a_move_chosen_while_a_big_boards_grades_arrive_is_shown(open_page, live_server):
    page = open_page(base_url=live_server, viewport=DESKTOP)
    held = []
    page.route("**/review/grades?*", lambda route: held.append(route))
    page.goto("/review?board=15x15&moves=112.0.113.14.114.210.115.224.116")
    page.wait_for_function("document.getElementById('review-grader').classList.contains('htmx-request')")
    # The reader picks move 3 while the grades of the moves, move 3's among them, are on their way.
    page.get_by_role("list", name="Moves").get_by_role("link", name=re.compile(r"^3\. X ")).click()
    held[0].continue_()
    expect(where(page)).to_have_text(re.compile(r"^You are looking at move 3 of 9"))
    expect(page.locator(".review-explain")).to_have_text(re.compile(r"^Move 3, X "))
    expect(page.get_by_role("list", name="Moves").locator("[aria-current='step']")).to_have_accessible_name(
        re.compile(r"^3\. X .+, (best|good|inaccuracy|mistake|blunder)")
    )
