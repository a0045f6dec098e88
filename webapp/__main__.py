"""``python -m webapp``: the numbers, the tournament and one-off analysis, on the command line."""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import asdict

from webapp import solver
from webapp.learn import numbers, tournament


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run one command; the exit status is 0 on success."""
    parser = argparse.ArgumentParser(prog="python -m webapp", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    p = commands.add_parser("stats", help="games, positions and the cost of each search variant")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--board", default="3x3", help="3x3, or a board counted ahead of time: 4x4")
    p.add_argument("--write", action="store_true", help="count the board again and write its data file")

    p = commands.add_parser("tournament", help="every level against every level")
    p.add_argument("--games", type=int, default=100, help="games per pairing")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--json", action="store_true", help="print one JSON object")

    p = commands.add_parser("analyze", help="the value of every move in a position")
    p.add_argument("board", help="9 characters X, O and . in row-major order")

    p = commands.add_parser("move", help="the move a level plays in a position")
    p.add_argument("board", help="9 characters X, O and . in row-major order")
    p.add_argument("--level", default="minimax", choices=solver.LEVELS)

    args = parser.parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


def run_stats(args) -> int:
    if args.board != "3x3":
        return run_board_stats(args)
    figures = numbers.numbers()
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print("Tic-tac-toe's game tree")
    for key in (
        "games",
        "x_wins",
        "o_wins",
        "draws",
        "positions",
        "positions_up_to_symmetry",
        "terminal_positions",
    ):
        print(f"  {key.replace('_', ' '):<26}{figures[key]:>10,}")
    print("\nFinding a best move from the empty board")
    print(f"  {'search':<34}{'nodes':>10}{'ms':>10}  move")
    for cost in figures["searches"]:
        print(f"  {cost['name']:<34}{cost['nodes']:>10,}{cost['seconds'] * 1000:>10.1f}  {cost['move']}")
    return 0


def run_board_stats(args) -> int:
    """The figures of a bigger board, from its data file; with --write, counted again first (minutes)."""
    board = next((b for b in numbers.COUNTED_BOARDS if b.key == args.board), None)
    if board is None:
        counted = ", ".join(["3x3", *(b.key for b in numbers.COUNTED_BOARDS)])
        raise ValueError(f"There are figures for {counted}, not {args.board!r}.")
    if args.write:
        print(f"wrote {numbers.write_counts(board)}", file=sys.stderr)
        numbers.counted.cache_clear()
    figures = numbers.counted(board.key)
    if figures is None:
        raise ValueError(f"{numbers.census_file(board.key)} is missing; count it with --write.")
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    totals = figures["totals"]
    print(
        f"{board.name}, {board.k} in a row: the game tree (counted {figures['counted']}, "
        f"{figures['census_cpu_seconds']} s of CPU)"
    )
    for key in (
        "positions",
        "positions_up_to_symmetry",
        "terminal_positions",
        "terminal_up_to_symmetry",
        "won_x_positions",
        "won_o_positions",
        "drawn_positions",
        "games",
        "won_x_games",
        "won_o_games",
        "drawn_games",
        "tree_nodes",
    ):
        print(f"  {key.replace('_', ' '):<26}{totals[key]:>20,}")
    print("\nFinding a best move from the empty board")
    print(f"  {'search':<34}{'nodes':>20}{'s (CPU)':>10}")
    for cost in figures["searches"]:
        nodes = f"{cost['nodes']:,}" if cost["complete"] else f"over {figures['node_cap']:,}"
        seconds = "counted" if cost["seconds"] is None else f"{cost['seconds']:.1f}"
        print(f"  {cost['name']:<34}{nodes:>20}{seconds:>10}")
    return 0


def run_tournament(args) -> int:
    pairings = tournament.tournament(args.games, random.Random(args.seed))
    table = tournament.standings(pairings)
    if args.json:
        print(
            json.dumps(
                {
                    "games_per_pairing": args.games,
                    "pairings": [asdict(p) for p in pairings],
                    "standings": [asdict(s) for s in table],
                },
                indent=2,
            )
        )
        return 0
    print(f"{args.games} games per pairing")
    print(f"  {'X':<10}{'O':<10}{'X wins':>8}{'O wins':>8}{'draws':>8}")
    for p in pairings:
        print(f"  {p.x_level:<10}{p.o_level:<10}{p.x_wins:>8}{p.o_wins:>8}{p.draws:>8}")
    print("\nBy level, as X and as O together")
    print(f"  {'level':<10}{'wins':>8}{'draws':>8}{'losses':>8}")
    for s in table:
        print(f"  {s.level:<10}{s.wins:>8}{s.draws:>8}{s.losses:>8}")
    return 0


def run_analyze(args) -> int:
    for cell, (result, plies) in solver.analyze(args.board).items():
        print(f"  cell {cell}: {result}" + ("" if result == "draw" else f" in {plies}"))
    return 0


def run_move(args) -> int:
    print(solver.choose_move(args.board, args.level))
    return 0


COMMANDS = {
    "stats": run_stats,
    "tournament": run_tournament,
    "analyze": run_analyze,
    "move": run_move,
}


if __name__ == "__main__":
    raise SystemExit(main())
