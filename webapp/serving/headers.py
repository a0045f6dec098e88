"""Small, cheap edits of a response's headers, shared by the rendering, the compression and the session."""

from __future__ import annotations


def vary_on(response, name: str) -> None:
    """Add ``name`` to the response's Vary header.

    Werkzeug's ``response.vary`` parses the whole header into a set and writes it back on every change,
    a few percent of a move; the names added here are plain tokens, never quoted.
    """
    current = response.headers.get("Vary")
    if not current:
        response.headers["Vary"] = name
    elif name.lower() not in (part.strip().lower() for part in current.split(",")):
        response.headers["Vary"] = f"{current}, {name}"
