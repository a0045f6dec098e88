"""Friend games' live streams on the Procfile server: their bounds, their stop, every tab, presence and expiry.

Each test speaks from a loopback address of its own (127.0.0.x), so that one test's streams, which the server
counts until it next writes to them, never count against another's bound for their client.
"""

from __future__ import annotations

import http.client
import re
import secrets
import signal
from collections.abc import Iterator

import pytest
from servers import HOST, HTMX, Gunicorn, request, server_environment

PER_CLIENT = 3
# An event waited for comes within this many heartbeats (every 5 s).
HEARTBEATS = 4


def settings(tmp_path_factory, **more: str) -> dict[str, str]:
    database = tmp_path_factory.mktemp("friends") / "friends.sqlite3"
    return server_environment(
        SECRET_KEY=secrets.token_hex(32), WEB_CONCURRENCY="1", FRIEND_DATABASE=str(database), **more
    )


@pytest.fixture(scope="module")
def bounded(tmp_path_factory) -> Iterator[Gunicorn]:
    server = Gunicorn(settings(tmp_path_factory, FRIEND_STREAMS_PER_CLIENT=str(PER_CLIENT)))
    try:
        server.wait_until_healthy()
        yield server
    finally:
        server.stop()


def seat_cookie(headers) -> str:
    return next(h.split(";")[0] for h in headers.get_all("Set-Cookie") if h.startswith("seat="))


def new_pair(port: int) -> tuple[str, str, str]:
    """A 3×3 game with both seats taken, neither page open yet: its address and the two seats' cookies."""
    status, headers, _ = request(port, "POST", "/new", body="mode=friend&board=3x3")
    assert status == 303
    address, inviter = headers["Location"], seat_cookie(headers)
    status, headers, _ = request(port, "POST", f"{address}/join")
    assert status == 303
    return address, inviter, seat_cookie(headers)


def move(port: int, address: str, cookie: str, cell: int) -> int:
    """The game's first move."""
    return request(port, "POST", f"{address}/move", body=f"cell={cell}&round=1&ply=0", headers={"Cookie": cookie})[0]


class Stream:
    """A page's live stream from loopback address ``source``, read event by event."""

    def __init__(self, port: int, address: str, cookie: str, source: str, last_seen: str = "2"):
        self.connection = http.client.HTTPConnection(HOST, port, timeout=15, source_address=(source, 0))
        self.connection.request("GET", f"{address}/events?v={last_seen}", headers={"Cookie": cookie})
        self.response = self.connection.getresponse()
        assert self.response.status == 200 and self.response.headers["Content-Type"].startswith("text/event-stream")

    def next_event(self) -> str:
        """The next event, past comments and lone retry hints; "" once the stream has ended, or after a few
        heartbeats without one."""
        lines: list[str] = []
        heartbeats = 0
        while heartbeats < HEARTBEATS:
            line = self.response.readline().decode()
            if not line:
                return ""
            heartbeats += line.startswith(":")
            if line != "\n":
                lines.append(line)
            elif any(part.startswith("event: ") for part in lines):
                return "".join(lines).replace("&#39;", "'")
            else:
                lines = []
        return ""

    def event_saying(self, words: str) -> str:
        for _ in range(20):
            event = self.next_event()
            assert event, f"the stream ended before saying {words!r}"
            if words in event:
                return event
        raise AssertionError(f"no event says {words!r}")

    def rest(self) -> str:
        """Everything until the stream ends."""
        return self.response.read().decode()

    def close(self) -> None:
        self.response.close()  # the response holds the socket open, whatever the connection says
        self.connection.close()


