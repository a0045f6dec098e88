import re

from webapp.web.assets import fingerprint


def test_static_files_get_fingerprinted_names(tmp_path):
    source = tmp_path / "static"
    source.mkdir()
    (source / "app.css").write_text("body { color: red; }" * 20)
    (source / "logo.png").write_bytes(b"\x89PNG not really")
    manifest = fingerprint(source, tmp_path / "build")
    assert re.fullmatch(r"app\.[0-9a-f]{12}\.css", manifest["app.css"])
    assert (tmp_path / "build" / manifest["app.css"]).read_text() == (source / "app.css").read_text()
    assert (tmp_path / "build" / (manifest["app.css"] + ".gz")).exists()  # text compresses
    assert not (tmp_path / "build" / (manifest["logo.png"] + ".gz")).exists()
    (source / "app.css").write_text("body { color: blue; }")
    assert fingerprint(source, tmp_path / "build")["app.css"] != manifest["app.css"]


def test_the_page_links_fingerprinted_files_that_are_cached_for_ever(client):
    html = client.get("/").get_data(as_text=True)
    links = re.findall(r'(?:href|src)="(/static/[^"]+)"', html)
    assert len(links) == 4  # favicon, stylesheet, htmx and our script
    for link in links:
        assert re.search(r"\.[0-9a-f]{12}\.", link)
        with client.get(link) as response:  # closing it closes the file WhiteNoise opened
            assert response.status_code == 200
            assert "immutable" in response.headers["Cache-Control"]
            assert "max-age=315360000" in response.headers["Cache-Control"]
            assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_compressed_when_the_browser_accepts_it(client):
    css = re.search(r'href="(/static/app\.[^"]+\.css)"', client.get("/").get_data(as_text=True)).group(1)
    with client.get(css, headers={"Accept-Encoding": "gzip"}) as response:
        assert response.headers["Content-Encoding"] == "gzip"
        assert "Accept-Encoding" in response.headers["Vary"]


def test_htmx_is_vendored_with_its_version_and_licence():
    from pathlib import Path

    static = Path(__file__).resolve().parents[2] / "static"
    assert (static / "htmx-2.0.11.min.js").read_text().startswith("var htmx=")
    assert "Zero-Clause BSD" in (static / "htmx-2.0.11.LICENSE.txt").read_text()
