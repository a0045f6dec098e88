import io
import re
from urllib.parse import quote, urlencode

import pytest
from flask import redirect
from support import HX, full_15x15_draw, page, send

from webapp.match import Table
from webapp.serving.security import BODY_BYTES, keep_redirects_on_this_site


def test_every_page_carries_the_security_headers(client):
    headers = client.get("/").headers
    csp = headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["X-Frame-Options"] == "DENY"
    assert "Strict-Transport-Security" not in headers


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/static/app.css", 200),  # served by WhiteNoise, outside Flask
        ("GET", "/no-such-page", 404),
        ("POST", "/move", 400),  # a refusal, to htmx
        ("POST", "/new", 303),  # a redirect without JavaScript
    ],
)
def test_every_response_carries_the_security_headers_once(client, method, path, status):
    data = {"mode": "hvh"} if path == "/new" else None
    response = client.open(path, method=method, data=data, headers=HX if path == "/move" else None)
    response.close()  # a static file is streamed from disk
    assert response.status_code == status
    for name in ("Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy"):
        assert len(response.headers.get_all(name)) == 1, name


def test_hsts_only_over_https(client):
    assert "max-age" in client.get("/", headers={"X-Forwarded-Proto": "https"}).headers["Strict-Transport-Security"]


def test_the_page_has_no_inline_script_or_style(client):
    html = client.get("/").get_data(as_text=True)
    assert "<script>" not in html and "<style" not in html and "style=" not in html
    assert html.count("<script src=") == 2


@pytest.mark.parametrize(
    "headers",
    [
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
        {"Origin": "https://evil.example"},
        {"Origin": "null"},
    ],
)
@pytest.mark.parametrize("path", ["/move", "/new", "/undo", "/values"])
def test_cross_site_posts_are_refused(client, headers, path):
    response = client.post(path, data={"cell": "4", "game": Table().digest}, headers=headers)
    assert response.status_code == 403
    assert "came from another site" in response.get_data(as_text=True)
    assert page(client)["board"] == "........."


@pytest.mark.parametrize(
    "headers",
    [
        {"Sec-Fetch-Site": "same-origin", "Origin": "http://localhost"},
        {"Origin": "http://localhost"},
        {"Sec-Fetch-Site": "none"},
        {},  # not a browser: nothing for a page elsewhere to forge
    ],
)
def test_same_origin_posts_are_allowed(client, headers):
    response = client.post("/move", data={"cell": "4", "game": Table().digest}, headers={**HX, **headers})
    assert response.status_code == 200
    assert page(client)["board"][4] == "X"


def test_a_refused_htmx_request_gets_a_fragment_not_a_page(client):
    response = client.post(
        "/move", data={"cell": "4", "game": Table().digest}, headers={**HX, "Sec-Fetch-Site": "cross-site"}
    )
    assert response.status_code == 403
    assert "<html" not in response.get_data(as_text=True)


# --- bodies over the limit ----------------------------------------------------------------------

LIMIT = BODY_BYTES
CHUNKED = {"Transfer-Encoding": "chunked", "Content-Type": "application/x-www-form-urlencoded"}


def padded_form(size: int) -> bytes:
    """A valid move (X in the centre) padded with an unknown field to ``size`` bytes."""
    form = f"cell=4&game={Table().digest}&padding=".encode()
    return form + b"a" * (size - len(form))


@pytest.mark.parametrize("path", ["/move", "/new", "/undo", "/values", "/api/move"])
@pytest.mark.parametrize("size", [LIMIT + 1, 10 * LIMIT])
def test_a_chunked_body_over_the_limit_is_refused_like_a_long_one(client, path, size):
    response = client.post(path, input_stream=io.BytesIO(padded_form(size)), headers={**HX, **CHUNKED})
    assert response.status_code == 413
    assert "too large" in response.get_data(as_text=True)
    assert page(client)["board"] == "........."


