"""Benchmarks for the solver: how fast the computer answers and how often it wins."""

from __future__ import annotations

import random
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass

from webapp.engine import hard
from webapp.engine.boards import Board
from webapp.engine.gomoku import Gomoku
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


# The reviewer's positions (issue 19) and the slowest met before the budget: each is benched on its board.
EXACT_EXAMPLES = {
    "4x4": (".X..............", "X..............O", "................"),
    "5x5": (
        "O.........X..............",  # the reviewer's example: 10 s of CPU before the budget
        "X...........O............",  # a corner against the centre, X to move
        "O........X...............",  # X to move wins, seven plies out of the book's five-mark reach
        "..O.OX...X...............",
        ".........X.........X.OOX.",
        "........O..OXX...........",
        "XOX............O....O..X.",
    ),
}


@dataclass(frozen=True, slots=True)
class Costs:
    """CPU seconds of one kind of request over every sampled position, each from cold."""

    calls: int
    median_s: float
    worst_s: float
    worst_board: str


@dataclass(frozen=True, slots=True)
class ExactBench:
    """Impossible's cost and exactness on 4×4 or 5×5 over positions in and out of the book."""

    board: str
    positions: int
    random_positions: int  # random games of 2 to 12 marks
    game_positions: int  # Impossible to move in games against Easy and Medium
    examples: int  # the reviewer's positions and the slowest met before
    in_book: int  # positions whose every move's value the book holds (four marks or fewer on 5×5)
    book_positions: int
    book_bytes: int
    book_load_s: float | None
    move: Costs
    analysis: Costs
    outlook: Costs
    hint: Costs  # a hint asks for both the move and every move's value
    exact_moves: int  # the best move proved
    fallbacks: int  # the budget ran out first: the best move proved so far was played
    fallbacks_not_losing: int  # of those, the ones proved not to lose
    fallback_boards: tuple[str, ...]
    values: int  # every move of every analysis
    exact_values: int  # of those, proved (the rest "unclear")
    complete_analyses: int  # analyses with every move proved
    proved_outlooks: int


def exact_sample(key: str, rng: random.Random, randoms: int, games: int) -> tuple[list[str], list[str], list[str]]:
    """(random positions with 2 to 12 marks, positions Impossible is to move in against Easy and Medium,
    the board's examples), all unfinished."""
    from webapp.engine.boards import BY_KEY, position

    spec = BY_KEY[key]
    random_boards: list[str] = []
    while len(random_boards) < randoms:
        pos = position(spec.empty)
        for _ in range(rng.randint(2, 12)):
            pos = pos.play(rng.choice(pos.legal_moves()))
            if pos.is_over():
                break
        if not pos.is_over():
            random_boards.append(pos.board)
    played: list[str] = []
    for game in range(games):
        side = "XO"[game % 2]
        opponent = ("random", "one-ply")[game // 2 % 2]
        pos = position(spec.empty)
        while not pos.is_over():
            if pos.to_move == side:
                played.append(pos.board)
                pos = pos.play(choose_move(pos.board, "minimax", rng))
            else:
                pos = pos.play(choose_move(pos.board, opponent, rng))
    return random_boards, played, list(EXACT_EXAMPLES.get(key, ()))


def _costs(times: list[tuple[float, str]]) -> Costs:
    worst = max(times)
    return Costs(len(times), statistics.median(t for t, _ in times), worst[0], worst[1])


def time_exact_requests(key: str, rng: random.Random, randoms: int = 200, games: int = 20) -> ExactBench:
    """Each kind of request Impossible answers on ``key`` (4x4 or 5x5), timed from cold (nothing remembered)
    on random positions, positions from games and the examples: a move, every move's value, the outlook,
    and a hint (the move and the values together)."""
    from webapp.engine import book, perfect
    from webapp.engine.levels import analyze, candidates
    from webapp.engine.rules import EMPTY

    load_s, entries, size = None, 0, 0
    if key == "5x5":
        book.load.cache_clear()
        start = time.process_time()
        entries = len(book.load())
        load_s = time.process_time() - start
        size = book.PATH.stat().st_size
    random_boards, played, examples = exact_sample(key, rng, randoms, games)
    boards = random_boards + played + examples
    timed: dict[str, list[tuple[float, str]]] = {"move": [], "analysis": [], "outlook": [], "hint": []}

    def clocked(kind: str, board: str, *asks) -> list:
        perfect.forget()
        start = time.process_time()
        answers = [ask() for ask in asks]
        timed[kind].append((time.process_time() - start, board))
        return answers

    exact_moves = values = exact_values = complete = proved = in_book = 0
    fallbacks: list[tuple[str, bool]] = []
    for board in boards:
        clocked("move", board, lambda b=board: candidates(b, "minimax"))
        decision = perfect.decide(board)  # remembered if exact; asked again (from cold) if not
        if decision.exact:
            exact_moves += 1
        else:
            fallbacks.append((board, decision.choice.low >= 0))
        (found,) = clocked("analysis", board, lambda b=board: analyze(b))
        values += len(found)
        exact_values += sum(1 for result, _ in found.values() if result != "unclear")
        complete += all(result != "unclear" for result, _ in found.values())
        (seen,) = clocked("outlook", board, lambda b=board: perfect.outlook(b))
        proved += seen[0] != "unclear"
        clocked("hint", board, lambda b=board: analyze(b), lambda b=board: candidates(b, "minimax"))
        if key == "5x5" and book.value(board) is not None and board.count(EMPTY) > book.N * book.N - book.MARKS:
            in_book += 1
    return ExactBench(
        board=key,
        positions=len(boards),
        random_positions=len(random_boards),
        game_positions=len(played),
        examples=len(examples),
        in_book=in_book,
        book_positions=entries,
        book_bytes=size,
        book_load_s=load_s,
        move=_costs(timed["move"]),
        analysis=_costs(timed["analysis"]),
        outlook=_costs(timed["outlook"]),
        hint=_costs(timed["hint"]),
        exact_moves=exact_moves,
        fallbacks=len(fallbacks),
        fallbacks_not_losing=sum(1 for _, safe in fallbacks if safe),
        fallback_boards=tuple(board for board, _ in fallbacks),
        values=values,
        exact_values=exact_values,
        complete_analyses=complete,
        proved_outlooks=proved,
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
        result = hard.search(Gomoku.for_board(board))
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
