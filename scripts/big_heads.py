"""Big request heads that never end, against the production server: does it stay up, and small?

Starts the Procfile's server (two workers) and CONNECTIONS clients that each send a request line and
87 headers of 8 KB (about 700 KB, inside gunicorn's own limits of 100 fields of 8,190 bytes) and never
the blank line that ends the head. Meanwhile /healthz is probed every half second and each worker's
memory sampled. Prints the slowest probe (the goal: under 1 s at every probe), each worker's peak
memory (the goal: under 150 MB) and what the clients were answered. A measurement, not a test
(tests/test_attacks.py has the short version): `make heads`.

    python scripts/big_heads.py [--connections 600] [--seconds 20]
"""

from __future__ import annotations

import argparse
import collections
import http.client
import re
import socket
import threading
import time
from contextlib import suppress
from pathlib import Path

import procfile_server  # beside this script

HOST = "127.0.0.1"
FIELDS, FIELD_BYTES = 87, 8 * 1024
PROBE_GOAL_SECONDS, WORKER_GOAL_MB = 1.0, 150


def head() -> bytes:
    fields = b"".join(b"X-Big-%d: %s\r\n" % (n, b"a" * FIELD_BYTES) for n in range(FIELDS))
    return b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + fields


def big_head(port: int, stop: threading.Event, answers: collections.Counter) -> None:
    """One client: send the head that never ends, then wait for what the server says."""
    try:
        with socket.create_connection((HOST, port), timeout=30) as connection:
            data = head()
            with suppress(OSError):
                for start in range(0, len(data), 64 * 1024):
                    connection.sendall(data[start : start + 64 * 1024])
            connection.settimeout(5)
            answer = b""
            with suppress(OSError):
                while not stop.is_set() and b"\r\n" not in answer and (chunk := connection.recv(4096)):
                    answer += chunk
            answers[answer.split(b" ")[1].decode() if answer.startswith(b"HTTP/") else "closed"] += 1
    except OSError:
        answers["not connected"] += 1


def workers(master: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with suppress(OSError, IndexError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == master:
                found.append(int(stat.parent.name))
    return found


def resident_mb(pid: int) -> float:
    with suppress(OSError, AttributeError):
        return int(re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text()).group(1)) / 1024
    return 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=600)
    parser.add_argument("--seconds", type=float, default=20)
    args = parser.parse_args()
    server, port = procfile_server.start()
    stop, answers = threading.Event(), collections.Counter()
    probes: list[float] = []
    peak: dict[int, float] = collections.defaultdict(float)
    try:
        procfile_server.wait_until_healthy(port)
        clients = [
            threading.Thread(target=big_head, args=(port, stop, answers), daemon=True) for _ in range(args.connections)
        ]
        for client in clients:
            client.start()
        ends = time.monotonic() + args.seconds
        while time.monotonic() < ends:
            start = time.monotonic()
            connection = http.client.HTTPConnection(HOST, port, timeout=10)
            try:
                connection.request("GET", "/healthz")
                ok = connection.getresponse().status == 200
            except OSError:
                ok = False
            finally:
                connection.close()
            probes.append(time.monotonic() - start if ok else float("inf"))
            for pid in workers(server.pid):
                peak[pid] = max(peak[pid], resident_mb(pid))
            time.sleep(0.5)
        stop.set()
        for client in clients:
            client.join(timeout=30)
    finally:
        server.terminate()
        server.wait(timeout=30)
    worst = max(probes)
    print(f"{args.connections} connections, each sending {len(head()) // 1024} KB of a head that never ends:")
    print(f"  /healthz: {len(probes)} probes, slowest {worst:.3f} s (goal under {PROBE_GOAL_SECONDS:.0f} s)")
    print(
        f"  workers' peak memory: {', '.join(f'{mb:.0f} MB' for mb in peak.values())} (goal under {WORKER_GOAL_MB} MB)"
    )
    print(f"  the clients were answered: {dict(answers)}")
    return 0 if worst < PROBE_GOAL_SECONDS and max(peak.values(), default=0) < WORKER_GOAL_MB else 1


if __name__ == "__main__":
    raise SystemExit(main())
