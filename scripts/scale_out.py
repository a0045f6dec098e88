"""Copies of the production server behind Debian's HAProxy, as a platform's router runs them: `make scale`.

The game's only state is the signed cookie, so any instance that shares the SECRET_KEY can answer any
move, and more instances is how the game grows. This script shows it on one machine with real parts:
each instance is the Procfile's web command, run by a shell with PORT and SECRET_KEY as a platform runs
it; HAProxy (scripts/haproxy.cfg, installed by scripts/ensure-haproxy when missing) balances them,
checks their /healthz and retries what an instance dropped.

    python scripts/scale_out.py up        # 3 instances and the proxy, until Ctrl-C
    python scripts/scale_out.py measure   # the figures in docs/deploy.md: load, a crash, rolling restarts
    python scripts/scale_out.py restarts  # rolling restart after rolling restart: how often one fails

Nothing needs root: unprivileged ports on 127.0.0.1, and the proxy's files in a temporary folder.
Nothing but 127.0.0.1 is contacted, and every process started is stopped on the way out.
"""

from __future__ import annotations

import argparse
import csv
import http.client
import json
import os
import random
import re
import secrets
import shlex
import shutil
import signal
import socket
import string
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import ExitStack, suppress
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"  # never anything else: this script talks only to the servers it started
STARTUP_SECONDS = 120  # a master works out the cold costs (seconds of search) before it forks its workers
HTMX = {"HX-Request": "true"}
# Human vs Computer at the top level on the classic board: where every player of the measurements starts.
GAME = "mode=hvc&human=X&difficulty=minimax"


# --- the instances ----------------------------------------------------------------------------------


def procfile_command(procfile: Path = ROOT / "Procfile") -> str:
    """The Procfile's web command, as written there."""
    for line in procfile.read_text().splitlines():
        if line.startswith("web:"):
            return line.removeprefix("web:").strip()
    raise SystemExit(f"{procfile} has no web process")


def free_port() -> int:
    """A port of 127.0.0.1 that nothing listens on now."""
    with socket.create_server((HOST, 0)) as listener:
        return listener.getsockname()[1]


