"""Friend games across instances: two copies of the Procfile server sharing one real Redis.

A game started on one instance is played from the other, each friend's moves reach the other's live stream
whichever instance serves it, each side sees whether the other's page is open, and when one instance is killed
in the middle of the game, the game goes on.
"""

from __future__ import annotations

import http.client
import re
import secrets
import signal

import pytest
from servers import HOST, Gunicorn, move_form_fields, request, server_environment

NAVIGATION = {"Sec-Fetch-Dest": "document", "Sec-Fetch-Mode": "navigate"}


@pytest.fixture(scope="module")
def instances(redis_url):
    env = server_environment(SECRET_KEY=secrets.token_hex(32), WEB_CONCURRENCY="1", REDIS_URL=redis_url)
    started = [Gunicorn(env), Gunicorn(env)]
    try:
        for server in started:
            server.wait_until_healthy()
        yield started
    finally:
        for server in started:
            server.stop()


def seat_cookie(headers) -> str:
    return next(h.split(";")[0] for h in headers.get_all("Set-Cookie") if h.startswith("seat="))


def status_of(body: bytes) -> str:
    return re.search(r'class="status-text"[^>]*>([^<]*)<', body.decode()).group(1).replace("&#39;", "'")


def move(port, address, cookie, cell) -> int:
    """A move from the page as it is now: its form's round and move number read first, as a browser draws them."""
    _, _, page = request(port, "GET", address, headers={"Cookie": cookie})
    drawn = "&".join(f"{name}={value}" for name, value in move_form_fields(page.decode()))
    status, _, _ = request(port, "POST", f"{address}/move", body=f"cell={cell}&{drawn}", headers={"Cookie": cookie})
    return status


class Stream:
    """A page's live stream, read event by event."""

    def __init__(self, port: int, address: str, cookie: str, version: int | str):
        self.connection = http.client.HTTPConnection(HOST, port, timeout=10)
        self.connection.request("GET", f"{address}/events?v={version}", headers={"Cookie": cookie})
        self.response = self.connection.getresponse()
        assert self.response.status == 200

    def next_update(self) -> str:
        lines = []
        while True:
            line = self.response.fp.readline().decode()
            assert line, "the stream ended"
            if line == "\n":
                if any(part.startswith("event: update") for part in lines):
                    return "".join(lines)
                lines = []
            else:
                lines.append(line)

    def update_saying(self, words: str) -> str:
        """The first update that says ``words``: the mover's own pages are sent its moves too."""
        for _ in range(10):
            update = self.next_update().replace("&#39;", "'")
            if words in update:
                return update
        raise AssertionError(f"no update says {words!r}")

    def close(self):
        self.response.close()  # the response holds the socket open, whatever the connection says
        self.connection.close()


def test_each_side_sees_the_other_s_page_come_and_go_across_instances(instances):
    first, second = instances
    _, headers, _ = request(first.port, "POST", "/new", body="mode=friend&board=3x3")
    address, inviter = headers["Location"], seat_cookie(headers)
    _, headers, _ = request(second.port, "POST", f"{address}/join")
    friend = seat_cookie(headers)
    mine = Stream(first.port, address, inviter, version="2-")  # a page drawn before any presence: sent it now
    try:
        assert mine.update_saying("Your friend has not opened the game yet.")
        theirs = Stream(second.port, address, friend, version="2-")
        assert theirs.update_saying("Your friend is here.")
        assert mine.update_saying("Your friend is here.")
        theirs.close()
        assert mine.update_saying("Your friend left")
    finally:
        mine.close()


def test_a_game_started_on_one_instance_is_played_live_from_the_other_and_outlives_it(instances):
    first, second = instances
    status, headers, _ = request(first.port, "POST", "/new", body="mode=friend&board=3x3")
    assert status == 303
    address, inviter = headers["Location"], seat_cookie(headers)
    status, headers, body = request(second.port, "GET", address, headers=NAVIGATION)
    assert status == 200 and "You have joined" in status_of(body)
    friend = seat_cookie(headers)
    # The friend waits on the first instance; the inviter moves on the second.
    stream = Stream(first.port, address, friend, version=2)
    try:
        assert move(second.port, address, inviter, 4) == 303
        assert stream.update_saying("Your friend played the centre")
    finally:
        stream.close()
    assert move(first.port, address, friend, 0) == 303
    # The inviter waits on the second instance while the first dies in the middle of the game.
    stream = Stream(second.port, address, inviter, version=4)
    try:
        first.process.send_signal(signal.SIGKILL)
        first.process.wait(timeout=10)
        assert move(second.port, address, friend, 8) == 409  # still the inviter's turn, checked as before
        for cell, cookie in ((1, inviter), (8, friend), (7, inviter)):
            assert move(second.port, address, cookie, cell) == 303
        assert stream.update_saying("Your friend played the bottom-right corner")
    finally:
        stream.close()
    _, _, body = request(second.port, "GET", address, headers={"Cookie": friend})
    assert status_of(body) == "Your friend wins."