def test_a_chunked_body_within_the_limit_is_read_whole(client):
    response = client.post("/move", input_stream=io.BytesIO(padded_form(LIMIT)), headers={**HX, **CHUNKED})
    assert response.status_code == 200
    assert page(client)["board"][4] == "X"


def test_the_largest_form_the_game_sends_fits_four_times_over(client):
    """Play from here, from move 224 of a whole 15×15 game: the longest move list a page can post."""
    moves = ".".join(map(str, full_15x15_draw()[:224]))
    form = {"board": "15x15", "moves": moves, "game": page(client)["game"], "against": "computer", "level": "minimax"}
    assert len(urlencode(form)) * 4 < LIMIT
    response = client.post("/play-from", data=form)
    assert response.status_code == 303
    assert page(client)["ply"] in ("224", "225")  # and Hard has replied, if it was its turn


def test_a_body_with_a_length_over_the_limit_is_refused(client):
    response = client.post("/move", data=padded_form(LIMIT + 1), headers={**HX, **CHUNKED, "Transfer-Encoding": ""})
    assert response.status_code == 413
    assert page(client)["board"] == "........."


def static_file(client) -> str:
    return re.search(r'href="(/static/app\.[^"]+\.css)"', client.get("/").get_data(as_text=True)).group(1)


@pytest.mark.parametrize("chunked", [False, True], ids=["length", "chunked"])
@pytest.mark.parametrize("path", ["/", "/healthz", "/tree", "/tournament", "/api/analyze?board=X........", "/nowhere"])
def test_routes_that_read_no_body_refuse_an_oversized_one(client, path, chunked):
    body = b"a" * (LIMIT + 1)
    if chunked:
        response = client.get(path, input_stream=io.BytesIO(body), headers=CHUNKED)
    else:
        response = client.get(path, data=body)
    assert response.status_code == 413
    assert "too large" in response.get_data(as_text=True)


def test_static_files_refuse_an_oversized_body_too(client):
    path = static_file(client)
    with client.get(path) as served:
        assert served.status_code == 200
    response = client.get(path, data=b"a" * (LIMIT + 1))
    assert response.status_code == 413


# --- redirects ----------------------------------------------------------------------------------

EVIL = {"Host": "evil.example"}


@pytest.mark.parametrize(
    "path", ["/static//app.js", "/static//favicon.svg", "/tree/", "/healthz/", "/numbers//", "/api//analyze"]
)
def test_no_redirect_is_built_from_the_host_header(client, path):
    response = client.get(path, headers=EVIL)
    assert response.status_code not in range(300, 400), response.headers.get("Location")


def test_the_static_files_doubled_slash_is_not_redirected(client):
    doubled = static_file(client).replace("/static/", "/static//")
    response = client.get(doubled, headers=EVIL)
    assert response.status_code == 404


@pytest.mark.parametrize("path", ["/move", "/new", "/undo"])
def test_a_form_posts_redirect_stays_on_this_site(client, path):
    response = client.post(path, data={"cell": "4", "game": Table().digest}, headers=EVIL)
    assert response.status_code == 303
    assert response.headers["Location"] == "/"


@pytest.mark.parametrize(
    ("location", "kept"),
    [
        ("http://evil.example/", "/"),
        ("https://evil.example/tree?board=X........#x", "/tree?board=X........#x"),
        ("//evil.example/x", "/x"),
        ("/\\evil.example/x", "/evil.example/x"),
        ("/\t/evil.example", "/"),  # browsers drop the tab: "//evil.example"
        ("/tree", "/tree"),
    ],
)
def test_every_redirect_is_a_path_on_this_site(app, location, kept):
    with app.test_request_context("/"):
        response = keep_redirects_on_this_site(redirect(location))
    assert response.headers["Location"] == kept