class Instance:
    """One instance of the web process: the Procfile's command run by a shell, as a platform runs it.

    Its environment is what a platform gives: PATH (with the virtual environment's bin first, where
    `gunicorn` is), PORT, SECRET_KEY and WEB_CONCURRENCY, and nothing of ours besides.
    """

    def __init__(self, name: str, port: int, secret: str, logs: Path, *, workers: int = 1, app: Path = ROOT,
                 bin_dir: Path | None = None):  # fmt: skip
        self.name, self.port, self.app = name, port, app
        self.log_path = logs / f"{name}.log"
        bin_dir = bin_dir or Path(sys.executable).parent
        self.env = {
            "PATH": f"{bin_dir}:/usr/local/bin:/usr/bin:/bin",
            "HOME": str(logs),
            "LANG": "C.UTF-8",
            "PORT": str(port),
            "SECRET_KEY": secret,
            "WEB_CONCURRENCY": str(workers),
        }
        self.process: subprocess.Popen | None = None

    def start(self) -> Instance:
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                ["/bin/sh", "-c", f"exec {procfile_command(self.app / 'Procfile')}"],
                cwd=self.app,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # a Ctrl-C reaches this script, which stops the instances in order
            )
        return self

    @property
    def started(self) -> subprocess.Popen:
        """The process; RuntimeError if it was never started."""
        if self.process is None:
            raise RuntimeError("the process was never started")
        return self.process

    def wait_until_healthy(self) -> Instance:
        """Return once /healthz answers 200; stop with the instance's output if it exits or never does."""
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.started.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.started.returncode}:\n{self.output()}")
            try:
                if request(self.port, "GET", "/healthz", timeout=2).status == 200:
                    return self
            except OSError:
                time.sleep(0.05)  # not listening yet
        raise RuntimeError(f"{self.name} did not answer /healthz within {STARTUP_SECONDS} s:\n{self.output()}")

    def is_running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self, sig: signal.Signals = signal.SIGTERM, timeout: float = 30) -> int:
        """Send ``sig`` (SIGTERM: gunicorn's graceful shutdown; SIGKILL: a crash) and wait for the exit code.

        SIGKILL reaches the whole process group, workers included, as when a platform's container dies.
        """
        process = self.process
        if process is None or process.poll() is not None:  # not running
            return process.returncode if process else 0
        if sig == signal.SIGKILL:
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.send_signal(sig)
        try:
            code = process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            code = process.wait()
        self._wait_for_the_group_to_go()
        return code

    def _wait_for_the_group_to_go(self, timeout: float = 10) -> None:
        """Return once no process of the instance is left: its workers too, and so its listening socket."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                os.killpg(self.started.pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.01)

    def workers(self) -> list[int]:
        """The process ids of the master and its workers."""
        found = subprocess.run(["pgrep", "-P", str(self.started.pid)], capture_output=True, text=True).stdout
        return [self.started.pid, *map(int, found.split())]

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")


def cpu_seconds(pids: list[int]) -> float:
    """The CPU time (user and system) the processes have used so far, from /proc; gone ones count 0."""
    ticks = 0
    for pid in pids:
        with suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


# --- the proxy --------------------------------------------------------------------------------------


def haproxy_binary() -> str:
    found = shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin:/usr/local/sbin")
    if not found:
        raise SystemExit("HAProxy is missing: run scripts/ensure-haproxy (as root, or with sudo)")
    return found


RETRY_ON = "retry-on conn-failure empty-response junk-response"  # as scripts/haproxy.cfg has it


class Proxy:
    """HAProxy with scripts/haproxy.cfg in front of ``backends`` (name: port), on ``port`` of 127.0.0.1.

    ``retry_on`` replaces the configuration's retry-on conditions, to measure what they are worth.
    """

    def __init__(self, port: int, backends: dict[str, int], workdir: Path, retry_on: str | None = None):
        self.port = port
        self.socket_path = workdir / "haproxy.sock"
        self.config_path = workdir / "haproxy.cfg"
        self.log_path = workdir / "haproxy.log"
        servers = "\n".join(f"    server {name} {HOST}:{backend}" for name, backend in backends.items())
        template = string.Template((ROOT / "scripts" / "haproxy.cfg").read_text())
        config = template.substitute(port=port, socket=self.socket_path, servers=servers)
        if retry_on is not None:
            assert RETRY_ON in config, "scripts/haproxy.cfg and RETRY_ON disagree"
            config = config.replace(RETRY_ON, f"retry-on {retry_on}")
        self.config_path.write_text(config)
        self.process: subprocess.Popen | None = None

    def start(self) -> Proxy:
        binary = haproxy_binary()
        subprocess.run([binary, "-c", "-q", "-f", str(self.config_path)], check=True)
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [binary, "-db", "-f", str(self.config_path)],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        return self

    def command(self, text: str) -> str:
        """One command to HAProxy's runtime API, and its answer."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.settimeout(5)
            connection.connect(str(self.socket_path))
            connection.sendall(text.encode() + b"\n")
            chunks = []
            while chunk := connection.recv(65536):
                chunks.append(chunk)
        return b"".join(chunks).decode()

    def servers(self) -> dict[str, dict[str, str]]:
        """Each server of the backend, by name: HAProxy's statistics (status, stot, wretr, wredis, ...)."""
        rows = csv.DictReader(self.command("show stat").lstrip("# ").splitlines())
        return {row["svname"]: row for row in rows if row["pxname"] == "game" and row["svname"] != "BACKEND"}

    def backend(self) -> dict[str, str]:
        rows = csv.DictReader(self.command("show stat").lstrip("# ").splitlines())
        return next(row for row in rows if row["pxname"] == "game" and row["svname"] == "BACKEND")

    @property
    def started(self) -> subprocess.Popen:
        """The process; RuntimeError if it was never started."""
        if self.process is None:
            raise RuntimeError("the process was never started")
        return self.process

    def wait_for(self, states: dict[str, str], timeout: float = STARTUP_SECONDS) -> None:
        """Return once each named server's health is as given ("UP" or "DOWN")."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.started.poll() is not None:
                raise RuntimeError(f"haproxy exited with {self.started.returncode}:\n{self.output()}")
            with suppress(OSError):  # the admin socket is not there yet
                now = {name: row["status"].split()[0] for name, row in self.servers().items()}
                if all(now.get(name) == state for name, state in states.items()):
                    return
            time.sleep(0.05)
        raise RuntimeError(f"the proxy never saw {states}:\n{self.output()}")

    def wait_for_idle(self, name: str, timeout: float = 30) -> None:
        """Return once the server has no request under way (HAProxy's scur, its current sessions)."""
        deadline = time.monotonic() + timeout
        while int(self.servers()[name]["scur"] or 0) and time.monotonic() < deadline:
            time.sleep(0.01)

    def cpu_seconds(self) -> float:
        return cpu_seconds([self.started.pid])

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")


class Fleet:
    """``count`` instances sharing one key behind one proxy, all stopped on exit."""

    def __init__(self, count: int = 3, workers: int = 1, proxy_port: int | None = None, retry_on: str | None = None):
        self._stack = ExitStack()
        self.workdir = Path(self._stack.enter_context(tempfile.TemporaryDirectory(prefix="scale-out-")))
        secret = secrets.token_urlsafe(32)
        self.instances = [
            Instance(f"web{i}", free_port(), secret, self.workdir, workers=workers) for i in range(1, count + 1)
        ]
        backends = {instance.name: instance.port for instance in self.instances}
        self.proxy = Proxy(proxy_port or free_port(), backends, self.workdir, retry_on)

    def __enter__(self) -> Fleet:
        try:
            for instance in self.instances:
                self._stack.callback(instance.stop)
                instance.start()
            for instance in self.instances:
                instance.wait_until_healthy()
            self._stack.callback(self.proxy.stop)
            self.proxy.start()
            self.proxy.wait_for({instance.name: "UP" for instance in self.instances})
        except BaseException:
            self._stack.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self._stack.close()

    @property
    def port(self) -> int:
        return self.proxy.port

    def instance(self, name: str) -> Instance:
        return next(instance for instance in self.instances if instance.name == name)

    def restart(self, instance: Instance, announced: bool = True) -> dict[str, float]:
        """A rolling restart's step for one instance: stopped with SIGTERM, started again on the same port.

        Announced (as a platform's router is told that an instance is going): the proxy drains it first, no
        new request goes there and the ones under way finish; then SIGTERM, and the proxy sends it requests
        again once the new copy answers. Unannounced: SIGTERM alone, and the proxy learns from refused
        connections and its health checks; a request that reaches the old copy as it closes its listening
        socket can then be lost (docs/deploy.md has the figures).
        """
        server = f"game/{instance.name}"
        start = time.monotonic()
        if announced:
            self.proxy.command(f"set server {server} state drain")
            self.proxy.wait_for_idle(instance.name)
        drained = time.monotonic()
        code = instance.stop(signal.SIGTERM)
        stopped = time.monotonic()
        self.proxy.wait_for({instance.name: "DOWN"})
        instance.start()
        instance.wait_until_healthy()
        if announced:
            self.proxy.command(f"set server {server} state ready")
        self.proxy.wait_for({instance.name: "UP"})
        return {
            "exit_code": code,
            "drain_s": drained - start,
            "stop_s": stopped - drained,
            "back_up_s": time.monotonic() - stopped,
        }

    def cpu_seconds(self) -> float:
        """CPU used so far by every instance's master and workers (not the proxy's)."""
        return cpu_seconds([pid for instance in self.instances if instance.is_running() for pid in instance.workers()])


# --- a player over HTTP -----------------------------------------------------------------------------


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: str
    seconds: float

    @property
    def served_by(self) -> str | None:
        return self.headers["X-Served-By"]

    def board(self) -> dict[str, str]:
        """The board's data-* attributes (board, status, ply, game) in a page or fragment."""
        tag = re.search(r'<div id="board"[^>]*>', self.body)
        if not tag:
            raise AssertionError(f"{self.status}, no board in:\n{self.body[:500]}")
        return dict(re.findall(r'data-([a-z]+)="([^"]*)"', tag.group()))

    def cookies(self) -> dict[str, str]:
        """The cookies the answer sets, by name; an empty value is a cookie deleted."""
        found = {}
        for header in self.headers.get_all("Set-Cookie") or []:
            name, _, value = header.split(";")[0].strip().partition("=")
            found[name] = value
        return found

    def move_fields(self) -> dict[str, str]:
        """The hidden fields the board's form sends: those inside it and those joined to it by ``form=``."""
        form = re.search(r'<form class="cells"[^>]*>.*?</form>', self.body, re.S)
        assert form is not None, "a game's page has the board's form"
        form_id = re.search(r'\bid="([^"]+)"', form.group().split(">", 1)[0])
        fields = {}
        for tag in re.finditer(r"<input\b[^>]*>", self.body):
            attributes = dict(re.findall(r'([a-z-]+)="([^"]*)"', tag.group()))
            inside = form.start() < tag.start() < form.end()
            joined = form_id is not None and attributes.get("form") == form_id.group(1)
            if attributes.get("type") == "hidden" and (joined or (inside and "form" not in attributes)):
                fields[attributes["name"]] = attributes.get("value", "")
        return fields

    def score(self) -> dict[str, int]:
        """The score beside the game (You, Computer, Draws) in a full page."""
        return {name: int(count) for name, count in re.findall(r"<dt>([^<]+)</dt><dd>(\d+)</dd>", self.body)}


def request(port: int, method: str, path: str, *, body: str | None = None, headers=None, timeout: float = 30) -> Answer:
    """One request on a connection of its own, as a browser behind a router makes it."""
    headers = dict(headers or {})
    if body is not None:
        headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    start = time.monotonic()
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return Answer(response.status, response.headers, response.read().decode(), time.monotonic() - start)
    finally:
        connection.close()


class GameLost(AssertionError):
    """An answer that does not follow from the player's last one: a move, a reply or a result went missing."""


class RequestFailed(Exception):
    """A request that got no answer, or an answer that is not a 200: the player's game is as it was."""


@dataclass
class Player:
    """A visitor playing X against the computer, with nothing but its cookies and the last board's form.

    Every answer is checked against the last one: the board is the last board plus this move plus at most
    one reply, the ply counts on, and (in ``check_score``) every finished game is in the score once.
    """

    port: int
    settings: str = GAME
    rng: random.Random = field(default_factory=random.Random)
    jar: dict[str, str] = field(default_factory=dict)  # the game's cookie and the score's, as a browser keeps them
    fields: dict[str, str] = field(default_factory=dict)
    board: dict[str, str] = field(default_factory=dict)
    served_by: list[str] = field(default_factory=list)
    finished: int = 0
    moves: int = 0

    @property
    def cookie(self) -> str:
        """The Cookie header the browser would send: every cookie it keeps."""
        return "; ".join(f"{name}={value}" for name, value in self.jar.items())

    def _send(self, path: str, form: dict[str, str]) -> Answer:
        headers = HTMX | ({"Cookie": self.cookie} if self.jar else {})
        answer = request(self.port, "POST", path, body=urlencode(form), headers=headers)
        if answer.status != 200:
            raise RequestFailed(f"POST {path} answered {answer.status}: {answer.body[:200]!r}")
        self.served_by.append(answer.served_by or "no X-Served-By")
        for name, value in answer.cookies().items():
            if value:
                self.jar[name] = value
            else:
                self.jar.pop(name, None)
        self.fields = answer.move_fields()
        return answer

    def new_game(self) -> None:
        if not self.board:  # a first visit: the page says which game the forms are drawn from
            self.board = request(self.port, "GET", "/").board()
        settings = dict(pair.split("=") for pair in self.settings.split("&"))
        answer = self._send("/new", settings | {"start": "1", "game": self.board["game"]})
        self.board = answer.board()
        if self.board["ply"] != "0" or set(self.board["board"]) != {"."}:
            raise GameLost(f"a new game that is not new: {self.board}")

    def start_if_over(self) -> None:
        """A new game when there is none yet, or when the last one is over (then counted as finished)."""
        if not self.board or self.board["status"] != "playing":
            over = bool(self.board)
            self.new_game()
            self.finished += over  # once the new game is there: a failed request leaves the old one on show

    def move(self) -> None:
        """One move on a random empty square; the computer's reply comes in the same answer."""
        self.start_if_over()
        before = self.board
        cell = self.rng.choice([i for i, mark in enumerate(before["board"]) if mark == "."])
        after = self._send("/move", self.fields | {"cell": str(cell)}).board()
        self.moves += 1
        expected = before["board"][:cell] + "X" + before["board"][cell + 1 :]
        added = [i for i, (a, b) in enumerate(zip(expected, after["board"], strict=True)) if a != b]
        replied = len(added) == 1 and expected[added[0]] == "." and after["board"][added[0]] == "O"
        plies = int(after["ply"]) - int(before["ply"])
        if not ((not added and plies == 1) or (replied and plies == 2)):
            raise GameLost(f"after X on {cell}: {before['board']} ply {before['ply']} -> {after}")
        self.board = after

    def check_score(self) -> dict[str, int]:
        """The score on the page, from this player's cookie: every game finished so far counted, once."""
        page = request(self.port, "GET", "/", headers={"Cookie": self.cookie})
        score = page.score()
        finished = self.finished + (self.board["status"] != "playing")
        if sum(score.values()) != finished or page.board()["board"] != self.board["board"]:
            raise GameLost(f"{finished} games finished, the page's score says {score}; board {page.board()}")
        return score


# --- the measurements -------------------------------------------------------------------------------


def play_continuously(
    port: int, players: int, stop: threading.Event, seed: int = 1, pause: float = 0.0
) -> tuple[list[dict], list[threading.Thread]]:
    """``players`` visitors in threads, each playing move after move until ``stop``: their records, their threads.

    Each waits ``pause`` seconds between moves (none: as fast as the server answers). A failed request is
    recorded and the player goes on from the game it has, as a person clicks again; an answer that does not
    follow from the last one (a game lost) is recorded and ends that player's play.
    """
    records: list[dict[str, list]] = [{"lost": [], "failed": []} for _ in range(players)]
    everyone = [Player(port, rng=random.Random(seed + i)) for i in range(players)]

    def play(player: Player, record: dict) -> None:
        try:
            while not stop.is_set():
                try:
                    player.move()
                except (RequestFailed, OSError, http.client.HTTPException) as error:
                    record["failed"].append(f"{time.strftime('%H:%M:%S')} {error!r}")
                stop.wait(pause)
            record["score"] = player.check_score()
        except GameLost as lost:
            record["lost"].append(str(lost))
        finally:
            record.update(moves=player.moves, finished=player.finished, served_by=sorted(set(player.served_by)))

    threads = [threading.Thread(target=play, args=pair, daemon=True) for pair in zip(everyone, records, strict=True)]
    for thread in threads:
        thread.start()
    return records, threads


def wrk(port: int, seconds: float, connections: int) -> subprocess.Popen:
    """wrk playing POST /move through the proxy (scripts/load.lua), started in the background."""
    start = Player(port)
    start.new_game()
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LOAD_ROUTE": "move",
        "LOAD_COOKIE": start.cookie,
        "LOAD_FIELDS": urlencode(start.fields),
        "LOAD_BOARD": start.board["board"],
    }
    command = ["wrk", f"-t{connections}", f"-c{connections}", f"-d{round(seconds)}s", "--timeout", "10s"]
    command += ["-s", str(ROOT / "scripts" / "load.lua"), f"http://{HOST}:{port}"]
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wrk_result(process: subprocess.Popen, seconds: float) -> dict:
    out, err = process.communicate(timeout=seconds + 60)
    if process.returncode != 0:
        raise RuntimeError(f"wrk failed:\n{err}")
    return json.loads(out.strip().splitlines()[-1])


