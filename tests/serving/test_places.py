"""The fair queue for searches: one place per worker, one search per client, fair turns counted in CPU seconds."""

import threading

import pytest

from webapp.serving import places
from webapp.serving.places import Busy, ClientGone, SearchQueue


class Search:
    """One request's search as the queue sees it: the CPU seconds it has spent, moved by hand."""

    def __init__(self, client: str):
        self.client, self.cpu, self.gone = client, 0.0, False

    def spent(self) -> float:
        return self.cpu

    def has_gone(self) -> bool:
        return self.gone


def queue(**options) -> SearchQueue:
    return SearchQueue(**{"searches": 1, "limit": 10.0, "hold": 0, **options})


def start(line: SearchQueue, client: str) -> Search:
    """``client`` begins a search and takes the free place."""
    search = Search(client)
    line.begin(client)
    line.enter(client, search.spent, search.has_gone)
    return search


def wait_in_line(line: SearchQueue, client: str, served: list[str], outcome: dict | None = None) -> Search:
    """``client`` begins a search and enters the line on a thread of its own, noting when its search starts (or
    in ``outcome``, how it ended)."""
    search, entered = Search(client), threading.Event()
    outcome = {} if outcome is None else outcome

    def enter():
        entered.set()
        try:
            line.enter(client, search.spent, search.has_gone)
        except Exception as error:
            outcome[client] = error
            return
        served.append(client)

    line.begin(client)
    before = len(line.waiting)
    thread = threading.Thread(target=enter, daemon=True)
    thread.start()
    entered.wait()
    while len(line.waiting) == before and thread.is_alive():  # it has taken its place in line
        threading.Event().wait(0.001)
    search.thread = thread
    return search


def finish(line: SearchQueue, search: Search, cpu: float, served: list[str], count: int) -> None:
    """``search`` ends after ``cpu`` seconds of its own; wait until ``count`` searches have started."""
    search.cpu += cpu
    line.leave(search.client)
    while len(served) < count:
        threading.Event().wait(0.001)


def test_clients_that_search_alike_are_served_in_arrival_order():
    line = queue()
    first = start(line, "a")
    served: list[str] = []
    searches = [first] + [wait_in_line(line, client, served) for client in "bcd"]
    assert [w.client for w in line.waiting] == ["b", "c", "d"]
    for count, search in enumerate(searches[:3], start=1):
        finish(line, search, 0.5, served, count)
    assert served == ["b", "c", "d"]
    line.leave("d")
    for search in searches[1:]:
        search.thread.join(1)
    assert line.running == {} and line.waiting == [] and line.searching == {}


def test_a_client_that_searched_last_waits_behind_one_that_did_not():
    line = queue()
    first = start(line, "first")
    served: list[str] = []
    busy = wait_in_line(line, "busy", served)
    patient = wait_in_line(line, "patient", served)
    finish(line, first, 0.5, served, 1)  # busy's turn
    finish(line, busy, 0.8, served, 2)  # patient's turn; busy's next starts after its own 0.8 s
    again = wait_in_line(line, "busy", served)
    new = wait_in_line(line, "new", served)  # arrives later, but has used nothing
    assert [w.client for w in line.waiting] == ["new", "busy"]
    finish(line, patient, 0.5, served, 3)
    finish(line, new, 0.5, served, 4)
    assert served == ["busy", "patient", "new", "busy"]
    finish(line, again, 0.5, served, 4)


def test_a_wait_past_the_limit_is_refused_at_once_with_the_wait_it_would_have_had():
    line = queue(limit=1.0)
    a = start(line, "a")
    served: list[str] = []
    wait_in_line(line, "b", served)  # behind a's remaining search: 0.8 s, within the limit
    line.begin("c")
    with pytest.raises(Busy) as refused:
        line.enter("c", Search("c").spent)  # behind a and b: 1.6 s
    assert refused.value.code == 429
    assert refused.value.retry_after == 2  # 1.6 s, in whole seconds, rounded up
    assert [w.client for w in line.waiting] == ["b"]
    line.leave("c")
    finish(line, a, 0.8, served, 1)
    line.leave("b")


def snapshot(line: SearchQueue) -> tuple:
    """All the queue holds: places, line, claims, clients' clocks, its own time and its typical search."""
    waiting = [w.client for w in line.waiting]
    return set(line.running), waiting, set(line.searching), dict(line.ends), line.now, line.typical


@pytest.mark.parametrize("where", ["running", "waiting", "begun"])
def test_a_clients_second_search_is_refused_before_its_first_step_and_costs_it_nothing(where):
    line = queue()
    served: list[str] = []
    if where == "running":
        start(line, "a").cpu = 0.3
    else:
        other = start(line, "other")
        if where == "waiting":
            wait_in_line(line, "a", served)
        else:
            line.begin("a")  # a search that has not yet paused (or never will)
    before = snapshot(line)
    with pytest.raises(Busy) as refused:
        line.begin("a")
    assert refused.value.retry_after >= 1
    assert snapshot(line) == before  # no place, no clock, no slot
    if where == "waiting":
        finish(line, other, 0.5, served, 1)
    elif where == "begun":
        line.leave("other")
    line.leave("a")
    assert line.running == {} and line.waiting == [] and line.searching == {}
    line.begin("a")  # its search over, the client may search again
    line.leave("a")


