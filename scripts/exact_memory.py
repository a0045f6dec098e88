"""Memory of a worker-like process answering many distinct 4×4 and 5×5 questions.

One process builds the app and, through Flask's test client (the views, the engine and the memories a
worker runs), asks ``/api/analyze`` and ``/api/move`` (Impossible) about distinct random 5×5 positions of
2 to 12 marks, then 4×4 ones, and reports its resident memory (and its peak) before, along the way and
after, with the CPU seconds of the slowest request. The goal: the process stays under 150 MB, and the
exact search's tables and memories are bounded, so it levels off rather than growing with the count.

    python scripts/exact_memory.py [--requests 3000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GOAL_MB = 150


def memory_mb() -> tuple[float, float]:
    """(resident now, resident at its peak) of this process, in MB."""
    status = Path("/proc/self/status").read_text()
    found = {name: re.search(rf"{name}:\s+(\d+) kB", status) for name in ("VmRSS", "VmHWM")}
    now, peak = (int(match.group(1)) / 1024 for match in found.values() if match is not None)
    return now, peak


def random_board(rng: random.Random, empty: str) -> str:
    from webapp.engine.boards import position

    while True:
        pos = position(empty)
        for _ in range(rng.randint(2, 12)):
            pos = pos.play(rng.choice(pos.legal_moves()))
            if pos.is_over():
                break
        if not pos.is_over():
            return pos.board


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000, help="distinct 5×5 positions (4×4: a tenth as many)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    from webapp import create_app

    app = create_app({"TESTING": True, "SECRET_KEY": "memory-measurement-" + "k" * 32})
    client = app.test_client()
    rng = random.Random(args.seed)
    client.get("/api/analyze", query_string={"board": "." * 25})  # the book read, the app warmed
    start_now, start_peak = memory_mb()
    print(f"after one request: {start_now:.1f} MB resident (peak {start_peak:.1f} MB)", flush=True)
    seen: set[str] = set()
    worst, worst_board = 0.0, ""
    plan = [("." * 25, args.requests), ("." * 16, args.requests // 10)]
    asked = 0
    for empty, count in plan:
        for _ in range(count):
            board = random_board(rng, empty)
            while board in seen:
                board = random_board(rng, empty)
            seen.add(board)
            began = time.process_time()
            answer = client.get("/api/analyze", query_string={"board": board})
            assert answer.status_code == 200, (board, answer.status_code)
            moved = client.post("/api/move", json={"board": board, "level": "minimax"})
            assert moved.status_code == 200, (board, moved.status_code)
            took = time.process_time() - began
            if took > worst:
                worst, worst_board = took, board
            asked += 1
            if asked % 500 == 0:
                now, peak = memory_mb()
                print(f"{asked:6,} positions: {now:.1f} MB resident (peak {peak:.1f} MB)", flush=True)
    now, peak = memory_mb()
    print(
        f"after {asked:,} distinct positions ({plan[0][1]:,} on 5×5, {plan[1][1]:,} on 4×4), an analysis and a move"
        f" each: {now:.1f} MB resident, peak {peak:.1f} MB; grew {now - start_now:+.1f} MB"
    )
    print(f"slowest position (analysis and move together): {worst * 1000:.0f} ms of CPU, {worst_board}")
    met = peak < GOAL_MB
    print(f"goal: under {GOAL_MB} MB ... {'met' if met else 'MISSED'}")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
