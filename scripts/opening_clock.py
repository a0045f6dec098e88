"""Does the clock still decide Hard's opening moves on 15×15? Each opening position searched twice.

Once with the shipped budget, and once with no clock to speak of (60 s), so that only the opening's count
of nodes decides when an iteration may start. Where the two reach different depths, the clock cut the
last iteration, and a faster or slower machine could play a different move (docs/engine.md, *Timing
decided the openings*). Positions come from the bench's games (Medium's and Easy's moves), with 1 to 11
stones.

    python scripts/opening_clock.py [--positions 120] [--seed 2026]
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools.bench import game_positions
from webapp.engine import hard
from webapp.engine.boards import BY_KEY
from webapp.engine.gomoku import Gomoku


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=120)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    spec = BY_KEY["15x15"]
    rng = random.Random(args.seed)
    opening = hard.DEFAULT_BUDGET.opening_stones
    boards: list[str] = []
    while len(boards) < args.positions:
        for board in game_positions(spec, 40, rng):
            stones = sum(c != "." for c in board)
            if 0 < stones < opening and len(boards) < args.positions:
                boards.append(board)
    clockless = dataclasses.replace(hard.DEFAULT_BUDGET, seconds=60.0)
    counts = {"X": [0, 0, 0], "O": [0, 0, 0]}  # positions, depth cut by the clock, another move
    for board in boards:
        game = Gomoku.for_board(board)
        side = game.mover
        shipped = hard.search(game, hard.DEFAULT_BUDGET)
        free = hard.search(Gomoku.for_board(board), clockless)
        counts[side][0] += 1
        counts[side][1] += shipped.depth != free.depth
        counts[side][2] += shipped.best != free.best
    for side, (total, cut, moved) in counts.items():
        print(f"{side} to move: {total} positions; the clock cut the last iteration in {cut}; another move in {moved}")


if __name__ == "__main__":
    main()
