"""Fit Hard's evaluation (``make tune``): logistic regression of game results on line patterns, Texel's method.

The positions come from the tuning games (``tools/tune_games.py``: Rapfi against itself from the strength suite's
dev openings only, ``tools/data/tune-games-dev.jsonl.gz``). Each position of a game after its opening, but those
where the side to move completes a line at once (decided, never evaluated), is described by its features
(``webapp.engine.big.evaluation``: the side to move's and the other's line patterns and combinations) and
labelled by the game's result for the side to move: 1 a win, 0 a loss, ½ a draw. The quiet positions among them
(no line to complete for either side, no double for the side to move) are the ones the alpha-beta evaluates, and
the figures are given for them too; the others (a four to block, an open three to answer) give the weights of the
threats the move ordering weighs. The weights are those that
make the logistic of the weighted sum the likeliest explanation of the results (L2-regularised, by Newton's
method). The games are split by a seeded shuffle: a fifth is kept back to say how well the fit predicts games it
was not fitted on; the weights are then fitted on every game and written to ``webapp/engine/big/weights.json``,
which the engine reads. The same data and seed give the same file.

    python -m tools.tune                                   # fit, print the figures, write the weights
    python -m tools.tune --check artifacts/tune-games-held-out.jsonl.gz   # the shipped weights on other games

numpy is used here only: the engine reads the weights file and sums integers.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tools.tune_games import path_of
from webapp.engine.big import evaluation
from webapp.engine.big.board import Gomoku
from webapp.engine.big.lines import DOUBLE_W, LOW, SHIFT

ROOT = Path(__file__).resolve().parent.parent
SEED = 2026
# The share of the games kept back to measure the fit, and the L2 penalty per position on each weight.
VALIDATION = 0.2
PENALTY = 1e-4
N, K = 15, 5


@dataclass
class Positions:
    """Positions: their features (one row each, the constant last), results, games, whether each is quiet, and the
    old evaluation."""

    rows: np.ndarray
    results: np.ndarray
    games: np.ndarray
    quiet: np.ndarray
    hand: np.ndarray  # the hand-weighted evaluation the engine had before the fit, for comparison

    def subset(self, keep: np.ndarray) -> Positions:
        return Positions(self.rows[keep], self.results[keep], self.games[keep], self.quiet[keep], self.hand[keep])


def read_games(path: Path) -> list[dict]:
    with gzip.open(path, "rt") as found:
        return [json.loads(line) for line in found]


def quiet(game: Gomoku) -> bool:
    """Whether the alpha-beta would evaluate this position: no line to complete, no double for the side to move."""
    mine, theirs = game.completions(game.mover)
    return not mine and not theirs and not game.has(game.mover, DOUBLE_W)


def hand_value(game: Gomoku) -> int:
    """The evaluation before the fit: the mover's shape weights and a quarter, minus the other side's."""
    x, o = game.total & LOW, game.total >> SHIFT
    mine, theirs = (x, o) if game.mover == "X" else (o, x)
    return mine + mine // 4 - theirs


def positions(games: list[dict]) -> Positions:
    """Every position of ``games`` after its opening's three stones, but those the side to move wins at once, with
    its features and result."""
    rows, results, owners, calm, hand = [], [], [], [], []
    for number, record in enumerate(games):
        game = Gomoku(N, K)
        winner = record["winner"]
        for ply, move in enumerate(record["moves"]):
            if ply >= 3 and not game.wins():
                mine, theirs = evaluation.features(game)
                rows.append([*mine.values(), *theirs.values(), 1])
                results.append(0.5 if winner is None else float(winner == game.mover))
                owners.append(number)
                calm.append(quiet(game))
                hand.append(hand_value(game))
            game.play(move)
    return Positions(
        np.array(rows, float), np.array(results), np.array(owners), np.array(calm, bool), np.array(hand, float)
    )


def fit(data: Positions, penalty: float = PENALTY) -> np.ndarray:
    """The weights of the L2-regularised logistic regression of the results on the rows, by Newton's method."""
    x, y = data.rows, data.results
    weights = np.zeros(x.shape[1])
    ridge = penalty * len(y) * np.eye(x.shape[1])
    ridge[-1, -1] = 0  # the constant is not held back
    for _ in range(50):
        p = 1 / (1 + np.exp(-(x @ weights)))
        gradient = x.T @ (p - y) + ridge @ weights
        hessian = (x * (p * (1 - p))[:, None]).T @ x + ridge
        step = np.linalg.solve(hessian, gradient)
        weights -= step
        if np.abs(step).max() < 1e-10:
            break
    return weights


