"""How strong Hard is on the big boards: games from the strength suite against players it did not write itself.

Every opening of the suite (``tools/suite.py``) is played twice against each opponent (``tools/opponents.py``),
once with Hard as X and once as O: the opening's three stones are placed, then the game goes on to its end (a
full board is a draw). Hard plays at its shipped budget; its budget is CPU time, so games played side by side
in worker processes play as they would alone. The report gives both halves of the suite, dev and held-out,
per opponent and colour: won-drawn-lost, points (a draw is half a point) and Hard's CPU a move.

``make strength`` plays everything and writes the results: ``webapp/learn/data/strength.json`` (the tournament
page's data) and the table in ``docs/benchmarks.md`` (between its ``strength-table`` markers). A narrowed run
(``--half``, ``--opponent``, ``--board``, ``--openings``) only prints its table. Every game's moves go to a JSON
lines file, from which ``--resume`` goes on with a run that was cut short.

    python -m tools.strength --half dev --opponent rapfi      # a change to the engine, on the dev half
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import multiprocessing.util
import os
import random
import statistics
import sys
import time
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from tools import opponents, suite
from tools.rapfi import Player as RapfiPlayer
from webapp.engine.boards import BY_KEY
from webapp.engine.rules import O, X, parse

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "webapp" / "learn" / "data" / "strength.json"
DOC = ROOT / "docs" / "benchmarks.md"
GAMES = ROOT / "artifacts" / "strength" / "games.jsonl"
BEGIN, END = "<!-- strength-table: begin (written by python -m tools.strength) -->", "<!-- strength-table: end -->"
BOARDS = ("15x15", "7x7")
# The order of the tables, and the order games are started in: the slowest first, so that two workers end together.
OPPONENTS = ("mcts", "threatspace", "rapfi-timed", "rapfi-strong", "rapfi", "medium", "easy")
RAPFIS = {"rapfi", "rapfi-strong", "rapfi-timed"}
FIFTEEN_ONLY = RAPFIS | {"threatspace"}
# An MCTS move costs it seconds of CPU (about 40 s on 15×15): it plays this many openings of each half on each
# board, not all, so that the run fits in an hour on 2 cores.
MCTS_OPENINGS = 1


@dataclass(frozen=True, slots=True)
class Settings:
    """What the opponents are given a move: Rapfi's nodes (and the strong Rapfi's, and the timed one's
    milliseconds), and MCTS's simulations."""

    nodes: int = 2000
    simulations: int = 10_000
    strong_nodes: int = 10_000
    turn_ms: int = 100

    def name(self, opponent: str) -> str:
        """The opponent's name in the tables and on the page.

        >>> Settings().name("rapfi"), Settings().name("rapfi-timed"), Settings().name("mcts")
        ('Rapfi at 2,000 nodes', 'Rapfi at 100 ms a move', 'MCTS at 10,000 simulations')
        """
        if opponent in RAPFIS:
            nodes, turn_ms = self.rapfi_limit(opponent)
            return f"Rapfi at {turn_ms:,} ms a move" if turn_ms else f"Rapfi at {nodes:,} nodes"
        return {
            "threatspace": "ThreatSpace",
            "mcts": f"MCTS at {self.simulations:,} simulations",
            "medium": "Medium",
            "easy": "Easy",
        }[opponent]

    def rapfi_limit(self, opponent: str) -> tuple[int, int]:
        """The nodes and milliseconds a move one of the Rapfis is given (0 ms: the nodes alone end its search).

        >>> Settings().rapfi_limit("rapfi-strong"), Settings().rapfi_limit("rapfi-timed")
        ((10000, 0), (0, 100))
        """
        return {"rapfi": (self.nodes, 0), "rapfi-strong": (self.strong_nodes, 0), "rapfi-timed": (0, self.turn_ms)}[
            opponent
        ]


@dataclass(frozen=True, slots=True)
class Job:
    """One game to play: the board, the opponent, the opening and Hard's colour."""

    board: str
    opponent: str
    opening: suite.Opening
    hard: str
    seed: int
    player: str = "minimax"  # the level measured: Hard, unless a test measures a cheaper one


def seed_of(base: int, board: str, opponent: str, opening: str, side: str) -> int:
    """A game's own seed: the same game gets the same seed, whatever else the run plays and in what order."""
    return zlib.crc32(f"{base}/{board}/{opponent}/{opening}/{side}".encode())


