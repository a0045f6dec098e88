import pytest
from support import HX, page

from webapp.match import Table


def test_every_page_carries_the_security_headers(client):
    headers = client.get("/").headers
    csp = headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["X-Frame-Options"] == "DENY"
    assert "Strict-Transport-Security" not in headers


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
