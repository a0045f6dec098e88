import gzip

import pytest
from support import HX

from webapp.match import Table

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


@pytest.mark.parametrize("path", ["/", "/tree", "/tournament"])
def test_pages_are_gzipped_for_browsers_that_accept_it(client, path):
    plain = client.get(path)
    packed = client.get(path, headers=GZIP)
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.get_data()) == plain.get_data()
    assert len(packed.get_data()) < len(plain.get_data()) / 2
    for response in (plain, packed):
        assert "Accept-Encoding" in response.headers["Vary"]
        assert "HX-Request" in response.headers["Vary"]


def test_the_game_page_is_sent_in_under_3_kb(client):
    assert len(client.get("/", headers=GZIP).get_data()) < 3 * 1024


def test_fragments_are_gzipped_too(client):
    response = client.post("/move", data={"cell": "4", "game": Table().digest}, headers={**HX, **GZIP})
    assert response.status_code == 200
    assert response.headers["Content-Encoding"] == "gzip"
    assert b'data-board="....X' in gzip.decompress(response.get_data())


def test_an_error_page_is_gzipped_too(client):
    response = client.get("/nowhere", headers=GZIP)
    assert response.status_code == 404
    assert response.headers["Content-Encoding"] == "gzip"
    assert "There is no page at this address." in gzip.decompress(response.get_data()).decode()


@pytest.mark.parametrize("accept", ["", "identity", "gzip;q=0", "br", "deflate"])
def test_no_gzip_unless_the_browser_accepts_it(client, accept):
    response = client.get("/", headers={"Accept-Encoding": accept})
    assert "Content-Encoding" not in response.headers
    assert response.get_data().lower().startswith(b"<!doctype html>")


def test_tiny_bodies_stay_plain(client):
    response = client.get("/healthz", headers=GZIP)
    assert "Content-Encoding" not in response.headers
    assert response.get_json() == {"status": "ok"}
    assert "Accept-Encoding" in response.headers["Vary"]


def test_static_files_are_left_to_whitenoise(client):
    css = next(line for line in client.get("/").get_data(as_text=True).split('"') if line.endswith(".css"))
    with client.get(css, headers=GZIP) as response:
        assert response.headers["Content-Encoding"] == "gzip"
        assert response.headers["Content-Type"].startswith("text/css")
