import importlib.util
import json
import random
import sys
from datetime import date
from pathlib import Path

import pytest
from support import load_script, stones

from tools import opponents, strength
from webapp.engine.boards import BY_KEY
from webapp.engine.gomoku import Gomoku
from webapp.engine.hard import Budget
from webapp.engine.openings import grid
from webapp.engine.rules import EMPTY, parse
from webapp.learn.tournament import Measured, read_strength


def test_hard_against_easy_on_7x7_is_recorded_from_hards_side(capsys):
    hard = ("Hard", strength.level_player("minimax", Budget(nodes=300)))
    easy = ("Easy", lambda seed: strength.level_player("random"))
    record = strength.match(BY_KEY["7x7"], hard, easy, "O", 2, 1)
    assert (record.player, record.opponent, record.player_as, record.games) == ("Hard", "Easy", "O", 2)
    assert record.wins + record.draws + record.losses == 2
    assert record.losses == 0
    # Each game's moves are logged, so that a lost one can be replayed.
    logged = [line for line in capsys.readouterr().err.splitlines() if "Hard as O vs Easy" in line]
    assert len(logged) == 2 and all(line.split(": ")[-1].count(".") >= 8 for line in logged)


def test_new_results_replace_those_of_the_same_pairing_and_keep_the_rest():
    old = Measured("Hard", "Easy", "X", 10, 10, 0, 0)
    other_side = Measured("Hard", "Easy", "O", 10, 9, 1, 0)
    data = strength.merged({}, "7x7", [old, other_side], date(2026, 1, 2))
    new = Measured("Hard", "Easy", "X", 50, 49, 1, 0)
    data = strength.merged(data, "7x7", [new], date(2026, 1, 3))
    data = strength.merged(data, "15x15", [new], date(2026, 1, 3))
    assert data["measured"] == "2026-01-03"
    assert [row["games"] for row in data["boards"]["7x7"]] == [50, 10]
    assert data["boards"]["15x15"][0]["wins"] == 49


def test_the_shipped_strength_data_is_what_the_tournament_page_reads_and_adds_up():
    data = json.loads(strength.DATA.read_text())
    date.fromisoformat(data["measured"])
    assert set(data["boards"]) == {"4x4", "5x5", "7x7", "15x15"}
    assert read_strength(strength.DATA) is not None  # the page's own reader accepts it
    for rows in data["boards"].values():
        for row in rows:
            assert set(row) == {"player", "opponent", "player_as", "games", "wins", "draws", "losses"}
            assert row["games"] == row["wins"] + row["draws"] + row["losses"] > 0
            assert row["player_as"] in ("X", "O")


def test_the_table_is_written_between_its_markers_and_nowhere_else(tmp_path):
    doc = tmp_path / "benchmarks.md"
    doc.write_text(f"# Before\n\n{strength.BEGIN}\nold table\n{strength.END}\n\n## After\n")
    out = tmp_path / "strength.json"
    rows = [
        Measured("Hard", "ThreatSpace (gomoku 0.1.0)", "X", 20, 19, 1, 0),
        Measured("Hard", "Easy", "O", 4, 3, 0, 1),
    ]
    data = strength.record(out, doc, "15x15", rows, date(2026, 2, 3))
    text = doc.read_text()
    assert text.startswith("# Before\n\n" + strength.BEGIN) and text.endswith(strength.END + "\n\n## After\n")
    assert "old table" not in text and "Last written 2026-02-03." in text
    assert "| 15×15 | ThreatSpace (gomoku 0.1.0) | X | 20 | 19 | 1 | 0 | 0 % |" in text
    assert "| 15×15 | Easy | O | 4 | 3 | 0 | 1 | 25 % |" in text
    assert json.loads(out.read_text()) == data
    # Written again with the same rows, the document does not change; without markers it is left alone.
    strength.record(out, doc, "15x15", rows, date(2026, 2, 3))
    assert doc.read_text() == text
    plain = tmp_path / "plain.md"
    plain.write_text("no markers here\n")
    strength.record(out, plain, "15x15", rows, date(2026, 2, 3))
    assert plain.read_text() == "no markers here\n"


def test_the_docs_have_the_markers_the_table_goes_between():
    text = strength.DOC.read_text()
    assert text.count(strength.BEGIN) == 1 and text.index(strength.BEGIN) < text.index(strength.END)


def test_on_4x4_the_top_level_measured_is_impossible_and_it_does_not_lose(tmp_path):
    out = tmp_path / "strength.json"
    status = strength.main(
        ["--board", "4x4", "--opponent", "one-ply", "--games", "1", "--out", str(out), "--doc", str(tmp_path / "x")]
    )
    rows = json.loads(out.read_text())["boards"]["4x4"]
    assert [(r["player"], r["opponent"], r["player_as"]) for r in rows] == [
        ("Impossible", "Medium", "X"),
        ("Impossible", "Medium", "O"),
    ]
    assert status == 0 and all(r["losses"] == 0 for r in rows)


