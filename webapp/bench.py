"""Benchmarks for the solver: how fast the computer answers and how often it wins."""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass

from webapp.engine.rules import Position, other
from webapp.solver import choose_move
from webapp.stats import reachable

FIRST_CALL = (
    "import time; from webapp.solver import choose_move; t = time.perf_counter(); "
    "choose_move('.........', 'minimax'); print(time.perf_counter() - t)"
)


@dataclass(frozen=True, slots=True)
class Timing:
    """Per-call times of minimax ``choose_move`` over many positions, in microseconds."""

    calls: int
    median_us: float
    p99_us: float
    max_us: float


def time_warm_calls(rng: random.Random) -> Timing:
    """Time minimax over every reachable unfinished position, after one pass to warm it up."""
    boards = sorted(p.board for p in reachable() if not p.is_over())
    for board in boards:
        choose_move(board, "minimax", rng)
    times = []
    for board in boards:
        start = time.perf_counter_ns()
        choose_move(board, "minimax", rng)
        times.append((time.perf_counter_ns() - start) / 1000)
    times.sort()
    return Timing(len(times), statistics.median(times), times[int(len(times) * 0.99)], times[-1])


def time_first_call(runs: int = 5) -> list[float]:
    """Seconds taken by the first minimax call from the empty board, each in a fresh process."""
    return [
        float(subprocess.run([sys.executable, "-c", FIRST_CALL], capture_output=True, text=True, check=True).stdout)
        for _ in range(runs)
    ]


@dataclass(frozen=True, slots=True)
class Record:
    """How minimax did against an opponent who plays uniformly at random."""

    side: str
    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def win_rate(self) -> float:
        return self.wins / self.games


def versus_random(side: str, games: int, rng: random.Random) -> Record:
    """Play ``games`` games with minimax as ``side`` against uniformly random moves."""
    results = []
    for _ in range(games):
        pos = Position.empty()
        while not pos.is_over():
            level = "minimax" if pos.to_move == side else "random"
            pos = pos.play(choose_move(pos.board, level, rng))
        results.append(pos.winner)
    return Record(side, results.count(side), results.count(None), results.count(other(side)))
