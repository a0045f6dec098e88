import pytest


@pytest.mark.parametrize(
    ("method", "path", "status", "heading"),
    [
        ("GET", "/no-such-page", 404, "Page not found"),
        ("POST", "/tree", 405, "Not a request this address takes"),
        ("GET", "/tree?board=XX", 400, "This position cannot be explored"),
        ("GET", "/tree/children?board=.........", 400, "This position cannot be explored"),
    ],
)
def test_an_error_page_is_headed_in_a_players_words(client, method, path, status, heading):
    response = client.open(path, method=method)
    html = response.get_data(as_text=True)
    assert response.status_code == status
    assert f'<h1 id="problem-title">{heading}</h1>' in html
    for name in ("Bad Request", "Not Found", "Method Not Allowed"):
        assert name not in html


def test_the_api_answers_its_errors_in_json(client):
    response = client.get("/api/analyze")
    assert response.status_code == 400 and "error" in response.get_json()
