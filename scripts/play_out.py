"""Which reply loses least in a 15×15 position? Each candidate played out, Hard against an opponent from there.

How the opening book's entries are measured (webapp/engine/openings.py, docs/engine.md *An opening book*):
the position is a game's moves so far, with Hard's side to move; each reply is played, then Hard (at its
shipped budget) and the opponent play the game out, ``--games`` times with the opponent's random choices
seeded apart. Without ``--replies``, the moves Hard's search weighs there (given 3 s) are tried. Needs the
``strength`` extra for the outside opponents.

    python scripts/play_out.py 112.96.127.97.143.111.126.98.95 [--replies 99,82] [--games 8] [--jobs 2]
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from webapp import strength
from webapp.engine import hard
from webapp.engine.boards import BY_KEY
from webapp.engine.gomoku import Gomoku
from webapp.match import replay

SPEC = BY_KEY["15x15"]


def play_out(moves: list[int], reply: int, opponent: str, seed: int) -> str:
    """The result for the side to move after ``moves``: it plays ``reply``, then Hard plays on for it."""
    them = strength.opponent_for(opponent, SPEC, 10_000, "cpp")[1](seed)
    hard_player = strength.level_player("minimax")
    side = "X" if len(moves) % 2 == 0 else "O"
    x, o = (hard_player, them) if side == "X" else (them, hard_player)
    winner = strength.play_game(SPEC, x, o, random.Random(seed), opening=(*moves, reply))
    if winner is None:
        return "drawn"
    return "won" if winner == side else "lost"


def _task(args: tuple) -> tuple[int, str]:
    moves, reply, opponent, seed = args
    return reply, play_out(moves, reply, opponent, seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("moves", help="the game so far, cells joined by dots, X first")
    parser.add_argument("--replies", help="cells joined by commas (default: the moves Hard's search weighs)")
    parser.add_argument("--opponent", default="threatspace", choices=strength.OPPONENTS)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seed", type=int, default=88_000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    moves = [int(cell) for cell in args.moves.split(".")]
    if args.replies:
        replies = [int(cell) for cell in args.replies.split(",")]
    else:
        game = Gomoku.for_board(replay(tuple(moves), SPEC.key).board)
        found = hard.search(game, dataclasses.replace(hard.DEFAULT_BUDGET, seconds=3.0))
        replies = sorted(found.scores, key=lambda move: -found.scores[move])[:8] or list(found.best)
    tasks = [(moves, reply, args.opponent, args.seed + game) for reply in replies for game in range(args.games)]
    results: dict[int, Counter] = {reply: Counter() for reply in replies}
    with ProcessPoolExecutor(args.jobs) as pool:
        for reply, result in pool.map(_task, tasks):
            results[reply][result] += 1
    for reply in replies:
        counts = results[reply]
        print(f"{reply}: lost {counts['lost']} of {args.games} (won {counts['won']}, drawn {counts['drawn']})")


if __name__ == "__main__":
    main()
