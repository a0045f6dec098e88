"""A long, mixed load on the production server: does a worker's memory stay bounded, and does it never fail?

Starts the Procfile's server (two workers) on a loopback port and sends it REQUESTS requests of every
kind from a few clients at once, each with its own cookies: games played through the forms on every
board and level, analyses, computer moves and trees of random positions on every board, reviews, the pieces
of a big board's review and links of random games, the learning pages, static files, and bad input. Every
10 % it prints each worker's resident memory; at the end the peak, the statuses seen, and whether the goals
were met: every worker under GOAL_MB, and no answer 5xx. A measurement, not a test: `make soak` (long).

    python scripts/soak.py [--requests 20000] [--clients 4] [--seed 1]
"""

from __future__ import annotations

import argparse
import collections
import http.client
import json
import random
import re
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

import procfile_server  # beside this script

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from webapp.engine.boards import BOARDS, position  # noqa: E402

HOST = "127.0.0.1"
GOAL_MB = 150
BOARD_RE = re.compile(r'<div id="board"[^>]*>')


def workers_of(master: int) -> list[int]:
    return sorted(int(pid) for pid in Path(f"/proc/{master}/task/{master}/children").read_text().split())


def rss_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    found = re.search(r"VmRSS:\s+(\d+) kB", status)
    assert found is not None, f"/proc/{pid}/status has no VmRSS"
    return int(found.group(1)) / 1024


