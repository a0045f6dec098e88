"""The fit of Hard's evaluation (tools/tune.py) and its games (tools/tune_games.py): data, labels, reproducibility."""

import gzip
import json
import random

import numpy as np
import pytest

from tools import suite, tune, tune_games
from webapp.engine.big import evaluation
from webapp.engine.rules import parse

DEV_GAMES = tune_games.path_of("dev")


def some_games(count: int) -> list[dict]:
    return tune.read_games(DEV_GAMES)[:count]


def write_games(path, games: list[dict]) -> None:
    with gzip.open(path, "wt") as out:
        out.write("".join(json.dumps(g) + "\n" for g in games))


def test_the_tuning_games_start_from_the_dev_openings_only_and_are_legal_to_their_end():
    games = tune.read_games(DEV_GAMES)
    dev = {o.id: o for o in suite.load("15x15").half("dev")}
    held_out = {o.id for o in suite.load("15x15").half("held-out")}
    assert len(games) >= 1000 and not {g["opening"] for g in games} & held_out
    for game in games[:: max(1, len(games) // 40)]:
        opening = dev[game["opening"]]
        image = suite.symmetries(15)[game["index"] % 8]
        assert game["moves"][:3] == [image[c] for c in opening.cells]
        pos = parse("." * 225, 15, 5)
        for move in game["moves"]:
            pos = pos.play(move)
        assert pos.is_over() and pos.winner == game["winner"]
        assert len(game["rapfi"]) == len(game["moves"])


def test_each_position_is_labelled_by_the_result_for_its_side_to_move_and_decided_ones_are_left_out():
    games = some_games(6)
    data = tune.positions(games)
    assert len(data.results) == len(data.rows) == len(data.games) and set(data.results) <= {0.0, 0.5, 1.0}
    for number, game in enumerate(games):
        rows = data.results[data.games == number]
        # Sides alternate, so the labels of consecutive positions of a decided game alternate too, but where a
        # position was left out (its side to move completes a line at once: only the last few can).
        assert len(rows) <= len(game["moves"]) - 3
        if game["winner"] is not None:
            assert set(rows) == {0.0, 1.0}
    assert (data.rows[:, -1] == 1).all()  # the constant's column
    assert data.rows.shape[1] == 2 * len(evaluation.FEATURES) + 1


def test_the_logistic_fit_finds_the_weights_that_made_the_labels():
    rng = np.random.default_rng(7)
    rows = np.column_stack([rng.normal(size=(4000, 3)), np.ones(4000)])
    truth = np.array([1.5, -2.0, 0.5, 0.3])
    results = (rng.random(4000) < 1 / (1 + np.exp(-(rows @ truth)))).astype(float)
    data = tune.Positions(rows, results, np.zeros(4000), np.ones(4000, bool), np.zeros(4000))
    found = tune.fit(data, penalty=0.0)
    assert np.abs(found - truth).max() < 0.2
    assert tune.quality(rows @ found, results)["log_loss"] < tune.quality(rows @ np.zeros(4), results)["log_loss"]


def test_the_same_games_and_seed_write_the_same_weights_file(tmp_path):
    games = tmp_path / "games.jsonl.gz"
    write_games(games, some_games(30))
    first, again = tmp_path / "a.json", tmp_path / "b.json"
    assert tune.main(["--games", str(games), "--out", str(first)]) == 0
    assert tune.main(["--games", str(games), "--out", str(again)]) == 0
    assert first.read_bytes() == again.read_bytes()
    written = json.loads(first.read_text())
    assert set(written["mover"]) == set(evaluation.FEATURES) and written["about"]["seed"] == tune.SEED
    # Another seed keeps back other games, so its figures differ, but the weights come from every game alike.
    other = tmp_path / "c.json"
    tune.main(["--games", str(games), "--out", str(other), "--seed", "5"])
    assert json.loads(other.read_text())["mover"] == written["mover"]


@pytest.mark.parametrize("index", [0, 1, 9])
def test_a_games_start_is_its_opening_turned_then_a_few_stones_beside_the_others(index):
    opening = suite.load("15x15").half("dev")[0]
    rng = random.Random(tune_games.seed_of(opening.id, index))
    moves = tune_games.start_of(opening, index, rng)
    assert len(set(moves)) == len(moves) <= 3 + tune_games.RANDOM_STONES
    for i, move in enumerate(moves[3:], 3):
        assert any(max(abs(move // 15 - m // 15), abs(move % 15 - m % 15)) == 1 for m in moves[:i])
    again = tune_games.start_of(opening, index, random.Random(tune_games.seed_of(opening.id, index)))
    assert again == moves