def counters(fleet: Fleet) -> dict[str, dict[str, int]]:
    """Per server: sessions, retries and redispatches, and 5xx answers, from HAProxy's statistics."""
    names = {"stot": "requests", "wretr": "retries", "wredis": "redispatches", "hrsp_5xx": "5xx", "eresp": "eresp"}
    return {
        server: {label: int(row[key] or 0) for key, label in names.items()}
        for server, row in fleet.proxy.servers().items()
    }


def difference(after: dict, before: dict) -> dict:
    return {s: {k: v - before[s][k] for k, v in row.items()} for s, row in after.items()}


def measure_load(fleet: Fleet, seconds: float, connections: int) -> dict:
    """wrk through the proxy: throughput, latency, errors, how the requests spread, CPU per request."""
    before, instances_cpu, proxy_cpu = counters(fleet), fleet.cpu_seconds(), fleet.proxy.cpu_seconds()
    result = wrk_result(wrk(fleet.port, seconds, connections), seconds)
    spent = fleet.cpu_seconds() - instances_cpu
    return result | {
        "rps": result["requests"] / result["seconds"],
        "instances_cpu_ms_per_request": 1000 * spent / max(result["requests"], 1),
        "proxy_cpu_ms_per_request": 1000 * (fleet.proxy.cpu_seconds() - proxy_cpu) / max(result["requests"], 1),
        "per_server": difference(counters(fleet), before),
    }


