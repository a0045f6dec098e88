import sys
from pathlib import Path

import pytest

from tools import rapfi
from tools.rapfi import Rapfi, RapfiError

FAKE = Path(__file__).parent / "data" / "fake_rapfi.py"


@pytest.fixture
def engine_path(tmp_path):
    """The stand-in engine as a program of its own, as RAPFI would name it."""
    program = tmp_path / "pbrain-fake"
    program.write_text(f"#!{sys.executable}\n" + FAKE.read_text())
    program.chmod(0o755)
    return str(program)


def board(x=(), o=()):
    """A 15×15 board with X's and O's stones at the (row, column) pairs given."""
    cells = ["."] * 225
    for mark, stones in (("X", x), ("O", o)):
        for r, c in stones:
            cells[r * 15 + c] = mark
    return "".join(cells)


# O to move: three X stones, two O stones, all in the top rows.
O_TO_MOVE = board(x=[(0, 0), (0, 1), (1, 5)], o=[(1, 0), (2, 7)])


def test_the_stones_go_as_the_side_to_moves_and_the_move_comes_back_as_column_then_row(engine_path):
    with Rapfi(engine_path) as engine:
        found = engine.analyse(O_TO_MOVE)
    # The stand-in plays x = the mover's stones (O's 2), y = 10 + the other side's (X's 3): row 13, column 2.
    assert found.move == 13 * 15 + 2


def test_the_last_value_rapfi_printed_is_read_with_its_depth_and_its_line(engine_path):
    with Rapfi(engine_path) as engine:
        found = engine.analyse(O_TO_MOVE)
    assert (found.mate, found.eval, found.depth) == (-4, -(rapfi.MATE - 4), 7)
    assert found.pv == [7 * 15 + 7, 8 * 15 + 8, 9 * 15 + 9]


def test_calls_one_after_another_each_get_an_answer(engine_path):
    # The stand-in drops the command that follows a move, as Rapfi does: the client must wait until it listens.
    with Rapfi(engine_path, timeout=5) as engine:
        moves = [engine.move(O_TO_MOVE) for _ in range(5)]
        assert engine.restarts == 0
    assert moves == [13 * 15 + 2] * 5


@pytest.mark.parametrize(
    ("limits", "told"),
    [
        ({"nodes": 10_000}, ["INFO TIMEOUT_TURN 0", "INFO MAX_NODE 10000"]),
        ({"nodes": 10_000, "turn_ms": 100}, ["INFO TIMEOUT_TURN 100", "INFO MAX_NODE 0"]),
    ],
)
def test_a_search_is_ended_by_its_nodes_or_else_by_its_turns_milliseconds(
    engine_path, tmp_path, monkeypatch, limits, told
):
    log = tmp_path / "info.log"
    monkeypatch.setenv("FAKE_RAPFI_LOG", str(log))
    with Rapfi(engine_path, **limits) as engine:
        engine.move(O_TO_MOVE)
    lines = log.read_text().splitlines()
    assert [line for line in lines if line.startswith(("INFO TIMEOUT_TURN", "INFO MAX_NODE"))] == told
    assert "INFO TIMEOUT_MATCH 0" in lines


def test_a_crashed_engine_is_started_again(engine_path, tmp_path, monkeypatch):
    monkeypatch.setenv("FAKE_RAPFI_CRASH", str(tmp_path / "crashed"))
    with Rapfi(engine_path) as engine:
        assert engine.move(O_TO_MOVE) == 13 * 15 + 2
        assert engine.restarts == 1


@pytest.mark.parametrize(("trouble", "words"), [("FAKE_RAPFI_HANG", "within"), ("FAKE_RAPFI_OCCUPIED", "not an empty")])
def test_an_engine_that_hangs_or_plays_on_a_stone_fails_loudly(engine_path, monkeypatch, trouble, words):
    monkeypatch.setenv(trouble, "1")
    with Rapfi(engine_path, timeout=0.3) as engine, pytest.raises(RapfiError, match=words):
        engine.move(O_TO_MOVE)


def test_without_rapfi_the_client_says_what_to_set(monkeypatch, tmp_path):
    monkeypatch.delenv("RAPFI", raising=False)
    with pytest.raises(RapfiError, match="Set RAPFI"):
        Rapfi()
    with pytest.raises(RapfiError, match="not a program"):
        Rapfi(str(tmp_path / "nothing-here"))


@pytest.mark.parametrize("bad", ["X" * 225, "X" * 224, "XX" + "." * 223])
def test_a_board_no_game_could_reach_is_refused_before_it_is_sent(bad):
    with pytest.raises(ValueError):
        rapfi.board_lines(bad)


def test_the_player_plays_the_engines_move(engine_path):
    play = rapfi.player(2000, engine_path)
    try:
        assert play(O_TO_MOVE, None) == 13 * 15 + 2
    finally:
        play.engine.close()
