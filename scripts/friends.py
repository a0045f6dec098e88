"""make friends: one Procfile server (2 workers) holding many pairs of friends who wait on each other's moves.

Each pair is a 15×15 game with both seats taken and both pages listening: on the live stream (the page's way), or
with ``--transport poll`` by long polling (the stream's ``once=1``), the alternative the stream was chosen over.
First every page waits with nothing happening (the idle cost of holding them), then moves are made at a steady
rate, each by the pair's player whose turn it is, and timed from the moment it is sent until the friend's page has
it (the relay time). /healthz is probed throughout, each worker's memory sampled, and the workers' CPU time read
from /proc at each phase's ends. All traffic stays on the loopback; every loop is bounded in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import re
import resource
import statistics
import sys
import tempfile
import time
from contextlib import suppress
from pathlib import Path

import procfile_server  # beside this script

HOST = procfile_server.HOST
SC_CLK_TCK = 100  # the kernel's clock ticks per second in /proc/<pid>/stat (os.sysconf("SC_CLK_TCK") on Linux)
MEMORY_GOAL_MB = 150


def workers(master: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with suppress(OSError, IndexError, ValueError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == master:
                found.append(int(stat.parent.name))
    return found


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / SC_CLK_TCK


def resident_mb(pid: int) -> float:
    with suppress(OSError):
        if found := re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text()):
            return int(found.group(1)) / 1024
    return 0.0


async def fetch(port: int, method: str, path: str, headers: dict[str, str], body: str = "") -> tuple[int, str, str]:
    """One request on its own connection: (status, the head's text, the body's text)."""
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}", "Connection: close"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        if body:
            lines += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
        writer.write(("\r\n".join(lines) + "\r\n\r\n" + body).encode())
        answer = (await asyncio.wait_for(reader.read(), 30)).decode(errors="replace")
    finally:
        writer.close()
    head, _, rest = answer.partition("\r\n\r\n")
    return int(head.split(" ", 2)[1]), head, rest


def cookie_of(head: str) -> str:
    found = re.search(r"Set-Cookie: (seat=[^;]+)", head, re.I)
    assert found is not None, f"no seat cookie in {head!r}"
    return found.group(1)


class Pair:
    """Two friends at one game: their cookies, the game's version, and when each move was sent."""

    def __init__(self, number: int, address: str, inviter: str, guest: str):
        self.number, self.address = number, address
        self.cookies = {"inviter": inviter, "guest": guest}
        self.version = 2  # made (1), joined (2)
        self.to_move = "inviter"  # X
        self.empty = list(range(225))
        random.Random(number).shuffle(self.empty)
        self.sent: dict[int, float] = {}
        self.movers: dict[int, str] = {}
        self.busy = False

    def forwarded(self) -> dict[str, str]:
        # The platform's router names each client; a pair is one client here (a benchmark range, never dialled).
        return {"X-Forwarded-For": f"198.18.{self.number // 256}.{self.number % 256}"}


class Results:
    def __init__(self):
        self.relays: list[float] = []
        self.lost = 0
        self.connected = 0
        self.errors = 0


async def make_pair(port: int, number: int) -> Pair:
    headers = {"X-Forwarded-For": f"198.18.{number // 256}.{number % 256}"}
    status, head, _ = await fetch(port, "POST", "/new", headers, "mode=friend&board=15x15")
    assert status == 303, status
    location = re.search(r"Location: (\S+)", head)
    assert location is not None, head
    address = location.group(1)
    inviter = cookie_of(head)
    status, head, _ = await fetch(port, "GET", address, headers | {"Sec-Fetch-Dest": "document"})
    assert status == 200, status
    return Pair(number, address, inviter, cookie_of(head))


def arrived(pair: Pair, version: int, results: Results) -> None:
    sent = pair.sent.pop(version, None)
    if sent is not None:
        results.relays.append(time.perf_counter() - sent)
        pair.busy = False


async def listen(port: int, pair: Pair, seat: str, results: Results, stop: asyncio.Event) -> None:
    """One page's live stream for as long as the run lasts, opened again whenever it ends."""
    version, first = pair.version, True
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection(HOST, port)
        except OSError:
            results.errors += 1
            await asyncio.sleep(1)
            continue
        writer.write(
            (
                f"GET {pair.address}/events?v={version} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n"
                f"Cookie: {pair.cookies[seat]}\r\nX-Forwarded-For: {pair.forwarded()['X-Forwarded-For']}\r\n\r\n"
            ).encode()
        )
        if first:
            results.connected += 1
            first = False
        buffer = b""
        try:
            while not stop.is_set():
                # Read in blocks and look only for each event's head: the client must not be what is measured.
                block = await asyncio.wait_for(reader.read(1 << 16), 15)
                if not block:
                    break
                buffer += block
                for found in UPDATE.finditer(buffer):
                    event_id = int(found.group(1))
                    version = max(version, event_id)
                    if pair.movers.get(event_id) != seat:  # the mover's own page is sent its move too
                        arrived(pair, event_id, results)
                buffer = buffer[-64:]
        except (TimeoutError, OSError):
            results.errors += 1
        finally:
            writer.close()


