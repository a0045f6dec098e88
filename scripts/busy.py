"""Busy visitors against the production server: do the others still get their answers at once?

Starts the Procfile's server (two workers) and BUSY clients that send costly requests as fast as the
answers come back: 15×15 Hard moves through the JSON API, through the no-JavaScript form, and 15×15 and
7×7 trees with three-move paths, each on a fresh position. Meanwhile a player checks /healthz and plays
3×3 against Impossible through the form, and every answer is timed. Prints the player's p50, p99 and
worst per request, and what the busy clients got (answers, 429s); the goal is p99 under 1 s.
A measurement, not a test (tests/test_production.py has the short version): `make busy`.

    python scripts/busy.py [--seconds 30] [--busy 4]
"""

from __future__ import annotations

import argparse
import collections
import http.client
import json
import random
import re
import statistics
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

import procfile_server  # beside this script

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
GOAL_SECONDS = 1.0


def send(port: int, method: str, path: str, body: str | None = None, headers=None) -> tuple[int, dict, str]:
    connection = http.client.HTTPConnection(HOST, port, timeout=60)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read().decode(errors="replace")
    finally:
        connection.close()


def position(rng: random.Random, n: int, stones: int) -> str:
    cells = rng.sample(range(n * n), stones)
    return "".join("X" if i in cells[0::2] else "O" if i in cells[1::2] else "." for i in range(n * n))


def busy(port: int, number: int, stop: threading.Event, got: collections.Counter) -> None:
    rng = random.Random(number)
    form = "application/x-www-form-urlencoded"
    while not stop.is_set():
        kind = number % 3
        n = 15 if kind != 2 or rng.random() < 0.5 else 7
        board = position(rng, n, 8)
        try:
            if kind == 0:
                body = json.dumps({"board": board, "level": "minimax"})
                status = send(port, "POST", "/api/move", body, {"Content-Type": "application/json"})[0]
            elif kind == 1:
                # The no-JavaScript way: a new 15×15 game against Hard, then a move through the form.
                status, headers, page = send(port, "GET", "/")
                cookie = headers.get("Set-Cookie", "").split(";")[0]
                digest = re.search(r'data-game="([^"]+)"', page).group(1)
                settings = urlencode({"board": "15x15", "difficulty": "minimax", "start": 1, "game": digest})
                status, headers, _ = send(port, "POST", "/new", settings, {"Content-Type": form, "Cookie": cookie})
                cookie = headers.get("Set-Cookie", cookie).split(";")[0]
                status, _, page = send(port, "GET", "/", headers={"Cookie": cookie})
                digest = re.search(r'data-game="([^"]+)"', page).group(1)
                move = urlencode({"cell": rng.randrange(225), "game": digest})
                status = send(port, "POST", "/move", move, {"Content-Type": form, "Cookie": cookie})[0]
            else:
                free = [i for i, c in enumerate(board) if c == "."]
                path = ".".join(map(str, rng.sample(free, 3)))
                status = send(port, "GET", "/tree?" + urlencode({"board": board, "path": path}))[0]
            got[status] += 1
        except OSError:
            got["connection error"] += 1


def player(port: int, took: dict[str, list[float]], failures: collections.Counter) -> None:
    """One round of an innocent player: the health check, a new 3×3 game and a move against Impossible."""
    form = {"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"}

    def timed(name: str, method: str, path: str, body=None, headers=None):
        start = time.monotonic()
        status, answer_headers, page = send(port, method, path, body, headers)
        took[name].append(time.monotonic() - start)
        if status != 200:
            failures[f"{name} {status}"] += 1
        return answer_headers, page

    timed("GET /healthz", "GET", "/healthz")
    headers, page = timed("GET /", "GET", "/")
    cookie = headers.get("Set-Cookie", "").split(";")[0]
    digest = re.search(r'data-game="([^"]+)"', page).group(1)
    settings = urlencode({"board": "3x3", "difficulty": "minimax", "mode": "hvc", "start": 1, "game": digest})
    headers, page = timed("POST /new", "POST", "/new", settings, form | {"Cookie": cookie})
    cookie = headers.get("Set-Cookie", cookie).split(";")[0]
    digest = re.search(r'data-game="([^"]+)"', page).group(1)
    timed("POST /move", "POST", "/move", urlencode({"cell": 4, "game": digest}), form | {"Cookie": cookie})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--busy", type=int, default=4)
    args = parser.parse_args()
    server, port = procfile_server.start()
    took: dict[str, list[float]] = collections.defaultdict(list)
    failures: collections.Counter = collections.Counter()
    got: collections.Counter = collections.Counter()
    stop = threading.Event()
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                send(port, "GET", "/healthz")
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.2)
        threads = [threading.Thread(target=busy, args=(port, n, stop, got), daemon=True) for n in range(args.busy)]
        for thread in threads:
            thread.start()
        time.sleep(2)  # they are all searching
        ends = time.monotonic() + args.seconds
        while time.monotonic() < ends:
            player(port, took, failures)
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
    finally:
        server.terminate()
        server.wait(timeout=30)
    every = sorted(t for times in took.values() for t in times)
    print(f"{args.busy} busy clients for {args.seconds:.0f} s; the player's requests, in seconds:")
    for name, times in took.items():
        times.sort()
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        p50, worst = statistics.median(times), times[-1]
        print(f"  {name:14} {len(times):4} requests: p50 {p50:.3f}, p99 {p99:.3f}, worst {worst:.3f}")
    p99 = every[min(len(every) - 1, int(0.99 * len(every)))]
    goal = f"goal under {GOAL_SECONDS:.0f} s"
    print(f"  all            {len(every):4} requests: p99 {p99:.3f} ({goal}), worst {every[-1]:.3f}")
    print(f"  the player's failures: {dict(failures) or 'none'}")
    print(f"  the busy clients got: {dict(sorted(got.items(), key=str))}")
    return 0 if p99 < GOAL_SECONDS and not failures else 1


if __name__ == "__main__":
    raise SystemExit(main())
