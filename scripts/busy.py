"""Busy attackers against the production server: does an honest player still get Hard's answers in time?

Starts the Procfile's server (two workers, PROXY_COUNT=0 so that each client is known by its own address)
and ATTACKERS clients, each from an address of its own on the loopback network, that send the heaviest
big-board requests as fast as the answers come back, ignoring Retry-After: 15×15 Hard moves through the
JSON API on fresh positions, and 15×15 trees three moves deep. Meanwhile an honest player plays 15×15
against Hard through the page's forms, thinking a moment before each move, and another checks /healthz
and plays 3×3. Prints how many of the honest player's moves were answered within 3 s (the goal: 90 %),
the health checks' p99 (the goal: under 1 s), and what the attackers got.
A measurement, not a test (tests/test_attacks.py has the short version): `make busy`.

    python scripts/busy.py [--seconds 60] [--attackers 8]
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
from urllib.parse import urlencode

import procfile_server  # beside this script

HOST = "127.0.0.1"
MOVE_GOAL_SECONDS, MOVE_GOAL_SHARE = 3.0, 0.9
HEALTH_GOAL_SECONDS = 1.0
THINK_SECONDS = 0.5
FORM = {"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"}


def send(port: int, method: str, path: str, body=None, headers=None, source: str = HOST, jar: dict | None = None):
    """One request from ``source``, carrying and keeping the cookies of ``jar``: (status, body text)."""
    connection = http.client.HTTPConnection(HOST, port, timeout=60, source_address=(source, 0))
    headers = dict(headers or {})
    if jar:
        headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in jar.items())
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        if jar is not None:
            for name, value in response.getheaders():
                if name.lower() == "set-cookie":
                    pair = value.split(";")[0]
                    jar[pair.split("=")[0]] = pair.split("=", 1)[1]
        return response.status, response.read().decode(errors="replace")
    finally:
        connection.close()


def random_board(rng: random.Random, n: int, stones: int) -> str:
    centre = [r * n + c for r in range(n // 2 - 4, n // 2 + 5) for c in range(n // 2 - 4, n // 2 + 5)]
    cells = rng.sample(centre, stones)
    return "".join("X" if i in cells[0::2] else "O" if i in cells[1::2] else "." for i in range(n * n))


def attacker(port: int, number: int, stop: threading.Event, got: collections.Counter) -> None:
    rng, source = random.Random(number), f"127.0.0.{10 + number}"
    while not stop.is_set():
        board = random_board(rng, 15, rng.choice((8, 10, 12)))
        try:
            if number % 2:
                body = json.dumps({"board": board, "level": "minimax"})
                status = send(port, "POST", "/api/move", body, {"Content-Type": "application/json"}, source)[0]
            else:
                free = [i for i, c in enumerate(board) if c == "." and 80 <= i <= 144]
                path = ".".join(map(str, rng.sample(free, 3)))
                status = send(port, "GET", "/tree?" + urlencode({"board": board, "path": path}), source=source)[0]
            got[status] += 1
        except OSError:
            got["connection error"] += 1


def page_fields(page: str) -> tuple[str, str, str]:
    """The board, its status and the digest of the game a page or fragment shows."""
    tag = re.search(r'<div id="board"[^>]*>', page).group(0)
    found = dict(re.findall(r'data-(board|status|game)="([^"]*)"', tag))
    return found["board"], found["status"], found["game"]


def honest_player(port: int, stop: threading.Event, moves: list[tuple[float, int]]) -> None:
    """Play 15×15 against Hard as a person would: a move near the stones, after a moment's thought."""
    rng, source = random.Random(1), "127.0.0.2"
    jar: dict[str, str] = {}
    while not stop.is_set():
        _, page = send(port, "GET", "/", source=source, jar=jar)
        game = page_fields(page)[2]
        settings = {"board": "15x15", "difficulty": "minimax", "mode": "hvc", "human": "X", "start": 1}
        _, page = send(port, "POST", "/new", urlencode(settings | {"game": game}), FORM, source, jar)
        board, state, game = page_fields(page)
        while state == "playing" and not stop.is_set():
            stones = [i for i, c in enumerate(board) if c != "."] or [112]
            near = [
                r * 15 + c
                for s in stones
                for r in range(s // 15 - 1, s // 15 + 2)
                for c in range(s % 15 - 1, s % 15 + 2)
                if 0 <= r < 15 and 0 <= c < 15 and board[r * 15 + c] == "."
            ]
            time.sleep(THINK_SECONDS)
            start = time.monotonic()
            body = urlencode({"cell": rng.choice(near), "game": game})
            status, page = send(port, "POST", "/move", body, FORM, source, jar)
            moves.append((time.monotonic() - start, status))
            if status == 200:
                board, state, game = page_fields(page)
            # Refused (429): the same position, tried again after a moment's thought.


def health_checks(port: int, stop: threading.Event, took: list[float]) -> None:
    while not stop.is_set():
        start = time.monotonic()
        status = send(port, "GET", "/healthz", source="127.0.0.3")[0]
        took.append(time.monotonic() - start if status == 200 else float("inf"))
        time.sleep(0.2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--attackers", type=int, default=8)
    args = parser.parse_args()
    server, port = procfile_server.start(env={"PROXY_COUNT": "0"})
    stop, got = threading.Event(), collections.Counter()
    moves: list[tuple[float, int]] = []
    health: list[float] = []
    try:
        procfile_server.wait_until_healthy(port)
        threads = [
            threading.Thread(target=attacker, args=(port, n, stop, got), daemon=True) for n in range(args.attackers)
        ]
        for thread in threads:
            thread.start()
        time.sleep(2)  # they are all searching
        players = [
            threading.Thread(target=honest_player, args=(port, stop, moves), daemon=True),
            threading.Thread(target=health_checks, args=(port, stop, health), daemon=True),
        ]
        for thread in players:
            thread.start()
        time.sleep(args.seconds)
        stop.set()
        for thread in threads + players:
            thread.join(timeout=60)
    finally:
        server.terminate()
        server.wait(timeout=30)
    answered = [seconds for seconds, status in moves if status == 200]
    in_time = sum(seconds <= MOVE_GOAL_SECONDS for seconds in answered)
    share = in_time / len(moves) if moves else 0.0
    health.sort()
    health_p99 = health[min(len(health) - 1, int(0.99 * len(health)))] if health else float("inf")
    print(f"{args.attackers} attackers, each from its own address, for {args.seconds:.0f} s:")
    print(
        f"  the honest 15×15 player's moves: {len(moves)}, answered within {MOVE_GOAL_SECONDS:.0f} s: {in_time}"
        f" ({share:.0%}; goal {MOVE_GOAL_SHARE:.0%}); refused: {len(moves) - len(answered)}"
    )
    if answered:
        answered.sort()
        p90 = answered[min(len(answered) - 1, int(0.9 * len(answered)))]
        print(f"  its answers: median {statistics.median(answered):.2f} s, p90 {p90:.2f} s, worst {answered[-1]:.2f} s")
    print(f"  /healthz: {len(health)} checks, p99 {health_p99:.3f} s (goal under {HEALTH_GOAL_SECONDS:.0f} s)")
    print(f"  the attackers got: {dict(sorted(got.items(), key=str))}")
    return 0 if share >= MOVE_GOAL_SHARE and health_p99 < HEALTH_GOAL_SECONDS else 1


if __name__ == "__main__":
    raise SystemExit(main())
