"""How fast the production server plays, beside a trivial Flask app served the same way.

Starts gunicorn with gunicorn.conf.py (2 workers) twice on loopback: one server for
scripts/trivial_app.py, whose one route reads and writes one session value, and one for the game.
It loads them in turn, in short alternating rounds, with client processes that each keep their own
cookie. Against the game every client plays Human vs Computer at the Impossible level, and only
POST /move (the player's move and the computer's reply) is timed. Prints throughput and latency,
where the machine's CPU went, and whether the goals were met; exits 1 if any was missed.
A load script, not a test: run it with `make load`. Details and the latest figures: docs/load.md.
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import multiprocessing
import os
import random
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"  # never anything else: this script loads only servers it started itself
WORKERS = 2
STARTUP_SECONDS = 20
STOP_SECONDS = 15
REQUEST_TIMEOUT = 10

MIN_THROUGHPUT_RATIO = 0.60
MAX_MOVE_P99_MS = 25.0
# Above this share of the machine's CPU going to other programs, the figures are not to be trusted.
OTHER_CPU_WARNING = 0.10

BOARD_TAG = re.compile(r'<div id="board"[^>]*>')
DATA_ATTRIBUTE = re.compile(r'data-([a-z]+)="([^"]*)"')
NEW_GAME = urlencode({"mode": "hvc", "difficulty": "minimax", "human": "X"})
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class LoadError(Exception):
    """The load could not be run (a server did not start); the message says why."""


@dataclass
class Tally:
    """What one client saw in the measured window."""

    latencies: list[float] = field(default_factory=list)  # seconds, one for each timed request
    errors: list[str] = field(default_factory=list)
    untimed: int = 0  # requests made but not timed: starting a new game


# --- the servers -----------------------------------------------------------------------------


class Server:
    """A gunicorn server on a loopback port, started with gunicorn.conf.py, stopped on exit."""

    def __init__(self, app: str, *, chdir: Path = ROOT):
        self.app, self.chdir = app, chdir
        self.port = 0
        self.process: subprocess.Popen | None = None
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 -- it lives as long as the server, closed in __exit__

    def __enter__(self) -> Server:
        # Bind the port here and hand the socket over, so no other program can take it meanwhile.
        listener = socket.create_server((HOST, 0))
        self.port = listener.getsockname()[1]
        env = os.environ | {"SECRET_KEY": secrets.token_hex(32), "WEB_CONCURRENCY": str(WORKERS)}
        env.pop("PORT", None)
        command = [sys.executable, "-m", "gunicorn", "--config", str(ROOT / "gunicorn.conf.py")]
        command += ["--bind", f"fd://{listener.fileno()}", "--chdir", str(self.chdir), self.app]
        try:
            self.process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=self.log,
                stderr=subprocess.STDOUT,
                pass_fds=[listener.fileno()],
            )
        finally:
            listener.close()
        try:
            self._wait_until_ready()
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc_info) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()  # SIGTERM: gunicorn stops its workers and exits
            try:
                self.process.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()

    def _wait_until_ready(self) -> None:
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise LoadError(f"{self.app} exited with status {self.process.returncode}:\n{self.output()}")
            try:
                if get_status(self.port, "/healthz", timeout=1) == 200:
                    return
            except OSError:
                pass
            time.sleep(0.05)
        raise LoadError(f"{self.app} did not answer /healthz within {STARTUP_SECONDS} s:\n{self.output()}")

    def output(self) -> str:
        """What the server has logged so far."""
        self.log.seek(0)
        return self.log.read().decode(errors="replace")


def get_status(port: int, path: str, timeout: float) -> int:
    """The status of a GET to ``path`` on our loopback server."""
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


# --- the clients -----------------------------------------------------------------------------


class Client:
    """One visitor: the session cookie the server last sent, and its connection while it stays open.

    HTTP/1.1 written by hand: http.client parses every response header with the email package,
    which cost about half as much CPU as the trivial server spent on the request, and the client
    runs on the same two cores as the server it measures.
    """

    def __init__(self, port: int):
        self.port = port
        self.connection: socket.socket | None = None
        self.cookie = b""

    def post(self, path: str, form: str) -> tuple[int, str]:
        """POST a form as htmx does; returns the status and the body, and keeps any new cookie."""
        body = form.encode()
        request = b"".join(
            [
                b"POST %s HTTP/1.1\r\nHost: %s:%d\r\n" % (path.encode(), HOST.encode(), self.port),
                b"Content-Type: application/x-www-form-urlencoded\r\nHX-Request: true\r\n",
                b"Content-Length: %d\r\n" % len(body),
                b"Cookie: %s\r\n" % self.cookie if self.cookie else b"",
                b"\r\n",
                body,
            ]
        )
        reused = self.connection is not None
        try:
            return self._exchange(request)
        except ConnectionError:
            self.close()
            if not reused:
                raise
        # The server closed a kept-alive connection just as we sent; try once more on a new one.
        try:
            return self._exchange(request)
        except OSError:
            self.close()
            raise

    def _exchange(self, request: bytes) -> tuple[int, str]:
        if self.connection is None:
            self.connection = socket.create_connection((HOST, self.port), timeout=REQUEST_TIMEOUT)
        self.connection.sendall(request)
        received = b""
        while b"\r\n\r\n" not in received:
            received += self._receive()
        head, _, body = received.partition(b"\r\n\r\n")
        status_line, *header_lines = head.split(b"\r\n")
        headers = {}
        for line in header_lines:
            name, _, value = line.partition(b":")
            headers[name.strip().lower()] = value.strip()
        if b"content-length" not in headers:
            raise ValueError("a response without Content-Length")
        length = int(headers[b"content-length"])
        while len(body) < length:
            body += self._receive()
        if headers.get(b"connection", b"").lower() == b"close":
            self.close()
        if b"set-cookie" in headers:
            self.cookie = headers[b"set-cookie"].partition(b";")[0]
        return int(status_line.split()[1]), body.decode()

    def _receive(self) -> bytes:
        chunk = self.connection.recv(65536)
        if not chunk:
            raise ConnectionResetError("the server closed the connection mid-response")
        return chunk

    def close(self) -> None:
        """Close the connection, if one is open; the next request opens another."""
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def board_state(fragment: str) -> dict[str, str]:
    """The data-* attributes of the board in a page or fragment: board, status and ply."""
    tag = BOARD_TAG.search(fragment)
    if tag is None:
        raise ValueError("no board in the response")
    return dict(DATA_ATTRIBUTE.findall(tag.group()))


def play_games(client: Client, measure_from: float, stop_at: float, rng: random.Random) -> Tally:
    """Play Human vs Impossible until ``stop_at``, timing the moves made after ``measure_from``.

    Only the first game is started with POST /new. Its answer is a whole fresh game in a signed
    cookie, so every later game starts by sending that cookie again: the server holds no state,
    and the load is POST /move alone, which is what the goal is about.
    """
    tally = Tally()
    fresh = state = None
    while (now := time.perf_counter()) < stop_at:
        measuring = now >= measure_from
        try:
            if fresh is None:
                status, text = client.post("/new", NEW_GAME)
                if status != 200:
                    raise ValueError(f"POST /new answered {status}")
                fresh = (client.cookie, board_state(text))
                if measuring:
                    tally.untimed += 1
            if state is None or state.get("status") != "playing":
                client.cookie, state = fresh
            empty = [str(i) for i, mark in enumerate(state["board"]) if mark == "."]
            body = urlencode({"cell": rng.choice(empty), "ply": state["ply"]})
            started = time.perf_counter()
            status, text = client.post("/move", body)
            elapsed = time.perf_counter() - started
            if status != 200:
                raise ValueError(f"POST /move answered {status}")
            state = board_state(text)
            if measuring:
                tally.latencies.append(elapsed)
        except (OSError, ValueError, KeyError) as error:
            fresh = state = None  # start over with POST /new, in case the game got out of step
            if measuring:
                tally.errors.append(f"{type(error).__name__}: {error}")
    return tally


def count_visits(client: Client, measure_from: float, stop_at: float, rng: random.Random) -> Tally:
    """POST the trivial route until ``stop_at``, timing the requests made after ``measure_from``."""
    tally = Tally()
    while (started := time.perf_counter()) < stop_at:
        measuring = started >= measure_from
        try:
            status, _ = client.post("/count", "")
            elapsed = time.perf_counter() - started
            if status != 200:
                raise ValueError(f"POST /count answered {status}")
            if measuring:
                tally.latencies.append(elapsed)
        except (OSError, ValueError) as error:
            if measuring:
                tally.errors.append(f"{type(error).__name__}: {error}")
    return tally


def processes() -> dict[int, tuple[int, float]]:
    """Every process on the machine: its parent and the CPU seconds it has used so far."""
    table = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue  # it ended while we looked
        table[int(stat.parent.name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / CLOCK_TICKS)
    return table


@dataclass(frozen=True)
class CpuSnapshot:
    """CPU seconds so far: the server's (master and workers), the clients', and the whole machine's."""

    server: float
    client: float
    machine_busy: float
    machine_total: float

    @classmethod
    def take(cls, server_pid: int, idle_servers: tuple[int, ...] = ()) -> CpuSnapshot:
        """Read the counters now, for the server under load; ``idle_servers`` are the others we started."""
        me = os.getpid()
        table = processes()
        server = sum(cpu for pid, (parent, cpu) in table.items() if server_pid in (pid, parent))
        # This script and its children, the client processes; the servers are children too.
        servers = (server_pid, *idle_servers)
        client = sum(cpu for pid, (parent, cpu) in table.items() if me in (pid, parent) and pid not in servers)
        # The first line of /proc/stat: user nice system idle iowait irq softirq steal, in ticks.
        ticks = [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
        idle = ticks[3] + ticks[4]
        return cls(server, client, (sum(ticks) - idle) / CLOCK_TICKS, sum(ticks) / CLOCK_TICKS)

    def __sub__(self, other: CpuSnapshot) -> CpuSnapshot:
        return CpuSnapshot(
            self.server - other.server,
            self.client - other.client,
            self.machine_busy - other.machine_busy,
            self.machine_total - other.machine_total,
        )

    def __add__(self, other: CpuSnapshot) -> CpuSnapshot:
        return CpuSnapshot(
            self.server + other.server,
            self.client + other.client,
            self.machine_busy + other.machine_busy,
            self.machine_total + other.machine_total,
        )


def run_client(visit, port: int, measure_from: float, stop_at: float, seed: int, results) -> None:
    """The body of one client process: visit the server until ``stop_at``, then report its tally."""
    # Ctrl-C is the parent's to handle (it reaches the whole terminal's process group), and the
    # parent's SIGTERM, if it has to stop us early, should end us without a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    client = Client(port)
    try:
        tally = visit(client, measure_from, stop_at, random.Random(seed))
    except Exception as error:  # the parent waits for a tally from every client, so always send one
        tally = Tally(errors=[f"client failed: {error!r}"])
    finally:
        client.close()
    results.put(tally)


def load(
    server: Server, visit, clients: int, warmup: float, seconds: float, idle_servers: tuple[int, ...] = ()
) -> tuple[list[Tally], CpuSnapshot]:
    """Run ``clients`` processes of ``visit`` against ``server``: their tallies and the CPU used while measured.

    Processes, not threads: client threads would share one GIL, and a thread waiting for it to
    read its response would count that wait as the server's latency.
    """
    context = multiprocessing.get_context("fork")
    results = context.SimpleQueue()
    measure_from = time.perf_counter() + warmup
    stop_at = measure_from + seconds
    workers = [
        context.Process(target=run_client, args=(visit, server.port, measure_from, stop_at, seed, results))
        for seed in range(clients)
    ]
    try:
        for worker in workers:
            worker.start()
        time.sleep(max(0.0, measure_from - time.perf_counter()))
        before = CpuSnapshot.take(server.process.pid, idle_servers)
        time.sleep(max(0.0, stop_at - time.perf_counter()))
        after = CpuSnapshot.take(server.process.pid, idle_servers)
        tallies = [results.get() for _ in workers]
        for worker in workers:
            worker.join()  # each exits as soon as it has sent its tally
    finally:
        for worker in workers:
            if worker.is_alive():  # only when interrupted
                worker.terminate()
                worker.join()
    return tallies, after - before


def summarize(tallies: list[Tally], seconds: float, used: CpuSnapshot) -> dict:
    """Throughput, latency percentiles, errors and where the machine's CPU went, from the clients' tallies."""
    latencies = sorted(t for tally in tallies for t in tally.latencies)
    errors = [error for tally in tallies for error in tally.errors]
    timed = len(latencies)
    untimed = sum(tally.untimed for tally in tallies)
    server, client, busy = used.server, used.client, used.machine_busy
    total = used.machine_total or 1.0
    return {
        "requests": timed,
        "per_second": round(timed / seconds, 1),
        "p50_ms": milliseconds(percentile(latencies, 50)),
        "p99_ms": milliseconds(percentile(latencies, 99)),
        "errors": len(errors),
        "first_errors": sorted(set(errors))[:5],
        "untimed_requests": untimed,
        # The server's CPU time over every request it answered, timed or not.
        "server_cpu_ms_per_request": milliseconds(server / (timed + untimed)) if timed + untimed else None,
        # The same spread over the timed requests alone: what one move costs, its share of /new included.
        "server_cpu_ms_per_timed_request": milliseconds(server / timed) if timed else None,
        # Shares of the whole machine (every core) over the measured window.
        "cpu_share": {
            "server": round(server / total, 3),
            "client": round(client / total, 3),
            "other": round(max(0.0, busy - server - client) / total, 3),
            "idle": round(max(0.0, 1 - busy / total), 3),
        },
    }


def percentile(ordered: list[float], percent: float) -> float | None:
    """The nearest-rank percentile of an ascending list (None when it is empty)."""
    if not ordered:
        return None
    return ordered[max(0, math.ceil(percent / 100 * len(ordered)) - 1)]


def milliseconds(seconds: float | None) -> float | None:
    """Seconds in milliseconds, rounded to the microsecond; None stays None."""
    return None if seconds is None else round(seconds * 1000, 3)


# --- the report ------------------------------------------------------------------------------


def measure(clients: int, warmup: float, seconds: float, rounds: int) -> dict:
    """Load the trivial app and the game in turn, ``rounds`` times each; the figures and the goals.

    Both servers run throughout, but only one is loaded at a time. The speed of a shared machine
    drifts by up to 2x over a few seconds, so one long block per server would compare two
    different machines; short alternating rounds see the same drift, and the goal is judged on
    the median of the rounds' ratios.
    """
    per_round = seconds / rounds
    runs = {"trivial": [], "move": []}
    with Server("trivial_app:app", chdir=ROOT / "scripts") as trivial_server, Server("webapp:create_app()") as game:
        servers = {"trivial": (trivial_server, count_visits), "move": (game, play_games)}
        for round_number in range(rounds):
            for name, (server, visit) in servers.items():
                others = tuple(s.process.pid for s, _ in servers.values() if s is not server)
                # The first round warms both servers up; later ones only let the clients connect.
                settle = warmup if round_number == 0 else min(warmup, 0.5)
                runs[name].append(load(server, visit, clients, settle, per_round, others))
    trivial, move = (
        summarize([t for tallies, _ in runs[name] for t in tallies], seconds, sum_cpu(runs[name]))
        for name in ("trivial", "move")
    )
    ratios = sorted(
        sum(len(t.latencies) for t in game_round[0]) / max(1, sum(len(t.latencies) for t in trivial_round[0]))
        for trivial_round, game_round in zip(runs["trivial"], runs["move"], strict=True)
    )
    ratio = statistics.median(ratios)
    errors = trivial["errors"] + move["errors"]
    p99 = move["p99_ms"]
    goals = [
        {
            "goal": f"/move throughput at least {MIN_THROUGHPUT_RATIO:.0%} of the trivial route's",
            "value": f"{ratio:.1%}",
            "met": ratio >= MIN_THROUGHPUT_RATIO,
        },
        {
            "goal": f"/move p99 under {MAX_MOVE_P99_MS:g} ms",
            "value": "no moves" if p99 is None else f"{p99:.1f} ms",
            "met": p99 is not None and p99 < MAX_MOVE_P99_MS,
        },
        {"goal": "no errors", "value": str(errors), "met": errors == 0},
    ]
    busiest_other = max(trivial["cpu_share"]["other"], move["cpu_share"]["other"])
    notes = []
    if busiest_other > OTHER_CPU_WARNING:
        notes.append(
            f"Other programs used up to {busiest_other:.0%} of the machine's CPU during the measurements, "
            "so these figures understate the servers; run it again on a quiet machine."
        )
    if os.environ.get("GUNICORN_CMD_ARGS"):
        notes.append(f"GUNICORN_CMD_ARGS overrode gunicorn.conf.py: {os.environ['GUNICORN_CMD_ARGS']}")
    return {
        "round_ratios": [round(r, 4) for r in ratios],
        "setup": {
            "rounds": rounds,
            "clients": clients,
            "warmup_seconds": warmup,
            "seconds": seconds,
            "workers": WORKERS,
            "cpus": os.cpu_count(),
            "host": HOST,
        },
        "trivial": trivial,
        "move": move,
        "throughput_ratio": round(ratio, 4),
        "errors": errors,
        "goals": goals,
        "all_met": all(goal["met"] for goal in goals),
        "notes": notes,
    }


def sum_cpu(runs: list[tuple[list[Tally], CpuSnapshot]]) -> CpuSnapshot:
    total = CpuSnapshot(0.0, 0.0, 0.0, 0.0)
    for _, used in runs:
        total = total + used
    return total


def render(report: dict) -> str:
    """The report as a small table for people."""
    setup, trivial, move = report["setup"], report["trivial"], report["move"]
    lines = [
        f"{setup['clients']} client processes, {setup['seconds']:g} s per server "
        f"in {setup['rounds']} alternating rounds, after {setup['warmup_seconds']:g} s of warm-up; "
        f"gunicorn.conf.py with {setup['workers']} workers on {setup['host']}; {setup['cpus']} CPUs",
        "",
        f"{'':21}{'req/s':>8}{'p50 ms':>8}{'p99 ms':>8}{'errors':>7}{'server CPU/req':>16}"
        "   share of all CPUs: server client other idle",
    ]
    for name, figures in [("trivial POST /count", trivial), ("game POST /move", move)]:
        share = figures["cpu_share"]
        lines.append(
            f"{name:21}{figures['per_second']:8.1f}{number(figures['p50_ms'], 8, 2)}{number(figures['p99_ms'], 8, 2)}"
            f"{figures['errors']:7d}{number(figures['server_cpu_ms_per_request'], 13, 2)} ms"
            f"{'':21}{share['server']:6.0%}{share['client']:7.0%}{share['other']:6.0%}{share['idle']:5.0%}"
        )
    lines += [
        "",
        f"moves per second: {move['per_second']:.1f}; server CPU per move, any POST /new included: "
        f"{number(move['server_cpu_ms_per_timed_request'], 0, 2)} ms "
        f"({move['untimed_requests']} POST /new while measuring: each client starts one game in the warm-up "
        "and every later game from that fresh-game cookie)",
        f"/move throughput ÷ trivial throughput, median of the rounds: {report['throughput_ratio']:.1%} "
        f"(rounds: {', '.join(f'{r:.0%}' for r in report['round_ratios'])})",
    ]
    for figures in (trivial, move):
        lines += [f"  error: {error}" for error in figures["first_errors"]]
    lines += ["", "Goals:"]
    lines += [f"  {'met   ' if g['met'] else 'MISSED'}  {g['goal']}: {g['value']}" for g in report["goals"]]
    lines += [f"\nNote: {note}" for note in report["notes"]]
    return "\n".join(lines)


def number(value: float | None, width: int, decimals: int) -> str:
    """``value`` right-aligned in ``width`` characters, or a dash if there is none."""
    return f"{'-':>{width}}" if value is None else f"{value:{width}.{decimals}f}"


def main(argv: list[str] | None = None) -> int:
    """Run the load and print the report; 0 if every goal was met, 1 if not, 2 if it could not run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per server (default 10)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds per server (default 5)")
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients (default 8)")
    parser.add_argument("--warmup", type=float, default=2.0, help="unmeasured seconds first (default 2)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.clients < 1 or args.warmup < 0 or args.rounds < 1:
        parser.error("--seconds must be positive, --clients and --rounds at least 1 and --warmup not negative")

    # A plain `kill` stops us the way Ctrl-C does, so the servers are stopped on the way out.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        report = measure(args.clients, args.warmup, args.seconds, args.rounds)
    except LoadError as error:
        print(f"load: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("load: interrupted; the servers were stopped.", file=sys.stderr)
        return 130
    print(json.dumps(report, indent=2) if args.json else render(report))
    return 0 if report["all_met"] else 1


if __name__ == "__main__":
    sys.exit(main())
