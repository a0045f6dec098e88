"""How many moves one core of the production server plays a second, for each board and level: `make capacity`.

One instance of the Procfile server (scripts/scale_out.py's Instance: the Procfile's command with PORT,
SECRET_KEY and WEB_CONCURRENCY=1) serves a player who plays X against the computer at each level on each
board: a random empty square each move, a new game when one ends, one request at a time. Around every
POST /move (the player's move and the computer's reply, in one request) the script reads the CPU time of
the server's whole process tree (the master, its worker and any process they started) from
/proc/<pid>/task/<tid>/schedstat, in nanoseconds. So a move's cost is everything the server spent on it
(HTTP, the app, the search, the page) and nothing of the client's, however busy the machine is: figures
in CPU time, not wall time, as docs/benchmarks.md asks.

It prints one row per board and level: moves measured, CPU milliseconds per move (mean, median, 99th
percentile, max), moves per second per core (1000 / the mean) and the concurrent players one core serves
if each player moves once every --think seconds (5 by default). A request that fails is counted, and
its cost is not. `--json` prints every figure; the table is what docs/deploy.md records.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import secrets
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from scale_out import ROOT, Instance, Player, RequestFailed, free_port

BOARDS = ("3x3", "4x4", "5x5", "7x7", "15x15")
LEVELS = {"random": "Easy", "one-ply": "Medium", "minimax": "Impossible"}
UNSOLVED = ("7x7", "15x15")  # where the top level searches under a time budget, and is called Hard


def level_name(board: str, level: str) -> str:
    return "Hard" if level == "minimax" and board in UNSOLVED else LEVELS[level]


def descendants(root: int) -> list[int]:
    """``root`` and every process under it, from /proc."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone while we looked
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, frontier = [], [root]
    while frontier:
        pid = frontier.pop()
        found.append(pid)
        frontier.extend(children.get(pid, []))
    return found


def cpu_ns(pids: list[int]) -> int:
    """The CPU time every thread of the processes has had so far, in nanoseconds (schedstat's first field)."""
    total = 0
    for pid in pids:
        for task in Path(f"/proc/{pid}/task").glob("*/schedstat"):
            try:
                total += int(task.read_text().split()[0])
            except OSError:
                continue
    return total


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile: the smallest value with at least ``share`` of the values at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def measure(instance: Instance, board: str, level: str, args, rng: random.Random) -> dict:
    """Moves at ``level`` on ``board`` until --moves are measured or --cpu-budget or --wall-budget runs out."""
    settings = f"mode=hvc&human=X&board={board}&difficulty={level}"
    player = Player(instance.port, settings=settings, rng=rng)
    costs: list[float] = []
    failures: list[str] = []
    cpu_budget_ns = args.cpu_budget * 1e9
    wall_deadline = time.monotonic() + args.wall_budget
    while len(costs) < args.moves and sum(costs) < cpu_budget_ns and time.monotonic() < wall_deadline:
        try:
            player.start_if_over()  # not counted: a new game is not a move
            pids = descendants(instance.started.pid)
            before = cpu_ns(pids)
            player.move()
            costs.append(cpu_ns(pids) - before)
        except (RequestFailed, OSError) as error:
            failures.append(repr(error)[:200])
            player = Player(instance.port, settings=settings, rng=rng)  # start again from a new game
            instance.wait_until_healthy()
    ms = [cost / 1e6 for cost in costs]
    mean = statistics.fmean(ms) if ms else math.nan
    return {
        "board": board,
        "level": level,
        "moves": len(ms),
        "games_finished": player.finished,
        "failed": failures,
        "cpu_ms_mean": mean,
        "cpu_ms_median": statistics.median(ms) if ms else math.nan,
        "cpu_ms_p99": percentile(ms, 0.99) if ms else math.nan,
        "cpu_ms_max": max(ms) if ms else math.nan,
        "moves_per_second_per_core": 1000 / mean if ms else math.nan,
        "players_per_core": args.think * 1000 / mean if ms else math.nan,
        "cpu_ms_each": [round(value, 3) for value in ms],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", nargs="+", default=list(BOARDS), choices=BOARDS, metavar="BOARD")
    parser.add_argument("--levels", nargs="+", default=list(LEVELS), choices=list(LEVELS), metavar="LEVEL")
    parser.add_argument("--moves", type=int, default=300, help="moves measured per board and level (default 300)")
    parser.add_argument("--cpu-budget", type=float, default=20, help="server CPU seconds per board and level (20)")
    parser.add_argument("--wall-budget", type=float, default=120, help="wall seconds per board and level (120)")
    parser.add_argument("--think", type=float, default=5, help="seconds between one player's moves (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="of the player's random squares (default 1)")
    parser.add_argument("--json", action="store_true", help="print every figure as JSON")
    args = parser.parse_args()
    # A SIGTERM (a `kill`, a CI's timeout) unwinds like Ctrl-C, so that every server started is stopped.
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(128 + number))

    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load = os.getloadavg()
    rng = random.Random(args.seed)
    rows = []
    with tempfile.TemporaryDirectory(prefix="capacity-") as logs:
        instance = Instance("web", free_port(), secrets.token_urlsafe(32), Path(logs), workers=1)
        try:
            instance.start().wait_until_healthy()
            for board in args.boards:
                for level in args.levels:
                    rows.append(measure(instance, board, level, args, rng))
                    if not args.json:
                        print(row_text(rows[-1]), file=sys.stderr, flush=True)
        finally:
            instance.stop()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    report = {
        "date": started,
        "commit": commit.stdout.strip(),
        "command": "python scripts/capacity.py " + shlex.join(sys.argv[1:]),
        "load_average_before": load,
        "think_seconds": args.think,
        "rows": rows,
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_table(report)
    return 1 if any(row["failed"] for row in rows) else 0


def row_text(row: dict) -> str:
    return (
        f"{row['board']} {row['level']}: {row['moves']} moves, {row['cpu_ms_mean']:.2f} ms mean, "
        f"{row['cpu_ms_max']:.1f} ms max, {len(row['failed'])} failed"
    )


def print_table(report: dict) -> None:
    print(f"{report['date']}, commit {report['commit']}: {report['command']}")
    print(f"load average before: {', '.join(f'{x:.1f}' for x in report['load_average_before'])}\n")
    think = report["think_seconds"]
    print(
        "| board | level | moves | CPU ms per move: mean | median | p99 | max | moves/s per core "
        f"| players per core (a move every {think:g} s) | failed |"
    )
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for row in report["rows"]:
        print(
            f"| {row['board']} | {level_name(row['board'], row['level'])} | {row['moves']} | {row['cpu_ms_mean']:.2f} "
            f"| {row['cpu_ms_median']:.2f} | {row['cpu_ms_p99']:.1f} | {row['cpu_ms_max']:.1f} "
            f"| {row['moves_per_second_per_core']:,.0f} | {row['players_per_core']:,.0f} | {len(row['failed'])} |"
        )
    for row in report["rows"]:
        for failure in row["failed"]:
            print(f"\n{row['board']} {row['level']} failed: {failure}")


if __name__ == "__main__":
    raise SystemExit(main())
