"""Clients that never finish their requests, against the production server: does it stay up, and small?

Starts the Procfile's server (two workers), then runs each attack in turn, its clients in one asyncio loop
in a process of their own:

* ``big-heads``: 600 connections each send a request line and 87 headers of 8 KB (about 700 KB, inside
  gunicorn's own limits) and never the blank line that ends the head;
* ``stalled-heads``: 9,000 connections each send a head of 16,000 bytes, just under the cap, then a byte
  every 8 s, never the blank line; one the server closes is opened again at once;
* ``slow-bodies``: 6,000 connections each send a complete head declaring a body of 65,000 bytes (half a
  form to ``POST /move``, half JSON to ``POST /api/move``), 60 KB of it, then a byte every 8 s, as issue 57's
  attacker did; the server refuses them at once (413), and they are not opened again, so that the measure
  is of what a refused body leaves behind, not of how fast one machine can open connections;
* ``bodies-under-the-cap``: the same, but each declares 4,000 bytes, within the cap, and sends 3,900 of
  them before it trickles; one the server closes is opened again at once.

Each attack holds for ``--seconds`` while /healthz is probed every half second and each worker's memory
sampled, then its clients close and the memory is read again 10 s later. Prints, per attack, the slowest
probe (goal: under 1 s), each worker's peak memory while held and after (goal: under 150 MB) and what the
clients were answered. A measurement, not a test (tests/test_attacks.py has the short versions):
`make heads`.

    python scripts/slow_clients.py [--attack stalled-heads] [--connections 9000] [--seconds 30]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import multiprocessing
import re
import time
from contextlib import suppress
from pathlib import Path

import procfile_server  # beside this script

HOST = "127.0.0.1"
PROBE_GOAL_SECONDS, WORKER_GOAL_MB = 1.0, 150
TRICKLE_SECONDS = 8  # under the server's 10 s idle limit, so only a deadline from the first byte can end it
AFTER_SECONDS = 10


def big_head() -> tuple[bytes, bool]:
    fields = b"".join(b"X-Big-%d: %s\r\n" % (n, b"a" * 8 * 1024) for n in range(87))
    return b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + fields, False


def stalled_head() -> tuple[bytes, bool]:
    start = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: "
    return start + b"a" * (16_000 - len(start)), True


def slow_body(n: int, declared: int = 65_000, sent: int = 60 * 1024) -> tuple[bytes, bool]:
    path, kind = ("/move", "application/x-www-form-urlencoded") if n % 2 else ("/api/move", "application/json")
    head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {kind}\r\nContent-Length: {declared}\r\n\r\n"
    return head.encode() + b"a" * sent, True


# Each attack: its connections, what each sends, and whether one the server closes is opened again.
ATTACKS = {
    "big-heads": (600, lambda n: big_head(), False),
    "stalled-heads": (9000, lambda n: stalled_head(), True),
    "slow-bodies": (6000, slow_body, False),
    "bodies-under-the-cap": (6000, lambda n: slow_body(n, declared=4000, sent=3900), True),
}


async def client(port: int, n: int, name: str, stop: asyncio.Event, answers: collections.Counter) -> None:
    """One client: send its unfinished request, trickle if told to, and open again when closed if its attack does."""
    _, make, reopens = ATTACKS[name]
    while not stop.is_set():
        data, trickles = make(n)
        try:
            reader, writer = await asyncio.open_connection(HOST, port)
        except OSError:
            answers["not connected"] += 1
            await asyncio.sleep(1)
            continue
        try:
            writer.write(data)
            with suppress(OSError):
                await writer.drain()
            while not stop.is_set():
                try:
                    answer = await asyncio.wait_for(reader.read(4096), TRICKLE_SECONDS if trickles else 3600)
                except TimeoutError:
                    writer.write(b"a")
                    with suppress(OSError):
                        await writer.drain()
                    continue
                answers[answer.split(b" ")[1].decode() if answer.startswith(b"HTTP/") else "closed"] += 1
                break
        except OSError:
            answers["reset"] += 1
        finally:
            writer.close()
        if not reopens:
            await stop.wait()
            return
        await asyncio.sleep(0.1)


def workers(master: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with suppress(OSError, IndexError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == master:
                found.append(int(stat.parent.name))
    return found


def resident_mb(pid: int) -> float:
    with suppress(OSError):
        if found := re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text()):
            return int(found.group(1)) / 1024
    return 0.0


def run_clients(name: str, connections: int, port: int, stop, answered) -> None:
    """The attack's clients, in a process of their own so that the probes are not timed behind them."""

    async def clients():
        done, answers = asyncio.Event(), collections.Counter[str]()
        tasks = [asyncio.create_task(client(port, n, name, done, answers)) for n in range(connections)]
        while not stop.is_set():
            await asyncio.sleep(0.2)
        done.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        answered.update(answers)

    asyncio.run(clients())


def attack(name: str, connections: int, seconds: float, server, port: int) -> bool:
    with multiprocessing.Manager() as manager:
        stop, answered = manager.Event(), manager.dict()
        clients = multiprocessing.Process(target=run_clients, args=(name, connections, port, stop, answered))
        clients.start()
        probes: list[float] = []
        peak: dict[int, float] = collections.defaultdict(float)
        ends = time.monotonic() + seconds
        while time.monotonic() < ends:
            probes.append(procfile_server.health_seconds(port))
            for pid in workers(server.pid):
                peak[pid] = max(peak[pid], resident_mb(pid))
            time.sleep(0.5)
        stop.set()
        clients.join(timeout=60)
        answers = dict(answered)
    time.sleep(AFTER_SECONDS)
    after = {pid: resident_mb(pid) for pid in workers(server.pid)}
    worst = max(probes)
    print(f"{name}: {connections} connections for {seconds:.0f} s")
    print(f"  /healthz: {len(probes)} probes, slowest {worst:.3f} s (goal under {PROBE_GOAL_SECONDS:.0f} s)")
    held, later = (", ".join(f"{mb:.0f} MB" for mb in sampled.values()) for sampled in (peak, after))
    print(
        f"  workers' peak memory while held: {held}; {AFTER_SECONDS} s after: {later} (goal under {WORKER_GOAL_MB} MB)"
    )
    print(f"  the clients were answered: {answers}")
    most = max([*peak.values(), *after.values()], default=0)
    return worst < PROBE_GOAL_SECONDS and most < WORKER_GOAL_MB


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attack", choices=ATTACKS, action="append", help="one attack (default: each in turn)")
    parser.add_argument("--connections", type=int, help="instead of the attack's own number")
    parser.add_argument("--seconds", type=float, default=30)
    args = parser.parse_args()
    server, port = procfile_server.start()
    met = True
    try:
        procfile_server.wait_until_healthy(port)
        for name in args.attack or ATTACKS:
            connections = args.connections or ATTACKS[name][0]
            met &= attack(name, connections, args.seconds, server, port)
    finally:
        server.terminate()
        server.wait(timeout=30)
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