# --- our own attacker ---------------------------------------------------------------------------


CORNERS = [(0, 0), (0, 14), (14, 0), (14, 14)]


@pytest.mark.parametrize(
    ("board", "move"),
    [
        # A line to complete (at either end: the first), before blocking O's.
        (stones(15, x=[(7, c) for c in range(3, 7)], o=[(9, c) for c in range(3, 7)]), 7 * 15 + 2),
        # O's line to block: closed by the board's edge, it has one completion.
        (stones(15, x=[(7, 3), (7, 4), (7, 5), (0, 7)], o=[(9, c) for c in range(4)]), 9 * 15 + 4),
        # A double three: a forced win by threes, found by the threat search.
        (stones(15, x=[(7, 6), (7, 7), (5, 8), (6, 8)], o=CORNERS), 7 * 15 + 8),
    ],
    ids=["complete", "block", "double-three"],
)
def test_the_attacker_wins_blocks_and_plays_its_forced_wins(board, move):
    assert opponents.attacker()(board, random.Random(0)) == move


def test_otherwise_the_attacker_is_greedy_and_varies_its_openings():
    board = stones(15, x=[(7, 7)], o=[(6, 6)])
    firsts = {opponents.attacker()(board, random.Random(seed)) for seed in range(12)}
    assert len(firsts) > 1 and all(board[m] == EMPTY for m in firsts)
    game = Gomoku.from_text(board, 15, 5)
    assert all(m in game.moves(30) for m in firsts)


def test_a_game_against_the_attacker_is_played_to_its_end_by_the_rules():
    log: list[int] = []
    winner = strength.play_game(
        BY_KEY["7x7"], opponents.attacker(nodes=300), strength.level_player("random"), random.Random(3), log
    )
    pos = parse(BY_KEY["7x7"].empty, 7, 5)
    for move in log:
        pos = pos.play(move)
    assert pos.is_over() and pos.winner == winner


def test_a_game_goes_on_from_its_opening_and_logs_only_the_moves_after_it():
    opening = (24, 0, 25, 48)  # X has two in the centre's row, O two corners: X to move
    log: list[int] = []
    winner = strength.play_game(
        BY_KEY["7x7"], opponents.attacker(nodes=300), strength.level_player("random"), random.Random(3), log, opening
    )
    assert log and not set(log) & set(opening)
    pos = parse(BY_KEY["7x7"].empty, 7, 5)
    for move in (*opening, *log):
        pos = pos.play(move)
    assert pos.is_over() and pos.winner == winner


def test_an_illegal_opening_is_refused():
    with pytest.raises(ValueError):
        strength.play_game(
            BY_KEY["7x7"],
            strength.level_player("random"),
            strength.level_player("random"),
            random.Random(0),
            None,
            (24, 24),
        )


def test_stones_replay_alternately_to_the_same_position():
    board = stones(15, x=[(7, 7), (8, 8)], o=[(6, 6)])
    order = opponents.stones_of(board)
    assert order[0::2] == [7 * 15 + 7, 8 * 15 + 8] and order[1::2] == [6 * 15 + 6]


def test_scripts_lost_lines_reads_the_games_a_match_prints(capsys, tmp_path, monkeypatch):
    # scripts/lost_lines.py parses the match's stderr: a change to that line's format must show here.
    spec = importlib.util.spec_from_file_location("lost_lines", Path(__file__).parents[2] / "scripts" / "lost_lines.py")
    lost_lines = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "lost_lines", lost_lines)  # its dataclass looks its module up there
    spec.loader.exec_module(lost_lines)
    player = ("Easy", strength.level_player("random"))
    opponent = ("Random mover", lambda seed: strength.level_player("random"))
    measured = strength.match(BY_KEY["4x4"], player, opponent, "O", 6, 7)
    log = tmp_path / "games.log"
    log.write_text(capsys.readouterr().err)

    games = lost_lines.read([log])

    assert [game.seed for game in games] == [7500 + game for game in range(6)]
    assert {(game.board, game.opponent, game.side) for game in games} == {("4x4", "Random mover", "O")}
    results = [game.result for game in games]
    assert (results.count("won"), results.count("drawn"), results.count("lost")) == (
        measured.wins,
        measured.draws,
        measured.losses,
    )
    assert all(len(game.moves) >= 7 and len(set(game.moves)) == len(game.moves) for game in games)


@pytest.mark.parametrize(
    ("moves", "their_turns"),
    [([112, 96, 127, 97], [1, 3]), ([112, 96, 127, 97, 143], [0, 2, 4])],
)
def test_scripts_play_out_shows_the_opponent_each_position_it_answered(moves, their_turns):
    # The ThreatSpace player saves the threat line it found and plays it on: a play-out from the middle of a game
    # must first ask it at each of its turns, or it answers as it never did in the games (docs/engine.md).
    play_out = load_script("play_out")
    asked = []

    play_out.show_the_game(lambda board, rng: asked.append(board) or 0, moves)

    assert asked == [grid(15, moves[:turn]) for turn in their_turns]
