"""Does a slower clock change Hard's move on 15×15? One position searched with the clock running at several speeds.

Hard's budget is CPU seconds, read on a clock. A busy host makes the same work read longer on it, as if the
machine were slower. Here the clock runs 1 to 2 times fast, evenly, then at random speeds (1, 1.5 or 2.5 times,
changing every 20 ms of work). The first player's move should change only once the whole move's seconds end
it (docs/engine.md, *X's shares by nodes alone*).

    python scripts/clock_speed.py 112.96.110.95.111.113.97.109.83.125.69.55 [--random 30]
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from webapp.engine import hard
from webapp.engine.gomoku import Gomoku
from webapp.match import replay

SPEEDS = (1.0, 1.2, 1.4, 1.7, 2.0)


def move_with(moves: list[int], clock: Callable[[], float]) -> hard.Result:
    """Hard's choice after ``moves`` (cells, in order) with the shipped budget, read on ``clock``."""
    game = Gomoku.for_board(replay(tuple(moves), "15x15").board)
    return hard.search(game, dataclasses.replace(hard.DEFAULT_BUDGET, clock=clock))


def even(speed: float) -> Callable[[], float]:
    """The process's CPU time, ``speed`` times as fast."""
    return lambda: time.process_time() * speed


def uneven(rng: random.Random) -> Callable[[], float]:
    """The process's CPU time at a speed drawn anew every 20 ms of it: mostly 1, sometimes 1.5 or 2.5."""
    last, read, stretch, speed = time.process_time(), 0.0, 0.0, 1.0

    def clock() -> float:
        nonlocal last, read, stretch, speed
        now = time.process_time()
        read, stretch, last = read + (now - last) * speed, stretch + now - last, now
        if stretch > 0.02:
            stretch, speed = 0.0, rng.choice((1.0, 1.0, 1.0, 1.5, 2.5))
        return read

    return clock


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("moves", help="the game so far: cells, dot-separated, in the order played")
    parser.add_argument("--random", type=int, default=30, help="how many clocks of random speeds")
    args = parser.parse_args()
    moves = [int(cell) for cell in args.moves.split(".")]
    for speed in SPEEDS:
        result = move_with(moves, even(speed))
        print(f"clock ×{speed}: {result.best}, depth {result.depth}, {result.nodes} nodes", flush=True)
    chosen = Counter(move_with(moves, uneven(random.Random(trial))).best for trial in range(args.random))
    print(f"{args.random} clocks of random speeds:", ", ".join(f"{best} {n} times" for best, n in chosen.items()))


if __name__ == "__main__":
    main()
