"""The search pool: costly requests answered by processes of their own, behind the fair queue."""

import io
import json
import os
import secrets
import signal
import subprocess
import sys
import threading
import time

import pytest

from webapp import create_app
from webapp.serving import costs, searches
from webapp.serving.places import Busy, SearchQueue

KEY = secrets.token_hex(32)
BIG_BOARD = "." * 112 + "X" + "." * 112  # 15×15, X in the centre: Hard searches for its whole budget
MOVE = {"board": BIG_BOARD, "level": "minimax"}


def fresh(cell: int) -> str:
    """A 15×15 board nobody has searched in this process: X in the centre, O on ``cell``."""
    return BIG_BOARD[:cell] + "O" + BIG_BOARD[cell + 1 :]


@pytest.fixture(scope="module")
def pooled(monkeypatch_module):
    """An app from the environment with a pool of one process, as a production worker has."""
    monkeypatch_module.setenv("SECRET_KEY", KEY)
    app = create_app()
    pool = costs.start_pool(app, 1, factory="webapp:create_app")
    yield app
    pool.close()


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        yield patch


def move_call(board: str = BIG_BOARD) -> searches.Call:
    body = json.dumps({"board": board, "level": "minimax"}).encode()
    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": "/api/move",
        "SERVER_NAME": "localhost",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "192.0.2.1",
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.input": io.BytesIO(body),
    }
    call = searches.call_of(environ)
    assert call is not None
    return call


def test_a_pooled_search_plays_the_move_the_app_plays_in_its_own_process(pooled):
    pool = pooled.extensions["search_pool"]
    answer = pool.run(move_call())
    inline = create_app({"SECRET_KEY": KEY}).test_client().post("/api/move", json=MOVE)
    assert answer.status.startswith("200")
    assert json.loads(answer.body) == inline.get_json()
    assert answer.seconds > 0


def test_a_request_whose_search_pauses_is_answered_by_the_pool(pooled, monkeypatch):
    pool = pooled.extensions["search_pool"]
    sent = []
    run = pool.run
    monkeypatch.setattr(pool, "run", lambda call, gone: sent.append(call.environ["PATH_INFO"]) or run(call, gone))
    client = pooled.test_client()
    assert client.post("/api/move", json={"board": fresh(7), "level": "minimax"}).get_json()["cell"] in range(225)
    assert client.post("/api/move", json={"board": "X...O....", "level": "minimax"}).status_code == 200
    assert sent == ["/api/move"]  # the 3×3 move never searched long enough to pause
    assert pooled.extensions["search_places"].searching == {}


def test_a_call_whose_client_has_gone_is_stopped_and_its_process_kept(pooled):
    pool = pooled.extensions["search_pool"]
    before = pool.pids()
    with pytest.raises(searches.Cancelled):
        pool.run(move_call(fresh(0)), gone=lambda: True)
    assert pool.pids() == before
    assert pool.run(move_call()).status.startswith("200")


def test_a_search_given_up_by_its_client_frees_the_claim_for_its_next_request(pooled):
    places = SearchQueue(searches=1, hold=0)
    paced = costs.RequestPace(places, "192.0.2.5", call=move_call(fresh(1)), pool=pooled.extensions["search_pool"])
    paced.begin()
    places.enter(paced.client, paced.clock.spent)
    paced.placed = True
    statuses = []
    paced.gone = lambda: True
    paced.run_elsewhere(lambda status, headers: statuses.append(status))
    assert statuses == ["499 Client Closed Request"]
    places.begin(paced.client)  # not refused: the search it would wait for ended because its client had gone
    places.leave(paced.client)


def test_a_second_search_of_a_client_whose_first_is_not_abandoned_is_still_refused():
    places = SearchQueue(searches=1, hold=0)
    places.begin("a")
    with pytest.raises(Busy):
        places.begin("a")


def test_the_pool_runs_no_more_calls_at_once_than_it_has_processes(pooled):
    pool = pooled.extensions["search_pool"]
    answers = []
    threads = [
        threading.Thread(target=lambda n=n: answers.append(pool.run(move_call(fresh(n + 10))))) for n in range(3)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [answer.status[:3] for answer in answers] == ["200"] * 3
    assert len(pool.pids()) == 1


def test_a_crashed_process_is_replaced(pooled):
    pool = pooled.extensions["search_pool"]
    (crashed,) = pool.pids()
    os.kill(crashed, signal.SIGKILL)
    os.waitid(os.P_PID, crashed, os.WEXITED | os.WNOWAIT)
    assert pool.run(move_call()).status.startswith("200")
    assert pool.pids() != [crashed]
    assert len(pool.pids()) == 1


ORPHAN = """
import os, signal, sys
from webapp.serving.searches import SearchPool
pool = SearchPool(1, "webapp:create_app")
pool.start()
print(pool.pids()[0], flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_pool_process_ends_with_its_parent_however_the_parent_ends():
    env = dict(os.environ, SECRET_KEY=KEY)
    parent = subprocess.run([sys.executable, "-c", ORPHAN], capture_output=True, text=True, env=env, check=False)
    child = int(parent.stdout.split()[0])
    assert ended(child)


def ended(pid: int) -> bool:
    """Whether process ``pid`` (not ours) ends, or is left a zombie for its reaper, within ten seconds."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] in "ZX":
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize(
    "headers",
    [{"HTTP_TRANSFER_ENCODING": "chunked"}, {"CONTENT_LENGTH": str(searches.BODY_BYTES + 1)}, {"CONTENT_LENGTH": "x"}],
    ids=["chunked", "too-long", "not-a-length"],
)
def test_a_body_sent_in_chunks_or_too_long_stays_where_it_is_and_is_searched_in_the_worker(headers):
    stream = io.BytesIO(b"5\r\nhello\r\n0\r\n\r\n")
    environ = {"REQUEST_METHOD": "POST", "wsgi.input": stream, **headers}
    assert searches.call_of(environ) is None
    assert environ["wsgi.input"] is stream and stream.tell() == 0
