"""The wins Hard missed in the strength suite's games: positions where it had a forced win and played on past it.

Every position of a ``make strength`` games file (``artifacts/strength/games.jsonl``) in which Hard was to move
on 15×15 is given to Rapfi (``RAPFI``): first at ``--screen`` nodes, then, where Rapfi sees a win for the side
to move, again at ``--nodes`` (a million by default) to confirm it, and once more after Hard's move. A win Rapfi
confirms before the move and no longer sees after it is a missed win. They are printed as JSON lines, the test
data of ``tests/engine/big/test_missed_wins.py``.

    RAPFI=artifacts/rapfi/pbrain-rapfi python -m tools.missed_wins artifacts/strength/games.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tools.rapfi import Rapfi
from webapp.engine.rules import parse

N = 15


def boards(game: dict):
    """Each position of ``game`` with Hard to move (after the opening's stones), with the move Hard played there."""
    cells = ["."] * (N * N)
    for ply, move in enumerate(game["moves"]):
        mover = "XO"[ply % 2]
        if ply >= 3 and mover == game["hard"]:
            yield "".join(cells), mover, move, ply
        cells[move] = mover


def missed(games: list[dict], screen: int, nodes: int) -> list[dict]:
    """The positions where Hard's win, confirmed at ``nodes``, is gone after its move."""
    found = []
    with Rapfi(nodes=screen) as quick, Rapfi(nodes=nodes, memory_mb=256) as deep:
        for game in games:
            if game["board"] != "15x15":
                continue
            for board, mover, move, ply in boards(game):
                if parse(board, N, 5).play(move).winner == mover or (quick.analyse(board).mate or 0) <= 0:
                    continue
                before = deep.analyse(board)
                if (before.mate or 0) <= 0:
                    continue
                after = board[:move] + mover + board[move + 1 :]
                if (deep.analyse(after).mate or 0) < 0:
                    continue  # the opponent, to move, is still lost: Hard's move kept the win
                found.append(
                    {
                        "board": board,
                        "side": mover,
                        "rapfi_plies": before.mate,
                        "rapfi_move": before.move,
                        "hard_move": move,
                        "opponent": game["opponent"],
                        "opening": game["opening"],
                        "half": game["half"],
                        "ply": ply,
                    }
                )
                print(json.dumps(found[-1]), flush=True)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.missed_wins", description=__doc__.split("\n\n")[0])
    parser.add_argument("games", type=Path, help="a games file written by python -m tools.strength")
    parser.add_argument("--screen", type=int, default=100_000, help="Rapfi's nodes for the first look")
    parser.add_argument("--nodes", type=int, default=1_000_000, help="Rapfi's nodes to confirm a win")
    args = parser.parse_args(argv)
    games = [json.loads(line) for line in args.games.read_text().splitlines()]
    found = missed(games, args.screen, args.nodes)
    print(f"{len(found)} missed wins in {len(games)} games", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