def jobs(
    boards: Iterable[str],
    names: Iterable[str],
    halves: Iterable[str],
    seed: int = 2026,
    mcts_openings: int = MCTS_OPENINGS,
    openings: int | None = None,
) -> list[Job]:
    """Every game of the run, the slowest opponents' first: each opening once with Hard as X, once as O.

    ``openings``, if given, takes only the first so many of each half (MCTS: ``mcts_openings``, if fewer).
    """
    found = []
    for opponent in sorted(names, key=OPPONENTS.index):
        for board in boards:
            if opponent in FIFTEEN_ONLY and board != "15x15":
                continue
            for half in halves:
                chosen = suite.load(board).half(half)[:openings]
                if opponent == "mcts":
                    chosen = chosen[:mcts_openings]
                for opening in chosen:
                    for side in (X, O):
                        found.append(
                            Job(board, opponent, opening, side, seed_of(seed, board, opponent, opening.id, side))
                        )
    # The 15×15 MCTS games cost most by far: last, so that a run cut short has all the rest, and --resume ends it.
    return sorted(found, key=lambda job: job.opponent == "mcts" and job.board == "15x15")


# --- playing, in a worker process ---------------------------------------------------------------------------

_RAPFI: dict[tuple[int, int], RapfiPlayer] = {}


def hard_player(level: str = "minimax") -> opponents.Player:
    """A level of this game; for Hard, each move searched afresh (the engine remembers recent boards)."""
    from webapp.engine.big import levels as big

    play = opponents.level(level)

    def fresh(board: str, rng: random.Random) -> int:
        forget = getattr(getattr(big, "_hard", None), "cache_clear", None)
        if forget is not None:
            forget()
        return play(board, rng)

    return fresh


def opponent_player(job: Job, settings: Settings) -> opponents.Player:
    """The opponent of ``job``, made for that game (Rapfi's process is kept for the worker's next games)."""
    if job.opponent in RAPFIS:
        limit = settings.rapfi_limit(job.opponent)
        if limit not in _RAPFI:
            _RAPFI[limit] = opponents.rapfi(*limit)
            if multiprocessing.parent_process() is not None:
                multiprocessing.util.Finalize(None, _RAPFI[limit].engine.close, exitpriority=10)
        return _RAPFI[limit]
    if job.opponent == "threatspace":
        return opponents.threatspace(job.seed)
    if job.opponent == "mcts":
        return opponents.mcts(BY_KEY[job.board], settings.simulations, job.seed)
    return opponents.level({"medium": "one-ply", "easy": "random"}[job.opponent])


def close_engines() -> None:
    """End the Rapfi processes this process started."""
    while _RAPFI:
        _RAPFI.popitem()[1].engine.close()


def play(job: Job, settings: Settings = Settings()) -> dict:
    """Play ``job``'s game: its record, with every move (the opening's first) and each side's CPU a move."""
    spec = BY_KEY[job.board]
    pos = parse(spec.empty, spec.n, spec.k)
    moves = list(job.opening.cells)
    for cell in moves:
        pos = pos.play(cell)
    rng = random.Random(job.seed)
    hard, them = hard_player(job.player), opponent_player(job, settings)
    costs: dict[str, list[float]] = {"hard": [], "opponent": []}
    while not pos.is_over():
        who = "hard" if pos.to_move == job.hard else "opponent"
        started = time.process_time()
        move = (hard if who == "hard" else them)(pos.board, rng)
        costs[who].append(round(time.process_time() - started, 4))
        pos = pos.play(move)
        moves.append(move)
    result = "draw" if pos.winner is None else "win" if pos.winner == job.hard else "loss"
    return {
        "board": job.board,
        "opponent": job.opponent,
        "opening": job.opening.id,
        "half": job.opening.half,
        "hard": job.hard,
        "seed": job.seed,
        "result": result,
        "moves": moves,
        "hard_cpu": costs["hard"],
        "opponent_cpu": costs["opponent"],
    }


def _play(args: tuple[Job, Settings]) -> dict:
    return play(*args)


def _key(game: Job | dict) -> tuple:
    """What tells one game of a run from another, for a job or a game's record."""
    if isinstance(game, Job):
        return game.board, game.opponent, game.opening.id, game.hard, game.seed
    return game["board"], game["opponent"], game["opening"], game["hard"], game["seed"]


