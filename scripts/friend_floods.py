"""make friends' hostile phases (scripts/friends.py --phase flood|watchers): one honest pair playing while others
hold live streams open.

* **flood**: one address (one forwarded client) opens STREAMS streams, first all to one game of its own, then
  spread over many; each stream it is refused it asks again after the retry hint the refusal gives (a page's
  browser would follow the game by polling instead). /healthz is probed, the honest pair's relay timed, each
  worker's memory sampled during the flood and 10 s after it closes.
* **stop**: SIGTERM to the server while STOP_PAGES pages stream: how long until it has exited.
* **watchers**: WATCHERS streams from a hundred addresses watch one 15×15 game whose players move every second;
  the workers' CPU per move is read from /proc, less their idle rate.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import re
import signal
import statistics
import time
from contextlib import suppress

import friends  # beside this script

HOST = friends.HOST
FLOODER = "198.51.100.7"
FULL = re.compile(rb"event: full")
OPENED = re.compile(rb"retry: 1000\n")


class Tally:
    def __init__(self):
        self.open = self.refused = self.errors = 0


async def hold(port: int, path: str, cookie: str, address: str, stop: asyncio.Event, tally: Tally) -> None:
    """One stream held open for as long as the phase lasts; refused, it asks again after the refusal's hint."""
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection(HOST, port)
        except OSError:
            tally.errors += 1
            await asyncio.sleep(1)
            continue
        head = f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\nX-Forwarded-For: {address}\r\n"
        writer.write((head + (f"Cookie: {cookie}\r\n" if cookie else "") + "\r\n").encode())
        refused = counted = False
        try:
            while not stop.is_set():
                block = await asyncio.wait_for(reader.read(1 << 16), 20)
                if not block:
                    break
                if FULL.search(block):
                    refused = True
                elif not counted and OPENED.search(block):
                    counted = True
                    tally.open += 1
        except (TimeoutError, OSError):
            tally.errors += 1
        finally:
            writer.close()
            if counted:
                tally.open -= 1
        if refused:
            tally.refused += 1
            await asyncio.sleep(30)  # relay.FULL_RETRY_MS
        else:
            await asyncio.sleep(1)


def crowd(port: int, streams: list[tuple[str, str]], seconds: float, shared) -> None:
    """Hold ``streams`` (path, forwarded address) for ``seconds``, in a process of its own so that reading them does
    not delay the honest pair's client; ``shared`` gets the counts: "open" as it grows, "refused", "errors", "held"
    (streams open at the end)."""

    async def main() -> None:
        tally, stop = Tally(), asyncio.Event()
        holders = [asyncio.ensure_future(hold(port, path, "", address, stop, tally)) for path, address in streams]
        ends = time.monotonic() + seconds
        while time.monotonic() < ends:
            shared["open"], shared["refused"], shared["errors"] = tally.open, tally.refused, tally.errors
            await asyncio.sleep(0.5)
        shared["held"] = tally.open
        stop.set()
        for task in holders:
            task.cancel()
        await asyncio.gather(*holders, return_exceptions=True)
        shared["refused"], shared["errors"] = tally.refused, tally.errors

    import resource

    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
    asyncio.run(main())


async def honest_pair(port: int) -> tuple[friends.Pair, friends.Results, list[asyncio.Task[None]], asyncio.Event]:
    pair = await friends.make_pair(port, 9000)
    results, stop = friends.Results(), asyncio.Event()
    listeners = [
        asyncio.ensure_future(friends.listen(port, pair, seat, results, stop)) for seat in ("inviter", "guest")
    ]
    while results.connected < 2:
        await asyncio.sleep(0.1)
    return pair, results, listeners, stop


async def games_of(port: int, count: int, address: str) -> list[str]:
    """``count`` 3×3 games started by ``address``: their addresses."""
    made = []
    for _ in range(count):
        status, head, _ = await friends.fetch(port, "POST", "/new", {"X-Forwarded-For": address}, "mode=friend")
        found = re.search(r"Location: (\S+)", head)
        if status == 303 and found:
            made.append(found.group(1))
    return made


def memory(master: int) -> dict[int, float]:
    return {pid: friends.resident_mb(pid) for pid in friends.workers(master)}


