import importlib
import pkgutil

import pytest
from flask import url_for
from support import HX, page, send

import webapp
from webapp.match import Table
from webapp.web.present import controls_state, game_view
from webapp.web.rendering import page_or_fragment, remembered_partial


@pytest.mark.parametrize(
    ("headers", "kind"),
    [({}, "page"), (HX, "fragment"), ({**HX, "HX-History-Restore-Request": "true"}, "page")],
)
def test_one_helper_chooses_the_fragment_for_htmx_only(app, headers, kind):
    context = {"code": 404, "title": "Not Found", "message": "Nothing here."}
    with app.test_request_context("/", headers=headers):
        response = page_or_fragment("error.html", "partials/problem.html", 404, **context)
    html = response.get_data(as_text=True)
    assert ("<html" in html) == (kind == "page")
    assert "Nothing here." in html
    assert response.status_code == 404
    assert "HX-Request" in response.headers["Vary"]


def test_a_pure_partial_is_drawn_once_per_context(app):
    with app.test_request_context("/"):
        first = remembered_partial("partials/board.html", grid=game_view(Table()).grid)
        again = remembered_partial("partials/board.html", grid=game_view(Table()).grid)
        other = remembered_partial("partials/board.html", grid=game_view(Table(moves=(4,))).grid)
        assert first is again  # the same drawing, not drawn again
        assert 'aria-label="Row 2, column 2, empty"' in first
        assert 'aria-label="Row 2, column 2, X, last move"' in other
        buttons = remembered_partial("partials/controls.html", controls=controls_state(Table(moves=(4, 0))))
        assert 'id="undo-button" class="button">' in buttons


def test_drawings_are_kept_per_app(app):
    from webapp import create_app

    other = create_app({"TESTING": True})
    assert app.extensions["drawings"] is not other.extensions["drawings"]


def cache_sizes(app) -> dict[str, int]:
    """How many entries every cache in the app holds: the drawings, and each memoised function."""
    sizes = {"drawings": len(app.extensions["drawings"])}
    for module in pkgutil.iter_modules(webapp.__path__):
        loaded = importlib.import_module(f"webapp.{module.name}")
        for name, value in vars(loaded).items():
            # Functions only: a module's `request` or `session` is a proxy that needs a request.
            if callable(getattr(type(value), "cache_info", None)) and value.__module__ == loaded.__name__:
                sizes[f"{module.name}.{name}"] = value.cache_info().currsize
    return sizes


# Every field of every form, with values that are wrong in as many ways as we can think of.
BAD_FIELDS = [
    ("/move", "cell"),
    ("/move", "game"),
    ("/new", "mode"),
    ("/new", "human"),
    ("/new", "difficulty"),
    ("/new", "x_level"),
    ("/levels", "difficulty"),
    ("/levels", "o_level"),
    ("/pause", "paused"),
    ("/values", "show"),
    ("/undo", "game"),
    ("/step", "game"),
    ("/score/reset", "game"),
]


@pytest.mark.parametrize("headers", [HX, {}], ids=["htmx", "no-js"])
def test_no_cache_grows_with_what_visitors_send(app, client, headers):
    send(client, "/move", cell=4)
    # One round of every request first, so that the drawings of the game itself are made.
    for path, field in BAD_FIELDS:
        send(client, path, headers=headers, **{field: "?"})
        client.get("/", headers=headers)
    # The tree of the empty board too (a bad path shows it): its figures are kept once per board.
    client.get("/tree", headers=headers)
    client.get("/tree/children?path=?", headers=headers)
    client.get("/api/analyze?board=.........")
    before = cache_sizes(app)
    for n in range(30):
        # Never digits alone: "00000" is a real path (the first square), and opening it fills the tree's caches.
        junk = f"{n:05d}" + "x" * (1 + n * 997 % 5000)
        for path, field in BAD_FIELDS:
            send(client, path, headers=headers, **{field: junk})
            client.get("/", headers=headers)
        client.get(f"/tree?board={junk}", headers=headers)
        client.get(f"/tree/children?path={junk}", headers=headers)
        client.get(f"/api/analyze?board={junk}")
        client.get(f"/{junk}", headers=headers)
    assert cache_sizes(app) == before
    assert page(client)["board"][4] == "X"  # and the game is still there


@pytest.mark.parametrize(
    ("endpoint", "values"),
    [
        ("game.index", {}),
        ("game.index", {"moves": "4.0.8", "at": 3}),
        ("review.review_page", {"moves": "4.0"}),
        ("learn.tree", {"board": "X...O....", "moves": None}),
        ("learn.tree", {"path": None}),
        ("learn.tree", {"pruning": True}),
        ("game.index", {"moves": "a b&c=d/é+%", "at": 0}),
        ("game.index", {"moves": ["4", "0"]}),
        ("game.index", {"_anchor": "board"}),
        ("static", {"filename": "app.css"}),
    ],
)
def test_templates_build_the_addresses_url_for_builds(app, endpoint, values):
    with app.test_request_context("/"):
        assert app.jinja_env.globals["url_for"](endpoint, **values) == url_for(endpoint, **values)


# The memoised functions with no bound on their entries: each is keyed on values the game itself fixes, a
# finite and small set whatever visitors send (checked values of a catalogue, or no argument at all).
UNBOUNDED_BY_DESIGN = {
    "webapp.learn.numbers.tally": "a board of the catalogue",
    "webapp.learn.numbers.numbers": "no argument",
    "webapp.learn.numbers.counted": "a board key of the catalogue",
    "webapp.learn.tournament._read_once": "no argument",
    "webapp.web.learn.tournament_results": "no argument",
    "webapp.serving.worker._with_deadlines": "the server's socket class",
    "webapp.engine.exact.bitboard.bit_geometry": "a board's size and line length",
    "webapp.engine.big.facts._lines": "a board's size",
    "webapp.engine.exact.book.load": "no argument",
    "webapp.engine.big.lines._shape": "a line's window of at most 2k - 1 cells on the big boards",
    "webapp.engine.big.lines.pattern": "a line's window of at most 2k - 1 cells on the big boards",
    "webapp.engine.big.board.layout": "a board's size and line length",
    "webapp.engine.big.lines.weight_table": "a line length (its list has a fixed size: 4 ** (2k - 2) codes)",
    "webapp.engine.levels._candidates": "a 3×3 position and a level: at most 4,520 × 3",
    "webapp.engine.rules.geometry": "a board's size and line length",
    "webapp.engine.rules._symmetry_getters": "a board's size",
}


def memoised_functions():
    for module in pkgutil.walk_packages(webapp.__path__, "webapp."):
        if not module.ispkg:
            loaded = importlib.import_module(module.name)
            for name, value in vars(loaded).items():
                if callable(getattr(type(value), "cache_info", None)) and value.__module__ == loaded.__name__:
                    yield f"{loaded.__name__}.{name}", value


def test_every_memory_is_bounded_by_entries_unless_its_keys_are_the_games_own():
    # A worker must stay under 150 MB however long it runs (make soak): a cache keyed on positions a visitor
    # chooses needs a bound on its entries; one keyed on the catalogue's few values needs none, and says why.
    found = dict(memoised_functions())
    unbounded = {name for name, function in found.items() if function.cache_parameters()["maxsize"] is None}
    assert unbounded <= set(UNBOUNDED_BY_DESIGN), unbounded - set(UNBOUNDED_BY_DESIGN)
    assert set(UNBOUNDED_BY_DESIGN) <= set(found), "an entry here names a function that is gone"