def run(found: list[Job], settings: Settings, workers: int, log: Path | None, resume: bool = False) -> list[dict]:
    """Play every job, ``workers`` at a time; each game's record is appended to ``log`` as it ends.

    With ``resume``, the games already in ``log`` (the same board, opponent, opening, colour and seed) are kept
    and not played again: a run cut short goes on where it stopped.
    """
    games = []
    if log is not None:
        log.parent.mkdir(parents=True, exist_ok=True)
        if resume and log.exists():
            wanted = {_key(job) for job in found}
            games = [g for g in map(json.loads, log.read_text().splitlines()) if _key(g) in wanted]
        log.write_text("".join(json.dumps(g) + "\n" for g in games))
    done_before = {_key(g) for g in games}
    work = [(job, settings) for job in found if _key(job) not in done_before]
    started = time.monotonic()
    if workers > 1 and len(work) > 1:
        context = multiprocessing.get_context("spawn")
        pool = context.Pool(workers)
        results: Iterable[dict] = pool.imap_unordered(_play, work)
    else:
        pool, results = None, map(_play, work)
    try:
        for done, game in enumerate(results, 1):
            games.append(game)
            if log is not None:
                with log.open("a") as out:
                    out.write(json.dumps(game) + "\n")
            cpu = statistics.mean(game["hard_cpu"]) if game["hard_cpu"] else 0.0
            print(
                f"[{done}/{len(work)} {(time.monotonic() - started) / 60:.0f} min] {game['board']} {game['opponent']} "
                f"{game['opening']}, Hard as {game['hard']}: {game['result']} in {len(game['moves'])} stones, "
                f"Hard {cpu:.2f} s a move",
                file=sys.stderr,
                flush=True,
            )
    finally:
        if pool is not None:
            pool.close()
            pool.join()
        close_engines()
    return games


# --- the results --------------------------------------------------------------------------------------------


def tally(games: list[dict], settings: Settings) -> dict:
    """The results per board, opponent, half and Hard's colour: wins, draws, losses, and Hard's CPU a move."""
    found: dict = {}
    for game in sorted(games, key=lambda g: (BOARDS.index(g["board"]), OPPONENTS.index(g["opponent"]))):
        halves = found.setdefault(game["board"], {}).setdefault(settings.name(game["opponent"]), {})
        side = halves.setdefault(game["half"], {}).setdefault(game["hard"], {"wins": 0, "draws": 0, "losses": 0})
        side[{"win": "wins", "draw": "draws", "loss": "losses"}[game["result"]]] += 1
        side.setdefault("cpu", []).extend(game["hard_cpu"])
    return found


def points(*records: dict) -> float:
    """The share of the points, in per cent, a draw half a point.

    >>> points({"wins": 3, "draws": 1, "losses": 0}, {"wins": 0, "draws": 0, "losses": 4})
    43.75
    """
    games = sum(r["wins"] + r["draws"] + r["losses"] for r in records)
    return 100 * sum(r["wins"] + r["draws"] / 2 for r in records) / games


