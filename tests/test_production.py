"""The production setup, end to end: real gunicorn servers started the way the Procfile starts them."""

from __future__ import annotations

import gzip
import json
import os
import re
import runpy
import secrets
import signal
import socket
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from functools import partial
from pathlib import Path
from urllib.parse import urlencode

import pytest
from servers import (
    HOST,
    HTMX,
    ROOT,
    STARTUP_SECONDS,
    Gunicorn,
    board_of,
    hidden_fields,
    new_game_form,
    procfile_command,
    request,
    server_environment,
    session_cookie,
    timed,
    workers_of,
)

# Refusing takes a second; a server that keeps restarting workers instead never exits.
REFUSAL_SECONDS = 15


def test_one_game_alternates_between_two_servers_carrying_only_the_cookie(servers):
    form = new_game_form(servers[0].port, "mode=hvh")
    status, headers, body = request(servers[0].port, "POST", "/new", body=form, headers=HTMX)
    assert status == 200
    assert board_of(body) | {"game": ""} == {"board": ".........", "status": "playing", "ply": "0", "game": ""}
    cookie, _ = session_cookie(headers)

    # X takes the top row while O plays the middle row; each move goes to the other server.
    moves = [0, 3, 1, 4, 2]
    board = list(".........")
    for ply, cell in enumerate(moves):
        port = servers[(ply + 1) % 2].port
        form = urlencode(hidden_fields(body) | {"cell": cell})
        status, headers, body = request(port, "POST", "/move", body=form, headers=HTMX | {"Cookie": cookie})
        assert status == 200, body.decode()
        board[cell] = "XO"[ply % 2]
        finished = ply == len(moves) - 1
        assert {k: v for k, v in board_of(body).items() if k != "game"} == {
            "board": "".join(board),
            "status": "x-won" if finished else "playing",
            "ply": str(ply + 1),
        }
        cookie, _ = session_cookie(headers)


@pytest.mark.parametrize(
    ("settings", "reason"),
    [
        ({}, "SECRET_KEY is not set"),
        ({"FLASK_DEBUG": "1"}, "SECRET_KEY is not set"),  # debug never brings the development key
        ({"SECRET_KEY": "too-short-to-sign-anything"}, "SECRET_KEY is 26 characters long"),
        ({"SECRET_KEY": "x" * 31, "FLASK_DEBUG": "1"}, "SECRET_KEY is 31 characters long"),
        ({"SECRET_KEY": " " * 32}, "SECRET_KEY looks easy to guess"),
    ],
    ids=["missing", "missing-in-debug", "short", "short-in-debug", "blank"],
)
def test_gunicorn_refuses_to_start_without_a_good_secret_key_and_says_why(settings, reason):
    with socket.create_server((HOST, 0)) as listener:
        finished = subprocess.run(
            [*procfile_command(), "--bind", f"fd://{listener.fileno()}"],
            cwd=ROOT,
            env=server_environment(WEB_CONCURRENCY="1", **settings),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            pass_fds=[listener.fileno()],
            timeout=REFUSAL_SECONDS,
        )
    output = finished.stdout + finished.stderr
    assert finished.returncode != 0
    reasons = [line for line in output.splitlines() if reason in line]
    assert reasons, output
    assert "Traceback" not in output


def test_healthz_answers_ok(server):
    status, headers, body = request(server.port, "GET", "/healthz")
    assert status == 200
    assert headers["Content-Type"] == "application/json"
    assert body.replace(b" ", b"").strip() == b'{"status":"ok"}'


@pytest.mark.parametrize(("forwarded", "secure"), [({"X-Forwarded-Proto": "https"}, True), ({}, False)])
def test_the_session_cookie_is_secure_exactly_when_the_router_says_https(server, forwarded, secure):
    form = new_game_form(server.port, "mode=hvh")
    status, headers, _ = request(server.port, "POST", "/new", body=form, headers=HTMX | forwarded)
    assert status == 200
    _, attributes = session_cookie(headers)
    assert ("secure" in attributes) is secure
    assert {"httponly", "samesite=lax"} <= attributes