def test_streams_past_the_client_s_bound_are_refused_and_the_page_follows_its_game_by_polling(bounded):
    address, inviter, guest = new_pair(bounded.port)
    source = "127.0.0.2"
    streams = [Stream(bounded.port, address, guest, source) for _ in range(PER_CLIENT)]
    try:
        refused = Stream(bounded.port, address, guest, source)
        assert "event: full" in refused.rest()  # one event, and the stream ends
        # Another client is not refused for this one's streams.
        Stream(bounded.port, address, inviter, "127.0.0.3").close()
    finally:
        for stream in streams:
            stream.close()
    # Past the bound the page asks for its fragment with the key of what it shows: nothing new is a 204.
    _, _, page = request(bounded.port, "GET", address, headers={"Cookie": guest})
    drawn = re.search(r'data-drawn="([^"]+)"', page.decode()).group(1)
    poll = f"{address}?drawn={drawn}"
    assert request(bounded.port, "GET", poll, headers=HTMX | {"Cookie": guest})[0] == 204
    assert move(bounded.port, address, inviter, 4) == 303
    status, _, fragment = request(bounded.port, "GET", poll, headers=HTMX | {"Cookie": guest})
    assert status == 200 and "Your friend played the centre" in fragment.decode().replace("&#39;", "'")


def test_both_tabs_of_one_seat_redraw_after_that_seat_s_move(bounded):
    address, inviter, _ = new_pair(bounded.port)
    tabs = [Stream(bounded.port, address, inviter, "127.0.0.4") for _ in range(2)]
    try:
        assert move(bounded.port, address, inviter, 4) == 303
        for tab in tabs:
            assert tab.event_saying("You played the centre").startswith("id: 3-")
    finally:
        for tab in tabs:
            tab.close()


def test_each_side_sees_whether_the_other_s_page_is_open(bounded):
    address, inviter, guest = new_pair(bounded.port)
    mine = Stream(bounded.port, address, inviter, "127.0.0.5", last_seen="2-")
    try:
        assert "Your friend has not opened the game yet." in mine.event_saying("Your friend has not opened")
        theirs = Stream(bounded.port, address, guest, "127.0.0.6")
        assert "Your friend is here." in mine.event_saying("Your friend is here.")
        watcher = Stream(bounded.port, address, "", "127.0.0.7", last_seen="")
        assert watcher.event_saying("X is here. O is here.")
        watcher.close()
        theirs.close()
        # The server hears of the closed page when it next writes to it: at the latest a heartbeat later.
        assert re.search(r"Your friend left <span data-left-at=\"\d+\">\d+ s</span> ago", mine.event_saying("left"))
    finally:
        mine.close()


def test_a_page_opened_on_a_game_at_a_newer_version_is_sent_the_board_at_once(bounded):
    address, inviter, guest = new_pair(bounded.port)
    assert move(bounded.port, address, inviter, 4) == 303
    stale = Stream(bounded.port, address, guest, "127.0.0.8", last_seen="2-hh")
    try:
        assert stale.next_event().startswith("id: 3-")  # resynced to the store's board on connecting
    finally:
        stale.close()


def test_sigterm_ends_open_streams_at_once_with_a_retry_hint(tmp_path_factory):
    server = Gunicorn(settings(tmp_path_factory))
    try:
        server.wait_until_healthy()
        address, inviter, guest = new_pair(server.port)
        streams = [Stream(server.port, address, guest if i % 2 else inviter, "127.0.0.9") for i in range(10)]
        server.process.send_signal(signal.SIGTERM)
        for stream in streams:
            assert stream.rest().endswith("retry: 1000\n\n")  # ended by the server, which tells when to come back
        assert server.process.wait(timeout=30) == 0
        assert "graceful timeout" not in server.output()
    finally:
        server.stop()


def test_an_open_page_hears_that_its_game_expired_and_is_offered_a_new_one(tmp_path_factory):
    server = Gunicorn(settings(tmp_path_factory, FRIEND_EXPIRY_SECONDS="3"))
    try:
        server.wait_until_healthy()
        address, inviter, _ = new_pair(server.port)
        stream = Stream(server.port, address, inviter, "127.0.0.10")
        gone = stream.event_saying("event: gone")
        assert "after 3 s without a move" in gone and "Start a new game with a friend" in gone
        assert stream.rest() == ""  # and the stream ends
        stream.close()
    finally:
        server.stop()
