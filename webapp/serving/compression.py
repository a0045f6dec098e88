"""Pages, fragments and JSON sent gzip-compressed to the browsers that accept it.

A game page is about 7 KB of HTML that gzip makes about 2 KB; on a slow phone connection that is
most of the wait. Static files are compressed once, ahead of time, by WhiteNoise (assets.py); the
HTML is drawn per request, so it is compressed per request, at a level that costs tens of
microseconds. The pages hold no secret (the game lives in the cookie, forms carry no token), so
compressing text that echoes what a visitor sent gives nothing away (BREACH needs both).
"""

from __future__ import annotations

import zlib

from flask import Flask, Response, request

from webapp.serving.headers import vary_on

COMPRESSIBLE = {"text/html", "application/json"}
# Below this the gzip header and a second round trip through zlib are not worth it.
MIN_BYTES = 1024
LEVEL = 6
GZIP = 16 + zlib.MAX_WBITS  # zlib's window bits for the gzip container


def init_app(app: Flask) -> None:
    app.after_request(compress)


def compress(response: Response) -> Response:
    """Gzip the body if the browser accepts it and it is text worth compressing; say it varies."""
    if response.mimetype not in COMPRESSIBLE or response.direct_passthrough:
        return response
    # Whether or not this answer is compressed, another browser's answer may be.
    vary_on(response, "Accept-Encoding")
    # The plain test first: most requests that do not take gzip send no Accept-Encoding at all.
    if "gzip" not in request.headers.get("Accept-Encoding", "") or request.accept_encodings["gzip"] <= 0:
        return response
    if "Content-Encoding" in response.headers:
        return response
    if response.status_code < 200 or response.status_code in (204, 304):
        return response
    body = response.get_data()
    if len(body) < MIN_BYTES:
        return response
    response.set_data(zlib.compress(body, LEVEL, wbits=GZIP))
    response.headers["Content-Encoding"] = "gzip"
    return response
