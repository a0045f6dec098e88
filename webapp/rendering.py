"""The one helper that decides between an htmx fragment and a full page."""

from __future__ import annotations

from flask import make_response, render_template, request


def is_htmx() -> bool:
    """An htmx request wants a fragment, except when htmx restores a page from its history."""
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-History-Restore-Request") != "true"


def page_or_fragment(page: str, fragment: str, status: int = 200, **context):
    """Render ``fragment`` for htmx and ``page`` otherwise; caches are told the answer depends on it."""
    response = make_response(render_template(fragment if is_htmx() else page, **context), status)
    response.vary.add("HX-Request")
    return response