def measure_crash(fleet: Fleet, players: int, seconds: float) -> dict:
    """Players mid-game when one instance dies (SIGKILL to its process group); then they play on."""
    victim = fleet.instances[0]
    stop = threading.Event()
    records, threads = play_continuously(fleet.port, players, stop, seed=100)
    time.sleep(seconds / 2)
    before = counters(fleet)
    victim.stop(signal.SIGKILL)
    killed_at = time.monotonic()
    fleet.proxy.wait_for({victim.name: "DOWN"})
    noticed = time.monotonic() - killed_at
    time.sleep(seconds / 2)
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    after = counters(fleet)
    victim.start()
    fleet.proxy.wait_for({victim.name: "UP"})
    return {
        "players": records,
        "proxy_marked_it_down_after_s": noticed,
        "per_server_after_the_crash": difference(after, before),
    }


def measure_rolling_restart(fleet: Fleet, connections: int, players: int, announced: bool) -> dict:
    """wrk and checked players run while each instance in turn is stopped with SIGTERM and started again."""
    before = counters(fleet)
    load = wrk(fleet.port, 600, connections)  # stopped below, once every instance has been restarted
    stop = threading.Event()
    records, threads = play_continuously(fleet.port, players, stop, seed=200 + announced)
    time.sleep(3)
    steps = {}
    for instance in fleet.instances:
        steps[instance.name] = fleet.restart(instance, announced=announced)
        time.sleep(2)
    load.send_signal(signal.SIGINT)  # wrk stops, and reports what it did so far
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    return {
        "announced": announced,
        "wrk": wrk_result(load, 0),
        "steps": steps,
        "players": records,
        "per_server": difference(counters(fleet), before),
    }


