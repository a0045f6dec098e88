"""Memory under hostile input: how much the production server's workers grow after many distinct bad requests.

Starts the Procfile's server (two workers) on a loopback port, warms it with ordinary play, then sends
distinct bad values of every setting (each up to 60 KB, with and without HX-Request) and reports each
worker's resident memory before and after. The goal: less than 20 MB of growth in all.

    python scripts/bad_input_memory.py [--requests 1500]
"""

from __future__ import annotations

import argparse
import http.client
import re
import time
from pathlib import Path
from urllib.parse import urlencode

import procfile_server  # beside this script

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
GOAL_MB = 20
FIELDS = [("/new", "mode"), ("/new", "human"), ("/new", "difficulty"), ("/levels", "x_level"), ("/move", "cell")]


def post(port: int, path: str, form: dict, headers: dict) -> tuple[int, dict]:
    connection = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        body = urlencode(form)
        connection.request(
            "POST", path, body=body, headers={"Content-Type": "application/x-www-form-urlencoded", **headers}
        )
        response = connection.getresponse()
        response.read()
        return response.status, dict(response.getheaders())
    finally:
        connection.close()


def workers_of(master: int) -> list[int]:
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return sorted(int(pid) for pid in children)


def rss_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    found = re.search(r"VmRSS:\s+(\d+) kB", status)
    assert found is not None, f"/proc/{pid}/status has no VmRSS"
    return int(found.group(1)) / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1500, help="distinct bad requests to send (default 1500)")
    args = parser.parse_args()

    server, port = procfile_server.start()
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                post(port, "/healthz", {}, {})
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.1)
        # Warm up: ordinary requests of every kind, so that what grows later is the bad input's doing.
        for _ in range(200):
            post(port, "/new", {"mode": "hvh"}, {"HX-Request": "true"})
            for path, field in FIELDS:
                post(port, path, {field: "bad"}, {"HX-Request": "true"})
                post(port, path, {field: "bad"}, {})
        time.sleep(0.5)
        workers = workers_of(server.pid)
        before = {pid: rss_mb(pid) for pid in workers}
        for n in range(args.requests):
            path, field = FIELDS[n % len(FIELDS)]
            value = f"{n:06d}" + "x" * (60_000 - (n % 7) * 5000)
            post(port, path, {field: value}, {"HX-Request": "true"} if n % 2 else {})
        time.sleep(0.5)
        after = {pid: rss_mb(pid) for pid in workers_of(server.pid)}
    finally:
        server.terminate()
        server.wait(timeout=30)

    restarted = set(after) != set(before)
    growth = sum(after.get(pid, 0) - before[pid] for pid in before)
    print(f"{args.requests:,} distinct bad requests of up to 60 KB to {len(before)} workers")
    for pid in before:
        print(f"  worker {pid}: {before[pid]:.1f} MB -> {after.get(pid, float('nan')):.1f} MB")
    print(f"  growth in all: {growth:+.1f} MB (goal: under {GOAL_MB} MB){'; a worker restarted' if restarted else ''}")
    return 0 if growth < GOAL_MB and not restarted else 1


if __name__ == "__main__":
    raise SystemExit(main())
