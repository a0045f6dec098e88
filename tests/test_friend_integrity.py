"""Friend games on the Procfile's server (two workers): creation limits, a store removed under the server, a key
rotated mid-game, and moves sent on a board that has changed since."""

from __future__ import annotations

import json
import secrets
import shutil
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from http.client import HTTPMessage
from pathlib import Path

import pytest
from redis_server import RedisServer
from servers import Gunicorn, board_of, move_form_fields, request, server_environment
from test_production import Visitor, x_wins_shown

NAVIGATION = {"Sec-Fetch-Dest": "document", "Sec-Fetch-Mode": "navigate"}
# Enough probes that both workers answer some (each new connection goes to whichever worker accepts it first).
PROBES = 12


def started(**settings: str) -> Gunicorn:
    server = Gunicorn(server_environment(**({"SECRET_KEY": secrets.token_hex(32)} | settings)))
    server.wait_until_healthy()
    return server


@pytest.fixture
def server_with(tmp_path):
    """``server_with(**settings)``: the Procfile's server with its friend games in this test's folder."""
    running = []

    def start(**settings: str) -> Gunicorn:
        settings = {"FRIEND_DATABASE": str(tmp_path / "instance" / "friends.sqlite3")} | settings
        running.append(started(**settings))
        return running[-1]

    yield start
    for server in running:
        server.stop()


def seat_cookie(headers) -> str:
    return next(h.split(";")[0] for h in headers.get_all("Set-Cookie") if h.startswith("seat="))


def new_game(port: int, forwarded: str | None = None) -> tuple[int, HTTPMessage]:
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    status, answer, _ = request(port, "POST", "/new", body="mode=friend&board=3x3", headers=headers)
    return status, answer


def seated_pair(port: int) -> tuple[str, str, str]:
    """A fresh game and its two seats: (address, the inviter's cookie, the friend's cookie)."""
    status, answer = new_game(port)
    assert status == 303
    address = answer["Location"]
    status, joined, _ = request(port, "GET", address, headers=NAVIGATION)
    assert status == 200
    return address, seat_cookie(answer), seat_cookie(joined)


def drawn(port: int, address: str, cookie: str) -> str:
    """The move form's hidden fields (the round and the move number) as this seat's page has them now."""
    status, _, page = request(port, "GET", address, headers={"Cookie": cookie})
    assert status == 200
    return "&".join(f"{name}={value}" for name, value in move_form_fields(page.decode()))


def send_move(port: int, address: str, cookie: str, cell: int, fields: str, htmx: bool = False):
    headers = {"Cookie": cookie} | ({"HX-Request": "true"} if htmx else {})
    return request(port, "POST", f"{address}/move", body=f"cell={cell}&{fields}", headers=headers)


def health(port: int) -> list[dict]:
    return [json.loads(request(port, "GET", "/healthz")[2]) for _ in range(PROBES)]


def test_creations_count_an_ipv6_64_as_one_client_and_a_full_store_says_when_to_come_back(server_with):
    server = server_with(PROXY_COUNT="1", FRIEND_GAMES_MOST="8")
    for host in range(1, 6):
        assert new_game(server.port, f"2001:db8:5:6::{host}")[0] == 303
    status, answer = new_game(server.port, "2001:db8:5:6:7::8")
    assert status == 429 and 1 <= int(answer["Retry-After"]) <= 60
    for host in range(1, 4):
        assert new_game(server.port, f"192.0.2.{host}")[0] == 303
    status, answer = new_game(server.port, "192.0.2.99")
    assert status == 503 and 3590 <= int(answer["Retry-After"]) <= 3600  # none joined: the first ends within the hour
    full = {"status": "degraded", "failing": "friend games' store (SQLite) is full: FRIEND_GAMES_MOST=8"}
    assert health(server.port) == [full] * PROBES


def test_a_store_deleted_under_the_server_acknowledges_no_move_and_every_worker_says_degraded(server_with, tmp_path):
    server = server_with()
    address, inviter, friend = seated_pair(server.port)
    assert send_move(server.port, address, inviter, 4, drawn(server.port, address, inviter))[0] == 303
    fields = drawn(server.port, address, friend)
    shutil.rmtree(tmp_path / "instance")
    for _ in range(PROBES):  # whichever worker takes it
        status, _, body = send_move(server.port, address, friend, 0, fields)
        assert status == 503, body.decode()
    assert health(server.port) == [{"status": "degraded", "failing": "friend games' store (SQLite)"}] * PROBES
    assert not Path(tmp_path / "instance").exists()  # no empty store made in its place


