"""The production worker's handling of requests on their way in, with stand-ins for gunicorn's request and socket.

The worker under a real gunicorn is tested in tests/test_attacks.py; here its pieces, one at a time.
"""

import io

import gevent
import pytest
from gunicorn.http.body import Body, LengthReader
from gunicorn.http.unreader import SocketUnreader

from webapp.serving import worker
from webapp.serving.security import BODY_BYTES
from webapp.serving.worker import Arrival, Arriving, Stalled, _whole_body


class Trickle:
    """A connection that hands over its ``pieces`` one per read, as a client sends them."""

    def __init__(self, *pieces: bytes):
        self.pieces = list(pieces)

    def received(self, size: int) -> bytes:
        assert size == worker.HEAD_BLOCK
        gevent.sleep(0)
        return self.pieces.pop(0) if self.pieces else b""


@pytest.fixture
def arriving(monkeypatch) -> Arriving:
    """Room in the worker for 100 bytes of heads."""
    small = Arriving(limit=100)
    monkeypatch.setattr(worker, "ARRIVING", small)
    return small


def test_a_head_is_kept_whole_and_counted_until_the_parser_takes_it(arriving):
    arrival = Arrival(seconds=5)
    arrival.receive_head(Trickle(b"GET / HT", b"TP/1.1\r\nHost: x", b"\r\n\r\nbody"))
    assert arrival.head.done and arriving.total == len(b"GET / HTTP/1.1\r\nHost: x\r\n\r\nbody")
    assert arrival.take(8192) == b"GET / HTTP/1.1\r\nHost: x\r\n\r\nbody"
    assert arriving.total == 0


def test_while_the_heads_are_full_only_a_first_block_is_read(arriving):
    arriving.add(100)
    stalled = Arrival(seconds=5)
    stalled.buffer += b"GET / HTTP/1.1\r\nX-Slow: "
    waiting = gevent.spawn(stalled.receive_head, Trickle(b"aaaa", b"\r\n\r\n"))
    browser = Arrival(seconds=5)
    browser.receive_head(Trickle(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"))  # a whole head in its first block
    assert browser.head.done
    gevent.sleep(0.05)
    assert not waiting.dead and stalled.buffer.endswith(b"X-Slow: ")  # it holds what it had, no more
    arriving.free(100)
    waiting.join(1)
    assert stalled.head.done


def test_room_goes_to_the_newest_waiting_head_first(arriving):
    arriving.add(100)
    heads = [Arrival(seconds=5) for _ in range(3)]
    for head in heads:
        head.buffer += b"GET / HTTP/1.1\r\n"
    waiting = []
    for head in heads:
        waiting.append(gevent.spawn(head.receive_head, Trickle(b"Host: x\r\n\r\n")))
        gevent.sleep(0.01)  # each begins to wait after the one before
    arriving.free(30)  # room for one head to go on
    gevent.sleep(0.05)
    assert [head.head.done for head in heads] == [False, False, True]
    gevent.killall(waiting)


def test_a_head_that_waits_past_its_deadline_is_closed(arriving):
    arriving.add(100)
    stalled = Arrival(seconds=0.1)
    stalled.buffer += b"GET / HTTP/1.1\r\n"
    with pytest.raises(Stalled):
        stalled.receive_head(Trickle(b"Host: x\r\n\r\n"))


class Client:
    """A client's socket that has sent ``data``: each read asks for so many bytes, and is told what came."""

    def __init__(self, data: bytes):
        self.data, self.asked = data, []

    def recv(self, size: int) -> bytes:
        self.asked.append(size)
        taken, self.data = self.data[:size], self.data[size:]
        return taken


class Request:
    """gunicorn's request as the worker reads its body: headers, gunicorn's own reader of a body of known length
    over the client's socket (else a plain stream), and the Expect flag."""

    def __init__(self, body: bytes, headers=(), expect_continue=False):
        self.headers, self._expected_100_continue = list(headers), expect_continue
        self.client = Client(body)
        self.unreader = SocketUnreader(self.client)
        declared = dict(self.headers).get("CONTENT-LENGTH")
        self.body = Body(LengthReader(self.unreader, int(declared))) if declared else io.BytesIO(body)


class Socket:
    def __init__(self):
        self.sent = b""

    def sendall(self, data: bytes) -> None:
        self.sent += data


def length(size: int) -> list[tuple[str, str]]:
    return [("CONTENT-TYPE", "application/x-www-form-urlencoded"), ("CONTENT-LENGTH", str(size))]


def test_a_body_within_the_cap_is_read_whole_before_the_app_runs():
    req = Request(b"cell=4&game=0123456789ab", length(24))
    assert _whole_body(req, Socket(), Arrival(5)).read() == b"cell=4&game=0123456789ab"


def test_a_body_that_ends_before_its_length_is_a_client_gone():
    with pytest.raises(Stalled):
        _whole_body(Request(b"cell=4", length(24)), Socket(), Arrival(5))


def test_a_body_declared_over_the_cap_is_dropped_unkept_for_the_app_to_refuse():
    req = Request(b"a" * 60_000, length(60_000))
    assert _whole_body(req, Socket(), Arrival(5)).read() == b""
    assert req.body.read() == b""  # read to its end, and thrown away
    # A block at a time: gunicorn's reader would ask for the whole rest at once and keep what came past each read.
    assert max(req.client.asked) <= worker.HEAD_BLOCK


def test_a_chunked_body_is_kept_to_one_byte_past_the_cap():
    req = Request(b"a" * (BODY_BYTES + 500), [("TRANSFER-ENCODING", "chunked")])
    assert len(_whole_body(req, Socket(), Arrival(5)).read()) == BODY_BYTES + 1


@pytest.mark.parametrize(("size", "told"), [(24, True), (BODY_BYTES + 1, False)])
def test_a_client_that_expects_100_continue_is_told_to_go_on_only_if_its_body_is_taken(size, told):
    sock, req = Socket(), Request(b"a" * size, length(size), expect_continue=True)
    _whole_body(req, sock, Arrival(5))
    assert (sock.sent == b"HTTP/1.1 100 Continue\r\n\r\n") is told
    assert not req._expected_100_continue  # gunicorn must not tell it again
    assert (req.body.read() == b"") is told  # a body it was not told to send is not waited for
