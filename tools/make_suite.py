"""Choose the strength suite's openings and write them to ``tools/data/suite-<board>.json``.

An opening is three stones, X, O, X, all near the centre; O moves next. The openings are every such
position up to the board's 8 symmetries, then:

- 15×15: a seeded sample is judged by Rapfi at a million nodes from O's side (``RAPFI`` names its binary);
  those it judges within ``THRESHOLD`` of even, with no win seen by either it or this game's own forced-win
  finder, are kept. Judgements are kept in ``artifacts/suite/`` so that a rerun does not pay for them again.
- 7×7: every one is kept that this game's forced-win finder finds no win in. Five in a row on 7×7 is a draw
  with best play, so no outside judge is needed, and the central 3×3 is where its games are decided.

The kept openings are shuffled with a seed of their own: the first half of the suite is ``dev``, the next
``held-out``, the rest ``reserve`` (to grow the suite later).

    RAPFI=path/to/pbrain-rapfi python -m tools.make_suite --board 15x15
    python -m tools.make_suite --board 7x7
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

from tools import suite
from webapp.engine.big import facts

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "artifacts" / "suite" / "judgements.jsonl"


@dataclass(frozen=True)
class Plan:
    """How one board's suite is chosen: every number the file's ``about`` states."""

    n: int
    reach: int  # the stones' largest distance from the centre, in rows and in columns
    seed: int
    size: int  # openings in the two halves together
    sample: int | None = None  # openings judged by Rapfi (15×15 only)
    nodes: int | None = None  # Rapfi's nodes per judgement
    threshold: int | None = None  # the largest |eval| kept, in Rapfi's units (about 200 to a sigmoid's unit)


PLANS = {
    "15x15": Plan(n=15, reach=2, seed=2026, size=32, sample=240, nodes=1_000_000, threshold=200),
    "7x7": Plan(n=7, reach=1, seed=2026, size=16),
}


def openings(n: int, reach: int) -> list[str]:
    """Every X, O, X position with its stones within ``reach`` of the centre, up to symmetry, as sorted text.

    >>> len(openings(7, 1))
    38
    """
    centre = n // 2
    region = [
        r * n + c for r in range(centre - reach, centre + reach + 1) for c in range(centre - reach, centre + reach + 1)
    ]
    found = set()
    for i, x1 in enumerate(region):
        for x2 in region[i + 1 :]:
            for o in region:
                if o not in (x1, x2):
                    cells = ["."] * (n * n)
                    cells[x1] = cells[x2] = "X"
                    cells[o] = "O"
                    found.add(suite.canonical("".join(cells)))
    return sorted(found)


def cells_of(board: str) -> list[int]:
    """The opening's stones in the order played: the lower X, the O, the other X.

    >>> cells_of("X.O.X....")
    [0, 2, 4]
    """
    xs = [i for i, c in enumerate(board) if c == "X"]
    return [xs[0], board.index("O"), xs[1]]


def no_forced_win(board: str) -> bool:
    """Whether this game's forced-win finder finds no win for either side (O to move; X as if it were)."""
    return all(facts.forced_win(board, side) is None for side in ("O", "X"))


def judged(boards: list[str], nodes: int, cache: Path = CACHE) -> dict[str, dict]:
    """Rapfi's judgement of each board (O to move) at ``nodes`` nodes: from ``cache``, else from Rapfi."""
    known = {}
    if cache.exists():
        for line in cache.read_text().splitlines():
            row = json.loads(line)
            known[(row["board"], row["nodes"])] = row
    todo = [b for b in boards if (b, nodes) not in known]
    if todo:
        from tools.rapfi import Rapfi  # needs RAPFI; says so if it is not set

        cache.parent.mkdir(parents=True, exist_ok=True)
        with Rapfi(nodes=nodes, memory_mb=256) as engine, cache.open("a") as out:
            for done, board in enumerate(todo, 1):
                found = engine.analyse(board)
                row = {"board": board, "nodes": nodes, "eval": found.eval, "mate": found.mate, "depth": found.depth}
                row["pv"] = found.pv[:12]
                out.write(json.dumps(row) + "\n")
                out.flush()
                known[(board, nodes)] = row
                print(f"judged {done} of {len(todo)}: eval {found.eval}, depth {found.depth}", file=sys.stderr)
    return {b: known[(b, nodes)] for b in boards}


