"""``python -m webapp.solver``: the numbers, the benchmark, the tournament and one-off analysis."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from dataclasses import asdict

from webapp import bench, solver, stats, tournament
from webapp.engine.boards import BY_KEY

# The goals the benchmark is held to; see docs/benchmarks.md.
GOALS = {"median_us": 50, "first_call_ms": 20, "x_win_rate": 0.985, "o_win_rate": 0.906}
# The top level's move on the bigger boards, in CPU milliseconds (issue 11, section 3).
MOVE_GOALS = {"median_ms": 250, "worst_ms": 1000, "peak_mb": 200}


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run one command; the exit status is 0 on success."""
    parser = argparse.ArgumentParser(prog="python -m webapp.solver", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    p = commands.add_parser("stats", help="games, positions and the cost of each search variant")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--board", default="3x3", help="3x3, or a board counted ahead of time: 4x4")
    p.add_argument("--write", action="store_true", help="count the board again and write its data file")

    p = commands.add_parser("bench", help="time minimax and play it against random moves")
    p.add_argument("--board", default="3x3", choices=list(BY_KEY), help="the board to time (default 3x3)")
    p.add_argument(
        "--games",
        type=int,
        default=None,
        help="games: against random per side on 3x3 (10,000), against Easy and Medium on 4x4/5x5 (20)",
    )
    p.add_argument(
        "--positions", type=int, default=200, help="positions timed on 7x7 and 15x15; random positions on 4x4 and 5x5"
    )
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--json", action="store_true", help="print one JSON object")

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
    numbers = stats.numbers()
    if args.json:
        print(json.dumps(numbers, indent=2))
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
        print(f"  {key.replace('_', ' '):<26}{numbers[key]:>10,}")
    print("\nFinding a best move from the empty board")
    print(f"  {'search':<34}{'nodes':>10}{'ms':>10}  move")
    for cost in numbers["searches"]:
        print(f"  {cost['name']:<34}{cost['nodes']:>10,}{cost['seconds'] * 1000:>10.1f}  {cost['move']}")
    return 0


def run_board_stats(args) -> int:
    """The figures of a bigger board, from its data file; with --write, counted again first (minutes)."""
    board = next((b for b in stats.COUNTED_BOARDS if b.key == args.board), None)
    if board is None:
        counted = ", ".join(["3x3", *(b.key for b in stats.COUNTED_BOARDS)])
        raise ValueError(f"There are figures for {counted}, not {args.board!r}.")
    if args.write:
        print(f"wrote {stats.write_counts(board)}", file=sys.stderr)
        stats.counted.cache_clear()
    figures = stats.counted(board.key)
    if figures is None:
        raise ValueError(f"{stats.census_file(board.key)} is missing; count it with --write.")
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


def run_bench(args) -> int:
    if args.board in BOARD_BENCHES:
        return BOARD_BENCHES[args.board](args)
    if args.board != "3x3":
        return run_board_bench(args)
    args.games = 10_000 if args.games is None else args.games
    rng = random.Random(args.seed)
    timing = bench.time_warm_calls(rng)
    first = bench.time_first_call()
    first_ms = statistics.median(first) * 1000
    records = [bench.versus_random(side, args.games, rng) for side in ("X", "O")]
    met = {
        "median_us": timing.median_us < GOALS["median_us"],
        # The machine's own speed wanders by up to 2x from run to run, so the goal is on the median.
        "first_call_ms": first_ms <= GOALS["first_call_ms"],
        "x_win_rate": records[0].win_rate >= GOALS["x_win_rate"] and records[0].losses == 0,
        "o_win_rate": records[1].win_rate >= GOALS["o_win_rate"] and records[1].losses == 0,
    }
    if args.json:
        report = {
            "warm": asdict(timing),
            "first_call_ms": [round(s * 1000, 1) for s in first],
            "versus_random": [asdict(r) | {"win_rate": r.win_rate} for r in records],
            "goals": GOALS,
            "met": met,
        }
        print(json.dumps(report, indent=2))
    else:
        print(f"minimax choose_move over {timing.calls:,} unfinished positions, warm:")
        print(f"  median {timing.median_us:.1f} µs, p99 {timing.p99_us:.1f} µs, max {timing.max_us:.1f} µs")
        print(f"  goal: median under {GOALS['median_us']} µs ... {verdict(met['median_us'])}")
        runs = ", ".join(f"{s * 1000:.0f}" for s in first)
        print(f"first call in a fresh process, {len(first)} runs: {runs} ms (median {first_ms:.0f} ms)")
        print(f"  goal: median at most {GOALS['first_call_ms']} ms ... {verdict(met['first_call_ms'])}")
        for record, goal in zip(records, (GOALS["x_win_rate"], GOALS["o_win_rate"]), strict=True):
            print(
                f"minimax as {record.side} against random, {record.games:,} games: "
                f"{record.wins:,} won ({record.win_rate:.2%}), {record.draws:,} drawn, {record.losses:,} lost"
            )
            ok = met[record.side.lower() + "_win_rate"]
            print(f"  goal: no losses and at least {goal:.1%} won ... {verdict(ok)}")
    return 0 if all(met.values()) else 1


# Impossible on 4×4 and 5×5 (issue 19): every kind of request at most half a second of CPU, from any position;
# the 5×5 book loaded in under 0.1 s; enough positions for the worst to mean something.
BOARD_GOALS = {"worst_s": 0.5, "book_load_s": 0.1, "positions": 200}


def run_exact_bench(args) -> int:
    """4×4 and 5×5: a move, an analysis, an outlook and a hint, from cold, in and out of the book."""
    games = 20 if args.games is None else args.games
    t = bench.time_exact_requests(args.board, random.Random(args.seed), randoms=args.positions, games=games)
    kinds = {"a move": t.move, "an analysis": t.analysis, "an outlook": t.outlook, "a hint": t.hint}
    met = {
        "worst_s": all(c.worst_s <= BOARD_GOALS["worst_s"] for c in kinds.values()),
        "positions": t.positions >= BOARD_GOALS["positions"],
    }
    if t.book_load_s is not None:
        met["book_load_s"] = t.book_load_s <= BOARD_GOALS["book_load_s"]
    if args.json:
        print(json.dumps({"timing": asdict(t), "goals": BOARD_GOALS, "met": met}, indent=2))
        return 0 if all(met.values()) else 1
    print(f"{args.board}, Impossible (CPU time, each request from cold)")
    if t.book_load_s is not None:
        print(
            f"  the book: {t.book_positions:,} positions, {t.book_bytes:,} bytes, loaded in"
            f" {t.book_load_s * 1000:.1f} ms ... {verdict(met['book_load_s'])}"
        )
    in_book = f"; every move's value in the book for {t.in_book}" if t.book_load_s is not None else ""
    print(
        f"  {t.positions} positions: {t.random_positions} random with 2 to 12 marks, {t.game_positions} from"
        f" {games} games against Easy and Medium, {t.examples} examples{in_book}"
    )
    for name, c in kinds.items():
        worst = f"worst {c.worst_s * 1000:4.0f} ms (at {c.worst_board})"
        print(f"  {name + ':':<13} median {c.median_s * 1000:6.1f} ms, {worst}")
    print(
        f"  moves proved best: {t.exact_moves} of {t.positions}; the budget's fallback: {t.fallbacks}"
        f" ({t.fallbacks_not_losing} proved not to lose)"
    )
    share = t.exact_values / t.values if t.values else 1.0
    print(
        f"  move values proved: {t.exact_values:,} of {t.values:,} ({share:.1%}); analyses complete:"
        f" {t.complete_analyses} of {t.positions}; outlooks proved: {t.proved_outlooks} of {t.positions}"
    )
    print(
        f"  goal: every kind of request at most {BOARD_GOALS['worst_s'] * 1000:.0f} ms, over at least"
        f" {BOARD_GOALS['positions']} positions ... {verdict(met['worst_s'] and met['positions'])}"
    )
    return 0 if all(met.values()) else 1


BOARD_BENCHES = {"4x4": run_exact_bench, "5x5": run_exact_bench}


def run_board_bench(args) -> int:
    spec = BY_KEY[args.board]
    boards = bench.game_positions(spec, args.positions, random.Random(args.seed))
    timing = bench.time_top_level(spec, boards)
    met = {
        "median_ms": timing.median_ms <= MOVE_GOALS["median_ms"],
        "worst_ms": timing.worst_ms <= MOVE_GOALS["worst_ms"],
    }
    if timing.peak_mb is not None:
        met["peak_mb"] = timing.peak_mb <= MOVE_GOALS["peak_mb"]
    if args.json:
        print(json.dumps({"move": asdict(timing), "goals": MOVE_GOALS, "met": met}, indent=2))
        return 0 if all(met.values()) else 1
    print(f"{spec.name}: the top level's move over {timing.calls} positions from games, CPU time from cold:")
    print(f"  median {timing.median_ms:.0f} ms, worst {timing.worst_ms:.0f} ms")
    print(f"  goal: median at most {MOVE_GOALS['median_ms']} ms ... {verdict(met['median_ms'])}")
    print(f"  goal: worst at most {MOVE_GOALS['worst_ms']} ms ... {verdict(met['worst_ms'])}")
    if timing.nodes_per_second is not None:
        rate, depth = f"{timing.nodes_per_second:,.0f}", f"median {timing.median_depth:g}, least {timing.least_depth}"
        print(f"  {rate} nodes per CPU second; depth {depth}")
    if timing.peak_mb is not None:
        print(f"  peak memory of the process: {timing.peak_mb:.0f} MB")
        print(f"  goal: at most {MOVE_GOALS['peak_mb']} MB ... {verdict(met['peak_mb'])}")
    return 0 if all(met.values()) else 1


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


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
    "bench": run_bench,
    "tournament": run_tournament,
    "analyze": run_analyze,
    "move": run_move,
}
