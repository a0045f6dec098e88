"""How strong the top level is on the big boards, measured against engines and players it did not write itself:
the ``gomoku`` 0.1.0 package's ThreatSpace player, our own threat attacker, OpenSpiel's MCTS, and this game's
Medium and Easy (``tools/opponents.py``; the outside engines come with the optional ``strength`` extra).

``make strength`` plays the matches. The results are written as data (``webapp/learn/data/strength.json``) for the
tournament page, and as a table into ``docs/benchmarks.md`` (between its ``strength-table`` markers).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from datetime import date
from pathlib import Path

from tools import opponents
from webapp.engine import big, hard, levels
from webapp.engine.boards import BY_KEY, Board
from webapp.engine.rules import O, X, parse
from webapp.learn.tournament import Measured

DATA = Path(__file__).resolve().parent.parent / "webapp" / "learn" / "data" / "strength.json"
DOC = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"
BEGIN, END = "<!-- strength-table: begin (written by python -m tools.strength) -->", "<!-- strength-table: end -->"
NAMES = {"random": "Easy", "one-ply": "Medium", "minimax": "Hard"}
# 4×4 and 5×5 are measured too: there the top level is Impossible, the exact search.
SOLVED_CELLS = {b.cells for b in BY_KEY.values() if b.is_solved()}
OPPONENTS = ("threatspace", "attacker", "mcts", "one-ply", "random")

Player = opponents.Player
# An opponent for one game, made from that game's seed: (its name, the player).
Opponent = tuple[str, Callable[[int], Player]]


def level_player(level: str, budget: hard.Budget | None = None) -> Player:
    """A level of this game, with the Hard search's budget given (or its default) on the big boards."""

    def play(board: str, rng: random.Random) -> int:
        if len(board) in SOLVED_CELLS:
            return levels.choose_move(board, level, rng)
        return rng.choice(big.candidates(board, level, budget))

    return play


def play_game(
    spec: Board,
    x: Player,
    o: Player,
    rng: random.Random,
    log: list[int] | None = None,
    opening: tuple[int, ...] = (),
) -> str | None:
    """One game on ``spec``, on from ``opening``'s moves: the winner's mark, or None for a draw.

    Each move is judged by our own rules; ``log`` gets the moves played after the opening.
    """
    pos = parse(spec.empty, spec.n, spec.k)
    for move in opening:
        pos = pos.play(move)
    while not pos.is_over():
        player = x if pos.to_move == X else o
        move = player(pos.board, rng)
        pos = pos.play(move)
        if log is not None:
            log.append(move)
    return pos.winner


def match(spec: Board, player: tuple[str, Player], opponent: Opponent, side: str, games: int, seed: int) -> Measured:
    """``games`` games with ``player`` as ``side`` against ``opponent``, each game with its own seed; each game's
    moves go to stderr, so that a lost one can be replayed."""
    wins = draws = losses = 0
    for game in range(games):
        game_seed = seed * 1000 + (0 if side == X else 500) + game
        them = opponent[1](game_seed)
        costs: list[float] = []
        timed = timed_player(player[1], costs)
        x, o = (timed, them) if side == X else (them, timed)
        moves: list[int] = []
        winner = play_game(spec, x, o, random.Random(game_seed), moves)
        result = "draw" if winner is None else f"{winner} won"
        print(
            f"  {spec.key} {player[0]} as {side} vs {opponent[0]}, game {game + 1} (seed {game_seed}): {result} "
            f"in {len(moves)} moves; {player[0]}'s CPU per move: median {statistics.median(costs) * 1000:.0f} ms, "
            f"most {max(costs) * 1000:.0f} ms: {'.'.join(map(str, moves))}",
            file=sys.stderr,
            flush=True,
        )
        if winner is None:
            draws += 1
        elif winner == side:
            wins += 1
        else:
            losses += 1
    return Measured(player[0], opponent[0], side, games, wins, draws, losses)


def timed_player(player: Player, costs: list[float]) -> Player:
    """``player``, with the CPU time of each of its moves appended to ``costs``."""

    def play(board: str, rng: random.Random) -> int:
        started = time.process_time()
        move = player(board, rng)
        costs.append(time.process_time() - started)
        return move

    return play


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