def quality(logits: np.ndarray, results: np.ndarray) -> dict:
    """How well the logits predict the results: mean log-loss, and the share of decided games' positions whose winner
    the sign of the logit names."""
    p = np.clip(1 / (1 + np.exp(-logits)), 1e-12, 1 - 1e-12)
    loss = -np.mean(results * np.log(p) + (1 - results) * np.log(1 - p))
    decided = results != 0.5
    right = np.mean((logits[decided] > 0) == (results[decided] == 1)) if decided.any() else float("nan")
    return {"positions": len(results), "log_loss": round(float(loss), 4), "winner_named": round(float(right), 4)}


def report(name: str, data: Positions, weights: np.ndarray, scale: np.ndarray) -> dict:
    """The fit's quality on ``data`` beside two baselines: the results' mean alone, and the old evaluation's best
    logistic (``scale``: its slope and constant, fitted on the training positions)."""
    base = np.full(len(data.results), np.log(data.results.mean() / (1 - data.results.mean())))
    figures = {}
    for part, keep in (("all", np.ones(len(data.results), bool)), ("quiet", data.quiet)):
        y = data.results[keep]
        figures[part] = {
            "fitted": quality(data.rows[keep] @ weights, y),
            "constant": quality(base[keep], y),
            "hand": quality(scale[0] * data.hand[keep] + scale[1], y),
        }
        print(
            f"{name}, {part} ({keep.sum()} positions): "
            + "; ".join(
                f"{k} {v['log_loss']} log-loss, {v['winner_named']:.1%} named" for k, v in figures[part].items()
            )
        )
    return figures


def hand_scale(data: Positions) -> np.ndarray:
    """The slope and constant of the old evaluation's best logistic on ``data``."""
    rows = np.stack([data.hand, np.ones(len(data.hand))], axis=1)
    return fit(Positions(rows, data.results, data.games, data.quiet, data.hand), penalty=0.0)


def as_file(weights: np.ndarray, about: dict) -> str:
    names = evaluation.FEATURES
    count = len(names)
    found = {
        "about": about,
        "mover": {name: round(float(w), 5) for name, w in zip(names, weights[:count], strict=True)},
        "other": {name: round(float(w), 5) for name, w in zip(names, weights[count : 2 * count], strict=True)},
        "constant": round(float(weights[-1]), 5),
    }
    return json.dumps(found, indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.tune", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=Path, default=path_of("dev"), help="the tuning games (JSON lines, gzip)")
    parser.add_argument("--seed", type=int, default=SEED, help="the shuffle that keeps back a fifth of the games")
    parser.add_argument("--out", type=Path, default=evaluation.PATH)
    parser.add_argument("--check", type=Path, help="only measure the shipped weights on these games")
    args = parser.parse_args(argv)

    if args.check:
        data = positions(read_games(args.check))
        shipped = (
            np.array([*evaluation.FITTED.mover, *evaluation.FITTED.other, evaluation.FITTED.constant], float)
            / evaluation.SCALE
        )
        report(f"{args.check.name}", data, shipped, hand_scale(data))
        return 0

    games = read_games(args.games)
    data = positions(games)
    order = list(range(len(games)))
    random.Random(args.seed).shuffle(order)
    kept_back = np.isin(data.games, order[: round(VALIDATION * len(games))])
    train, validation = data.subset(~kept_back), data.subset(kept_back)
    print(f"{len(games)} games, {len(data.results)} positions; {len(validation.results)} kept back", file=sys.stderr)
    weights = fit(train)
    scale = hand_scale(train)
    figures = {
        "training": report("fitted on", train, weights, scale),
        "kept back": report("kept back", validation, weights, scale),
    }
    weights = fit(data)  # the weights shipped: every game
    about = {
        "fitted by": "python -m tools.tune (make tune): logistic regression of game results on line patterns",
        "games": f"{len(games)} games of {args.games.name}, {len(data.results)} positions, {data.quiet.sum()} quiet",
        "seed": args.seed,
        "penalty": PENALTY,
        "figures, a fifth of the games kept back": figures,
    }
    args.out.write_text(as_file(weights, about))
    print(f"Wrote {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
