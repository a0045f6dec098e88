"""The CPU time of the costly requests, on every route that searches and every board (the goal: at most 1 s).

One process builds the app and, through Flask's test client (the views, the engine and its budgets, as a worker
runs them), sends each costly kind of request about random positions of every board: a move at every level, every
move's value, a hint, the game tree with paths of one to three moves (opened and folded), and a review of a whole
game; on 7×7 and 15×15 also a piece of the review's grades and the review at one move, of a game that fills the
board (225 moves on 15×15), from a random move on. Nothing is remembered between requests (each position is new).
Prints the median and the worst CPU time of each kind per board, and the slowest request of all; the goal is every
request at most 1 s.

    python scripts/request_costs.py [--positions 30] [--seed 1]
"""

from __future__ import annotations

import argparse
import collections
import random
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from webapp import create_app  # noqa: E402
from webapp.engine.boards import BOARDS, position  # noqa: E402

GOAL_SECONDS = 1.0
LEVELS = ("random", "one-ply", "minimax")
HTMX = {"HX-Request": "true"}
GAME_FIELD = re.compile(r'name="game" value="([^"]+)"')


def random_game(rng: random.Random, empty: str, stones: int) -> list[int]:
    """``stones`` random moves from ``empty`` that no one has won with."""
    while True:
        pos, moves = position(empty), list[int]()
        while len(moves) < stones and not pos.is_over():
            cell = rng.choice(pos.legal_moves())
            pos, moves = pos.play(cell), [*moves, cell]
        if not pos.is_over():
            return moves


def board_after(empty: str, moves: list[int]) -> str:
    pos = position(empty)
    for cell in moves:
        pos = pos.play(cell)
    return str(pos)


def full_board_draw(n: int, rng: random.Random) -> list[int]:
    """A legal game that fills the n×n board with no five in a row (pairs of marks in rows shifted against each
    other), in a random order: the longest game there is to review."""
    pattern = "XXOO" * n
    board = "".join(pattern[(row * 2 + row // 2) % 4 :][:n] for row in range(n))
    xs = [i for i, c in enumerate(board) if c == "X"]
    os = [i for i, c in enumerate(board) if c == "O"]
    rng.shuffle(xs)
    rng.shuffle(os)
    return [xs[i // 2] if i % 2 == 0 else os[i // 2] for i in range(n * n)]


def costly_requests(client, spec, rng: random.Random):
    """(kind, send) for each costly kind of request, each about a position of its own (a search's results are
    remembered for the next request about the same position, which would then cost nothing); ``send`` is timed."""

    def fresh() -> tuple[list[int], str]:
        moves = random_game(rng, spec.empty, rng.randrange(1, min(spec.cells // 2, 40)))
        return moves, board_after(spec.empty, moves)

    moves, _ = fresh()
    listed = ",".join(map(str, moves))
    # The visitor's game set to this position (not timed), then the page with its hint.
    field = GAME_FIELD.search(client.get("/").get_data(as_text=True))
    assert field is not None, "the game's page names its game in its forms"
    game = field.group(1)
    form = {"board": spec.key, "moves": listed, "game": game, "against": "computer", "level": "minimax"}
    client.post("/play-from", data=form)
    yield "the page with a hint", lambda: client.get("/?hint=1")
    moves, _ = fresh()
    listed = ",".join(map(str, moves))
    yield "review", lambda: client.get("/review", query_string={"board": spec.key, "moves": listed})
    for level in LEVELS:
        _, board = fresh()
        yield (
            f"a move, {level}",
            lambda board=board, level=level: client.post("/api/move", json={"board": board, "level": level}),
        )
    _, board = fresh()
    yield "every move's value", lambda: client.get("/api/analyze", query_string={"board": board})
    if not spec.is_solved():
        # The page's pieces (the request htmx makes), and the review at one move, of the longest game there is.
        full = ".".join(map(str, full_board_draw(spec.n, rng)))
        start = rng.randrange(spec.cells)
        query = {"board": spec.key, "moves": full, "start": start}
        yield "review piece, full board", lambda: client.get("/review/grades", query_string=query, headers=HTMX)
        at = rng.randrange(spec.cells)
        query = {"board": spec.key, "moves": full, "at": at}
        yield "review at a move, full board", lambda: client.get("/review", query_string=query)
    for length in (1, 2, 3):
        for folded in (False, True):
            _, board = fresh()
            path, after = list[int](), position(board)
            while len(path) < length and not after.is_over():
                cell = rng.choice(after.legal_moves())
                path, after = [*path, cell], after.play(cell)
            query = {"board": board, "path": ".".join(map(str, path))}
            if folded:
                yield (
                    f"tree, {length} folded",
                    lambda query=query: client.get("/tree/children", query_string={**query, "fold": "1"}),
                )
            else:
                yield f"tree, {length} open", lambda query=query: client.get("/tree", query_string=query)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20, help="random positions per board")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    app = create_app({"TESTING": True, "SECRET_KEY": "request-costs-" + "k" * 40, "RANDOM_SEED": args.seed})
    client = app.test_client()
    slowest = (0.0, "")
    print(f"CPU seconds per request, {args.positions} random positions per board (seed {args.seed})")
    print(f"  {'board':6} {'request':30} {'median':>7} {'worst':>7}")
    for spec in BOARDS:
        spent = collections.defaultdict(list)
        for _ in range(args.positions):
            for kind, send in costly_requests(client, spec, rng):
                began = time.thread_time()
                answer = send()
                took = time.thread_time() - began
                if answer.status_code != 200:
                    print(f"  {spec.key} {kind}: {answer.status_code}", flush=True)
                    return 1
                spent[kind].append(took)
                if took > slowest[0]:
                    slowest = (took, f"{spec.key} {kind}")
        for kind, times in spent.items():
            print(f"  {spec.key:6} {kind:30} {statistics.median(times):7.3f} {max(times):7.3f}", flush=True)
    took, kind = slowest
    print(f"slowest: {took:.3f} s, {kind}")
    met = took <= GOAL_SECONDS
    print(f"goal: every request at most {GOAL_SECONDS:.0f} s of CPU ... {'met' if met else 'MISSED'}")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
