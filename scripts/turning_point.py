"""Where was a lost 15×15 game lost? The latest of Hard's moves from which a stronger Hard takes over and saves it.

How X's remaining losses were traced (docs/engine.md, *X's last losses, traced*): the game's moves are replayed
up to one of Hard's moves, and from there a Hard given ``--seconds`` a move plays its side against the same
opponent, seeded as in the game. A binary search over Hard's moves finds the last one from which that player
still wins or draws: the move played there is where the game turned, as far as more time can tell. The
opponent's random choices after the takeover may differ from the game's, so a turning point is a lead to
look at, not a proof. Needs the ``strength`` extra for the outside opponents.

    python scripts/turning_point.py 112.96.82.97.98.126 --side X --seed 2039007 [--opponent threatspace]
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools import strength
from webapp.engine import hard
from webapp.engine.boards import BY_KEY

SPEC = BY_KEY["15x15"]


def takeover(moves: list[int], side: str, k: int, opponent: str, seed: int, seconds: float) -> tuple[str, list[int]]:
    """The result for ``side`` when its first ``k`` moves are the game's, and a Hard of ``seconds`` plays on."""
    opening = tuple(moves[: 2 * k + (0 if side == "X" else 1)])
    them = strength.opponent_for(opponent, SPEC, 10_000, "cpp")[1](seed)
    strong = strength.level_player("minimax", dataclasses.replace(hard.DEFAULT_BUDGET, seconds=seconds))
    x, o = (strong, them) if side == "X" else (them, strong)
    played: list[int] = []
    winner = strength.play_game(SPEC, x, o, random.Random(seed), played, opening)
    result = "drawn" if winner is None else "won" if winner == side else "lost"
    return result, [*opening, *played]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("moves", help="the lost game's moves, cells joined by dots, X first")
    parser.add_argument("--side", choices=["X", "O"], required=True, help="the side Hard played")
    parser.add_argument("--seed", type=int, required=True, help="the game's seed, as the match printed it")
    parser.add_argument("--opponent", default="threatspace", choices=strength.OPPONENTS)
    parser.add_argument("--seconds", type=float, default=3.0, help="the stronger Hard's CPU seconds a move")
    args = parser.parse_args()
    moves = [int(cell) for cell in args.moves.split(".")]
    first = 0 if args.side == "X" else 1
    own = len(range(first, len(moves), 2))
    results: dict[int, bool] = {}

    def saves(k: int) -> bool:
        if k not in results:
            result, played = takeover(moves, args.side, k, args.opponent, args.seed, args.seconds)
            results[k] = result != "lost"
            print(f"taking over at move {k + 1} of {args.side}'s: {result} in {len(played)} plies", flush=True)
        return results[k]

    if not saves(0):
        print(f"The stronger Hard loses this game from the start too (seed {args.seed}).")
        return
    # saves(low) holds and the game itself, all its moves the recorded ones, was lost (high).
    low, high = 0, own
    while high - low > 1:
        middle = (low + high) // 2
        if saves(middle):
            low = middle
        else:
            high = middle
    ply = 2 * low + first
    print(f"The game turned at {args.side}'s move {low + 1} (ply {ply + 1}): it played {moves[ply]}.")


if __name__ == "__main__":
    main()
