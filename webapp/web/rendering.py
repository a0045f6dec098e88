"""Rendering: the one helper that decides between an htmx fragment and a full page, and drawings
that are remembered instead of being drawn again on every response."""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import urlencode

from flask import Flask, current_app, make_response, render_template, request, url_for
from markupsafe import Markup

from webapp.web.headers import vary_on

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
    # One cache per app: two apps (as in the tests) may differ in what they render. A 5×5 drawing and its key
    # take about 14 KB, so 1,024 of them stay under 15 MB of a worker's 150 (4,096 were up to 56 MB).
    app.extensions["drawings"] = lru_cache(maxsize=1024)(_render)


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


def page_or_fragment(page: str, fragment: str, status: int = 200, *, pure: bool = False, **context):
    """Render ``fragment`` for htmx and ``page`` otherwise; caches are told the answer depends on it.

    ``pure`` says the fragment depends on nothing but ``context``, all of it hashable, so that it
    can be drawn once for each different context (remembered_partial) instead of on every request.
    """
    if not is_htmx():
        body = render_template(page, **context)
    elif pure:
        body = remembered_partial(fragment, **context)
    else:
        body = render_template(fragment, **context)
    response = make_response(body, status)
    vary_on(response, "HX-Request")
    return response
