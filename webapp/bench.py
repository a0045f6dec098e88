"""Benchmarks for the solver: how fast the computer answers and how often it wins."""

from __future__ import annotations

import random
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass

from webapp.engine import big, hard
from webapp.engine.boards import Board
from webapp.engine.levels import playable
from webapp.engine.rules import Position, other, parse
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


@dataclass(frozen=True, slots=True)
class BoardTiming:
    """The top level's cost on one board: CPU seconds per move, from the book and from live search."""

    board: str
    cold_solve_s: float | None  # the empty board solved from cold, where that is affordable (4×4)
    cold_solve_nodes: int | None
    book_load_s: float | None  # the opening book read from its file, where there is one (5×5)
    book_positions: int
    moves: int
    book_moves: int
    median_s: float
    worst_s: float
    worst_board: str
    live_median_s: float | None
    over_1s: int  # moves that took more than a second


def time_exact_board(key: str, games: int, rng: random.Random) -> BoardTiming:
    """Time Impossible's every move, with nothing remembered, in ``games`` games on the board ``key`` (4x4 or 5x5):
    against Easy and Medium, as X and as O in turn, so the positions are those of real games."""
    from webapp.engine import book, perfect
    from webapp.engine.bitboard import bit_geometry
    from webapp.engine.boards import BY_KEY, position
    from webapp.engine.exact import ExactSearch

    spec = BY_KEY[key]
    cold_s = cold_nodes = None
    if spec.cells <= 16:
        bit_geometry.cache_clear()
        start = time.process_time()
        search = ExactSearch(spec.n, spec.k)
        search.solve(spec.empty)
        cold_s, cold_nodes = time.process_time() - start, search.nodes
    load_s, entries = None, 0
    if spec.key == "5x5":
        book.load.cache_clear()
        start = time.process_time()
        entries = len(book.load()[1])
        load_s = time.process_time() - start
    times, live, worst_board, in_book = [], [], "", 0
    for game in range(games):
        side = "XO"[game % 2]
        opponent = ("random", "one-ply")[game // 2 % 2]
        pos = position(spec.empty)
        while not pos.is_over():
            if pos.to_move != side:
                pos = pos.play(choose_move(pos.board, opponent, rng))
                continue
            perfect.candidates.cache_clear()
            hit = book.lookup(pos.board) is not None
            start = time.process_time()
            move = choose_move(pos.board, "minimax", rng)
            took = time.process_time() - start
            times.append(took)
            if hit:
                in_book += 1
            else:
                live.append(took)
            if took >= max(times):
                worst_board = pos.board
            pos = pos.play(move)
    return BoardTiming(
        board=key,
        cold_solve_s=cold_s,
        cold_solve_nodes=cold_nodes,
        book_load_s=load_s,
        book_positions=entries,
        moves=len(times),
        book_moves=in_book,
        median_s=statistics.median(times),
        worst_s=max(times),
        worst_board=worst_board,
        live_median_s=statistics.median(live) if live else None,
        over_1s=sum(1 for t in times if t > 1.0),
    )


@dataclass(frozen=True, slots=True)
class MoveTiming:
    """CPU time of the top level's move on one board over many positions, and how deep it looked."""

    board: str
    calls: int
    median_ms: float
    worst_ms: float
    # Only for the boards the Hard search plays: nodes per CPU second (threat searches included), the depth
    # the alpha-beta completed, and the process's peak resident memory (MB) once every move is made.
    nodes_per_second: float | None = None
    median_depth: float | None = None
    least_depth: int | None = None
    peak_mb: float | None = None
    worst_board: str | None = None


def game_positions(spec: Board, count: int, rng: random.Random) -> list[str]:
    """``count`` unfinished positions from games on ``spec`` where each move is Medium's or Easy's."""
    boards: list[str] = []
    while len(boards) < count:
        pos = parse(spec.empty, spec.n, spec.k)
        while not pos.is_over() and len(boards) < count:
            boards.append(pos.board)
            level = "one-ply" if rng.random() < 0.8 else "random"
            pos = pos.play(choose_move(pos.board, level, rng))
    return boards


def time_top_level(spec: Board, boards: list[str]) -> MoveTiming:
    """CPU time of a top-level move in each of ``boards``, from cold: no table or memory reused."""
    times, nodes, depths, worst_board = [], 0, [], None
    for board in boards:
        if spec.is_solved():
            start = time.process_time()
            choose_move(board, "minimax", random.Random(0))
            times.append(time.process_time() - start)
            continue
        start = time.process_time()
        playable(board)  # the validation every request pays
        result = hard.search(big.game_for(board))
        times.append(time.process_time() - start)
        if times[-1] >= max(times):
            worst_board = board
        nodes += result.nodes
        depths.append(result.depth)
    median_ms, worst_ms = statistics.median(times) * 1000, max(times) * 1000
    if not depths:
        return MoveTiming(spec.key, len(times), median_ms, worst_ms)
    # ru_maxrss is in kilobytes on Linux.
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return MoveTiming(
        spec.key,
        len(times),
        median_ms,
        worst_ms,
        nodes / sum(times),
        statistics.median(depths),
        min(depths),
        peak_mb,
        worst_board,
    )