def test_a_key_rotated_mid_game_keeps_both_seats_playing_and_a_solo_game_and_its_score(server_with):
    old_key = secrets.token_hex(32)
    before = server_with(SECRET_KEY=old_key)
    address, inviter, friend = seated_pair(before.port)
    assert send_move(before.port, address, inviter, 4, drawn(before.port, address, inviter))[0] == 303
    solo = Visitor(before.port)
    body = solo.keep(solo.send("/new", {"mode": "hvh", "confirm": 1}, solo.keep(solo.send("/"))))
    for cell in (0, 3, 1, 4, 2, 8):  # X wins at 2; the next game has X in the corner
        if cell == 8:
            body = solo.keep(solo.send("/new", {"mode": "hvh", "confirm": 1}, body))
        body = solo.keep(solo.send("/move", {"cell": cell}, body))
    before.stop()
    after = server_with(SECRET_KEY=secrets.token_hex(32), SECRET_KEY_FALLBACKS=old_key)
    solo.port = after.port
    page = solo.keep(solo.send("/"))
    assert board_of(page)["board"] == "........X" and b"could not be read" not in page
    assert x_wins_shown(solo) == 1
    for cookie, cell in ((friend, 0), (inviter, 8)):
        status, _, body = send_move(after.port, address, cookie, cell, drawn(after.port, address, cookie))
        assert status == 303, body.decode()
    _, _, page = request(after.port, "GET", address, headers={"Cookie": friend})
    assert board_of(page)["board"] == "O...X...X"


def test_a_move_sent_on_a_board_that_changed_since_is_refused_and_the_page_redrawn(server_with):
    server = server_with()
    address, inviter, friend = seated_pair(server.port)
    seen_by_friend = drawn(server.port, address, friend)
    assert send_move(server.port, address, inviter, 4, drawn(server.port, address, inviter))[0] == 303
    status, _, body = send_move(server.port, address, friend, 0, seen_by_friend, htmx=True)
    assert status == 409 and board_of(body)["board"] == "....X...."  # htmx swaps in the board as it is
    status, _, body = send_move(server.port, address, friend, 0, seen_by_friend)
    assert status == 409 and b"<html" in body and board_of(body)["board"] == "....X...."


def test_both_seats_posting_at_once_never_play_a_move_on_a_board_its_sender_never_saw(server_with):
    server = server_with(FRIEND_CREATIONS_PER_MINUTE="100")
    with ThreadPoolExecutor(2) as pool:
        for _ in range(10):
            address, inviter, friend = seated_pair(server.port)
            fields = drawn(server.port, address, inviter), drawn(server.port, address, friend)
            x = pool.submit(send_move, server.port, address, inviter, 4, fields[0])
            o = pool.submit(send_move, server.port, address, friend, 0, fields[1])
            assert x.result()[0] == 303 and o.result()[0] == 409  # O's page was drawn before X's move
            _, _, page = request(server.port, "GET", address, headers={"Cookie": friend})
            assert board_of(page)["board"] == "....X...."


def test_a_redis_that_syncs_every_change_killed_mid_game_keeps_every_acknowledged_move(server_with):
    with RedisServer("--appendonly", "yes", "--appendfsync", "always") as redis:  # as docs/deploy.md asks
        server = server_with(REDIS_URL=redis.url)
        address, inviter, friend = seated_pair(server.port)
        for cookie, cell in ((inviter, 4), (friend, 0), (inviter, 8)):
            assert send_move(server.port, address, cookie, cell, drawn(server.port, address, cookie))[0] == 303
        redis.process.kill()
        redis.process.wait()
        redis.start()
        status, _, page = request(server.port, "GET", address, headers={"Cookie": friend})
        assert status == 200 and board_of(page)["board"] == "O...X...X"


def test_while_the_store_cannot_be_written_every_worker_s_healthz_says_so(server_with, tmp_path):
    server = server_with()
    assert health(server.port) == [{"status": "ok"}] * PROBES
    other = sqlite3.connect(tmp_path / "instance" / "friends.sqlite3", isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock, and keeps it
        assert health(server.port) == [{"status": "degraded", "failing": "friend games' store (SQLite)"}] * PROBES
    finally:
        other.rollback()
        other.close()
    assert health(server.port) == [{"status": "ok"}] * PROBES