def table(data: dict, boards: tuple[str, ...] = ("7x7", "15x15")) -> str:
    """The measured rows of the big boards as a Markdown table, from the top level's side.

    >>> print(table({"measured": "2026-01-02", "boards": {"7x7": [{"player": "Hard", "opponent": "Easy",
    ...     "player_as": "O", "games": 4, "wins": 3, "draws": 1, "losses": 0}]}}))
    | board | opponent | Hard as | games | won | drawn | lost | lost % |
    |---|---|---|---:|---:|---:|---:|---:|
    | 7×7 | Easy | O | 4 | 3 | 1 | 0 | 0 % |
    """
    lines = [
        "| board | opponent | Hard as | games | won | drawn | lost | lost % |",
        "|---|---|---|---:|---:|---:|---:|---:|",
    ]
    for key in boards:
        for row in data.get("boards", {}).get(key, []):
            lost = 100 * row["losses"] / row["games"]
            lines.append(
                f"| {BY_KEY[key].name} | {row['opponent']} | {row['player_as']} | {row['games']} | {row['wins']} "
                f"| {row['draws']} | {row['losses']} | {lost:.0f} % |"
            )
    return "\n".join(lines)


def with_table(doc: str, data: dict) -> str:
    """``doc`` with the text between its strength-table markers replaced by the table of ``data``; unchanged
    if it has no markers."""
    start, end = doc.find(BEGIN), doc.find(END)
    if start < 0 or end < start:
        return doc
    measured = f"Last written {data.get('measured', 'never')}."
    return doc[: start + len(BEGIN)] + "\n" + measured + "\n\n" + table(data) + "\n" + doc[end:]


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold a lock beside ``path`` while it is read and written, so that matches run side by side don't lose rows."""
    lock = Path(tempfile.gettempdir()) / f"strength-{hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:12]}.lock"
    with open(lock, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def record(out: Path, doc: Path | None, board: str, records: list[Measured], measured: date) -> dict:
    """Merge ``records`` into the data file ``out``, and write the table into ``doc`` (if it exists)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with locked(out):
        data = merged(load(out), board, records, measured)
        out.write_text(json.dumps(data, indent=2) + "\n")
        if doc is not None and doc.exists():
            doc.write_text(with_table(doc.read_text(), data))
    return data


def opponent_for(name: str, spec: Board, simulations: int, engine: str) -> Opponent:
    """The opponent called ``name`` on ``spec``: its name in the tables, and how to make it for one game."""
    if name == "threatspace":
        return "ThreatSpace (gomoku 0.1.0)", opponents.threatspace
    if name == "attacker":
        return "Threat attacker (VCF + VCT, else greedy)", lambda seed: opponents.attacker()
    if name == "mcts":
        return f"MCTS, {simulations:,} simulations", lambda seed: opponents.mcts(spec, simulations, seed, engine)
    return NAMES[name], lambda seed: level_player(name)


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, play the matches and write the data; the exit status is 1 if Hard lost a game."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m tools.strength", description=__doc__)
    parser.add_argument("--board", default="7x7", choices=[k for k in BY_KEY if k != "3x3"])
    parser.add_argument("--opponent", default="mcts", choices=OPPONENTS)
    parser.add_argument("--games", type=int, default=10, help="games per side")
    parser.add_argument("--simulations", type=int, default=10_000, help="MCTS simulations per move")
    parser.add_argument(
        "--mcts", choices=["cpp", "python"], default="cpp", help="OpenSpiel's C++ bot or its Python one"
    )
    parser.add_argument("--side", choices=[X, O], default=None, help="only this side for Hard (default both)")
    parser.add_argument("--seconds", type=float, default=None, help="Hard's CPU seconds per move")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=DATA)
    parser.add_argument("--doc", type=Path, default=DOC, help="where the table is written (between its markers)")
    args = parser.parse_args(argv)

    spec = BY_KEY[args.board]
    budget = None if args.seconds is None else hard.Budget(seconds=args.seconds, start_fraction=0.25)
    top = "Impossible" if spec.is_solved() else NAMES["minimax"]
    hard_player = (top, level_player("minimax", budget))
    opponent = opponent_for(args.opponent, spec, args.simulations, args.mcts)
    records = []
    for side in [args.side] if args.side else [X, O]:
        result = match(spec, hard_player, opponent, side, args.games, args.seed)
        print(
            f"{spec.name}: {result.player} as {side} against {result.opponent}, {result.games} games: "
            f"{result.wins} won, {result.draws} drawn, {result.losses} lost",
            flush=True,
        )
        records.append(result)
    record(args.out, args.doc, args.board, records, date.today())
    return 1 if any(r.losses for r in records) else 0


if __name__ == "__main__":
    raise SystemExit(main())
