"""The friend game's pages as the Flask test client sees them: the app, a game started, a move sent as a page
would send it, and what a page says. Shared by tests/web/test_friend.py and test_friend_actions.py."""

from __future__ import annotations

import re

from conftest import COMPILED_TEMPLATES

from webapp import create_app

NAVIGATION = {"Sec-Fetch-Dest": "document", "Sec-Fetch-Mode": "navigate"}
HTMX = {"HX-Request": "true"}


def make_app(tmp_path, **config):
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "FRIEND_DATABASE": str(tmp_path / "friends.sqlite3")} | config
    )
    app.jinja_env.bytecode_cache = COMPILED_TEMPLATES
    return app


def status_of(response) -> str:
    return re.search(r'class="status-text"[^>]*>([^<]*)<', response.text).group(1).replace("&#39;", "'")


def board_of(response) -> str:
    return re.search(r'data-board="([^"]*)"', response.text).group(1)


def alert_of(response) -> str:
    found = re.search(r'role="alert">([^<]*)<', response.text)
    return found.group(1).replace("&#39;", "'") if found else ""


def start(client, board="3x3", **headers) -> str:
    response = client.post("/new", data={"mode": "friend", "board": board}, headers=headers)
    assert response.status_code == 303
    return response.headers["Location"]


def drawn_fields(page) -> dict[str, str]:
    """The round and the move number a page's board form sends: what its viewer saw."""
    return dict(re.findall(r'<input type="hidden" name="(round|ply)" value="([^"]*)">', page.text))


def move(client, address, cell, headers=HTMX, **drawn):
    """A move from this client's page as it is now, unless ``drawn`` names the round and move number it was drawn at."""
    fields = drawn_fields(client.get(address)) | {name: str(value) for name, value in drawn.items()}
    return client.post(f"{address}/move", data={"cell": cell} | fields, headers=headers)
