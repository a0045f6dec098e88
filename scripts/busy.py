"""Busy attackers against the production server: does an honest player still get Hard's answers in time?

Starts the Procfile's server (two workers, PROXY_COUNT=0 so that each client is known by its own address) and runs
three phases on it, one after the other. In each, attackers send the heaviest big-board requests as fast as the
answers come back, ignoring Retry-After (15×15 Hard moves through the JSON API on fresh positions, and 15×15 trees
three moves deep), while an honest player plays 15×15 against Hard through the page's forms, thinking a moment
before each move, and another checks /healthz and plays 3×3:

1. **one address**: FLOOD connections, all from one address;
2. **after a burst**: ATTACKERS clients, each from an address of its own (a fair load), joined for BURST seconds by
   FLOOD connections from one address; only the honest moves asked for after the burst count;
3. **own addresses**: the ATTACKERS alone.

The attackers run in a process of their own, so that they do not take the honest player's turns at the interpreter.
For each phase: how many of the honest player's moves were answered within 3 s (the goal: 90 %), the answers'
median and worst, the health checks' p99 (the goal: under 1 s), and what the attackers got.
A measurement, not a test (tests/test_attacks.py has the short version): `make busy`.

    python scripts/busy.py [--seconds 60] [--attackers 8] [--flood 8] [--burst 20] [--phases 1,2,3]
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import http.client
import json
import multiprocessing
import os
import random
import re
import statistics
import threading
import time
from dataclasses import dataclass, field
from urllib.parse import urlencode

import procfile_server  # beside this script

HOST = "127.0.0.1"
MOVE_GOAL_SECONDS, MOVE_GOAL_SHARE = 3.0, 0.9
HEALTH_GOAL_SECONDS = 1.0
THINK_SECONDS = 0.5
FORM = {"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"}
PLAYER, HEALTH, FLOODER = "127.0.0.2", "127.0.0.3", "127.0.0.9"
RAMP_SECONDS = 2  # the attackers are all searching before the honest player starts


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


def attacker(port: int, number: int, source: str, until: float, got: collections.Counter) -> None:
    """Costly requests from ``source``, back to back, until the clock reads ``until``."""
    rng = random.Random(number)
    while time.monotonic() < until:
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


def attack(port: int, plan: list[tuple[str, str, float]]) -> dict[str, collections.Counter]:
    """Run in the attackers' process: one connection for each (group, source, seconds) of ``plan``, all starting
    now; what each group got."""
    start = time.monotonic()
    got = {group: collections.Counter[str]() for group, _, _ in plan}
    threads = [
        threading.Thread(target=attacker, args=(port, number, source, start + seconds, got[group]), daemon=True)
        for number, (group, source, seconds) in enumerate(plan)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return got


def page_fields(page: str) -> tuple[str, str, str]:
    """The board, its status and the digest of the game a page or fragment shows."""
    board = re.search(r'<div id="board"[^>]*>', page)
    assert board is not None, "every page and fragment of a game shows its board"
    tag = board.group(0)
    found = dict(re.findall(r'data-(board|status|game)="([^"]*)"', tag))
    return found["board"], found["status"], found["game"]


@dataclass
class Watch:
    """What the honest visitors saw: each move as (when it was asked for, seconds, status); each health check's
    (when, seconds)."""

    moves: list[tuple[float, float, int]] = field(default_factory=list)
    health: list[tuple[float, float]] = field(default_factory=list)


def honest_player(port: int, stop: threading.Event, watch: Watch) -> None:
    """Play 15×15 against Hard as a person would: a move near the stones, after a moment's thought."""
    rng = random.Random(1)
    jar: dict[str, str] = {}
    while not stop.is_set():
        _, page = send(port, "GET", "/", source=PLAYER, jar=jar)
        game = page_fields(page)[2]
        settings = {"board": "15x15", "difficulty": "minimax", "mode": "hvc", "human": "X", "start": 1}
        _, page = send(port, "POST", "/new", urlencode(settings | {"game": game}), FORM, PLAYER, jar)
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
            status, page = send(port, "POST", "/move", body, FORM, PLAYER, jar)
            watch.moves.append((start, time.monotonic() - start, status))
            if status == 200:
                board, state, game = page_fields(page)
            # Refused (429): the same position, tried again after a moment's thought.


def health_checks(port: int, stop: threading.Event, watch: Watch) -> None:
    while not stop.is_set():
        start = time.monotonic()
        status = send(port, "GET", "/healthz", source=HEALTH)[0]
        watch.health.append((start, time.monotonic() - start if status == 200 else float("inf")))
        time.sleep(0.2)


