"""The games Hard's evaluation is fitted on: Rapfi against itself from the strength suite's dev openings only.

Each game starts from a dev opening of the 15×15 suite (``tools/suite.py``) turned by one of the board's eight
symmetries, then a few random stones next to the others (so that the games differ), then Rapfi plays both sides,
each at its own node count, to a five or a full board. Every Rapfi move is kept with its value of the position
(from the mover's side), so a position can be labelled by the game's result or by Rapfi's score. A game's random
choices come from its own seed, and Rapfi at a node count with its hash cleared answers a position the same
every time, so the same command plays the same games.

    RAPFI=artifacts/rapfi/pbrain-rapfi python -m tools.tune_games --games 80   # per dev opening

The held-out half is never played here: ``--half held-out`` plays its games only to measure, never to fit
(``python -m tools.tune --check``).
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
import time
from pathlib import Path

from tools import suite
from tools.rapfi import Rapfi
from webapp.engine.rules import parse

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tools" / "data"
N = 15
# Each side's node count is drawn from these: unequal sides give decisive games, and a weaker side's slips.
NODES = (1000, 2000, 4000)
# Random stones after the opening, at most: each next to a stone already there.
RANDOM_STONES = 3


def path_of(half: str) -> Path:
    """Where the games of one half are kept (the dev half's are the fit's data)."""
    return DATA / f"tune-games-{half}.jsonl.gz"


def seed_of(opening: str, index: int) -> str:
    return f"tune/{opening}/{index}"


def start_of(opening: suite.Opening, index: int, rng: random.Random) -> list[int]:
    """The opening's stones under symmetry ``index % 8``, then up to RANDOM_STONES random stones beside others.

    >>> first = suite.load("15x15").half("dev")[0]
    >>> moves = start_of(first, 0, random.Random(1))
    >>> moves[:3] == list(first.cells), 3 <= len(moves) <= 3 + RANDOM_STONES
    (True, True)
    """
    image = suite.symmetries(N)[index % 8]
    moves = [image[cell] for cell in opening.cells]
    for _ in range(rng.randint(0, RANDOM_STONES)):
        taken = set(moves)
        near = sorted(
            {
                r * N + c
                for cell in moves
                for r in range(cell // N - 1, cell // N + 2)
                for c in range(cell % N - 1, cell % N + 2)
                if 0 <= r < N and 0 <= c < N and r * N + c not in taken
            }
        )
        moves.append(rng.choice(near))
    return moves


def play(opening: suite.Opening, index: int, engines: dict[int, Rapfi]) -> dict:
    """One game: its moves from the empty board, its result, and Rapfi's value before each of its own moves."""
    rng = random.Random(seed_of(opening.id, index))
    moves = start_of(opening, index, rng)
    nodes = {mark: rng.choice(NODES) for mark in "XO"}
    pos = parse("." * (N * N), N, 5)
    for cell in moves:
        pos = pos.play(cell)
    values: list[int | None] = [None] * len(moves)
    while not pos.is_over():
        found = engines[nodes[pos.to_move]].analyse(pos.board)
        values.append(found.eval)
        moves.append(found.move)
        pos = pos.play(found.move)
    return {
        "opening": opening.id,
        "index": index,
        "nodes": nodes,
        "moves": moves,
        "winner": pos.winner,  # "X", "O", or None for a draw
        "rapfi": values,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.tune_games", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=80, help="games per opening")
    parser.add_argument("--half", choices=suite.HALVES, default="dev")
    parser.add_argument("--out", type=Path, default=None, help="where the games go (JSON lines, gzip)")
    parser.add_argument("--resume", action="store_true", help="keep the games already in --out, play the rest")
    args = parser.parse_args(argv)
    out = args.out or path_of(args.half)
    openings = suite.load("15x15").half(args.half)
    done: list[dict] = []
    if args.resume and out.exists():
        with gzip.open(out, "rt") as old:
            done = [json.loads(line) for line in old]
    seen = {(g["opening"], g["index"]) for g in done}
    engines = {nodes: Rapfi(nodes=nodes) for nodes in NODES}
    started = time.monotonic()
    try:
        for index in range(args.games):
            for opening in openings:
                if (opening.id, index) in seen:
                    continue
                done.append(play(opening, index, engines))
                if len(done) % 50 == 0:
                    _write(out, done)
                    print(f"{len(done)} games, {(time.monotonic() - started) / 60:.1f} min", file=sys.stderr)
    finally:
        for engine in engines.values():
            engine.close()
        _write(out, done)
    print(f"{len(done)} games in {out}")
    return 0


def _write(out: Path, games: list[dict]) -> None:
    """All the games, in a fixed order, compressed without a timestamp: the same games make the same file."""
    games = sorted(games, key=lambda g: (g["opening"], g["index"]))
    text = "".join(json.dumps(g, separators=(",", ":")) + "\n" for g in games)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as packed:
        packed.write(text.encode())


if __name__ == "__main__":
    raise SystemExit(main())
