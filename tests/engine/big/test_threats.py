import itertools
import random

import pytest
from support import stones

from tests.engine.positions import DOUBLE_THREE, FOUR_THREE
from tests.proofs import loses_within, wins_within
from webapp.engine import pacing
from webapp.engine.big.board import Gomoku
from webapp.engine.big.budget import Exhausted, Meter, OutOfBudget
from webapp.engine.big.lines import FOUR_W
from webapp.engine.big.threats import ForcedWin, ThreatSearch

# A lost game's position, X to move: after 85, O wins by continuous fours; after 187 it has none, but a
# win by fours and threes.
ISSUE = (
    ".........................O.........O..OX.........O.X.X...........XOXX............XOXO.......X..OOXXXOX"
    "......O.XOXO.O.......OXXXXO...........XOO...........OOXO............X.O...................................."
    "................"
)


def find(game: Gomoku, side: str) -> ForcedWin | None:
    """The engine under test: a fresh threat search, three threes at most."""
    return ThreatSearch(game, side, Meter(nodes=200_000)).vct(3)


def claim(game: Gomoku, side: str, nodes: int = 3000) -> ForcedWin | None:
    """The engine's claim within a small share of nodes, as Hard makes it: None when the share runs out."""
    meter = Meter()
    try:
        with meter.share(nodes):
            return ThreatSearch(game, side, meter).vct(3)
    except Exhausted:
        return None


def game_of(text: str) -> Gomoku:
    return Gomoku.from_text(text, 15 if len(text) == 225 else 7, 5)


@pytest.mark.parametrize(
    ("text", "kind", "first", "plies"),
    [(FOUR_THREE, "fours", 7 * 15 + 8, 5), (DOUBLE_THREE, "threes", 7 * 15 + 8, 5)],
    ids=["four-three", "double-three"],
)
def test_a_four_three_and_a_double_three_are_found_and_hold_against_every_defence(text, kind, first, plies):
    game = game_of(text)
    win = find(game, "X")
    assert (win.side, win.kind, win.first, win.plies) == ("X", kind, first, plies)
    assert game.text == text  # every move taken back
    assert wins_within(game, "X", win.plies, find, first=win.first)
    assert not wins_within(game, "X", win.plies - 2, find)  # and not sooner
    # The main line is a real game of that length, ending in five.
    assert len(win.line) == win.plies
    for move in win.line[:-1]:
        game.play(move)
    assert win.line[-1] in game.wins()


def test_the_issues_position_after_85_o_wins_by_fours_and_after_187_by_threes_only():
    game = game_of(ISSUE)
    assert game.mover == "X"
    game.play(85)
    fours = ThreatSearch(game, "O", Meter()).vcf()
    assert fours is not None and fours.kind == "fours"
    assert wins_within(game, "O", fours.plies, find, first=fours.first)
    game.undo()
    game.play(187)
    assert ThreatSearch(game, "O", Meter()).vcf() is None
    threes = find(game, "O")
    assert threes.kind == "threes"
    assert wins_within(game, "O", threes.plies, find, first=threes.first)


def test_a_continuous_four_search_uses_fours_only():
    game = game_of(DOUBLE_THREE)
    assert ThreatSearch(game, "X", Meter()).vcf() is None
    win = ThreatSearch(game_of(FOUR_THREE), "X", Meter()).vcf()
    replay = game_of(FOUR_THREE)
    for i, move in enumerate(win.line):
        if i % 2 == 0:
            assert replay.worth(move, "X") >= FOUR_W
        replay.play(move)


