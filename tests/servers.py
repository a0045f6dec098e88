"""The production server for the tests: the Procfile's command on a loopback port, and a visitor's requests."""

from __future__ import annotations

import http.client
import os
import re
import runpy
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest
from support import load_script

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"

# The master works out the cold costs (seconds of search) before it forks: generous for a crowded CI.
STARTUP_SECONDS = 120

HTMX = {"HX-Request": "true"}
BOARD = re.compile(r'<div id="board"[^>]*>')
SETTINGS_THAT_WOULD_CHANGE_THE_SERVER = (
    "SECRET_KEY",
    "SECRET_KEY_FALLBACKS",
    "PORT",
    "WEB_CONCURRENCY",
    "GUNICORN_CMD_ARGS",
    "FLASK_DEBUG",
)


def procfile_command() -> list[str]:
    """The Procfile's web command, run with this interpreter's gunicorn."""
    line = next(line for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith("web:"))
    program, *arguments = shlex.split(line.removeprefix("web:"))
    assert program == "gunicorn"
    return [sys.executable, "-m", "gunicorn", *arguments]


def server_environment(**settings: str) -> dict[str, str]:
    """This environment without anything that configures the server, plus ``settings``."""
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS_THAT_WOULD_CHANGE_THE_SERVER}
    return env | settings


def gunicorn_backlog() -> int:
    """What gunicorn passes to listen() when it binds the port itself: our config's `backlog`, else its default."""
    from gunicorn.config import Config

    return runpy.run_path(str(ROOT / "gunicorn.conf.py")).get("backlog", Config().backlog)


class Gunicorn:
    """The Procfile's command on a loopback port of our choosing, with everything it prints kept."""

    def __init__(self, env: dict[str, str]):
        # Bound here and handed over, so the port cannot be taken between choosing and binding it. Gunicorn
        # leaves a socket it is handed as it is, so it is given the backlog gunicorn's own bind would listen
        # with (its `backlog` setting); Python's default of 128 dropped connections that a server
        # bound by gunicorn takes in, and each dropped one was retried a second later (the 3,000 idle
        # sockets took 14 s to open instead of 1).
        listener = socket.create_server((HOST, 0), backlog=gunicorn_backlog())
        self.port = listener.getsockname()[1]
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 -- closed in stop()
        try:
            self.process = subprocess.Popen(
                [*procfile_command(), "--bind", f"fd://{listener.fileno()}"],
                cwd=ROOT,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=self.log,
                stderr=subprocess.STDOUT,
                pass_fds=[listener.fileno()],
            )
        except BaseException:
            self.log.close()
            raise
        finally:
            listener.close()

    def wait_until_healthy(self) -> None:
        """Poll /healthz until it answers 200; fail with the server's output if it never does."""
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"gunicorn exited with {self.process.returncode}:\n{self.output()}")
            try:
                if request(self.port, "GET", "/healthz", timeout=2)[0] == 200:
                    return
            except OSError:
                time.sleep(0.05)  # not listening yet; try again shortly
        pytest.fail(f"gunicorn did not answer /healthz within {STARTUP_SECONDS} s:\n{self.output()}")

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def stop(self) -> None:
        if self.process.poll() is None:
            # SIGQUIT is gunicorn's quick shutdown: no test needs the grace period, which costs seconds.
            self.process.send_signal(signal.SIGQUIT)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


def request(port: int, method: str, path: str, *, body: str | None = None, headers=None, timeout: float = 10, raw=None):
    """One request to our loopback server: (status, response headers, body bytes); ``raw`` is a JSON body."""
    headers = dict(headers or {})
    if body is not None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    if raw is not None:
        body, headers["Content-Type"] = raw, "application/json"
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, response.headers, response.read()
    finally:
        connection.close()


def board_of(html: bytes) -> dict[str, str]:
    """The board's data-* attributes in a page or fragment."""
    tag = BOARD.search(html.decode())
    assert tag, f"no board in:\n{html.decode()[:500]}"
    return dict(re.findall(r'data-([a-z]+)="([^"]*)"', tag.group()))


def session_cookie(headers) -> tuple[str, set[str]]:
    """The `session` cookie a response sets: its "name=value" pair and its attributes, lowercased."""
    for header in headers.get_all("Set-Cookie") or []:
        pair, *attributes = (part.strip() for part in header.split(";"))
        if pair.startswith("session="):
            return pair, {attribute.lower() for attribute in attributes}
    raise AssertionError(f"no session cookie in {headers.get_all('Set-Cookie')}")


def fresh_digest(port: int) -> str:
    """The digest a fresh visitor's forms carry: every form says which game it was drawn from."""
    status, _, page = request(port, "GET", "/")
    assert status == 200
    return re.search(r'data-game="([^"]+)"', page.decode()).group(1)


def new_game_form(port: int, settings: str) -> str:
    """A fresh visitor's New game form with ``settings`` (such as "mode=hvh")."""
    return f"{settings}&start=1&game={fresh_digest(port)}"


ANSWER_WITHIN = 1.0  # seconds: the hosting goal for every other visitor's request


def timed(port: int, method: str, path: str, **options):
    """One request with a generous socket timeout: (seconds it took, status, headers, body)."""
    start = time.monotonic()
    status, headers, body = request(port, method, path, timeout=10, **options)
    return time.monotonic() - start, status, headers, body


# The load script's reading of the move form, so that the tests and the measurements post the same fields.
move_form_fields = load_script("load").move_form_fields


def hidden_fields(html: bytes) -> dict[str, str]:
    """The hidden fields the board's form sends: those inside it and those joined to it by ``form=``."""
    return dict(move_form_fields(html.decode()))


def game_requests(port: int) -> list[tuple[str, float, int]]:
    """A visitor's requests, each timed: the health check, a new game and a move with the Impossible reply."""
    took = []
    seconds, status, _, _ = timed(port, "GET", "/healthz")
    took.append(("GET /healthz", seconds, status))
    form = new_game_form(port, "mode=hvc&human=X&difficulty=minimax")
    seconds, status, headers, body = timed(port, "POST", "/new", body=form, headers=HTMX)
    took.append(("POST /new", seconds, status))
    cookie, _ = session_cookie(headers)
    move = urlencode(hidden_fields(body) | {"cell": 4})
    seconds, status, _, body = timed(port, "POST", "/move", body=move, headers=HTMX | {"Cookie": cookie})
    took.append(("POST /move", seconds, status))
    assert board_of(body)["board"].count(".") == 7, "the move and the computer's reply were both played"
    return took


def workers_of(server: Gunicorn) -> set[int]:
    """The process ids of the master's children: its workers."""
    children = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            # The command name, in parentheses, may hold spaces; the parent's id comes after it.
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the process ended while we looked
        if int(fields[1]) == server.process.pid:
            children.add(int(stat.parent.name))
    return children