def test_a_refusal_is_held_until_the_clients_search_ends():
    line = queue(hold=60.0)
    first = start(line, "a")
    refused = {}

    def second():
        try:
            line.begin("a")
        except Busy as error:
            refused["error"] = error

    thread = threading.Thread(target=second, daemon=True)
    thread.start()
    thread.join(0.2)
    assert thread.is_alive() and not refused  # held: its client's search is still running
    first.cpu = 0.7
    line.leave("a")
    thread.join(10)
    assert refused["error"].retry_after == 1  # its search has ended: it may come back at once
    assert line.searching == {}  # and it claimed nothing


def test_the_wait_is_foretold_from_cpu_seconds_however_long_the_searches_take_on_the_clock():
    line = queue()
    for _ in range(40):
        search = start(line, "a")
        search.cpu = 0.2  # however many seconds passed meanwhile: the queue never reads the wall clock
        line.leave("a")
    assert line.typical == pytest.approx(0.2, abs=0.01)
    running = start(line, "a")
    running.cpu = 0.05
    assert line.expected_wait(0) == pytest.approx(0.15, abs=0.01)
    assert line.expected_wait(3) == pytest.approx(0.75, abs=0.04)
    line.leave("a")


def test_after_a_burst_a_newcomer_waits_only_for_the_search_under_way():
    # One client searches back to back, as hard as the request's deadline lets it: its searches cost at most
    # costs.REQUEST_SECONDS of CPU each, whatever others' requests did to their wall time.
    line = queue(limit=places.LIMIT)
    for _ in range(200):
        search = start(line, "flood")
        search.cpu = 0.8
        line.leave("flood")
    flood = start(line, "flood")
    flood.cpu = 0.1
    served: list[str] = []
    newcomer = wait_in_line(line, "player", served)
    assert line.expected_wait(0) <= 0.8  # admitted, behind what is left of the flood's last search
    assert line.ends.get("flood", 0.0) - line.now <= 0.8  # and the flood's own debt is one search at most
    finish(line, flood, 0.7, served, 1)
    assert served == ["player"]
    line.leave(newcomer.client)


def test_a_client_that_leaves_the_line_gives_its_place_back_at_once():
    line = queue()
    a = start(line, "a")
    served: list[str] = []
    outcome: dict = {}
    gone = wait_in_line(line, "gone", served, outcome)
    stays = wait_in_line(line, "stays", served)
    gone.gone = True
    gone.thread.join(10)
    assert isinstance(outcome["gone"], ClientGone) and outcome["gone"].code == 499
    assert [w.client for w in line.waiting] == ["stays"]
    line.leave("gone")  # its request ends: its claim goes too
    assert "gone" not in line.searching
    finish(line, a, 0.5, served, 1)
    assert served == ["stays"]
    line.leave(stays.client)


def test_leaving_twice_or_without_a_place_changes_nothing():
    line = queue()
    line.leave("nobody")
    start(line, "a")
    line.leave("a")
    line.leave("a")
    assert line.running == {} and line.waiting == [] and line.searching == {}


def test_the_queue_remembers_a_bounded_number_of_clients(monkeypatch):
    monkeypatch.setattr(places, "REMEMBERED", 50)
    line = queue()
    running = start(line, "keeps the queue busy")
    for number in range(500):
        served: list[str] = []
        waiting = wait_in_line(line, f"client {number}", served)
        running.cpu += 0.1
        line.leave(running.client)
        while not served:
            threading.Event().wait(0.001)
        running = waiting
        assert len(line.ends) <= 50 + 1
    line.leave(running.client)
    assert line.ends == {}  # idle: everyone starts again equal


@pytest.mark.parametrize("abandoned", [True, False], ids=["its-client-gone", "answered"])
def test_a_request_held_behind_its_clients_search_goes_on_only_if_that_search_was_abandoned(abandoned):
    line = queue(hold=60.0)
    start(line, "a")
    outcome = {}

    def again():
        try:
            line.begin("a")
            outcome["claimed"] = True
        except Busy:
            outcome["claimed"] = False

    claim, held = line.searching["a"], threading.Event()
    wait = claim.ended.wait
    claim.ended.wait = lambda seconds: held.set() or wait(seconds)  # tells us when the request is held
    thread = threading.Thread(target=again, daemon=True)
    thread.start()
    assert held.wait(10)
    line.leave("a", abandoned=abandoned)
    thread.join(10)
    # A page that gave up waiting and asked again is served; a second search beside an answered one is not.
    assert outcome["claimed"] is abandoned
    assert ("a" in line.searching) is abandoned