async def flood(args, port: int, master: int) -> int:
    """The stream flood: see the module's docstring."""
    start_mb = memory(master)
    pair, results, listeners, stop_pair = await honest_pair(port)
    one = await games_of(port, 1, FLOODER)
    many = await games_of(port, 100, "198.51.100.8")  # someone else's games, the flood's targets
    manager = multiprocessing.Manager()
    failed = 0
    for name, targets in (("one game", one), ("100 games", many)):
        healthz = manager.list()
        seconds = args.flood_seconds
        prober = multiprocessing.Process(target=friends.probe, args=(port, seconds + 2, healthz))
        prober.start()
        shared = manager.dict(open=0, refused=0, errors=0, held=0)
        streams = [(f"{targets[i % len(targets)]}/events?v=1", FLOODER) for i in range(args.streams)]
        flooder = multiprocessing.Process(target=crowd, args=(port, streams, seconds, shared))
        flooder.start()
        peak: dict[int, float] = {}
        before = len(results.relays)
        moves = asyncio.ensure_future(friends.mover(port, [pair], 1.0, seconds, results))
        await friends.sample_memory(seconds, peak, master)
        await moves
        await asyncio.get_running_loop().run_in_executor(None, flooder.join)
        prober.join()
        held, refused, errors = shared["held"], shared["refused"], shared["errors"]
        await asyncio.sleep(10)
        after_mb = memory(master)
        relays = results.relays[before:]
        finite = [h for h in healthz if h != float("inf")]
        print(f"stream flood, {args.streams:,} streams from one address to {name}, {seconds:g} s:")
        print(f"  streams held at the end: {held}; refusals: {refused:,}; connection errors: {errors}")
        print(
            f"  /healthz: median {statistics.median(finite) * 1000:.0f} ms, "
            f"p99 {friends.percentile(list(healthz), 0.99) * 1000:.0f} ms, worst {max(healthz) * 1000:.0f} ms "
            f"({len(healthz)} probes; goal p99 <= 100 ms)"
        )
        if relays:
            print(
                f"  the honest pair's relay: median {statistics.median(relays) * 1000:.0f} ms, "
                f"worst {max(relays) * 1000:.0f} ms ({len(relays)} moves; goal <= 100 ms, <= 1 s)"
            )
        print(
            "  workers' memory: "
            + ", ".join(
                f"{start_mb.get(pid, 0):.0f} MB at start, {peak.get(pid, 0):.0f} MB at most, "
                f"{after_mb.get(pid, 0):.0f} MB 10 s after"
                for pid in after_mb
            )
            + f" (goal <= {friends.MEMORY_GOAL_MB} MB, and within 20 MB of the start)"
        )
        worst_mb = max(peak.values(), default=0)
        grew = max((after_mb[pid] - start_mb.get(pid, after_mb[pid]) for pid in after_mb), default=0)
        bad_relay = not relays or statistics.median(relays) > 0.1 or max(relays) > 1.0
        failed += (
            friends.percentile(list(healthz), 0.99) > 0.1 or bad_relay or worst_mb > friends.MEMORY_GOAL_MB or grew > 20
        )
    stop_pair.set()
    for task in listeners:
        task.cancel()
    await asyncio.gather(*listeners, return_exceptions=True)
    return 1 if failed else 0


async def watchers(args, port: int, master: int) -> int:
    """The watchers phase: see the module's docstring."""
    pair, results, listeners, stop_pair = await honest_pair(port)
    idle_seconds = 10.0
    manager = multiprocessing.Manager()
    shared = manager.dict(open=0, refused=0, errors=0, held=0)
    streams = [(f"{pair.address}/events?v=2", f"198.51.101.{i % 100}") for i in range(args.watchers)]
    watching = multiprocessing.Process(target=crowd, args=(port, streams, 60 + idle_seconds + args.seconds, shared))
    watching.start()
    opens_by = time.monotonic() + 60
    while shared["open"] < args.watchers and time.monotonic() < opens_by:
        await asyncio.sleep(0.2)
    await asyncio.sleep(3)
    pids = friends.workers(master)
    before = sum(friends.cpu_seconds(pid) for pid in pids)
    await asyncio.sleep(idle_seconds)
    idle_rate = (sum(friends.cpu_seconds(pid) for pid in pids) - before) / idle_seconds
    healthz = manager.list()
    prober = multiprocessing.Process(target=friends.probe, args=(port, args.seconds + 2, healthz))
    prober.start()
    start = time.perf_counter()
    before = sum(friends.cpu_seconds(pid) for pid in pids)
    moves = await friends.mover(port, [pair], 1.0, args.seconds, results)
    await asyncio.sleep(2)
    playing = sum(friends.cpu_seconds(pid) for pid in pids) - before - idle_rate * (time.perf_counter() - start)
    prober.join()
    held, refused = shared["open"], shared["refused"]
    stop_pair.set()
    for task in listeners:
        task.cancel()
    await asyncio.gather(*listeners, return_exceptions=True)
    watching.terminate()
    relays = results.relays
    per_move = playing / max(1, moves)
    print(f"watchers: {held:,} streams watching one 15×15 game (refused: {refused}), a move a second:")
    print(
        f"  the workers' CPU per move, beyond their idle {idle_rate * 1000:.0f} ms a second: {per_move * 1000:.1f} ms "
        f"({moves} moves; goal <= 20 ms)"
    )
    if relays:
        print(
            f"  the pair's relay: median {statistics.median(relays) * 1000:.0f} ms, worst {max(relays) * 1000:.0f} ms"
        )
    finite = [h for h in healthz if h != float("inf")]
    print(
        f"  /healthz: median {statistics.median(finite) * 1000:.0f} ms, "
        f"p99 {friends.percentile(list(healthz), 0.99) * 1000:.0f} ms ({len(healthz)} probes)"
    )
    return 0 if per_move <= 0.02 else 1


async def stop(args, port: int, master: int) -> int:
    """SIGTERM with STOP_PAGES pages streaming: how long the server takes to exit (goal <= 3 s)."""
    pages = args.stop_pages
    games = await games_of(port, 50, "198.51.100.9")
    manager = multiprocessing.Manager()
    shared = manager.dict(open=0, refused=0, errors=0, held=0)
    streams = [(f"{games[i % len(games)]}/events?v=1", f"198.51.102.{i % 100}") for i in range(pages)]
    crowd_process = multiprocessing.Process(target=crowd, args=(port, streams, 120, shared))
    crowd_process.start()
    opens_by = time.monotonic() + 60
    while shared["open"] < pages and time.monotonic() < opens_by:
        await asyncio.sleep(0.2)
    held = shared["open"]
    started = time.perf_counter()
    os.kill(master, signal.SIGTERM)
    while time.perf_counter() - started < 30:
        try:
            os.kill(master, 0)
        except ProcessLookupError:
            break
        with suppress(ChildProcessError):
            if os.waitpid(master, os.WNOHANG)[0] == master:
                break
        await asyncio.sleep(0.05)
    took = time.perf_counter() - started
    crowd_process.terminate()
    print(f"stop: SIGTERM with {held:,} pages streaming; the server exited after {took:.2f} s (goal <= 3 s)")
    return 0 if took <= 3 else 1
