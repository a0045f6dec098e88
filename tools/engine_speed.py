"""The big boards' engine's speed on fixed random 15×15 positions (6 to 30 stones near the centre, no line to
complete): fixed-node Hard searches (nodes a CPU second, and a digest of the moves found, the same compiled and as
Python), then a Hard move at the shipped budget (CPU median and max).

    python -m tools.engine_speed                  # as built (`make engine`), else as Python
    ENGINE_PURE=1 python -m tools.engine_speed    # as Python
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import time

from webapp.engine.big import ENGINE, hard
from webapp.engine.big.board import Gomoku
from webapp.engine.big.budget import Budget
from webapp.engine.rules import Position

CENTRE = [row * 15 + col for row in range(3, 12) for col in range(3, 12)]


def positions(count: int, seed: int) -> list[str]:
    """``count`` random positions of 6 to 30 stones in the board's central 9×9, none over and none with a line to
    complete at once."""
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        pos = Position.empty(15, 5)
        for _ in range(rng.randint(6, 30)):
            pos = pos.play(rng.choice([cell for cell in CENTRE if pos.board[cell] == "."]))
            if pos.is_over():
                break
        else:
            game = Gomoku.for_board(pos.board)
            if game.completions(game.mover) == ([], []):
                found.append(pos.board)
    return found


def main(argv: list[str] | None = None) -> None:
    """Print the engine that runs, its nodes a second at fixed nodes, and its CPU per move at the shipped budget."""
    parser = argparse.ArgumentParser(prog="python -m tools.engine_speed", description=__doc__)
    parser.add_argument("--positions", type=int, default=24)
    parser.add_argument("--nodes", type=int, default=20_000, help="each fixed-node search's nodes")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    boards = positions(args.positions, args.seed)
    found, nodes, cpu = [], 0, 0.0
    for board in boards:
        start = time.process_time()
        result = hard.search(Gomoku.for_board(board), Budget(nodes=args.nodes))
        cpu += time.process_time() - start
        nodes += result.nodes
        found.append([result.best, result.value, result.depth, result.nodes])
    digest = hashlib.sha256(json.dumps(found).encode()).hexdigest()[:12]
    print(f"engine: {ENGINE}; {args.nodes:,}-node searches: {nodes / cpu:,.0f} nodes a CPU second, moves {digest}")
    times = []
    for board in boards:
        start = time.process_time()
        hard.search(Gomoku.for_board(board))
        times.append(time.process_time() - start)
    median, worst = statistics.median(times) * 1000, max(times) * 1000
    print(f"Hard at its shipped budget: median {median:.0f} ms, max {worst:.0f} ms of CPU a move")


if __name__ == "__main__":
    main()