@dataclass
class Phase:
    """One phase: its name, the attackers' plan (group, source, seconds from the phase's start), and the seconds
    from its start after which the honest moves count."""

    name: str
    plan: list[tuple[str, str, float]]
    counted_from: float

    @property
    def seconds(self) -> float:
        return max(seconds for _, _, seconds in self.plan)


def phases(args) -> list[Phase]:
    own = [f"127.0.0.{10 + n}" for n in range(args.attackers)]
    measured = RAMP_SECONDS + args.seconds
    after_burst = RAMP_SECONDS + args.burst
    return [
        Phase(f"one address, {args.flood} connections", [("flood", FLOODER, measured)] * args.flood, RAMP_SECONDS),
        Phase(
            f"after a {args.burst:.0f} s burst of {args.flood} connections from one address, "
            f"beside {args.attackers} attackers with their own addresses",
            [("own", a, after_burst + args.seconds) for a in own] + [("burst", FLOODER, after_burst)] * args.flood,
            after_burst,
        ),
        Phase(
            f"{args.attackers} attackers, each with its own address", [("own", a, measured) for a in own], RAMP_SECONDS
        ),
    ]


def run(port: int, phase: Phase, pool: concurrent.futures.Executor) -> tuple[Watch, dict, float]:
    """Run one phase: the attackers in their process, the honest visitors here. What they saw, what the attackers
    got, and the clock's reading when the phase began."""
    watch, stop = Watch(), threading.Event()
    begun = time.monotonic()
    attackers = pool.submit(attack, port, phase.plan)
    visitors = [
        threading.Thread(target=visit, args=(port, stop, watch), daemon=True)
        for visit in (honest_player, health_checks)
    ]
    time.sleep(RAMP_SECONDS)
    for thread in visitors:
        thread.start()
    time.sleep(max(0.0, begun + phase.seconds - time.monotonic()))
    stop.set()
    for thread in visitors:
        thread.join(timeout=60)
    return watch, attackers.result(timeout=120), begun


def report(phase: Phase, watch: Watch, got: dict, begun: float, seconds: float) -> bool:
    """Print one phase's figures; whether it met both goals."""
    counted = [(took, status) for start, took, status in watch.moves if start >= begun + phase.counted_from]
    answered = sorted(took for took, status in counted if status == 200)
    in_time = sum(took <= MOVE_GOAL_SECONDS for took in answered)
    share = in_time / len(counted) if counted else 0.0
    health = sorted(took for start, took in watch.health if start >= begun + phase.counted_from)
    health_p99 = health[min(len(health) - 1, int(0.99 * len(health)))] if health else float("inf")
    # The machine's load beside each figure: its other work stretches every search too.
    print(f"{phase.name}; {seconds:.0f} s counted; load average {os.getloadavg()[0]:.2f}:")
    print(
        f"  the honest 15×15 player's moves: {len(counted)}, answered within {MOVE_GOAL_SECONDS:.0f} s: {in_time}"
        f" ({share:.0%}; goal {MOVE_GOAL_SHARE:.0%}); refused: {len(counted) - len(answered)}"
    )
    if answered:
        p90 = answered[min(len(answered) - 1, int(0.9 * len(answered)))]
        print(f"  its answers: median {statistics.median(answered):.2f} s, p90 {p90:.2f} s, worst {answered[-1]:.2f} s")
    print(f"  /healthz: {len(health)} checks, p99 {health_p99:.3f} s (goal under {HEALTH_GOAL_SECONDS:.0f} s)")
    for group, counts in got.items():
        print(f"  the attackers ({group}) got: {dict(sorted(counts.items(), key=str))}")
    return share >= MOVE_GOAL_SHARE and health_p99 < HEALTH_GOAL_SECONDS


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60, help="of counted honest play in each phase")
    parser.add_argument("--attackers", type=int, default=8, help="clients, each with its own address")
    parser.add_argument("--flood", type=int, default=8, help="connections from one address")
    parser.add_argument("--burst", type=float, default=20, help="seconds of the one address's burst")
    parser.add_argument("--phases", default="1,2,3", help="which phases to run, by number")
    args = parser.parse_args()
    chosen = [phase for number, phase in enumerate(phases(args), start=1) if str(number) in args.phases.split(",")]
    server, port = procfile_server.start(env={"PROXY_COUNT": "0"})
    met = []
    try:
        procfile_server.wait_until_healthy(port)
        context = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
            pool.submit(time.sleep, 0).result()  # the attackers' process is up before the first phase's clock starts
            for phase in chosen:
                watch, got, begun = run(port, phase, pool)
                met.append(report(phase, watch, got, begun, phase.seconds - phase.counted_from))
                time.sleep(RAMP_SECONDS)  # the last searches of the phase are over
    finally:
        server.terminate()
        server.wait(timeout=30)
    return 0 if met and all(met) else 1


if __name__ == "__main__":
    raise SystemExit(main())
