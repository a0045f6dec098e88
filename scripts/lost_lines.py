"""Where do Hard's lost games part from its won ones? Each lost line, read against every game in a match log.

How the book's later entries were found (docs/engine.md, *Coin flips*): a match's games are read as a tree of
positions. Along each lost game, every position where Hard was to move is listed with the games that reached
it, Hard's moves there and how those games ended. Hard as X counts nodes, so where it chose two different
moves in one position its search tied them (the game's random generator picked one): those positions,
marked ``tie``, are the first to play out (``scripts/play_out.py``). A line lost more than once is a line the
opponent will find again. As O the clock also varies Hard's choice, so a split there need not be a tie.

The log is the match's own stderr, one game a line:

    python -m tools.strength --board 15x15 --opponent threatspace --games 20 --seed 2100 2> games.log
    python scripts/lost_lines.py games.log [more.log ...] [--side X] [--board 15x15] [--opponent ThreatSpace]
"""

from __future__ import annotations

import argparse
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

# "15x15 Hard as X vs ThreatSpace (gomoku 0.1.0), game 7 (seed 2102006): O won in 52 moves; ...: 112.96.82..."
# as tools.strength.match prints it
GAME = re.compile(
    r"^\s*(?P<board>\d+x\d+) .* as (?P<side>[XO]) vs (?P<opponent>.+), game \d+ \(seed (?P<seed>\d+)\): "
    r"(?P<result>X won|O won|draw) in \d+ moves.*: (?P<moves>[\d.]+)$"
)


@dataclass(frozen=True)
class Game:
    """One game of the log: its board and opponent, Hard's side, its seed, how it ended for Hard and its moves."""

    board: str
    opponent: str
    side: str
    seed: int
    result: str  # "won", "lost" or "drawn", for Hard
    moves: tuple[int, ...]


def read(paths: list[Path]) -> list[Game]:
    """The games in the logs at ``paths``, the first of each seed in each match (a rerun is the same game for X)."""
    games: dict[tuple[str, str, str, int], Game] = {}
    for path in paths:
        for line in path.read_text().splitlines():
            found = GAME.search(line)
            if found is None:
                continue
            side, result = found["side"], found["result"]
            outcome = "drawn" if result == "draw" else "won" if result.startswith(side) else "lost"
            moves = tuple(int(cell) for cell in found["moves"].split("."))
            game = Game(found["board"], found["opponent"], side, int(found["seed"]), outcome, moves)
            games.setdefault((game.board, game.opponent, side, game.seed), game)
    return list(games.values())


def turns(side: str, moves: tuple[int, ...]) -> range:
    """The plies of ``moves`` (0 the first) that ``side`` played."""
    return range(0 if side == "X" else 1, len(moves), 2)


def choices(games: list[Game], side: str) -> dict[tuple[int, ...], dict[int, Counter]]:
    """Each position where ``side`` was to move (the moves before it): its move in each game, and how they ended."""
    tree: dict[tuple[int, ...], dict[int, Counter]] = defaultdict(lambda: defaultdict(Counter))
    for game in games:
        for ply in turns(side, game.moves):
            tree[game.moves[:ply]][game.moves[ply]][game.result] += 1
    return tree


def describe(counts: Counter) -> str:
    """'lost 2 of 5' for a move's games."""
    return f"lost {counts['lost']} of {sum(counts.values())}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="+", type=Path, help="the match's stderr, one or more runs")
    parser.add_argument("--side", choices=["X", "O"], default="X", help="Hard's side to read")
    parser.add_argument("--board", default="15x15", help="the board of the games to read")
    parser.add_argument("--opponent", default="ThreatSpace", help="the games against opponents whose name has this")
    args = parser.parse_args()
    games = [
        game
        for game in read(args.logs)
        if game.side == args.side and game.board == args.board and args.opponent in game.opponent
    ]
    tree = choices(games, args.side)
    lost = [game for game in games if game.result == "lost"]
    print(f"{len(games)} games as {args.side} on {args.board} against {args.opponent}, {len(lost)} lost")
    # The same line lost on several seeds is printed once, under its first seed.
    seen: dict[tuple[int, ...], list[int]] = defaultdict(list)
    for game in lost:
        seen[game.moves].append(game.seed)
    for moves, seeds in seen.items():
        print(f"\nlost on seed {', '.join(map(str, seeds))} in {len(moves)} plies: {'.'.join(map(str, moves))}")
        for ply in turns(args.side, moves):
            here = tree[moves[:ply]]
            if sum(sum(c.values()) for c in here.values()) < 2:
                print(f"  ply {ply}: no other game came this way")
                break
            split = "  tie" if len(here) > 1 else ""
            taken = "; ".join(
                f"{move}: {describe(counts)}"
                for move, counts in sorted(here.items(), key=lambda kv: -sum(kv[1].values()))
            )
            print(f"  ply {ply}: {taken}{split}")


if __name__ == "__main__":
    main()
