"""The fair queue for searches: one place per worker, one entry per client, fair turns and a foretold wait."""

import threading

import pytest

from webapp.web import places
from webapp.web.places import Busy, SearchQueue


class Clock:
    """A clock the test moves by hand."""

    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def queue(**options) -> tuple[SearchQueue, Clock]:
    clock = Clock()
    return SearchQueue(clock=clock, **{"searches": 1, "limit": 10.0, **options}), clock


def wait_in_line(line: SearchQueue, client: str, served: list[str]) -> threading.Thread:
    """``client`` enters the line on a thread of its own, noting when its search starts."""
    started = threading.Event()

    def enter():
        started.set()
        line.enter(client)
        served.append(client)

    thread = threading.Thread(target=enter, daemon=True)
    before = len(line.waiting)
    thread.start()
    started.wait()
    while len(line.waiting) == before and thread.is_alive():  # it has taken its place in line
        threading.Event().wait(0.001)
    return thread


def finish(line: SearchQueue, client: str, clock: Clock, seconds: float, served: list[str], count: int) -> None:
    """``client``'s search ends after ``seconds``; wait until ``count`` searches have started."""
    clock.now += seconds
    line.leave(client)
    while len(served) < count:
        threading.Event().wait(0.001)


def test_clients_that_search_alike_are_served_in_arrival_order():
    line, clock = queue()
    line.enter("a")
    served: list[str] = []
    threads = [wait_in_line(line, client, served) for client in "bcd"]
    assert [w.client for w in line.waiting] == ["b", "c", "d"]
    for count, client in enumerate("abc", start=1):
        finish(line, client, clock, 0.5, served, count)
    assert served == ["b", "c", "d"]
    line.leave("d")
    for thread in threads:
        thread.join(1)
    assert line.running == {} and line.waiting == []


def test_a_client_that_searched_last_waits_behind_one_that_did_not():
    line, clock = queue()
    line.enter("first")
    served: list[str] = []
    wait_in_line(line, "busy", served)
    wait_in_line(line, "patient", served)
    finish(line, "first", clock, 0.5, served, 1)  # busy's turn
    finish(line, "busy", clock, 0.8, served, 2)  # patient's turn; busy's next starts after its own 0.8 s
    wait_in_line(line, "busy", served)
    wait_in_line(line, "new", served)  # arrives later, but has used nothing
    assert [w.client for w in line.waiting] == ["new", "busy"]
    finish(line, "patient", clock, 0.5, served, 3)
    finish(line, "new", clock, 0.5, served, 4)
    assert served == ["busy", "patient", "new", "busy"]
    line.leave("busy")


def test_a_wait_past_the_limit_is_refused_at_once_with_the_wait_it_would_have_had():
    line, clock = queue(limit=1.0)
    line.enter("a")
    served: list[str] = []
    wait_in_line(line, "b", served)  # behind a's remaining search: 0.8 s, within the limit
    with pytest.raises(Busy) as refused:
        line.enter("c")  # behind a and b: 1.6 s
    assert refused.value.code == 429
    assert refused.value.retry_after == 2  # 1.6 s, in whole seconds, rounded up
    assert [w.client for w in line.waiting] == ["b"]
    finish(line, "a", clock, 0.8, served, 1)
    line.leave("b")


def test_one_search_per_client_is_running_or_waiting():
    line, clock = queue()
    line.enter("a")
    served: list[str] = []
    wait_in_line(line, "b", served)
    for client in "ab":
        with pytest.raises(Busy):
            line.enter(client)
    finish(line, "a", clock, 0.3, served, 1)
    line.leave("b")
    line.leave("b")  # leaving twice, or without a place, changes nothing
    assert line.running == {} and line.waiting == []


def test_the_expected_wait_follows_how_long_searches_take():
    line, clock = queue()
    for _ in range(40):
        line.enter("a")
        clock.now += 0.2
        line.leave("a")
    assert line.typical == pytest.approx(0.2, abs=0.01)
    line.enter("a")
    assert line.expected_wait(0) == pytest.approx(0.2, abs=0.01)
    assert line.expected_wait(3) == pytest.approx(0.8, abs=0.04)


def test_the_queue_remembers_a_bounded_number_of_clients(monkeypatch):
    monkeypatch.setattr(places, "REMEMBERED", 50)
    line, clock = queue()
    line.enter("keeps the queue busy")
    for number in range(500):
        client = f"client {number}"
        served: list[str] = []
        wait_in_line(line, client, served)
        clock.now += 0.1
        line.leave("keeps the queue busy" if number == 0 else f"client {number - 1}")
        while not served:
            threading.Event().wait(0.001)
        assert len(line.ends) <= 50 + 1
    line.leave("client 499")
    assert line.ends == {}  # idle: everyone starts again equal