def measure(args) -> int:
    subprocess.run([str(ROOT / "scripts" / "ensure-wrk")], check=True)
    report = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "commit": subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip(),
        "command": "python scripts/scale_out.py " + shlex.join(sys.argv[1:]),
        "instances": args.instances,
        "workers_per_instance": args.workers,
        "load_avg_before": os.getloadavg(),
        "retry_on": args.retry_on or RETRY_ON.removeprefix("retry-on "),
    }
    with Fleet(args.instances, args.workers, retry_on=args.retry_on) as fleet:
        wrk_result(wrk(fleet.port, 2, args.connections), 2)  # warm-up, not counted
        report["load"] = measure_load(fleet, args.seconds, args.connections)
        report["crash"] = measure_crash(fleet, args.players, args.seconds)
        report["restarts"] = [
            measure_rolling_restart(fleet, args.connections, args.players, announced=True),
            measure_rolling_restart(fleet, args.connections, args.players, announced=False),
        ]
    if args.json:
        print(json.dumps(report, indent=2, default=sorted))
    else:
        print_report(report)
    return 0 if succeeded(report) else 1


def failures(records: list[dict]) -> list[str]:
    """Every failed request and every lost game of the players."""
    return [problem for record in records for problem in record["lost"] + record["failed"]]