def table(tallied: dict) -> str:
    """The results as a Markdown table, one row per board, opponent and half, from Hard's side.

    >>> one = {"X": {"wins": 2, "draws": 0, "losses": 0, "cpu": [0.1, 0.3]}, "O": {"wins": 1, "draws": 1, "losses": 0}}
    >>> print(table({"7x7": {"Easy": {"held-out": one}}}).splitlines()[2])  # won-drawn-lost as X, as O
    | 7×7 | Easy | held-out | 4 | 2-0-0 | 1-1-0 | 100.0 % | 75.0 % | 87.5 % | 0.20 s, 0.30 s |
    """
    lines = [
        "| board | opponent | half | games | Hard as X | Hard as O | points as X | points as O | points "
        "| Hard's CPU a move (median, most) |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for board in BOARDS:
        for name, halves in tallied.get(board, {}).items():
            for half in suite.HALVES:
                if half not in halves:
                    continue
                x, o = halves[half].get(X), halves[half].get(O)
                sides = [r for r in (x, o) if r]
                games = sum(r["wins"] + r["draws"] + r["losses"] for r in sides)
                cpu = [c for r in sides for c in r.get("cpu", [])]
                lines.append(
                    f"| {BY_KEY[board].name} | {name} | {half} | {games} | {_wdl(x)} | {_wdl(o)} "
                    f"| {_points(x)} | {_points(o)} | {points(*sides):.1f} % "
                    f"| {statistics.median(cpu) if cpu else 0:.2f} s, {max(cpu, default=0):.2f} s |"
                )
    return "\n".join(lines)


def _wdl(record: dict | None) -> str:
    return "–" if record is None else f"{record['wins']}-{record['draws']}-{record['losses']}"


def _points(record: dict | None) -> str:
    return "–" if record is None else f"{points(record):.1f} %"


def _first(count: int) -> str:
    """The first ``count`` openings, in words.

    >>> _first(0), _first(1), _first(3)
    ('no opening', 'the first opening', 'the first 3 openings')
    """
    return "no opening" if count == 0 else "the first opening" if count == 1 else f"the first {count} openings"


def _mcts_said(openings: int) -> str:
    """What the report says of MCTS's openings.

    >>> _mcts_said(0)
    'MCTS was not played (--mcts-openings 0): a move costs it seconds of CPU, about 40 s on 15×15.'
    """
    played = "was not played (--mcts-openings 0)" if openings == 0 else f"played {_first(openings)} of each half"
    return f"MCTS {played}: a move costs it seconds of CPU, about 40 s on 15×15."


def page_data(tallied: dict, hidden: Iterable[str] = ()) -> dict:
    """The tournament page's data: per board a line for players, then per opponent, half and colour the results;
    the opponents ``hidden`` names are left off."""
    boards = {}
    for board in BOARDS:
        if board not in tallied:
            continue
        size = len(suite.load(board).half("held-out"))
        kind = "balanced three-stone openings" if board == "15x15" else "three-stone openings in the central squares"
        rows = [
            {"opponent": name, "half": half, "hard_as": side} | {k: record[k] for k in ("wins", "draws", "losses")}
            for name, halves in tallied[board].items()
            if name not in hidden
            for half, sides in halves.items()
            for side, record in sides.items()
        ]
        boards[board] = {
            "suite": f"Each game starts from one of {size} {kind}, played once with each colour; "
            "these openings were never used to tune Hard.",
            "rows": rows,
        }
    return {"boards": boards}


def with_table(doc: str, text: str) -> str:
    """``doc`` with the text between its strength-table markers replaced by ``text``; unchanged without markers."""
    start, end = doc.find(BEGIN), doc.find(END)
    if start < 0 or end < start:
        return doc
    return doc[: start + len(BEGIN)] + "\n\n" + text + "\n" + doc[end:]


def write(tallied: dict, report: str, data: Path = DATA, doc: Path = DOC, hidden: Iterable[str] = ()) -> None:
    """Write the page's data and the report into the document between its markers."""
    data.write_text(json.dumps(page_data(tallied, hidden), indent=1, ensure_ascii=False) + "\n")
    if doc.exists():
        doc.write_text(with_table(doc.read_text(), report))


def main(argv: list[str] | None = None) -> int:
    """Play the games asked for and print the table; a run in full also writes the page's data and the docs."""
    parser = argparse.ArgumentParser(prog="python -m tools.strength", description=__doc__.split("\n\n")[0])
    parser.add_argument("--board", action="append", choices=BOARDS, help="only this board (again for another)")
    parser.add_argument("--opponent", action="append", choices=OPPONENTS, help="only this opponent (again for another)")
    parser.add_argument("--half", choices=suite.HALVES, help="only this half of the suite")
    parser.add_argument("--workers", type=int, default=2, help="games played at once, one process each")
    parser.add_argument("--nodes", type=int, default=2000, help="Rapfi's nodes a move")
    parser.add_argument("--strong-nodes", type=int, default=10_000, help="the strong Rapfi's nodes a move")
    parser.add_argument("--turn-ms", type=int, default=100, help="the timed Rapfi's milliseconds a move")
    parser.add_argument("--simulations", type=int, default=10_000, help="MCTS's simulations a move")
    parser.add_argument(
        "--mcts-openings", type=int, default=MCTS_OPENINGS, help="MCTS's openings per half on each board"
    )
    parser.add_argument("--openings", type=int, default=None, help="only the first so many openings of each half")
    parser.add_argument("--resume", action="store_true", help="keep the games already in --games, play the rest")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--games", type=Path, default=GAMES, help="where every game's moves go (JSON lines)")
    parser.add_argument("--no-write", action="store_true", help="print the table only, even for a run in full")
    args = parser.parse_args(argv)

    names = list(args.opponent or OPPONENTS)
    skipped = []
    if RAPFIS & set(names) and not os.environ.get("RAPFI"):
        names = [name for name in names if name not in RAPFIS]
        skipped.append("Rapfi was not played: RAPFI does not name a Rapfi binary.")
        print(skipped[-1], file=sys.stderr)
    settings = Settings(args.nodes, args.simulations, args.strong_nodes, args.turn_ms)
    halves = [args.half] if args.half else list(suite.HALVES)
    found = jobs(args.board or BOARDS, names, halves, args.seed, args.mcts_openings, args.openings)
    started = time.monotonic()
    tallied = tally(run(found, settings, args.workers, args.games, args.resume), settings)
    said = list(skipped)
    if "mcts" in names:
        said.insert(0, _mcts_said(args.mcts_openings))
    report = "\n".join([table(tallied), "", *said]) if said else table(tallied)
    print(report)
    print(f"{len(found)} games in {(time.monotonic() - started) / 60:.1f} min; each one's moves are in {args.games}.")
    if not (args.board or args.opponent or args.half or args.openings or args.no_write):
        # The page names an opponent by its program, so it shows one Rapfi: the node-limited 2,000, the same anywhere.
        write(tallied, report, hidden={settings.name("rapfi-strong"), settings.name("rapfi-timed")})
        print(f"Wrote {DATA.relative_to(ROOT)} and the table in {DOC.relative_to(ROOT)}.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
