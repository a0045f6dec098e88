import functools
import re

import pytest
from support import HX, board_of, page, play, send

from webapp.learn import numbers as stats


def html_of(response) -> str:
    return response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("path", "current"),
    [
        ("/", "Play"),
        ("/tree", "Game tree"),
        ("/tree/children?path=4", "Game tree"),
        ("/numbers/figures", "Numbers"),
        ("/tournament", "Tournament"),
    ],
)
def test_the_nav_marks_the_current_page(client, path, current):
    nav = re.search(r'<nav class="site-nav".*?</nav>', html_of(client.get(path)), re.S).group(0)
    links = re.findall(r'<a href="[^"]*"( aria-current="page")?>([^<]+)</a>', nav)
    assert [name for _, name in links] == ["Play", "Game tree", "Numbers", "Tournament"]
    assert [name for mark, name in links if mark] == [current]


def test_the_game_page_links_to_the_tree_of_its_board(client):
    link = '<a href="/tree?board={}">Explore this position in the game tree</a>'
    play(client, 4)
    board = page(client)["board"]
    assert link.format(board) in html_of(client.get("/"))
    # After each htmx move too, not only on the first page (the controls are not always redrawn).
    for _ in range(2):
        cell = page(client)["board"].index(".")
        fragment = send(client, "/move", cell=cell, headers=HX)
        assert link.format(board_of(fragment)["board"]) in html_of(fragment)


# --- the game tree ---------------------------------------------------------------------------


def test_the_tree_page_shows_the_moves_from_the_empty_board(client):
    response = client.get("/tree")
    html = html_of(response)
    assert response.status_code == 200 and "<html" in html
    assert "HX-Request" in response.headers["Vary"]
    assert "<h1>Game tree</h1>" in html and ">X to move</h2>" in html
    assert html.count(">Show replies<") == 9
    assert "549,946" in html and "2,080" in html
    assert 'aria-pressed="false"' in html and "Skipped by alpha-beta" not in html


def test_the_tree_with_htmx_is_the_view_alone(client):
    # X . . / . O . / . . .
    response = client.get("/tree?board=X...O....&pruning=1", headers=HX)
    html = html_of(response)
    assert response.status_code == 200
    assert "<html" not in html and html.lstrip().startswith('<section class="tree-view"')
    assert html.count(">Show replies<") == 7
    assert 'aria-pressed="true"' in html


def test_a_path_opens_the_moves_along_it_without_javascript(client):
    html = html_of(client.get("/tree?board=.........&path=4.0"))
    assert 'aria-label="Replies to X in row 2, column 2"' in html
    assert 'aria-label="Replies to O in row 1, column 1"' in html
    assert html.count('class="tree-node"') + html.count('class="tree-node is-open"') == 9 + 8 + 7
    # Folding an opened move goes back to its parent; the others open at their own path.
    assert 'href="/tree?board=.........#node-4"' in html
    assert 'href="/tree?path=4.0.1&amp;board=.........#node-4-0-1"' in html


@pytest.mark.parametrize("pruning", [True, False])
def test_the_pruning_button_greys_out_what_alpha_beta_skipped(client, pruning):
    query = "&pruning=1" if pruning else ""
    html = html_of(client.get(f"/tree?path=0{query}"))
    # After X in a corner alpha-beta tries O in the centre first, which draws, and skips the other seven.
    assert html.count("Skipped by alpha-beta") == (7 if pruning else 0)
    assert html.count('class="tree-node is-pruned"') == (7 if pruning else 0)
    assert f'aria-pressed="{"true" if pruning else "false"}"' in html
    # Every link keeps the pruning as it is, on or off.
    assert ("pruning=1" in html.split('aria-label="Moves from the position above"')[1]) == pruning


@pytest.mark.parametrize("headers", [HX, {}], ids=["htmx", "no-js"])
def test_opening_a_move_with_htmx_sends_that_move_with_its_replies(client, headers):
    response = client.get("/tree/children?board=.........&path=4", headers=headers)
    html = html_of(response)
    assert response.status_code == 200
    assert "HX-Request" in response.headers["Vary"]
    assert 'aria-label="Replies to X in row 2, column 2"' in html
    if headers:
        assert html.lstrip().startswith('<li class="tree-node is-open" id="node-4">')
        assert html.count("<li ") == 9  # the move and its eight replies
        assert 'name="path" value="4" hx-swap-oob=' in html  # the pruning button keeps this move open
        assert "<html" not in html
    else:
        assert "<html" in html and "<h1>Game tree</h1>" in html