# --- origins --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://localhost"},  # same host, another scheme
        {"Origin": "http://localhost:8080"},  # same host, another port
        {"Origin": "http://localhost.evil.example"},
        {"Sec-Fetch-Site": "same-origin", "Origin": "https://evil.example"},
        {"Sec-Fetch-Site": "none", "Origin": "https://evil.example"},
        {"Sec-Fetch-Site": "same-origin", "Origin": "https://localhost"},
    ],
)
def test_the_whole_origin_must_match(client, headers):
    response = client.post("/move", data={"cell": "4", "game": Table().digest}, headers={**HX, **headers})
    assert response.status_code == 403
    assert page(client)["board"] == "........."


@pytest.mark.parametrize(
    ("proto", "origin", "status"),
    [("https", "https://localhost", 200), ("https", "http://localhost", 403), ("http", "http://LOCALHOST", 200)],
)
def test_the_scheme_is_the_one_the_proxy_reports(client, proto, origin, status):
    headers = {**HX, "X-Forwarded-Proto": proto, "Origin": origin, "Sec-Fetch-Site": "same-origin"}
    assert client.post("/move", data={"cell": "4", "game": Table().digest}, headers=headers).status_code == status


# --- a visitor's text shown back never carries bidirectional controls -------------------------------------------

BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
SPOOF = "\u202eknl.com etis live"  # reads "evil site moc.lnk" once the override reverses it
# Every place a visitor's text can come back: each link's and form's fields, as a page, to htmx and to the API.
ECHOED = [
    ("GET", "/?board={}", None),
    ("GET", "/?moves={}", None),
    ("GET", "/?moves=4.0&at={}", None),
    ("GET", "/review?moves={}", None),
    ("GET", "/review?board={}&moves=4", None),
    ("GET", "/review?moves=4.0&at={}", None),
    ("GET", "/review/grades?board=7x7&moves=0.7&start={}", HX),
    ("GET", "/play-from?moves={}", None),
    ("GET", "/play-from?board={}&moves=4", None),
    ("GET", "/tree?board={}", None),
    ("GET", "/tree?path={}", None),
    ("GET", "/tree/children?path={}", HX),
    ("GET", "/api/analyze?board={}", None),
    ("GET", "/api/review?moves={}", None),
    ("GET", "/api/review?board={}&moves=4", None),
    ("POST", "/new", {"mode": "{}"}),
    ("POST", "/new", {"side": "{}", "mode": "hvc"}),
    ("POST", "/new", {"board": "{}"}),
    ("POST", "/new", {"difficulty": "{}"}),
    ("POST", "/levels", {"difficulty": "{}"}),
    ("POST", "/move", {"cell": "{}"}),
    ("POST", "/play-from", {"moves": "{}"}),
    ("POST", "/play-from", {"board": "{}", "moves": "4"}),
]


@pytest.mark.parametrize("control", list(BIDI), ids=[f"U+{ord(c):04X}" for c in BIDI])
@pytest.mark.parametrize(("method", "where", "fields"), ECHOED, ids=[f"{m} {w} {f or ''}" for m, w, f in ECHOED])
def test_a_visitors_text_comes_back_without_bidi_controls(client, method, where, fields, control):
    text = SPOOF.replace("\u202e", control)
    if method == "GET":
        responses = [client.get(where.format(quote(text)), headers=fields or {})]
    else:
        form = {name: value.format(text) for name, value in fields.items()}
        responses = [send(client, where, headers=HX, **form)]
        send(client, where, **form)  # without JavaScript: the message waits in the session for the next page
        responses.append(client.get("/"))
    for response in responses:
        shown = str(response.get_json()) if response.is_json else response.get_data(as_text=True)
        assert not set(BIDI) & set(shown)


@pytest.mark.parametrize("route", ["/", "/review"])
def test_a_spoofed_link_is_quoted_in_the_order_it_was_sent(client, route):
    html = client.get(f"{route}?moves=4.0&at={quote(SPOOF)}").get_data(as_text=True)
    assert "The link asks for move “\\u202eknl.com etis live”" in html
