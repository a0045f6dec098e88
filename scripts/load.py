"""How fast the production server plays, beside a trivial Flask app served the same way, measured with wrk.

Starts gunicorn with gunicorn.conf.py (2 workers) twice on 127.0.0.1: once for
scripts/trivial_app.py, whose one route reads and writes one session value, and once for the game.
wrk (installed by scripts/ensure-wrk when missing) loads them in turn, in short alternating rounds,
with scripts/load.lua: against the game each connection plays Human vs Computer at the Impossible
level, POST /move only. Prints each round, the totals and the goals; exits 1 if a goal is missed.
A measurement, not a test: run it with `make load`. Method and latest figures: docs/serving.md.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"  # never anything else: this script loads only the servers it started
STARTUP_SECONDS = 120  # the game's master works out its cold costs before it forks the workers
MIN_THROUGHPUT_RATIO = 0.85
MAX_MOVE_P99_MS = 15.0
NEW_GAME = urlencode({"mode": "hvc", "difficulty": "minimax", "human": "X"})


class Server:
    """gunicorn with gunicorn.conf.py on a loopback port of our choosing, stopped on exit."""

    def __init__(self, app: str, chdir: Path, secret: str, workers: int):
        listener = socket.create_server((HOST, 0))
        self.port = listener.getsockname()[1]
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 -- closed in __exit__
        env = {"PATH": "/usr/bin:/bin", "SECRET_KEY": secret, "WEB_CONCURRENCY": str(workers)}
        if "GUNICORN_CMD_ARGS" in os.environ:  # to compare other settings, e.g. "--worker-class sync"
            env["GUNICORN_CMD_ARGS"] = os.environ["GUNICORN_CMD_ARGS"]
        command = [sys.executable, "-m", "gunicorn", "--config", str(ROOT / "gunicorn.conf.py")]
        self.process = subprocess.Popen(
            [*command, "--chdir", str(chdir), "--bind", f"fd://{listener.fileno()}", app],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            pass_fds=[listener.fileno()],
        )
        listener.close()

    def __enter__(self) -> Server:
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                if post(self.port, "GET", "/healthz")[0] == 200:
                    return self
            except OSError:
                time.sleep(0.1)
        self.log.seek(0)
        raise SystemExit(f"gunicorn did not start:\n{self.log.read().decode(errors='replace')}")

    def cpu_seconds(self) -> float:
        """CPU time used so far by gunicorn's master and workers (Linux's /proc), user and system."""
        workers = subprocess.run(["pgrep", "-P", str(self.process.pid)], capture_output=True, text=True).stdout.split()
        ticks = 0
        for pid in [self.process.pid, *map(int, workers)]:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])  # utime and stime
        return ticks / os.sysconf("SC_CLK_TCK")

    def __exit__(self, *exc) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


def post(port: int, method: str, path: str, body: str = "", headers=None):
    connection = http.client.HTTPConnection(HOST, port, timeout=10)
    try:
        connection.request(method, path, body=body or None, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.headers, response.read().decode()
    finally:
        connection.close()


def found(pattern: str, text: str, flags: int = 0) -> re.Match[str]:
    """The first match of ``pattern`` in a page this script asked for; AssertionError if the page lacks it."""
    match = re.search(pattern, text, flags)
    assert match is not None, f"{pattern!r} is not in the page"
    return match


def fresh_game(port: int) -> dict[str, str]:
    """A new game's cookie, the board and the hidden fields of its move form: where each player starts."""
    _, _, page = post(port, "GET", "/")
    digest = found(r'data-game="([^"]*)"', page).group(1)  # every form says what it was drawn from
    headers = {"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"}
    status, answer, html = post(port, "POST", "/new", f"{NEW_GAME}&start=1&game={digest}", headers)
    assert status == 200, html
    cookie = next(c.split(";")[0] for c in answer.get_all("Set-Cookie") if c.startswith("session="))
    fields = urlencode(move_form_fields(html))
    board = found(r'data-board="([^"]*)"', html).group(1)
    return {"LOAD_COOKIE": cookie, "LOAD_FIELDS": fields, "LOAD_BOARD": board}


def move_form_fields(html: str) -> list[tuple[str, str]]:
    """The hidden fields the board's form sends: those inside it and those joined to it by ``form=``."""
    form = found(r'<form class="cells"[^>]*>.*?</form>', html, re.S)
    form_id = re.search(r'\bid="([^"]+)"', form.group().split(">", 1)[0])
    fields = []
    for tag in re.finditer(r"<input\b[^>]*>", html):
        attributes = dict(re.findall(r'([a-z-]+)="([^"]*)"', tag.group()))
        inside = form.start() < tag.start() < form.end()
        joined = form_id is not None and attributes.get("form") == form_id.group(1)
        if attributes.get("type") == "hidden" and (joined or (inside and "form" not in attributes)):
            fields.append((attributes["name"], attributes.get("value", "")))
    return fields