def random_positions(n: int, seed: int, count: int, stones: range):
    """Positions from games of plausible moves (random among the best-looking few), none finished."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        g = Gomoku(n, 5)
        for _ in range(rng.choice(stones)):
            if g.wins() or g.wins(opponent=True):
                break
            g.play(rng.choice(g.ranked(list(g.candidates), g.mover, limit=5) if g.candidates else [g.lay.centre]))
        else:
            if not g.wins() and not g.wins(opponent=True):
                made += 1
                yield g


@pytest.mark.parametrize("n", [7, 15])
def test_every_win_claimed_in_positions_from_games_holds_against_every_defence(n):
    claims = []
    for game in random_positions(n, 21 + n, 30, range(8, 24)):
        text = game.text
        win = claim(game, game.mover)
        if win is None or win.plies > 9:
            continue
        claims.append(win.kind)
        assert wins_within(game, game.mover, win.plies, find, first=win.first), (text, win)
        assert game.text == text
    # The check means something only if wins came up, by threes among them.
    assert len(claims) >= 3 and "threes" in claims


def test_a_loss_is_a_loss_after_every_move_in_a_lost_position():
    # X to move against O's open four: whatever X does, O completes a line.
    text = stones(15, x=[(5, 5), (9, 9), (3, 3), (11, 2)], o=[(7, 5), (7, 6), (7, 7), (7, 8)])
    game = game_of(text)
    assert loses_within(game, 2, find)


def test_the_side_not_to_move_can_be_asked_after_a_pass():
    game = game_of(DOUBLE_THREE)
    game.play(0 * 15 + 7)  # X plays far away; now O is to move, and X still has its double three
    game.pass_turn()
    assert game.mover == "X"
    win = find(game, "X")
    assert win is not None and win.first == 7 * 15 + 8
    game.undo()
    assert game.mover == "O"


def test_a_defender_that_completes_a_line_first_refutes_the_attack():
    # X to move has the four-three, but O already has four in a row on row 12 to complete at once.
    text = stones(
        15, x=[(7, 5), (7, 6), (7, 7), (5, 8), (6, 8), (0, 7)], o=[(7, 4), (12, 2), (12, 3), (12, 4), (12, 5), (0, 0)]
    )
    game = game_of(text)
    assert game.mover == "X" and game.wins(opponent=True)
    assert find(game, "X") is None


# --- the meter -------------------------------------------------------------------------------------


def test_the_meter_stops_at_its_node_limit_and_a_share_at_its_own():
    meter = Meter(nodes=1000)
    for _ in range(1000):
        meter.tick()
    with pytest.raises(OutOfBudget):
        meter.tick()
    meter = Meter(nodes=1000)
    with meter.share(10), pytest.raises(Exhausted):
        for _ in range(11):
            meter.tick()
    assert meter.nodes == 11
    meter.tick()  # the share is over: the move's own limit again
    assert meter.nodes == 12


def test_the_clock_is_read_every_256_nodes_the_pace_paused_and_its_deadline_kept():
    readings = itertools.count()
    pauses = []
    pace = pacing.Pace(clock=lambda: next(readings) / 100, pause=lambda: pauses.append(1), deadline=3.0)
    with pacing.pacing(pace):
        meter = Meter(seconds=10.0)
        assert meter.start == 0.0 and meter.deadline == 3.0  # the pace's deadline is the sooner
        with pytest.raises(OutOfBudget):
            for _ in range(10**6):
                meter.tick()
    # Readings 1, 2, ... at every 256th node: the 301st reading (3.01) is past the deadline.
    assert meter.nodes == 301 * 256 and len(pauses) == 300


def test_a_share_of_time_stops_one_search_and_not_the_move():
    readings = itertools.count()
    meter = Meter(seconds=100.0, clock=lambda: next(readings))
    with meter.share(until=5), pytest.raises(Exhausted):
        for _ in range(10**6):
            meter.tick()
    assert meter.nodes == 6 * 256  # the reading 6, at the 6th check, is the first past 5
    meter.tick()


def test_the_meter_is_spent_once_a_reading_finds_its_time_up():
    clock = [0.0]
    meter = Meter(seconds=1.0, clock=lambda: clock[0])
    meter.tick()
    clock[0] = 1.5
    assert not meter.spent()  # not read yet: found at the next check, 256 nodes on
    with pytest.raises(OutOfBudget):
        for _ in range(Meter.CHECK):
            meter.tick()
    assert meter.nodes == Meter.CHECK and meter.spent()
    clock[0] = 0.5  # and it stays spent, whatever a later search reads
    assert meter.spent()


def test_the_meter_is_spent_at_its_node_limit_and_not_by_a_share():
    meter = Meter(nodes=10)
    with meter.share(5), pytest.raises(Exhausted):
        for _ in range(6):
            meter.tick()
    assert not meter.spent()
    for _ in range(4):
        meter.tick()
    assert meter.spent()


def test_a_search_under_a_tiny_share_finds_nothing_and_claims_nothing():
    game = game_of(DOUBLE_THREE)
    meter = Meter()
    with meter.share(3), pytest.raises(Exhausted):
        ThreatSearch(game, "X", meter).vct(3)
    assert game.text == DOUBLE_THREE


def narrow(game: Gomoku, side: str) -> ForcedWin | None:
    """The narrow search under test: past the first move, threats on the lines of the attacker's last move only."""
    return ThreatSearch(game, side, Meter(nodes=200_000), narrow=True).vct(3)


