"""Refuse cross-site form posts and oversized bodies, keep redirects on this site, and send the
security headers on every response."""

from __future__ import annotations

import io
from urllib.parse import urlsplit, urlunsplit

from flask import Flask, abort, current_app, request

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
# The largest request the game makes, a whole 15×15 game's moves, is about 1 KB: a body may be four times that.
BODY_BYTES = 4 * 1024
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "object-src 'none'",
    ]
)


def init_app(app: Flask) -> None:
    """Register the checks; after assets.init_app, so that the body limit stands in front of the static files."""
    # Werkzeug would answer "/static//app.js" or "/tree/" with a redirect to an absolute address
    # built from the Host header, which anyone can set; with these off it simply finds no page.
    app.url_map.merge_slashes = False
    app.url_map.strict_slashes = False
    app.before_request(refuse_bad_hosts)
    app.before_request(refuse_oversized_bodies)
    app.before_request(refuse_cross_site_requests)
    app.after_request(keep_redirects_on_this_site)
    app.after_request(keep_out_of_shared_caches)
    app.wsgi_app = HostCheck(SecurityHeaders(BodyLimit(app.wsgi_app, app)))  # type: ignore[method-assign]  # Flask documents wrapping its WSGI app so


# Where a Host header names no host, the request goes on under this name, only to be refused.
STAND_IN_HOST = "bad-host.invalid"
BAD_HOST = "The request's Host header does not name a host, so it was refused."


def is_host_name(text: str) -> bool:
    """Whether a Host header's value is a name Werkzeug can bind URLs to: each label of the name, in
    IDNA form, from 1 to 63 characters, and the name no longer than 253 (a port may follow).

    >>> is_host_name("example.com:8000"), is_host_name("a" * 64 + ".com"), is_host_name("a..b"), is_host_name("xn--")
    (True, False, False, False)
    """
    name = text.partition(":")[0]
    try:
        # Both ways, as Werkzeug goes both ways: "xn--" encodes, then fails to decode.
        name.encode("idna").decode("idna")
    except UnicodeError:
        return False
    return True


class HostCheck:
    """WSGI middleware for Host headers that name no host (a label over 63 characters, an empty one).

    Werkzeug cannot bind addresses to such a name: Flask then failed again while drawing the error
    page, and every route, the health check included, answered 500 with a traceback in the log. The
    request now goes on under a stand-in name, flagged, and refuse_bad_hosts answers it 400.
    """

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app

    def __call__(self, environ, start_response):
        host = environ.get("HTTP_HOST")
        if host is not None and not is_host_name(host):
            environ["HTTP_HOST"] = STAND_IN_HOST
            environ["webapp.bad_host"] = True
        return self.wsgi_app(environ, start_response)


def refuse_bad_hosts():
    if request.environ.get("webapp.bad_host"):
        abort(400, description=BAD_HOST)


class BodyLimit:
    """WSGI middleware that holds every request body to MAX_CONTENT_LENGTH, for every address.

    A body sent in chunks declares no length, and Werkzeug then silently cuts it at the limit (a
    move was played from the first 64 KB of a larger body). So a chunked body is read here, up to
    one byte past the limit, and handed on with its length, and one that is too large, or declares
    a length that is, is refused before any route, static files included, sees it.
    """

    def __init__(self, wsgi_app, app: Flask):
        self.wsgi_app, self.app = wsgi_app, app

    def __call__(self, environ, start_response):
        limit = self.app.config["MAX_CONTENT_LENGTH"]
        stream = environ["wsgi.input"]
        declared = environ.get("CONTENT_LENGTH", "")
        # The server has already taken the chunks apart; a chunked body's length is what it reads.
        if "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
            body = stream.read(limit + 1)
            if len(body) > limit:
                discard(stream, DRAIN_BYTES)  # the de-chunked stream ends with the last chunk
            environ.pop("HTTP_TRANSFER_ENCODING")
            environ.pop("wsgi.input_terminated", None)
            environ["wsgi.input"], environ["CONTENT_LENGTH"] = io.BytesIO(body), str(len(body))
        elif declared.isdigit() and int(declared) > limit:
            # Never past the declared length: some servers hand over the raw socket.
            discard(stream, min(int(declared), DRAIN_BYTES))
        if environ.get("CONTENT_LENGTH", "").isdigit() and int(environ["CONTENT_LENGTH"]) > limit:
            # Straight to Flask, past the static files, whose answer would ignore the body:
            # refuse_oversized_bodies answers 413 the way every other refusal is answered.
            return Flask.wsgi_app(self.app, environ, start_response)
        return self.wsgi_app(environ, start_response)


