"""Rendering: the one helper that decides between an htmx fragment and a full page, and drawings
that are remembered instead of being drawn again on every response."""

from __future__ import annotations

from urllib.parse import urlencode

from flask import Flask, current_app, make_response, render_template, request, url_for
from markupsafe import Markup

from webapp.serving.headers import vary_on

# What Werkzeug leaves unescaped in a query string (werkzeug.urls._urlencode), so that the
# addresses built here are the very ones url_for builds.
QUERY_SAFE = "!$'()*,/:;?@"


def init_app(app: Flask) -> None:
    """Give templates addresses and drawings that are worked out once, not on every response."""
    built: dict[str, str] = {}

    def remembered_url_for(endpoint: str, **values) -> str:
        # Remembered only for the app at the root and an endpoint of its own (a fixed, small set):
        # nothing a request says can add to this dictionary.
        if request.script_root or endpoint not in app.view_functions:
            return url_for(endpoint, **values)
        if values:
            # A move list links every move with its query (moves=4.0.8&at=3): the address is the
            # endpoint's, remembered, and the query is encoded as Werkzeug would, for a tenth of the cost.
            plain = all(type(v) in (str, int) or v is None for v in values.values())
            if not plain or endpoint not in _query_only(app) or any(k.startswith("_") for k in values):
                return url_for(endpoint, **values)
        if endpoint not in built:
            built[endpoint] = url_for(endpoint)
        if not values:
            return built[endpoint]
        query = urlencode([(k, v) for k, v in values.items() if v is not None], safe=QUERY_SAFE)
        return f"{built[endpoint]}?{query}" if query else built[endpoint]

    # A game fragment names a dozen addresses; building each through the URL map was 7% of a move.
    app.jinja_env.globals["url_for"] = remembered_url_for
    # The board, the controls and the score are pure functions of small views (present.Grid,
    # present.Controls, the score's items), and they were most of the work of drawing a move.
    app.jinja_env.globals["remembered_partial"] = remembered_partial
    # One cache per app: two apps (as in the tests) may differ in what they render.
    app.extensions["drawings"] = Drawings()


def _query_only(app: Flask) -> frozenset[str]:
    """The endpoints with one rule that takes no arguments: every value url_for is given goes to the query."""
    found = app.extensions.get("query_only_endpoints")
    if found is None:
        rules: dict[str, list] = {}
        for rule in app.url_map.iter_rules():
            rules.setdefault(rule.endpoint, []).append(rule)
        found = frozenset(endpoint for endpoint, its in rules.items() if len(its) == 1 and not its[0].arguments)
        app.extensions["query_only_endpoints"] = found
    return found


def _render(name: str, context: tuple) -> Markup:
    return Markup(render_template(name, **dict(context)))


# A drawing and its key take about 1.6 bytes for each of the drawing's characters (a 3×3 move's answer has about
# 5,300, its board 2,300). Bounded by characters, not entries, the drawings stay under 15 MB of a worker's 150,
# and hold the 1,400 drawings of random 3×3 play against Impossible, where 1,024 entries of any size thrashed.
DRAWING_CHARACTERS = 9_000_000


class Drawings:
    """Drawings remembered by template and context, the least recently used forgotten past ``characters``.

    >>> drawings = Drawings(characters=10)
    >>> drawings.kept.update({("a", ()): "123456", ("b", ()): "1234"}); drawings.held = 10
    >>> drawings.keep(("c", ()), "12"); list(drawings.kept)
    [('b', ()), ('c', ())]
    """

    def __init__(self, characters: int = DRAWING_CHARACTERS):
        self.characters, self.held = characters, 0
        self.kept: dict[tuple, Markup] = {}  # least recently used first

    def __call__(self, name: str, context: tuple) -> Markup:
        key = (name, context)
        drawing = self.kept.pop(key, None)
        if drawing is None:
            drawing = _render(name, context)
            self.keep(key, drawing)
        else:
            self.kept[key] = drawing
        return drawing

    def __len__(self) -> int:
        return len(self.kept)

    def keep(self, key: tuple, drawing: Markup) -> None:
        self.kept[key] = drawing
        self.held += len(drawing)
        while self.held > self.characters:
            self.held -= len(self.kept.pop(next(iter(self.kept))))


def remembered_partial(name: str, **context) -> Markup:
    """A template that depends only on ``context`` (hashable values), rendered once per context.

    The context must come from the game itself (checked values, never a visitor's words), so
    that the drawings kept are bounded by what the game can show, not by what visitors send.
    """
    if request.script_root:
        # Mounted below another path (rare): addresses differ, so draw without remembering.
        return _render(name, tuple(context.items()))
    return current_app.extensions["drawings"](name, tuple(sorted(context.items())))


def is_htmx() -> bool:
    """An htmx request wants a fragment, except when htmx restores a page from its history."""
    # Read from the WSGI environ, where the headers already are: two lookups, not two trips through Headers.
    environ = request.environ
    return environ.get("HTTP_HX_REQUEST") == "true" and environ.get("HTTP_HX_HISTORY_RESTORE_REQUEST") != "true"


def page_or_fragment(
    page: str, fragment: str, status: int = 200, *, pure: bool = False, apart: dict[str, str] | None = None, **context
):
    """Render ``fragment`` for htmx and ``page`` otherwise; caches are told the answer depends on it.

    ``pure`` says the fragment depends on nothing but ``context``, all of it hashable, so that it
    can be drawn once for each different context (remembered_partial) instead of on every request.
    ``apart`` names context values that the fragment leaves to partials of their own, each drawn after it
    when the value is not None: a value that seldom recurs (a score) then keeps the fragment remembered.
    """
    apart = apart or {}
    if not is_htmx():
        body = render_template(page, **context)
    else:
        draw = remembered_partial if pure else render_template
        body = draw(fragment, **{name: value for name, value in context.items() if name not in apart})
        for name, partial in apart.items():
            if context[name] is not None:
                body += draw(partial, **{name: context[name]})
    response = make_response(body, status)
    vary_on(response, "HX-Request")
    return response