def test_fingerprinted_static_files_are_cached_for_ever_and_sent_gzipped(server):
    status, _, page = request(server.port, "GET", "/")
    assert status == 200
    links = re.findall(r"<link\b[^>]*>", page.decode())
    stylesheet = next(link for link in links if 'rel="stylesheet"' in link)
    url = re.search(r'href="([^"]+)"', stylesheet).group(1)

    status, headers, plain = request(server.port, "GET", url)
    assert status == 200
    cache_control = headers["Cache-Control"]
    assert "immutable" in cache_control
    max_age = int(re.search(r"max-age=(\d+)", cache_control).group(1))
    assert max_age >= 365 * 24 * 60 * 60

    status, headers, packed = request(server.port, "GET", url, headers={"Accept-Encoding": "gzip"})
    assert status == 200
    assert headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed) == plain


@pytest.mark.parametrize(
    ("environment", "bind", "workers"),
    [({}, "0.0.0.0:8000", 2), ({"PORT": "5123", "WEB_CONCURRENCY": "3"}, "0.0.0.0:5123", 3)],
)
def test_the_config_listens_where_the_platform_says(monkeypatch, environment, bind, workers):
    for name in ("PORT", "WEB_CONCURRENCY"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    config = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    assert config["bind"] == bind
    assert config["workers"] == workers
    assert config["preload_app"] is True


def restart_every_worker(server: Gunicorn) -> None:
    """Kill the workers as a crash would; return once the master has forked their replacements and they have booted."""
    killed = workers_of(server)
    assert killed
    for pid in killed:
        os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        workers = workers_of(server)
        if len(workers) == len(killed) and not workers & killed:
            settle(workers)
            return
        time.sleep(0.05)
    pytest.fail(f"the workers were not replaced:\n{server.output()}")


def settle(pids: set[int]) -> None:
    """Return once the processes are idle: no CPU used over two fifths of a second.

    A worker just forked still boots (gevent patches the standard library, the hooks run); a measure of what
    a request costs must not start before that is over. Without this wait, one fresh-clone CI run counted
    0.16 s of CPU against a restarted worker's first /numbers, which costs 0.01 to 0.04 s once it has booted.
    """
    deadline = time.monotonic() + STARTUP_SECONDS
    quiet, last = 0, cpu_seconds(pids)
    while time.monotonic() < deadline:
        time.sleep(0.2)
        now = cpu_seconds(pids)
        quiet = quiet + 1 if now == last else 0
        if quiet == 2:
            return
        last = now
    pytest.fail(f"the processes {sorted(pids)} never went idle")


COLD_PAGES = ["/numbers", "/tournament", "/api/analyze?board=.........", "/?hint=1"]
# The CPU a worker may spend on one of those pages once the cold costs are paid: drawing one takes tens of
# milliseconds, while paying its cold cost takes whole seconds (the numbers) or 0.2 s and more (the tournament).
WARM_PAGE_CPU_SECONDS = 0.15


def cpu_seconds(pids: set[int]) -> float:
    """The CPU time (user and system) the processes have used so far, from /proc."""
    ticks = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


@pytest.mark.parametrize("restarted", [False, True], ids=["first-visitors", "after-a-crash"])
def test_no_visitor_waits_for_a_cold_cost(production, restarted):
    if restarted:
        restart_every_worker(production)
    workers = workers_of(production)
    for path in COLD_PAGES:
        # The workers' CPU, not the wall clock: the cold costs are CPU work, and a machine shared with the
        # other tests can stretch any answer's wall time past a second without a cold cost in it.
        before = cpu_seconds(workers)
        seconds, status, _, _ = timed(production.port, "GET", path)
        spent = cpu_seconds(workers) - before
        assert status == 200, path
        assert spent < WARM_PAGE_CPU_SECONDS, f"{path} cost the workers {spent:.2f} s of CPU ({seconds:.2f} s)"
    assert b"549,946" in timed(production.port, "GET", "/numbers")[3]


# What a player can send while a winning move is on its way, from the page drawn before it: (path, fields).
BESIDE_A_WIN = {
    "new game": ("/new", {"mode": "hvh", "start": 1}),
    "undo": ("/undo", {}),
    "level change": ("/levels", {"difficulty": "random"}),
    "mode change": ("/new", {"mode": "hvc", "confirm": 1}),
}
RACES = 30


class Visitor:
    """A browser's cookies for one server: each answer's cookies replace those it sets, in the order they arrive."""

    def __init__(self, port: int):
        self.port, self.jar = port, {}

    def send(self, path: str, fields=None, body: bytes | None = None):
        """Post ``fields`` (with the board's hidden fields from ``body``) as htmx does, or get the page at ``path``;
        keep nothing yet."""
        cookie = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.jar.items())}
        if fields is None:
            return request(self.port, "GET", path, headers=cookie)
        headers = HTMX | cookie
        form = urlencode((hidden_fields(body) if body else {}) | fields)
        return request(self.port, "POST", path, body=form, headers=headers)

    def keep(self, answer) -> bytes:
        status, headers, body = answer
        assert status == 200, body[:300]
        for header in headers.get_all("Set-Cookie") or []:
            name, value = header.split(";")[0].split("=", 1)
            self.jar[name] = value
        return body