UPDATE = re.compile(rb"id: (\d+)-[a-z0-9]*\nevent: update\n")


async def poll(port: int, pair: Pair, seat: str, results: Results, stop: asyncio.Event) -> None:
    """One page long polling: a request that ends with the first change or after a while, asked again at once."""
    version, first = pair.version, True
    while not stop.is_set():
        try:
            status, _, body = await fetch(
                port, "GET", f"{pair.address}/events?v={version}&once=1", {"Cookie": pair.cookies[seat]}
            )
        except (OSError, TimeoutError):
            results.errors += 1
            await asyncio.sleep(1)
            continue
        if first:
            results.connected += 1
            first = False
        if status != 200:
            results.errors += 1
            continue
        found = re.search(r"id: (\d+)-[a-z0-9]*\nevent: update", body)
        if found:
            version = max(version, int(found.group(1)))
            if pair.movers.get(int(found.group(1))) != seat:
                arrived(pair, int(found.group(1)), results)
        else:
            ids = re.findall(r"id: (\d+)-", body)
            if ids:
                version = max(version, int(ids[-1]))


async def mover(port: int, pairs: list[Pair], rate: float, seconds: float, results: Results) -> int:
    """Moves at ``rate`` a second for ``seconds``, each by a pair whose last move has arrived; how many were sent."""
    moves, rng, tasks = 0, random.Random(54), set()
    ends = time.perf_counter() + seconds
    next_at = time.perf_counter()
    while time.perf_counter() < ends:
        next_at += 1 / rate
        await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
        idle = [pair for pair in rng.sample(pairs, min(len(pairs), 20)) if not pair.busy and pair.empty]
        if not idle:
            continue
        pair = idle[0]
        pair.busy = True
        ply = 225 - len(pair.empty)  # the move number the page was drawn at
        cell, seat = pair.empty.pop(), pair.to_move
        pair.version += 1
        pair.to_move = "guest" if seat == "inviter" else "inviter"
        pair.sent[pair.version] = time.perf_counter()
        pair.movers[pair.version] = seat
        moves += 1
        headers = {"Cookie": pair.cookies[seat], "HX-Request": "true"} | pair.forwarded()
        task = asyncio.ensure_future(
            fetch(port, "POST", f"{pair.address}/move", headers, f"cell={cell}&round=1&ply={ply}")
        )
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    await asyncio.gather(*tasks, return_exceptions=True)
    return moves


def probe(port: int, seconds: float, latencies) -> None:
    """/healthz twice a second, from a process of its own so that the clients' work does not stretch its timings."""
    ends = time.perf_counter() + seconds
    while time.perf_counter() < ends:
        latencies.append(procfile_server.health_seconds(port, timeout=30))
        time.sleep(0.5)