def test_folding_a_move_with_htmx_sends_it_closed(client):
    response = client.get("/tree/children?board=.........&path=4&fold=1", headers=HX)
    html = html_of(response)
    assert html.lstrip().startswith('<li class="tree-node" id="node-4">')
    assert ">Show replies<" in html and "Replies to" not in html
    assert 'name="path" value="" hx-swap-oob=' in html


@pytest.mark.parametrize(
    "board",
    [
        "XXXOO....",  # X X X / O O . / . . .
        "XOXXOOOXX",  # X O X / X O O / O X X  a draw
    ],
)
def test_a_finished_board_is_a_leaf(client, board):
    html = html_of(client.get(f"/tree?board={board}"))
    assert "The game is over" in html
    assert "Show replies" not in html and "Show what alpha-beta skips" not in html


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("board=XX", "A board has 9, 16, 25, 49 or 225 cells (3×3, 4×4, 5×5, 7×7 or 15×15); this one has 2."),
        ("board=", "A board has 9, 16, 25, 49 or 225 cells (3×3, 4×4, 5×5, 7×7 or 15×15); this one has 0."),
        ("board=XXXX.....", "X has 4 marks and O has 0"),
        ("board=XXXOOO...", "Both X and O have a line"),
        ("board=ABC......", "Cell 0 holds &#39;A&#39;"),
        ("path=4.4", "Move 2 of the path cannot be played: Row 2, column 2 is already taken."),
        ("path=9", "should be up to 9 squares 0 to 8 separated by dots"),
        ("path=four", "should be up to 9 squares 0 to 8 separated by dots"),
        ("board=XXXOO....&path=5", "Move 1 of the path cannot be played: The game is over"),
    ],
)
@pytest.mark.parametrize("route", ["/tree", "/tree/children"])
@pytest.mark.parametrize("headers", [HX, {}], ids=["htmx", "no-js"])
def test_a_bad_tree_request_says_what_is_wrong(client, route, query, message, headers):
    if route == "/tree/children" and "path=" not in query:
        query += "&path=4"  # a move to open, so that the board is what is wrong
    response = client.get(f"{route}?{query}", headers=headers)
    html = html_of(response)
    assert response.status_code == 400
    assert message in html
    assert ("<html" in html) != bool(headers)
    assert "Bad Request" not in html  # a heading in a player's words, on the page without JavaScript
    assert bool(headers) or '<h1 id="problem-title">This position cannot be explored</h1>' in html


@pytest.mark.parametrize("query", ["", "?board=.........", "?path=", "?path=&fold=1"])
def test_opening_a_move_needs_the_move(client, query):
    response = client.get(f"/tree/children{query}", headers=HX)
    assert response.status_code == 400
    assert "Name the move to open" in html_of(response)


# --- the numbers and the tournament ----------------------------------------------------------


@pytest.fixture
def uncounted(monkeypatch):
    """stats.numbers() as on a fresh server: not counted yet, and counted on first use."""
    real = stats.numbers()
    monkeypatch.setattr(stats, "numbers", functools.cache(lambda: real))


def test_the_numbers_page_shows_its_figures_at_once_even_before_they_were_counted(client, uncounted):
    html = html_of(client.get("/numbers"))
    assert "<table" in html and "<svg" in html
    assert "Counting" not in html and "hx-trigger" not in html and "spinner" not in html  # nothing waits for JS


@pytest.mark.parametrize(("path", "headers"), [("/numbers/figures", {}), ("/numbers", HX)], ids=["no-js", "htmx"])
def test_the_figures_without_javascript_or_for_htmx(client, uncounted, path, headers):
    html = html_of(client.get(path, headers=headers))
    assert ("<html" in html) != bool(headers)
    assert "<table" in html