def in_order_of_arrival(*sends) -> list[tuple[int, tuple]]:
    """Each of ``sends`` called at once, from threads: (its index, its answer), in the order the answers came."""
    with ThreadPoolExecutor(len(sends)) as pool:
        futures = {pool.submit(send): index for index, send in enumerate(sends)}
        return [(futures[future], future.result()) for future in as_completed(futures)]


def x_wins_shown(visitor: Visitor) -> int:
    """The X wins the visitor's Human vs Human score shows, on a new game's page (which writes no score)."""
    visitor.keep(visitor.send("/new", {"mode": "hvh", "confirm": 1}, visitor.keep(visitor.send("/"))))
    body = visitor.keep(visitor.send("/"))
    return int(re.search(r"<dt>X</dt><dd>([0-9]+)</dd>", body.decode()).group(1))


@pytest.mark.parametrize("other", BESIDE_A_WIN)
def test_a_win_is_never_lost_to_a_request_sent_beside_it(production, other):
    """The winning move and another form of the same page, sent together to two workers, RACES times over."""
    visitor = Visitor(production.port)
    body = visitor.keep(visitor.send("/"))
    for won in range(1, RACES + 1):
        body = visitor.keep(visitor.send("/new", {"mode": "hvh", "confirm": 1}, body))
        for cell in (0, 3, 1, 4):  # X X . / O O . / . . .: X wins at 2
            body = visitor.keep(visitor.send("/move", {"cell": cell}, body))
        path, fields = BESIDE_A_WIN[other]
        win, beside = partial(visitor.send, "/move", {"cell": 2}, body), partial(visitor.send, path, fields, body)
        arrived = in_order_of_arrival(win, beside)
        for _, answer in arrived:  # the browser keeps the cookies of the answer that arrives last
            visitor.keep(answer)
        last = "the win" if arrived[-1][0] == 0 else other
        assert x_wins_shown(visitor) == won, f"race {won}: the win was lost, {last} answered last"
        body = visitor.keep(visitor.send("/"))


def children_of(parents: set[int]) -> set[int]:
    """The process ids of the children of ``parents``, from /proc."""
    children = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) in parents:
            children.add(int(stat.parent.name))
    return children


def search_processes(server: Gunicorn) -> set[int]:
    """The search processes of the server's two workers, once both have booted and started theirs (one at least)."""
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        workers = workers_of(server)
        pool = children_of(workers)
        if len(workers) == 2 and len(pool) >= len(workers):  # the cores shared by the workers
            return pool
        time.sleep(0.05)
    pytest.fail(f"the workers have {len(pool)} search processes:\n{server.output()}")


def ended(pid: int) -> bool:
    """Whether process ``pid`` ends (or is left a zombie for its reaper) within STARTUP_SECONDS."""
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        try:
            if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in "ZX":
                return True
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    return False


def test_a_big_board_search_runs_in_a_workers_search_process_and_those_end_with_the_server():
    server = Gunicorn(server_environment(SECRET_KEY=secrets.token_hex(32)))
    try:
        server.wait_until_healthy()
        pool = search_processes(server)
        settle(pool)
        before = cpu_seconds(pool)
        board = "." * 112 + "X" + "." * 111 + "O"
        move = json.dumps({"board": board, "level": "minimax"})
        assert request(server.port, "POST", "/api/move", raw=move, timeout=60)[0] == 200
        assert cpu_seconds(pool) > before
        server.process.send_signal(signal.SIGTERM)
        server.process.wait(timeout=60)
    finally:
        server.stop()
    assert all(ended(pid) for pid in pool)