class Visitor:
    """One client with its own cookies, choosing what to do next at random."""

    def __init__(self, port: int, rng: random.Random):
        self.port, self.rng = port, rng
        self.cookies: dict[str, str] = {}
        self.digest = ""
        self.board = ""
        self.status = "playing"

    def send(self, method: str, path: str, form: dict | None = None, json_body=None, htmx=False) -> tuple[int, str]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else {}
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if json_body is not None:
            body = json.dumps(json_body)
            headers["Content-Type"] = "application/json"
        if htmx:
            headers["HX-Request"] = "true"
        connection = http.client.HTTPConnection(HOST, self.port, timeout=60)
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            text = response.read().decode(errors="replace")
            for name, value in response.getheaders():
                if name.lower() == "set-cookie":
                    pair = value.split(";", 1)[0]
                    key, _, cookie = pair.partition("=")
                    self.cookies[key] = cookie
            tag = BOARD_RE.search(text)
            if tag:
                found = dict(re.findall(r'data-([a-z]+)="([^"]*)"', tag.group()))
                self.digest, self.board = found.get("game", self.digest), found.get("board", self.board)
                self.status = found.get("status", self.status)
            return response.status, text
        finally:
            connection.close()

    def random_board(self) -> str:
        """A legal, unfinished position of a random board, a few to a few dozen stones in."""
        spec = self.rng.choice(BOARDS)
        for _ in range(20):
            pos = position(spec.empty)
            for _ in range(self.rng.randrange(0, min(spec.cells - 1, 30))):
                if pos.is_over():
                    break
                pos = pos.play(self.rng.choice(pos.legal_moves()))
            if not pos.is_over():
                return pos.board
        return spec.empty

    def act(self) -> int:
        kind = self.rng.choices(
            ["play", "new", "analyze", "api-move", "tree", "review", "pages", "bad"],
            weights=[40, 6, 12, 8, 8, 10, 10, 6],
        )[0]
        rng = self.rng
        if kind == "new" or not self.board:
            spec = rng.choice(BOARDS)
            form = {"board": spec.key, "difficulty": rng.choice(["random", "one-ply", "minimax"]), "start": "1"}
            form |= {"mode": rng.choice(["hvc", "hvc", "hvh"]), "human": rng.choice("XO"), "game": self.digest}
            return self.send("POST", "/new", form, htmx=rng.random() < 0.7)[0]
        if kind == "play":
            empty = [i for i, c in enumerate(self.board) if c == "."]
            if not empty:
                return self.send("POST", "/new", {"start": "1", "game": self.digest}, htmx=True)[0]
            status, _ = self.send("POST", "/move", {"cell": rng.choice(empty), "game": self.digest}, htmx=True)
            if self.status != "playing":  # the game is over: Play again
                self.send("POST", "/new", {"start": "1", "game": self.digest}, htmx=True)
            return status
        if kind == "analyze":
            return self.send("GET", "/api/analyze?" + urlencode({"board": self.random_board()}))[0]
        if kind == "api-move":
            body = {"board": self.random_board(), "level": rng.choice(["random", "one-ply", "minimax"])}
            return self.send("POST", "/api/move", json_body=body)[0]
        if kind == "tree":
            board = self.random_board()
            empty = [i for i, c in enumerate(board) if c == "."]
            path = ".".join(str(c) for c in rng.sample(empty, min(len(empty), rng.randrange(0, 3))))
            route = rng.choice(["/tree", "/tree/children"])
            query = {"board": board, "path": path} | ({"fold": "1"} if rng.random() < 0.3 else {})
            return self.send("GET", f"{route}?{urlencode(query)}", htmx=rng.random() < 0.5)[0]
        if kind == "review":
            spec = rng.choice(BOARDS)
            pos, moves = position(spec.empty), list[int]()
            for _ in range(rng.randrange(1, min(spec.cells, 40))):
                if pos.is_over():
                    break
                move = rng.choice(pos.legal_moves())
                pos, moves = pos.play(move), [*moves, move]
            review: dict[str, str | int] = {"board": spec.key, "moves": ".".join(map(str, moves))}
            if not spec.is_solved() and rng.random() < 0.5:
                # A piece of a big board's review, as the page fetches it, from any move on.
                review["start"] = rng.randrange(len(moves))
                return self.send("GET", f"/review/grades?{urlencode(review)}", htmx=True)[0]
            return self.send("GET", f"{rng.choice(['/review', '/'])}?{urlencode(review)}")[0]
        if kind == "pages":
            return self.send("GET", rng.choice(["/", "/numbers", "/tournament", "/healthz", "/tree", "/?hint=1"]))[0]
        junk = f"{rng.randrange(10**9)}" + "x" * rng.randrange(0, 3000)
        path, field = rng.choice([("/move", "cell"), ("/new", "mode"), ("/levels", "difficulty"), ("/undo", "game")])
        return self.send("POST", path, {field: junk, "game": self.digest}, htmx=rng.random() < 0.5)[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=20_000)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    server, port = procfile_server.start()
    statuses: collections.Counter = collections.Counter()
    peak: dict[int, float] = {}
    sent = 0
    lock = threading.Lock()
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                Visitor(port, random.Random()).send("GET", "/healthz")
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.2)
        workers = workers_of(server.pid)
        start = {pid: rss_mb(pid) for pid in workers}
        print(f"{len(workers)} workers at start: " + ", ".join(f"{mb:.1f} MB" for mb in start.values()), flush=True)
        began = time.monotonic()

        def client(number: int) -> None:
            nonlocal sent
            visitor = Visitor(port, random.Random(args.seed * 1000 + number))
            while True:
                with lock:
                    if sent >= args.requests:
                        return
                    sent += 1
                    n = sent
                status = visitor.act()
                with lock:
                    statuses[status] += 1
                    if n % (args.requests // 10) == 0:
                        now = {pid: rss_mb(pid) for pid in workers_of(server.pid)}
                        for pid, mb in now.items():
                            peak[pid] = max(peak.get(pid, 0), mb)
                        print(
                            f"{n:6,} requests, {time.monotonic() - began:5.0f} s: "
                            + ", ".join(f"{mb:.1f} MB" for mb in now.values()),
                            flush=True,
                        )

        threads = [threading.Thread(target=client, args=(i,)) for i in range(args.clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        end = {pid: rss_mb(pid) for pid in workers_of(server.pid)}
        for pid, mb in end.items():
            peak[pid] = max(peak.get(pid, 0), mb)
        restarted = set(end) != set(start)
    finally:
        server.terminate()
        server.wait(timeout=30)
    errors = sum(count for status, count in statuses.items() if status >= 500)
    print(f"{sent:,} requests from {args.clients} clients: statuses {dict(sorted(statuses.items()))}")
    print("peak per worker: " + ", ".join(f"{mb:.1f} MB" for mb in peak.values()) + f" (goal: under {GOAL_MB} MB)")
    if restarted:
        print("a worker was restarted during the run")
    met = max(peak.values()) < GOAL_MB and errors == 0 and not restarted
    print("goals met" if met else "goals missed")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
