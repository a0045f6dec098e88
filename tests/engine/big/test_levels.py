"""The big boards' levels (webapp/engine/big/levels.py): each level's moves, the analysis's proofs, Hard's view."""

import random

import pytest

from tests.engine.positions import (
    DOUBLE_THREE,
    FOUR_THREE,
    IMMEDIATE_WINS,
    QUICK,
    QUIET_7,
    QUIET_15,
    VCF,
    find,
    game_of,
    grid,
    random_positions,
)
from tests.proofs import wins_within
from webapp.engine import levels, pacing
from webapp.engine.big import hard
from webapp.engine.big import levels as big
from webapp.engine.big.board import Gomoku
from webapp.engine.big.budget import DEFAULT_BUDGET, Budget
from webapp.engine.big.hard import search
from webapp.engine.rules import EMPTY, Position, parse

# 7×7: X to move completes the top row at cell 4.
WIN_AT_4 = "X" * 4 + "." * 3 + "O" * 4 + "." * 38


def short_of_the_budget() -> pacing.Pace:
    """A pace that leaves a search a tenth of Hard's budget, as a tree's second level or a hint's move may."""
    return pacing.Pace(clock=lambda: 100.0, deadline=100.0 + DEFAULT_BUDGET.seconds / 10)


def test_a_search_cut_short_by_its_requests_deadline_is_never_the_one_the_game_plays_from():
    big._hard.cache_clear()
    with pacing.pacing(short_of_the_budget()):
        hurried = big.view(WIN_AT_4)
        assert big.view(WIN_AT_4) is hurried  # remembered for the next request as short of time
    whole = big.view(WIN_AT_4)
    assert whole is not hurried and whole.best == (4,)
    assert big._hard.cache_info().misses == 2 and big._hard.cache_info().hits == 1


def test_a_search_with_its_whole_budget_is_remembered_for_the_game():
    big._hard.cache_clear()
    with pacing.pacing(pacing.Pace(clock=lambda: 0.0, deadline=DEFAULT_BUDGET.seconds + 0.05)):
        first = big.view(WIN_AT_4)
    assert big.view(WIN_AT_4) is first


@pytest.mark.parametrize("n", [7, 15])
def test_no_level_ever_plays_an_illegal_move(n):
    for pos in random_positions(n, n, 12):
        for level in levels.LEVELS:
            moves = big.candidates(pos.board, level, Budget(nodes=400))
            assert moves
            assert all(pos.board[m] == EMPTY for m in moves), (pos.board, level)


# --- the analysis proves what it says ------------------------------------------------------


def wins_by_brute_force(pos: Position, plies: int) -> bool:
    """Whether the side to move can force a win within ``plies`` plies, by looking at every move."""
    if plies < 1:
        return False
    for move in pos.legal_moves():
        child = pos.play(move)
        if child.winner or (plies >= 3 and loses_by_brute_force(child, plies - 1)):
            return True
    return False


def loses_by_brute_force(pos: Position, plies: int) -> bool:
    """Whether every move of the side to move loses within ``plies`` plies."""
    if pos.winner:
        return True
    if pos.is_over():
        return False
    return all(wins_by_brute_force(pos.play(move), plies - 1) for move in pos.legal_moves())


def nobody_can_win(pos: Position) -> bool:
    """Whether no line can ever be completed: not even with every empty cell given to one side."""
    for mark in "XO":
        filled = pos.board.replace(EMPTY, mark)
        if any(all(filled[c] == mark for c in line) for line in pos.geometry.lines):
            return False
    return True


def endgames(seed: int, count: int, empties: int):
    """Unfinished 7×7 positions with ``empties`` empty cells, from games of plausible and random moves."""
    rng = random.Random(seed)
    while count:
        g = Gomoku(7, 5)
        while 49 - g.stones > empties:
            plausible = g.ranked(list(g.candidates), g.mover, limit=4) if g.candidates else [g.lay.centre]
            move = rng.choice(plausible if rng.random() < 0.5 else g.legal())
            if move in g.wins():
                break  # that would end the game
            g.play(move)
        else:
            count -= 1
            yield parse(g.text, 7, 5)


# X to move on 7×7 wins by fours: 16 at once makes two completions, 44 and 45 need one four more.
FOURS_7X7 = "X..X.OXXXOXO.XXX.OXOOOOOXXXX.XOX.XOXO.OXOO....OOO"