def test_the_figures_are_a_table_and_a_log_scale_chart(client):
    html = html_of(client.get("/numbers/figures"))
    for figure in ("255,168", "131,184", "77,904", "46,080", "5,478", "765", "958"):
        assert f"<td>{figure}</td>" in html
    for nodes in ("549,946", "20,866", "2,080", "243"):
        assert f"<td>{nodes}</td>" in html  # in the table
        assert re.search(rf'<text class="chart-count[^"]*"[^>]*>{nodes}</text>', html)  # on its bar
    assert re.search(
        r'<svg class="chart" width="100%" height="[\d.]+" role="img" aria-label="Nodes visited[^"]*549,946', html
    )
    assert html.count('<rect class="chart-bar"') == 4
    assert "<title>Nodes visited" in html


# What the page calls each figure the tree page also shows, and the tree page's label for it.
SHARED = {"549,946": "Plain minimax", "2,080": "Alpha-beta with move ordering"}


def test_a_figure_has_the_same_name_on_the_tree_and_the_numbers(client):
    tree, figures = html_of(client.get("/tree")), html_of(client.get("/numbers"))
    for figure, name in SHARED.items():
        assert f"<dt>{name}</dt><dd>{figure}</dd>" in tree
        assert f'<tr><th scope="row">{name}</th><td>{figure}</td></tr>' in figures
        assert re.search(rf'<tspan x="0">{name}</tspan></text>\s*<rect class="chart-bar"', figures)  # its bar
    for name in ("Plain minimax", "Alpha-beta", "Alpha-beta with move ordering"):
        assert f"<li><strong>{name}</strong>" in figures  # each said once, in what it does
    assert "switch" not in tree  # the pruning button is a button, named as it reads
    assert "Show what alpha-beta skips" in tree


# A note to ourselves: a command, a date, a seed, a CPU time or how a figure was measured.
NOTES = re.compile(
    r"python -m|--\w|\b20\d\d-\d\d-\d\d\b|\bseed\b|\bCPU\b|\d s of|by a script|per server process|\bms\b|\(ms\)"
)


@pytest.mark.parametrize("path", ["/tree", "/tree?board=15x15", "/tree?board=4x4", "/numbers", "/tournament"])
def test_the_learning_pages_talk_to_players(client, path):
    html = html_of(client.get(path))
    text = re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style|head)\b.*?</\1>", " ", html, flags=re.S))
    assert not NOTES.search(text), NOTES.search(text)
    for paragraph in re.findall(r"<p\b[^>]*>(.*?)</p>", html, re.S):
        words = re.sub(r"<[^>]+>", "", paragraph)
        # Sentences end at a full stop before a space and a capital, or at the paragraph's end.
        assert len(re.findall(r"[.!?](?=\s+[A-Z“]|\s*$)", words.strip())) <= 3, words


@pytest.mark.parametrize("headers", [HX, {}], ids=["htmx", "no-js"])
def test_the_tournament_page(client, headers):
    response = client.get("/tournament", headers=headers)
    html = html_of(response)
    assert response.status_code == 200 and ("<html" in html) != bool(headers)
    assert "HX-Request" in response.headers["Vary"]
    assert re.search(r'<svg class="chart"[^>]*role="img" aria-label="Results of 100 games for each pairing', html)
    assert html.count('<text class="chart-name"') == 9
    assert re.search(r'<th scope="row">Impossible</th><td>\d+</td><td>\d+</td><td>0</td>', html)  # never loses


def test_the_tournament_is_played_once_per_process(client):
    from webapp.web.learn import tournament_results

    client.get("/tournament")
    first = tournament_results()
    client.get("/tournament")
    assert tournament_results() is first
    assert all(p.games == 100 for p in first[0])


def test_each_up_to_symmetry_row_follows_the_count_it_reduces(client):
    html = html_of(client.get("/numbers"))
    rows = re.findall(r'<tr( class="is-sub")?><th scope="row">([^<]+)</th>', html)
    for index, (_, name) in enumerate(rows):
        if name == "up to symmetry":
            # Under a total (a row of its own), never under one of its parts ("drawn").
            assert rows[index - 1][0] == "", rows[index - 1][1]
