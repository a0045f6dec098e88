"""How strong the levels are on the big boards, measured against each other and against an engine nobody
here wrote: OpenSpiel's MCTS bot on its ``mnk`` game (the optional ``strength`` extra; ``make strength``).

The results are written as data (``webapp/data/strength.json``) for the tournament page and the docs.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from dataclasses import asdict
from datetime import date
from pathlib import Path

from webapp.engine import big, hard, levels
from webapp.engine.boards import BY_KEY, Board
from webapp.engine.rules import O, X, parse
from webapp.tournament import Measured

DATA = Path(__file__).parent / "data" / "strength.json"
NAMES = {"random": "Easy", "one-ply": "Medium", "minimax": "Hard"}
# 4×4 and 5×5 are measured too: there the top level is Impossible, the exact search.
SOLVED_CELLS = {b.cells for b in BY_KEY.values() if b.is_solved()}

# A player is given the board text and a generator, and names its move.
Player = Callable[[str, random.Random], int]


def level_player(level: str, budget: hard.Budget | None = None) -> Player:
    """A level of this game, with the Hard search's budget given (or its default) on the big boards."""

    def play(board: str, rng: random.Random) -> int:
        if len(board) in SOLVED_CELLS:
            return levels.choose_move(board, level, rng)
        return rng.choice(big.candidates(board, level, budget))

    return play


def mcts_player(spec: Board, simulations: int, seed: int) -> Player:
    """OpenSpiel's MCTS bot with random rollouts, on its own ``mnk`` game."""
    import numpy as np  # the strength extra only
    import pyspiel
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("mnk", {"m": spec.n, "n": spec.n, "k": spec.k})
    state_rng = np.random.RandomState(seed)
    bot = mcts.MCTSBot(
        game,
        uct_c=2,
        max_simulations=simulations,
        evaluator=mcts.RandomRolloutEvaluator(1, state_rng),
        random_state=state_rng,
        solve=True,
    )

    def play(board: str, rng: random.Random) -> int:
        # Stones replayed alternately give the same position, whatever the real order of the game was.
        state = game.new_initial_state()
        xs = [i for i, c in enumerate(board) if c == X]
        os_ = [i for i, c in enumerate(board) if c == O]
        for i in range(len(xs) + len(os_)):
            state.apply_action(xs[i // 2] if i % 2 == 0 else os_[i // 2])
        return int(bot.step(state))

    return play


def play_game(spec: Board, x: Player, o: Player, rng: random.Random) -> str | None:
    """One game on ``spec``; the winner's mark, or None for a draw."""
    pos = parse(spec.empty, spec.n, spec.k)
    while not pos.is_over():
        player = x if pos.to_move == X else o
        pos = pos.play(player(pos.board, rng))
    return pos.winner


def match(
    spec: Board, player: tuple[str, Player], opponent: tuple[str, Player], side: str, games: int, rng: random.Random
) -> Measured:
    """``games`` games with ``player`` as ``side`` against ``opponent``."""
    wins = draws = losses = 0
    for _ in range(games):
        x, o = (player[1], opponent[1]) if side == X else (opponent[1], player[1])
        winner = play_game(spec, x, o, rng)
        print(f"  {player[0]} as {side}: {'draw' if winner is None else winner + ' won'}", file=sys.stderr, flush=True)
        if winner is None:
            draws += 1
        elif winner == side:
            wins += 1
        else:
            losses += 1
    return Measured(player[0], opponent[0], side, games, wins, draws, losses)


def merged(existing: dict, board: str, records: list[Measured], measured: date) -> dict:
    """The strength data with ``records`` replacing any earlier ones of the same pairing and side."""
    boards = {key: list(rows) for key, rows in existing.get("boards", {}).items()}
    rows = boards.setdefault(board, [])
    for record in records:
        row = asdict(record)
        same = [
            i
            for i, r in enumerate(rows)
            if (r["player"], r["opponent"], r["player_as"]) == (row["player"], row["opponent"], row["player_as"])
        ]
        if same:
            rows[same[0]] = row
        else:
            rows.append(row)
    return {"measured": measured.isoformat(), "boards": boards}


def load(path: Path = DATA) -> dict:
    """The strength data written so far, or none."""
    return json.loads(path.read_text()) if path.exists() else {"boards": {}}


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, play the matches and write the data; the exit status is 1 if Hard lost a game."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m webapp.strength", description=__doc__)
    parser.add_argument("--board", default="7x7", choices=[k for k in BY_KEY if k != "3x3"])
    parser.add_argument("--opponent", default="mcts", choices=["mcts", "one-ply", "random"])
    parser.add_argument("--games", type=int, default=10, help="games per side")
    parser.add_argument("--simulations", type=int, default=1000, help="MCTS simulations per move")
    parser.add_argument("--side", choices=[X, O], default=None, help="only this side for Hard (default both)")
    parser.add_argument("--seconds", type=float, default=None, help="Hard's CPU seconds per move")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=DATA)
    args = parser.parse_args(argv)

    spec = BY_KEY[args.board]
    budget = None if args.seconds is None else hard.Budget(seconds=args.seconds, start_fraction=0.25)
    top = "Impossible" if spec.is_solved() else NAMES["minimax"]
    hard_player = (top, level_player("minimax", budget))
    if args.opponent == "mcts":
        opponent = (f"MCTS, {args.simulations:,} simulations", mcts_player(spec, args.simulations, args.seed))
    else:
        opponent = (NAMES[args.opponent], level_player(args.opponent))
    rng = random.Random(args.seed)
    records = []
    for side in [args.side] if args.side else [X, O]:
        record = match(spec, hard_player, opponent, side, args.games, rng)
        print(
            f"{spec.name}: {record.player} as {side} against {record.opponent}, {record.games} games: "
            f"{record.wins} won, {record.draws} drawn, {record.losses} lost",
            flush=True,
        )
        records.append(record)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(merged(load(args.out), args.board, records, date.today()), indent=2) + "\n")
    return 1 if any(r.losses for r in records) else 0


if __name__ == "__main__":
    raise SystemExit(main())