def wrk_errors(result: dict) -> int:
    return sum(result["errors"].values())


def succeeded(report: dict) -> bool:
    """The goals: no error under load; no game lost in a crash; no request failed in an announced restart."""
    announced = report["restarts"][0]
    return (
        wrk_errors(report["load"]) == 0
        and not any(record["lost"] for record in report["crash"]["players"])
        and not failures(announced["players"])
        and wrk_errors(announced["wrk"]) == 0
    )


def print_report(report: dict) -> None:
    print(f"{report['date']}, commit {report['commit']}: {report['command']}")
    print(
        f"{report['instances']} instances of the Procfile server ({report['workers_per_instance']} worker each) "
        f"behind HAProxy (retry-on {report['retry_on']}) on {HOST}; "
        f"load average before: {', '.join(f'{x:.1f}' for x in report['load_avg_before'])}"
    )
    load = report["load"]
    print(
        f"\nLoad through the proxy (wrk, POST /move at Impossible, {load['seconds']:.0f} s): {load['rps']:.0f} req/s, "
        f"p50 {load['p50_ms']:.1f} ms, p99 {load['p99_ms']:.1f} ms, max {load['max_ms']:.0f} ms, "
        f"errors {wrk_errors(load)} {load['errors']}"
    )
    print(
        f"  CPU per request: instances {load['instances_cpu_ms_per_request']:.2f} ms, "
        f"proxy {load['proxy_cpu_ms_per_request']:.2f} ms"
    )
    print_servers(load["per_server"])

    crash = report["crash"]
    players = crash["players"]
    print(
        f"\nOne instance killed (SIGKILL) mid-game under {len(players)} players playing as fast as they are answered: "
        f"the proxy marked it DOWN after {crash['proxy_marked_it_down_after_s']:.2f} s"
    )
    print_players(players)
    print_servers(crash["per_server_after_the_crash"])

    for rolling in report["restarts"]:
        how = "announced (drained first)" if rolling["announced"] else "unannounced (SIGTERM alone)"
        result = rolling["wrk"]
        print(
            f"\nRolling restart, {how}, under wrk ({result['requests']} requests in {result['seconds']:.0f} s, "
            f"{result['requests'] / result['seconds']:.0f} req/s, p99 {result['p99_ms']:.0f} ms, "
            f"max {result['max_ms']:.0f} ms, errors {wrk_errors(result)} {result['errors']}) "
            f"and {len(rolling['players'])} checked players"
        )
        print_players(rolling["players"])
        for name, step in rolling["steps"].items():
            print(
                f"  {name}: drained in {step['drain_s']:.2f} s, exit {step['exit_code']} {step['stop_s']:.2f} s "
                f"after SIGTERM, UP again {step['back_up_s']:.2f} s later"
            )
        print_servers(rolling["per_server"])
    print(
        f"\n{'PASSED' if succeeded(report) else 'FAILED'}: no error under load, no game lost in the crash, "
        "no failed request in the announced rolling restart"
    )


