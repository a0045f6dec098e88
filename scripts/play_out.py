"""Which reply loses least in a 15×15 position? Each candidate played out, Hard against an opponent from there.

How the opening book's entries are measured (webapp/engine/openings.py, docs/engine.md *An opening book*):
the position is a game's moves so far, with Hard's side to move; the opponent is shown the game so far (it
may keep a plan from move to move, ``show_the_game``), then each reply is played, and Hard (at its shipped
budget) and the opponent play the game out, ``--games`` times with the opponent's random choices seeded apart.
Without ``--replies``, the moves Hard's search weighs there (given 3 s) are tried. Needs the ``strength`` extra
for the outside opponents.

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

from tools import strength
from webapp.engine import hard
from webapp.engine.boards import BY_KEY
from webapp.engine.gomoku import Gomoku
from webapp.engine.openings import grid
from webapp.match import replay

SPEC = BY_KEY["15x15"]


def play_out(moves: list[int], reply: int, opponent: str, seed: int, cold: bool = False) -> str:
    """The result for the side to move after ``moves``: it plays ``reply``, then Hard plays on for it."""
    them = strength.opponent_for(opponent, SPEC, 10_000, "cpp")[1](seed)
    hard_player = strength.level_player("minimax")
    side = "X" if len(moves) % 2 == 0 else "O"
    if not cold:
        show_the_game(them, moves)
    x, o = (hard_player, them) if side == "X" else (them, hard_player)
    winner = strength.play_game(SPEC, x, o, random.Random(seed), opening=(*moves, reply))
    if winner is None:
        return "drawn"
    return "won" if winner == side else "lost"


def show_the_game(them: strength.Player, moves: list[int]) -> None:
    """Ask ``them``, the side not to move after ``moves``, for a move at each of its turns there; the log's stands.

    An opponent may keep a plan between moves: the ThreatSpace player saves the threat sequence it found and
    plays it on, move after move. Shown the game, it holds the plan it held there in the match; asked cold in
    the middle of a game it searches afresh, and may answer a reply quite differently from the games.
    """
    for turn in range(1 - len(moves) % 2, len(moves), 2):
        them(grid(SPEC.n, moves[:turn]), random.Random(turn))


def _task(args: tuple) -> tuple[int, str]:
    moves, reply, opponent, seed, cold = args
    return reply, play_out(moves, reply, opponent, seed, cold)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("moves", help="the game so far, cells joined by dots, X first")
    parser.add_argument("--replies", help="cells joined by commas (default: the moves Hard's search weighs)")
    parser.add_argument("--opponent", default="threatspace", choices=strength.OPPONENTS)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seed", type=int, default=88_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cold", action="store_true", help="don't show the opponent the game so far first")
    args = parser.parse_args()
    moves = [int(cell) for cell in args.moves.split(".")]
    if args.replies:
        replies = [int(cell) for cell in args.replies.split(",")]
    else:
        game = Gomoku.for_board(replay(tuple(moves), SPEC.key).board)
        found = hard.search(game, dataclasses.replace(hard.DEFAULT_BUDGET, seconds=3.0))
        replies = sorted(found.scores, key=lambda move: -found.scores[move])[:8] or list(found.best)
    tasks = [
        (moves, reply, args.opponent, args.seed + game, args.cold) for reply in replies for game in range(args.games)
    ]
    results: dict[int, Counter] = {reply: Counter() for reply in replies}
    with ProcessPoolExecutor(args.jobs) as pool:
        for reply, result in pool.map(_task, tasks):
            results[reply][result] += 1
    for reply in replies:
        counts = results[reply]
        print(f"{reply}: lost {counts['lost']} of {args.games} (won {counts['won']}, drawn {counts['drawn']})")


if __name__ == "__main__":
    main()