async def sample_memory(seconds: float, peak: dict[int, float], master: int) -> None:
    ends = time.perf_counter() + seconds
    while time.perf_counter() < ends:
        for pid in workers(master):
            peak[pid] = max(peak.get(pid, 0.0), resident_mb(pid))
        await asyncio.sleep(1)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def run(args, port: int, master: int) -> int:
    pairs = []
    for start in range(0, args.pairs, 50):
        pairs += await asyncio.gather(*(make_pair(port, n) for n in range(start, min(args.pairs, start + 50))))
    results, stop = Results(), asyncio.Event()
    follow = listen if args.transport == "stream" else poll
    listeners = [
        asyncio.ensure_future(follow(port, p, seat, results, stop)) for p in pairs for seat in ("inviter", "guest")
    ]
    while results.connected < len(listeners):
        await asyncio.sleep(0.2)
    await asyncio.sleep(2)  # the last streams' first requests are answered
    pids = workers(master)
    manager = multiprocessing.Manager()
    healthz = manager.list()
    prober = multiprocessing.Process(target=probe, args=(port, args.idle + args.seconds + 4, healthz))
    prober.start()
    peak: dict[int, float] = {}
    before = sum(cpu_seconds(pid) for pid in pids)
    await sample_memory(args.idle, peak, master)
    idle_cpu = sum(cpu_seconds(pid) for pid in pids) - before
    before = sum(cpu_seconds(pid) for pid in pids)
    sampler = asyncio.ensure_future(sample_memory(args.seconds + 4, peak, master))
    moves = await mover(port, pairs, args.rate, args.seconds, results)
    await asyncio.sleep(4)  # the last moves arrive
    playing_cpu = sum(cpu_seconds(pid) for pid in pids) - before
    await sampler
    prober.join()
    probed = list(healthz)
    stop.set()
    for task in listeners:
        task.cancel()
    await asyncio.gather(*listeners, return_exceptions=True)
    relays = results.relays
    lost = moves - len(relays)
    per_move = (playing_cpu - idle_cpu / args.idle * (args.seconds + 4)) / max(1, len(relays))
    print(
        f"{args.pairs} pairs on 15×15 ({len(listeners)} pages {'streaming' if follow is listen else 'long polling'}),"
        f" one server with {len(pids)} workers, the {args.store} store:"
    )
    print(f"  idle: the workers' CPU {idle_cpu / args.idle * 1000:.0f} ms a second while every page waits")
    print(
        f"  relay, from a move sent to the friend's page: median {statistics.median(relays) * 1000:.0f} ms, "
        f"p99 {percentile(relays, 0.99) * 1000:.0f} ms, worst {max(relays) * 1000:.0f} ms "
        f"({len(relays)} moves at {args.rate:g} a second; {lost} not relayed)"
    )
    print(
        f"  CPU per relayed move (the move, its answer and the friend's event, idle cost taken off): "
        f"{per_move * 1000:.1f} ms"
    )
    finite = [h for h in probed if h != float("inf")]
    print(
        f"  /healthz: median {statistics.median(finite) * 1000:.0f} ms, worst {max(probed) * 1000:.0f} ms "
        f"({len(probed)} probes)"
    )
    print(
        f"  workers' peak memory: {', '.join(f'{mb:.0f} MB' for mb in peak.values())} (goal under {MEMORY_GOAL_MB} MB)"
    )
    print(f"  connection errors or reconnects: {results.errors}")
    return 0 if max(peak.values()) < MEMORY_GOAL_MB and lost == 0 else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=500)
    parser.add_argument("--rate", type=float, default=10, help="moves a second, all pairs together")
    parser.add_argument("--seconds", type=float, default=45, help="of moves")
    parser.add_argument("--idle", type=float, default=15, help="seconds of waiting before the moves")
    parser.add_argument("--transport", choices=["stream", "poll"], default="stream")
    parser.add_argument("--store", choices=["sqlite", "redis"], default="sqlite")
    parser.add_argument(
        "--phase", choices=["all", *PHASES], default="all", help="each on a fresh server (scripts/friend_floods.py)"
    )
    parser.add_argument("--streams", type=int, default=10_000, help="the flood's streams, from one address")
    parser.add_argument("--flood-seconds", type=float, default=30)
    parser.add_argument("--watchers", type=int, default=2000)
    parser.add_argument(
        "--stop-pages", type=int, default=1000, help="pages streaming when the stop phase's SIGTERM comes"
    )
    args = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))  # the flood's 10,000 connections
    folder = Path(tempfile.mkdtemp(prefix="friends-"))
    env = {"FRIEND_DATABASE": str(folder / "friends.sqlite3"), "FRIEND_CREATIONS_PER_MINUTE": "1000"}
    redis = None
    if args.store == "redis":
        sys.path.insert(0, str(procfile_server.ROOT / "tests"))
        from redis_server import RedisServer

        redis = RedisServer().start()
        env["REDIS_URL"] = redis.url
    failed = 0
    try:
        for phase in PHASES if args.phase == "all" else [args.phase]:
            env["FRIEND_DATABASE"] = str(folder / f"{phase}.sqlite3")
            server, port = procfile_server.start(workers=2, env=env)
            try:
                procfile_server.wait_until_healthy(port)
                failed += asyncio.run(PHASES[phase](args, port, server.pid))
            finally:
                server.terminate()
                server.wait(timeout=30)
    finally:
        if redis is not None:
            redis.stop()
    return 1 if failed else 0


def _hostile(name: str):
    def phase(args, port: int, master: int):
        import friend_floods

        return getattr(friend_floods, name)(args, port, master)

    return phase


PHASES = {"pairs": run, "flood": _hostile("flood"), "watchers": _hostile("watchers"), "stop": _hostile("stop")}


if __name__ == "__main__":
    raise SystemExit(main())