def print_players(records: list[dict]) -> None:
    failed = [problem for record in records for problem in record["failed"]]
    lost = [problem for record in records for problem in record["lost"]]
    print(
        f"  players: {sum(r['moves'] for r in records)} moves, {sum(r['finished'] for r in records)} games finished, "
        f"{len(failed)} failed requests, {len(lost)} games lost"
    )
    for problem in failed + lost:
        print(f"    {problem}")


def print_servers(rows: dict[str, dict[str, int]]) -> None:
    for server, row in rows.items():
        print(f"  {server}: " + ", ".join(f"{name} {count}" for name, count in row.items()))


def restarts(args) -> int:
    """Rolling restart after rolling restart under steady players: how often one loses a request or a game."""
    announced = not args.unannounced
    totals = {"restarts": 0, "moves": 0, "failed": 0, "lost": 0}
    with Fleet(args.instances, args.workers) as fleet:
        for round_number in range(1, args.rounds + 1):
            stop = threading.Event()
            records, threads = play_continuously(fleet.port, args.players, stop, seed=round_number, pause=args.pause)
            for instance in fleet.instances:
                fleet.restart(instance, announced=announced)
                totals["restarts"] += 1
                time.sleep(0.5)
            stop.set()
            for thread in threads:
                thread.join(timeout=60)
            totals["moves"] += sum(record["moves"] for record in records)
            totals["failed"] += sum(len(record["failed"]) for record in records)
            totals["lost"] += sum(len(record["lost"]) for record in records)
            for problem in failures(records):
                print(f"  round {round_number}: {problem}")
            so_far = ", ".join(f"{name} {count:,}" for name, count in totals.items())
            print(f"round {round_number}: {so_far}", flush=True)
    how = "announced (drained first)" if announced else "unannounced (SIGTERM alone)"
    print(
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: {totals['restarts']} {how} restarts under "
        f"{args.players} players, {totals['moves']:,} moves, {totals['failed']} failed requests, "
        f"{totals['lost']} games lost"
    )
    return 0 if not totals["lost"] and (totals["failed"] == 0 or not announced) else 1