def test_the_narrow_search_finds_a_long_chain_of_dependent_threats_in_few_nodes_and_it_holds():
    # That position after 187: O's win by threes, found by both searches; the narrow one's holds too.
    game = game_of(ISSUE)
    game.play(187)
    meter = Meter()
    win = ThreatSearch(game, "O", meter, narrow=True).vct(3)
    assert win is not None and win.kind == "threes"
    assert wins_within(game, "O", win.plies, narrow, first=win.first)
    broad = Meter()
    ThreatSearch(game, "O", broad).vct(3)
    assert meter.nodes <= broad.nodes


@pytest.mark.parametrize("n", [7, 15])
def test_every_win_the_narrow_search_claims_holds_against_every_defence(n):
    claims = 0
    for game in random_positions(n, 31 + n, 30, range(8, 24)):
        meter = Meter()
        try:
            with meter.share(3000):
                win = ThreatSearch(game, game.mover, meter, narrow=True).vct(3)
        except Exhausted:
            continue
        if win is None or win.plies > 9:
            continue
        claims += 1
        assert wins_within(game, game.mover, win.plies, narrow, first=win.first), (game.text, win)
    assert claims >= 3


def board_of(x: list[int], o: list[int]) -> str:
    """A 15×15 board's text with X and O on the cells given (row-major numbers)."""
    cells = ["."] * 225
    for cell in x:
        cells[cell] = "X"
    for cell in o:
        cells[cell] = "O"
    return "".join(cells)


# Positions from the strength suite's games in which Hard played on past a forced win that Rapfi proved at
# 1,000,000 nodes (the side to move's win; X and O as row-major cells).
MISSED_WINS = {
    "a four-three through the centre, X": ("X", [99, 129, 140, 142, 143], [83, 97, 112, 127, 141]),
    "a crowded middle game, O": (
        "O",
        [66, 102, 113, 127, 129, 140, 143, 146, 172],
        [82, 98, 114, 115, 116, 130, 144, 158],
    ),
    "three threes in a row, X": ("X", [99, 110, 140, 156], [126, 128, 142, 144]),
    "a short chain, X": ("X", [84, 99, 110, 114, 124, 129, 141, 172], [69, 125, 126, 127, 140, 144, 158, 159]),
}


@pytest.mark.parametrize("side, x, o", MISSED_WINS.values(), ids=MISSED_WINS.keys())
def test_the_wins_hard_missed_are_proved_with_more_threes(side, x, o):
    # Hard's root search allows three threes within its share of 0.75 s; these need up to five.
    board = board_of(x, o)
    win = ThreatSearch(Gomoku.for_board(board), side, Meter(nodes=400_000)).vct(5)
    assert win is not None and board[win.first] == "."
