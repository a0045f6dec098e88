"""Every refused or failed request gets a short message a person can act on, never a traceback."""

from __future__ import annotations

from typing import NoReturn

from flask import Flask, abort, current_app, request
from werkzeug.exceptions import HTTPException

from webapp.match import visible
from webapp.web.rendering import page_or_fragment

PLAIN_WORDS = {
    400: "That request did not make sense to the game.",
    403: "That request was refused.",
    404: "There is no page at this address.",
    405: "This address does not take that kind of request.",
    413: "That request was too large.",
    429: "The server is busy just now. Try again in a moment.",
    500: "Something went wrong on our side. Please try again.",
}

# The heading of an error page, in a player's words rather than HTTP's ("Bad Request").
PLAIN_TITLES = {
    400: "Something in that address is not right",
    403: "Refused",
    404: "Page not found",
    405: "Not a request this address takes",
    413: "Too large",
    429: "Busy just now",
    500: "Something went wrong",
}
# The game tree's own: its addresses name a position, so that is what went wrong.
TREE_TITLE = "This position cannot be explored"


def init_app(app: Flask) -> None:
    # Unhandled exceptions reach this handler as a 500 (after Flask has logged the traceback);
    # in debug and testing they propagate instead, so that bugs surface.
    app.register_error_handler(HTTPException, handle_http_error)


def handle_http_error(error: HTTPException):
    code = error.code or 500
    # Werkzeug's stock descriptions are written for developers; keep only the ones we wrote.
    custom = error.description != type(error).description
    # A message may quote the request: never with its bidirectional controls, which would reorder the words.
    message = visible(error.description or "") if custom else PLAIN_WORDS.get(code, error.name)
    if request.path.startswith("/api/"):
        response = current_app.make_response(({"error": message}, code))
    else:
        response = page_or_fragment(
            "error.html", "partials/problem.html", code, code=code, title=plain_title(code), message=message
        )
    # What the error adds for the client: when to try again (429), which methods the address takes (405).
    for name, value in error.get_headers():
        if name != "Content-Type":
            response.headers[name] = value
    return response


def plain_title(code: int) -> str:
    """The heading of the page for an error with status ``code``: the tree's own for a bad position."""
    if code == 400 and request.path.startswith("/tree"):
        return TREE_TITLE
    return PLAIN_TITLES.get(code, "Something went wrong" if code >= 500 else "That did not work")


def refuse(error: ValueError) -> NoReturn:
    """Answer 400 with the error's own words, which name what is wrong with the input."""
    abort(400, description=str(error))