def up(args) -> int:
    with Fleet(args.instances, args.workers, args.port) as fleet:
        print(f"{len(fleet.instances)} instances behind HAProxy: play at http://{HOST}:{fleet.port}/")
        for instance in fleet.instances:
            print(f"  {instance.name}: {HOST}:{instance.port}, log {instance.log_path}")
        print(f"  proxy config {fleet.proxy.config_path}, log {fleet.proxy.log_path}; Ctrl-C stops them all")
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        signal.sigwait({signal.SIGINT, signal.SIGTERM})
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=3, help="copies of the Procfile server (default 3)")
    parser.add_argument("--workers", type=int, default=1, help="WEB_CONCURRENCY of each (default 1)")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("up", help="start them and the proxy, and keep them until Ctrl-C")
    run.add_argument("--port", type=int, default=8080, help="the proxy's port on 127.0.0.1 (default 8080)")
    run.set_defaults(action=up)
    figures = commands.add_parser("measure", help="load, a crash and a rolling restart, through the proxy")
    figures.add_argument("--seconds", type=float, default=10, help="of load, and of play around the crash")
    figures.add_argument("--connections", type=int, default=8, help="wrk connections (default 8)")
    figures.add_argument("--players", type=int, default=4, help="checked players beside wrk (default 4)")
    figures.add_argument("--retry-on", help="HAProxy's retry-on conditions instead of the configuration's")
    figures.add_argument("--json", action="store_true", help="print the report as JSON")
    figures.set_defaults(action=measure)
    again = commands.add_parser("restarts", help="rolling restarts, round after round, under checked players")
    again.add_argument("--rounds", type=int, default=12, help="rolling restarts of every instance (default 12)")
    again.add_argument("--players", type=int, default=3, help="checked players (default 3)")
    again.add_argument("--pause", type=float, default=0.02, help="seconds between a player's moves (0.02)")
    again.add_argument("--unannounced", action="store_true", help="SIGTERM alone, the proxy not told first")
    again.set_defaults(action=restarts)
    args = parser.parse_args()
    # A SIGTERM (a `kill`, a CI's timeout) unwinds like Ctrl-C, so that every server started is stopped.
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(128 + number))
    return args.action(args)


if __name__ == "__main__":
    raise SystemExit(main())