def test_every_result_analyze_reports_on_7x7_endgames_is_true_by_brute_force():
    proved = {"win": 0, "loss": 0, "draw": 0}
    longest = 0
    for pos in [parse(FOURS_7X7, 7, 5), *endgames(11, 12, 11)]:
        for move, (result, plies) in big.analyze(pos.board, seconds=5).items():
            if result == "unclear":
                assert plies is None
                continue
            proved[result] += 1
            after = pos.play(move)
            if result == "win":
                assert after.winner == pos.to_move or loses_by_brute_force(after, plies - 1), (pos.board, move)
                longest = max(longest, plies)
            elif result == "loss":
                assert wins_by_brute_force(after, plies - 1), (pos.board, move)
            else:
                assert plies == pos.board.count(EMPTY)
                assert nobody_can_win(after), (pos.board, move)
    # The check means something only if every kind of result came up, a win by fours among them.
    assert all(proved.values()), proved
    assert longest >= 5


@pytest.mark.parametrize("board", [FOUR_THREE, DOUBLE_THREE, VCF])
def test_the_shortest_wins_and_losses_analyze_claims_on_15x15_hold_against_every_defence(board):
    g = game_of(board)
    claims = sorted(
        (plies, move, result) for move, (result, plies) in big.analyze(board, seconds=1).items() if result != "unclear"
    )
    wins = [(plies, move) for plies, move, result in claims if result == "win"]
    # The first win by the search itself is among them; the shortest few, and the shortest losses, replayed.
    assert wins and wins[0][0] <= 5
    for plies, move in wins[:3]:
        assert wins_within(g, g.mover, plies, find, first=move), move
    for plies, move, _ in [c for c in claims if c[2] == "loss"][:3]:
        g.play(move)
        assert wins_within(g, g.mover, plies - 1, find), move
        g.undo()


def test_analyze_covers_every_legal_cell_and_claims_nothing_in_a_quiet_position():
    board = QUIET_15
    result = big.analyze(board)
    assert set(result) == {c for c, mark in enumerate(board) if mark == EMPTY}
    assert set(result.values()) == {("unclear", None)}


# --- the search's view, as the tree explorer shows it ----------------------------------------


def test_the_view_is_the_search_itself_under_a_node_budget():
    found = big.view(QUIET_7, QUICK)
    direct = search(Gomoku.from_text(QUIET_7, 7, 5), QUICK)
    assert found == big.view(QUIET_7, QUICK)  # deterministic
    assert (found.best, found.depth, found.nodes, found.reason) == (direct.best, direct.depth, direct.nodes, "search")
    assert dict(found.scores) == direct.scores and len(found.scores) > len(found.best)
    assert found.depth >= 2 and found.forced is None
    # Best first, and the moves it prefers are exactly those with the top figure, the search's value.
    figures = [figure for _, figure in found.scores]
    assert figures == sorted(figures, reverse=True) and found.top == direct.value
    assert set(found.best) == {move for move, figure in found.scores if figure == found.top}
    assert found.score(found.best[0]) == found.top and found.score(0) is None  # a corner it never weighed


def test_a_depth_budget_is_the_depth_the_view_reports():
    assert big.view(QUIET_7, Budget(depth=2)).depth == 2
    assert big.view(QUIET_7, Budget(depth=3)).nodes > big.view(QUIET_7, Budget(depth=2)).nodes


@pytest.mark.parametrize(
    ("board", "reason", "best", "depth"),
    [
        (IMMEDIATE_WINS[0][0], "win", (0, 5), 1),
        (grid(7, "OXXXX..", "", "...O..O"), "block", (5,), 1),
        (grid(7, "", ".XXXX..", "OO.....", "O......"), "lost", (7, 12), 1),
        (VCF, "fours", (112,), 5),
        (EMPTY * 49, "only", (24,), 0),  # the centre: nothing else is worth searching on an empty board
    ],
)
def test_without_a_look_ahead_the_view_says_why_and_weighs_no_move(board, reason, best, depth):
    found = big.view(board, QUICK)
    assert (found.reason, found.best, found.scores, found.top, found.depth) == (reason, best, (), None, depth)
    assert (found.forced is not None) == (reason in ("win", "fours"))


def test_a_search_that_finishes_no_depth_claims_no_figure():
    found = big.view(QUIET_7, Budget(nodes=5))
    assert (found.reason, found.depth, found.scores) == ("unfinished", 0, ())
    assert found.best  # it still plays: among the moves that look strongest before any search


def test_the_view_lists_equal_figures_by_cell():
    result = hard.Result(best=(5,), value=10, depth=1, nodes=1, seconds=0.0, scores={9: 3, 2: 3, 5: 10})
    assert big.seat_view(result).scores == ((5, 10), (2, 3), (9, 3))