def wrk(server: Server, route: str, seconds: float, connections: int, env: dict[str, str]) -> dict:
    """One wrk run: the JSON line scripts/load.lua prints when it is done, and the server's CPU seconds."""
    port = server.port
    before = server.cpu_seconds()
    command = ["wrk", f"-t{connections}", f"-c{connections}", f"-d{seconds}s", "--timeout", "5s"]
    command += ["-s", str(ROOT / "scripts" / "load.lua"), f"http://{HOST}:{port}"]
    finished = subprocess.run(
        command, env={"LOAD_ROUTE": route, **env}, capture_output=True, text=True, check=True, timeout=seconds + 30
    )
    return json.loads(finished.stdout.strip().splitlines()[-1]) | {"server_cpu_s": server.cpu_seconds() - before}


def summary(runs: list[dict]) -> dict:
    requests = sum(r["requests"] for r in runs)
    return {
        "rps": requests / sum(r["seconds"] for r in runs),
        "p50_ms": statistics.median(r["p50_ms"] for r in runs),
        "p99_ms": statistics.median(r["p99_ms"] for r in runs),
        "worst_p99_ms": max(r["p99_ms"] for r in runs),
        "errors": sum(sum(r["errors"].values()) for r in runs),
        "requests": requests,
        "server_cpu_ms": 1000 * sum(r["server_cpu_s"] for r in runs) / requests,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5)")
    parser.add_argument("--seconds", type=int, default=3, help="seconds per server per round (default 3)")
    parser.add_argument("--connections", type=int, default=8, help="wrk connections, one thread each (default 8)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per server (default 2)")
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")
    args = parser.parse_args()
    subprocess.run([str(ROOT / "scripts" / "ensure-wrk")], check=True)

    secret = secrets.token_hex(32)
    with (
        Server("trivial_app:app", ROOT / "scripts", secret, args.workers) as trivial,
        Server("webapp:create_app()", ROOT, secret, args.workers) as game,
    ):
        start = fresh_game(game.port)
        cookie = {"LOAD_COOKIE": post(trivial.port, "POST", "/count")[1]["Set-Cookie"].split(";")[0]}
        targets = {
            "trivial POST /count": (trivial, "count", cookie),
            "game POST /move": (game, "move", start),
        }
        for server, route, env in targets.values():  # warm-up, not counted
            wrk(server, route, 2, args.connections, env)
        runs: dict[str, list] = {name: [] for name in targets}
        for _ in range(args.rounds):
            for name, (server, route, env) in targets.items():
                runs[name].append(wrk(server, route, args.seconds, args.connections, env))

    totals = {name: summary(found) for name, found in runs.items()}
    ratios = [
        (m["requests"] / m["seconds"]) / (t["requests"] / t["seconds"])
        for t, m in zip(runs["trivial POST /count"], runs["game POST /move"], strict=True)
    ]
    ratio = statistics.median(ratios)
    move = totals["game POST /move"]
    goals = [
        (
            f"/move throughput at least {MIN_THROUGHPUT_RATIO:.0%} of the trivial route's",
            ratio >= MIN_THROUGHPUT_RATIO,
            f"{ratio:.1%}",
        ),
        (
            f"/move p99 under {MAX_MOVE_P99_MS:.0f} ms (median of the rounds)",
            move["p99_ms"] < MAX_MOVE_P99_MS,
            f"{move['p99_ms']:.1f} ms",
        ),
        (
            "no errors, on either server",
            all(t["errors"] == 0 for t in totals.values()),
            str(sum(t["errors"] for t in totals.values())),
        ),
    ]
    if args.json:
        print(json.dumps({"runs": runs, "totals": totals, "ratios": ratios, "ratio": ratio, "goals": goals}, indent=2))
    else:
        print(
            f"wrk, {args.connections} connections, {args.rounds} alternating rounds of {args.seconds} s per server "
            f"after 2 s of warm-up; gunicorn.conf.py with {args.workers} workers on {HOST}\n"
        )
        print(f"{'':22}{'req/s':>9}{'p50 ms':>8}{'p99 ms':>8}{'worst p99':>10}{'errors':>8}{'server CPU/req':>16}")
        for name, t in totals.items():
            print(
                f"{name:22}{t['rps']:9.1f}{t['p50_ms']:8.2f}{t['p99_ms']:8.2f}{t['worst_p99_ms']:10.2f}{t['errors']:8d}"
                f"{t['server_cpu_ms']:13.3f} ms"
            )
        rounds = ", ".join(f"{r:.0%}" for r in ratios)
        print(f"\n/move ÷ trivial throughput, median of the rounds: {ratio:.1%} (rounds: {rounds})")
        # wrk runs on the same cores: the servers' own CPU per request is the cost free of the client's share.
        cpu = totals["trivial POST /count"]["server_cpu_ms"] / move["server_cpu_ms"]
        print(f"trivial ÷ /move server CPU per request (not a goal; free of wrk's share of the cores): {cpu:.1%}")
        print("\nGoals:")
        for goal, met, figure in goals:
            print(f"  {'met   ' if met else 'MISSED'}  {goal}: {figure}")
    return 0 if all(met for _, met, _ in goals) else 1


if __name__ == "__main__":
    raise SystemExit(main())