# The server closes the connection after the 413; if the client is still sending, unread bytes make
# the kernel reset the connection, and the client may lose the answer before it reads it. So the
# rest of an oversized body is read and thrown away, up to this much (then the reset is deserved).
DRAIN_BYTES = 64 * 1024


def discard(stream, most: int, block_size: int = 8192) -> None:
    """Read and drop up to ``most`` bytes of ``stream``, a block at a time: nothing is kept."""
    while most > 0:
        block = stream.read(min(block_size, most))
        if not block:
            return
        most -= len(block)


def refuse_oversized_bodies():
    """Refuse a body over the limit even on a route that would never read it."""
    if request.content_length is not None and request.content_length > current_app.config["MAX_CONTENT_LENGTH"]:
        limit = current_app.config["MAX_CONTENT_LENGTH"] // 1024
        abort(413, description=f"That request was too large: the game takes at most {limit} KB.")


def refuse_cross_site_requests():
    """Refuse a state-changing request that a browser says came from another site.

    Browsers mark every request with Sec-Fetch-Site, and older ones still send Origin on a POST;
    a request without either did not come from a browser page, so it cannot be forged by one.
    This works without JavaScript and without a token in every form (the approach of Go's
    net/http CrossOriginProtection); the SameSite=Lax cookie is a second line of defence.

    Both headers are checked when both came: a page elsewhere cannot pass with one of them. The
    origin is compared whole, scheme included: an http page cannot post into the https site.
    """
    if request.method in SAFE_METHODS:
        return None
    site = request.headers.get("Sec-Fetch-Site")
    origin = request.headers.get("Origin")
    if site is not None and site not in ("same-origin", "none"):
        abort(403, description=CROSS_SITE)
    if origin is not None and origin.lower() != f"{request.scheme}://{request.host}".lower():
        abort(403, description=CROSS_SITE)
    return None


CROSS_SITE = "This request came from another site, so it was refused."

# Everything Flask answers is about one visitor's game, or may be (the nav, a notice): never kept in a
# shared cache. A fragment or a JSON answer is never kept at all; a page may be kept by the browser
# alone, for Back and Forward, but asked for again before it is shown anew. Only the fingerprinted
# static files, which WhiteNoise serves before Flask sees the request, are cached publicly, for a year.
PAGE_CACHING = "private, no-cache"
FRAGMENT_CACHING = "no-store"


def _asks_for_a_fragment() -> bool:
    """Whether htmx asked for a fragment: its HX-Request header, unless it is restoring a page from its history."""
    # Read here, not from the pages' rendering: the serving layer imports nothing of the game (tests/test_layout.py).
    environ = request.environ
    return environ.get("HTTP_HX_REQUEST") == "true" and environ.get("HTTP_HX_HISTORY_RESTORE_REQUEST") != "true"


def keep_out_of_shared_caches(response):
    if "Cache-Control" not in response.headers:
        page = response.mimetype == "text/html" and not _asks_for_a_fragment() and response.status_code < 300
        response.headers["Cache-Control"] = PAGE_CACHING if page else FRAGMENT_CACHING
    return response


def keep_redirects_on_this_site(response):
    """Make every redirect a path on this site, whatever built it and whatever Host was sent."""
    # Only a 3xx answer is followed; looking for Location in every other answer's headers costs a move time.
    if 300 <= response.status_code < 400 and response.location:
        parts = urlsplit(response.location)
        # Browsers read "//evil.example" and "/\\evil.example" (tabs and newlines dropped) as another
        # host: one slash only.
        path = "/" + parts.path.lstrip("/\\\t\r\n ")
        response.location = urlunsplit(("", "", path, parts.query, parts.fragment))
    return response


SECURITY_HEADERS = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"),
    ("X-Frame-Options", "DENY"),
    ("Cross-Origin-Opener-Policy", "same-origin"),
    ("Permissions-Policy", "camera=(), microphone=(), geolocation=()"),
)


class SecurityHeaders:
    """WSGI middleware that sends the security headers on every response, static files and refusals included.

    Added here as plain pairs, once per response: through Werkzeug's Headers each would be checked
    again for line breaks on every move, and no response of ours sets any of them itself.
    """

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app

    def __call__(self, environ, start_response):
        def start(status, headers, exc_info=None):
            headers.extend(SECURITY_HEADERS)
            # ProxyFix, further out, has set the scheme from X-Forwarded-Proto.
            if environ.get("wsgi.url_scheme") == "https":
                headers.append(STRICT_TRANSPORT_SECURITY)
            return start_response(status, headers, exc_info)

        return self.wsgi_app(environ, start)


STRICT_TRANSPORT_SECURITY = ("Strict-Transport-Security", "max-age=31536000")
