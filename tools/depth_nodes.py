"""Hard's alpha-beta to a fixed depth on the 15×15 suite's dev openings: the nodes it takes, and the move it chooses.

Each dev opening is played on by a few seeded random moves near its stones (none with a line to complete at
once); the alpha-beta deepens over the root's moves (``moves.generate``) to ``--depth`` plies, with no budget.
A change to the alpha-beta's selectivity pays if it takes fewer nodes and keeps the moves (or better ones).
Only the dev half: the held-out half never chooses the code.

    python -m tools.depth_nodes --depth 5             # as built (`make engine`), else as Python
    python -m tools.depth_nodes --depth 5 --moves     # and each position's chosen move and value
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time

from tools.suite import load
from webapp.engine.big import ENGINE
from webapp.engine.big.alphabeta import AlphaBeta
from webapp.engine.big.board import Gomoku
from webapp.engine.big.budget import Meter
from webapp.engine.big.moves import generate
from webapp.engine.big.parameters import ROOT_WIDTH
from webapp.engine.rules import Position

N, K = 15, 5


def positions(extra: tuple[int, ...], seed: int) -> list[str]:
    """Each dev opening followed by each count in ``extra`` of random moves next to the stones (seeded)."""
    rng = random.Random(seed)
    found: list[str] = []
    for opening in load("15x15").half("dev"):
        for count in extra:
            while True:
                pos = Position.empty(N, K)
                for cell in opening.cells:
                    pos = pos.play(cell)
                for _ in range(count):
                    pos = pos.play(rng.choice(_near(pos.board)))
                game = Gomoku.for_board(pos.board)
                if not pos.is_over() and game.completions(game.mover) == ([], []):
                    found.append(pos.board)
                    break
    return found


def _near(board: str) -> list[int]:
    """The empty cells within one step of a stone."""
    stones = [i for i, c in enumerate(board) if c != "."]
    return sorted(
        {
            r * N + c
            for s in stones
            for r in range(max(0, s // N - 1), min(N, s // N + 2))
            for c in range(max(0, s % N - 1), min(N, s % N + 2))
            if board[r * N + c] == "."
        }
    )


def main(argv: list[str] | None = None) -> None:
    """Print the engine, the total nodes and CPU to reach the depth, and a digest of the moves chosen."""
    parser = argparse.ArgumentParser(prog="python -m tools.depth_nodes", description=__doc__)
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--extra", default="2,6", help="random moves after each opening, comma-separated counts")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--moves", action="store_true", help="print each position's move, value and nodes")
    args = parser.parse_args(argv)
    boards = positions(tuple(int(x) for x in args.extra.split(",")), args.seed)
    chosen, total, cpu = [], 0, 0.0
    for i, board in enumerate(boards):
        game = Gomoku.for_board(board)
        meter = Meter(clock=time.process_time)
        start = time.process_time()
        scores, depth = AlphaBeta(game, meter, args.depth).deepen(generate(game, ROOT_WIDTH))
        cpu += time.process_time() - start
        best = max(scores, key=lambda m: scores[m])
        chosen.append([best, scores[best], depth])
        total += meter.nodes
        if args.moves:
            print(f"{i:3d} move {best:3d} value {scores[best]:7d} depth {depth} nodes {meter.nodes:,}")
    digest = hashlib.sha256(json.dumps(chosen).encode()).hexdigest()[:12]
    print(
        f"engine: {ENGINE}; {len(boards)} positions to depth {args.depth}: {total:,} nodes, "
        f"{cpu:.1f} s CPU, moves {digest}"
    )


if __name__ == "__main__":
    main()