def make(key: str, cache: Path = CACHE) -> dict:
    """The suite file's content for board ``key``, by its plan."""
    plan = PLANS[key]
    every = openings(plan.n, plan.reach)
    width = 2 * plan.reach + 1
    about = {
        "what": "Openings of three stones, X, O, X, with O to move; Hard plays each once as X and once as O.",
        "region": f"all three stones in the central {width}×{width} squares",
        "symmetry": f"one position of each set of turns and mirror images: {len(every)} positions",
    }
    judgements: dict[str, dict] = {}
    if plan.nodes:
        order = list(every)
        random.Random(plan.seed).shuffle(order)
        sample = order[: plan.sample]
        judgements = judged(sample, plan.nodes, cache)
        kept = [
            b
            for b in sample
            if judgements[b]["mate"] is None
            and judgements[b]["eval"] is not None
            and abs(judgements[b]["eval"]) <= plan.threshold
            and no_forced_win(b)
        ]
        about["sample"] = f"the sorted positions shuffled with random.Random({plan.seed}); the first {plan.sample}"
        about["judge"] = (
            f"Rapfi, free-style (five or more), 1 thread, hash cleared, {plan.nodes:,} nodes a position, from O's side"
        )
        about["kept"] = (
            f"|eval| at most {plan.threshold} in Rapfi's units, no win seen by Rapfi, none found by this game's "
            f"forced-win finder for either side: {len(kept)} of {plan.sample}"
        )
        about["depth"] = f"Rapfi's depth: median {statistics.median(judgements[b]['depth'] for b in sample):g}"
    else:
        kept = [b for b in every if no_forced_win(b)]
        about["kept"] = f"those in which this game's forced-win finder finds no win for either side: {len(kept)}"
    if len(kept) < plan.size:
        raise SystemExit(f"Only {len(kept)} openings kept, {plan.size} needed.")
    random.Random(plan.seed + 1).shuffle(kept)
    half = plan.size // 2
    about["split"] = (
        f"the kept ones shuffled with random.Random({plan.seed + 1}): the first {half} dev, the next {half} "
        f"held-out, the other {len(kept) - plan.size} reserve"
    )

    def entry(board: str, name: str | None, half_name: str | None) -> dict:
        row: dict[str, object] = {"id": name, "half": half_name} if name else {}
        row["cells"] = cells_of(board)
        if board in judgements:
            row |= {k: judgements[board][k] for k in ("eval", "depth", "pv")}
        return row

    chosen = [
        entry(b, f"{'dh'[i // half]}{i % half:02d}", suite.HALVES[i // half]) for i, b in enumerate(kept[: plan.size])
    ]
    return {
        "board": key,
        "about": about,
        "openings": chosen,
        "reserve": [entry(b, None, None) for b in kept[plan.size :]],
    }


def main(argv: list[str] | None = None) -> int:
    """Write the suite of the board asked for, and check that the reader accepts it."""
    parser = argparse.ArgumentParser(prog="python -m tools.make_suite", description=__doc__.split("\n\n")[0])
    parser.add_argument("--board", choices=sorted(PLANS), required=True)
    parser.add_argument("--cache", type=Path, default=CACHE, help="Rapfi's judgements, kept between runs")
    parser.add_argument("--out", type=Path, default=None, help="default: tools/data/suite-<board>.json")
    args = parser.parse_args(argv)
    out = args.out or suite.path_of(args.board)
    content = make(args.board, args.cache)
    out.write_text(json.dumps(content, indent=1, ensure_ascii=False) + "\n")
    checked = suite.read(out, args.board)
    print(f"{out}: {len(checked.openings)} openings, {len(content['reserve'])} in reserve")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
