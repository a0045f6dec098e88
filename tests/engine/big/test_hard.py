import dataclasses
import itertools

import pytest
from support import stones

from tests.engine.positions import (
    DOUBLE_THREE,
    FOUR_THREE,
    IMMEDIATE_WINS,
    MIDDLEGAMES,
    QUICK,
    QUIET_7,
    QUIET_15,
    VCF,
    find,
    game_of,
    grid,
    random_positions,
    shape,
)
from tests.proofs import wins_within
from webapp.engine import levels, pacing
from webapp.engine.big import alphabeta, hard, parameters
from webapp.engine.big import levels as big
from webapp.engine.big.board import Gomoku
from webapp.engine.big.budget import DEFAULT_BUDGET, Budget, Meter
from webapp.engine.big.hard import search
from webapp.engine.big.lines import DOUBLE_W
from webapp.engine.big.threats import ThreatSearch
from webapp.engine.rules import EMPTY, parse

# Enough for the threat searches at the root to run their full shares.
AMPLE = Budget(nodes=60_000)


def hard_moves(board: str, budget: Budget = QUICK) -> tuple[int, ...]:
    return big.candidates(board, "minimax", budget)


@pytest.mark.parametrize(("board", "wins"), IMMEDIATE_WINS)
def test_hard_takes_an_immediate_win_rather_than_block(board, wins):
    assert set(hard_moves(board)) == wins
    assert set(levels.candidates(board, "minimax")) == wins  # the level itself, at its own budget
    for move in wins:
        assert parse(board, *shape(board)).play(move).winner == "X"


@pytest.mark.parametrize(
    ("board", "block"),
    [
        # O to move: X's four on the top row is closed at the left, so only 5 stops it
        (grid(7, "OXXXX..", "", "...O..O"), 5),
        # a split four on a 15×15 diagonal: only the gap blocks it
        (grid(15, "O", ".X", "..X", "", "....X", ".....X", "", "", "", "", "", "", "", "", "O.O"), 48),
    ],
)
def test_hard_blocks_a_four(board, block):
    assert hard_moves(board) == (block,)


def test_facing_two_completions_hard_blocks_one_and_analyze_calls_every_move_lost():
    # O to move against X's open four: whatever O does, X completes five next move
    board = grid(7, "", ".XXXX..", "OO.....", "O......")
    assert set(hard_moves(board)) <= {7, 12}
    assert set(big.analyze(board).values()) == {("loss", 2)}


def test_hard_answers_an_open_three():
    # O to move; X threatens to make an open four in the middle row of 15×15
    board = grid(15, "O.............O", "", "", "", "", "", "", "......XXX", "", "", "", "", "", "", ".............OX")
    move = hard_moves(board)[0]
    g = game_of(board)
    g.play(move)
    # After the answer X has no move left that makes an open four, nor any forced win
    assert not g.has("X", DOUBLE_W)
    assert find(g, "X") is None


# A lost game's position, X to move: Hard played 85 and O won by continuous fours. Every move loses to
# perfect play here, but some leave O only a longer win, by fours and threes.
ISSUE = (
    ".........................O.........O..OX.........O.X.X...........XOXX............XOXO.......X..OOXXXOX"
    "......O.XOXO.O.......OXXXXO...........XOO...........OOXO............X.O...................................."
    "................"
)


def test_hard_finds_a_forced_win_by_fours_and_analyze_proves_it():
    assert hard_moves(VCF) == (112,)
    assert big.analyze(VCF)[112] == ("win", 5)
    assert wins_within(game_of(VCF), "X", 5, find, first=112)


@pytest.mark.parametrize(("board", "kind"), [(FOUR_THREE, "fours"), (DOUBLE_THREE, "threes")])
def test_hard_plays_a_four_three_and_a_double_three_and_says_it_is_forced(board, kind):
    view = big.view(board, AMPLE)
    assert view.best == (7 * 15 + 8,) and view.reason == kind
    assert (view.forced.side, view.forced.kind, view.forced.first, view.forced.plies) == ("X", kind, 113, 5)
    assert wins_within(game_of(board), "X", 5, find, first=113)
    assert big.analyze(board)[113] == ("win", 5)


# O to move on 15×15 in positions from games: X threatens a four-three at 111 (the first) and a double
# three at 123 (the second); in each, one move of O's holds.
PARRIES = [
    "..................................................O...............X.............OXO...............O."
    ".........OX.XX...........X..............X..............O............................................"
    ".........................",
    "................................................................................O.X.........O...O..."
    "........X...X...........XX.O............X............XO.O..........................................."
    ".........................",
]


@pytest.mark.parametrize(("board", "kind"), list(zip(PARRIES, ["fours", "threes"], strict=True)))
def test_hard_parries_a_four_three_and_a_double_three_in_the_making(board, kind):
    g = game_of(board)
    threat = find_as_if_to_move(g, "X")
    assert g.mover == "O" and (threat.kind, threat.plies) == (kind, 5)
    move = hard_moves(board, AMPLE)[0]
    g.play(move)
    assert find(g, "X") is None, move


def find_as_if_to_move(g: Gomoku, side: str):
    g.pass_turn()
    try:
        return find(g, side)
    finally:
        g.undo()


def test_in_the_issues_position_hard_leaves_o_no_win_by_fours_and_the_hardest_win_to_find():
    g = game_of(ISSUE)
    assert g.mover == "X"
    result = search(g, AMPLE)
    move = result.best[0]
    # After Hard's move O has no forced win by fours (after the move Hard once played, 85, it had one).
    g.play(85)
    assert ThreatSearch(g, "O", Meter()).vcf() is not None
    g.undo()
    g.play(move)
    assert ThreatSearch(g, "O", Meter()).vcf() is None
    g.undo()
    # And of the moves that could stop O's threat (the cells of its line, and the moves Hard looks at
    # first), none leaves O a win that is longer, or harder to find within the same share of nodes.
    s = hard.MoveSearch(g, Budget())
    threat = s.forced("O", parameters.THEIR_NODES)
    after = {}
    for cell in {*threat.line, *g.moves(parameters.ROOT_WIDTH), move}:
        g.play(cell)
        after[cell] = s.outlook("O", parameters.CHECK_NODES)
        g.undo()
    assert after[move].hardness == max(outlook.hardness for outlook in after.values())
    assert after[85].hardness < after[move].hardness


# O to move on 15×15, from a game Hard lost as O to the ThreatSpace player: X threatens a forced win, and 158 and
# 173 both stop it. Hard played 158, X took 173, and then every O move lost; after 173 and X's 158, O holds.
MUTUAL = grid(
    15,
    *[""] * 6,
    "......OXX",
    "......XXO",
    "......XXO",
    ".....OXOO",
)


def test_of_two_defences_hard_keeps_the_one_the_opponent_cannot_answer_by_taking_the_other():
    g = game_of(MUTUAL)
    assert g.mover == "O" and find_as_if_to_move(g, "X") is not None
    for cell in (158, 173):
        g.play(cell)
        assert find(g, "X") is None, cell
        g.undo()
    s = hard.MoveSearch(g, Budget(nodes=100_000))
    pressure = {}
    for ours, theirs in ((158, 173), (173, 158)):
        g.play(ours)
        pressure[ours] = hard._pressure(s, "O", "X", theirs)
        g.undo()
    assert pressure[158] > pressure[173] + parameters.REBUT_MARGIN
    s = hard.MoveSearch(g, Budget(nodes=100_000))
    checks = hard.Checks(s, "X")
    assert hard._unrefuted(s, checks, "O", "X", [158, 173]) == [158, 173]  # not settled: nothing is dropped
    for cell in (158, 173):
        assert checks.check(cell, 5_000).win is None and checks.settled(cell)
    assert hard._unrefuted(s, checks, "O", "X", [158, 173]) == [173]
    assert hard_moves(MUTUAL, AMPLE) == (173,)


def test_in_free_style_six_in_a_row_wins_on_15x15():
    board = grid(15, "XX.XXX", "OOOO", "", "", "O")
    assert levels.candidates(board, "minimax") == (2,)
    assert levels.analyze(board)[2] == ("win", 1)
    final = parse(board, 15, 5).play(2)
    assert final.winner == "X" and len(final.winning_line) == 6


def test_under_a_node_budget_the_search_is_deterministic_and_keeps_to_its_depth():
    board = QUIET_15
    first = search(Gomoku.from_text(board, 15, 5), Budget(nodes=2000))
    again = search(Gomoku.from_text(board, 15, 5), Budget(nodes=2000))
    assert (first.best, first.value, first.depth, first.nodes, first.scores) == (
        again.best,
        again.value,
        again.depth,
        again.nodes,
        again.scores,
    )
    assert first.nodes <= 2001
    shallow = search(Gomoku.from_text(board, 15, 5), Budget(depth=2))
    assert shallow.depth == 2


def test_the_clock_stops_the_search_and_its_last_complete_depth_is_kept():
    ticks = itertools.count()
    # A clock that moves on a millisecond at each reading: the budget of 50 ms runs out mid-search.
    budget = Budget(seconds=0.05, start_fraction=1.0, search_fraction=1.0, clock=lambda: next(ticks) / 1000)
    board = QUIET_15
    result = search(Gomoku.from_text(board, 15, 5), budget)
    assert 1 <= result.depth < 64
    assert board[result.best[0]] == EMPTY


def test_the_search_reads_the_paces_clock_pauses_and_keeps_its_deadline():
    readings = itertools.count()
    pauses = []
    pace = pacing.Pace(clock=lambda: next(readings) / 1000, pause=lambda: pauses.append(1), deadline=0.02)
    board = QUIET_15
    with pacing.pacing(pace):
        result = search(Gomoku.from_text(board, 15, 5), Budget(seconds=10.0))
    assert pauses and result.seconds <= 0.03  # stopped by the pace's deadline, not its own ten seconds
    assert board[result.best[0]] == EMPTY


def test_big_boards_leave_the_unbounded_cache_alone():
    before = levels._candidates.cache_info().currsize
    for pos in random_positions(7, 3, 5):
        levels.candidates(pos.board, "one-ply")
        levels.candidates(pos.board, "random")
    assert levels._candidates.cache_info().currsize == before
    assert big._hard.cache_info().maxsize is not None


def test_medium_takes_a_win_and_blocks_a_five_on_the_big_boards():
    assert levels.candidates(grid(7, ".XXXX..", "OOOO..."), "one-ply") == (0, 5)
    assert levels.candidates(grid(7, "OXXXX..", "", "...O..O"), "one-ply") == (5,)


# --- the search's view, as the tree explorer shows it ----------------------------------------


@pytest.mark.parametrize(
    ("n", "stone"),
    [(15, (7, 7)), (15, (0, 0)), (15, (3, 12)), (7, (3, 3))],
)
def test_hard_answers_the_first_stone_by_searching_with_a_legal_move_near_it(n, stone):
    board = stones(n, x=[stone])
    result = search(Gomoku.from_text(board, n, 5), QUICK)
    assert result.reason == "search" and result.depth >= 1 and result.nodes <= QUICK.nodes + 1
    assert result.best and all(board[m] == EMPTY for m in result.best)
    for move in result.best:
        row, col = divmod(move, n)
        assert max(abs(row - stone[0]), abs(col - stone[1])) <= 2, move


@pytest.mark.parametrize("board", [EMPTY * 9, "X" + EMPTY * 15, EMPTY * 12 + "X" + EMPTY * 12])
def test_a_solved_board_has_no_search_view(board):
    assert levels.search_view(board) is None


def test_the_view_and_the_top_levels_move_come_from_one_search():
    board = IMMEDIATE_WINS[0][0]
    big._hard.cache_clear()
    found = levels.search_view(board)
    assert levels.candidates(board, "minimax") == found.best
    assert big._hard.cache_info().misses == 1 and big._hard.cache_info().hits == 1


def test_easy_and_medium_asked_through_the_levels_never_search_on_the_big_boards():
    g = Gomoku.from_text(QUIET_7, 7, 5)
    assert levels.candidates(QUIET_7, "random") == tuple(g.legal())
    assert levels.candidates(QUIET_7, "one-ply") == big.one_ply(g)


def test_the_search_view_keeps_to_the_budget_given():
    assert levels.search_view(QUIET_7, Budget(depth=1)).depth == 1


# --- what the search reports, under budgets of nodes, of depth and of the clock ---------------


def test_at_depth_one_a_root_score_is_the_evaluation_of_the_position_it_leaves():
    board = MIDDLEGAMES[0]
    result = search(Gomoku.from_text(board, 7, 5), Budget(depth=1))
    g = Gomoku.from_text(board, 7, 5)
    assert result.reason == "search" and result.scores
    for move, score in result.scores.items():
        g.play(move)
        assert score == -g.evaluate()  # no fours anywhere yet: the static judgement alone
        g.undo()


def result_of(board: str, budget: Budget = QUICK):
    return search(Gomoku.from_text(board, *shape(board)), budget)


def test_what_the_search_reports_when_it_need_not_search():
    # An immediate win: one ply, proved.
    win = result_of(IMMEDIATE_WINS[0][0])
    assert (win.best, win.value, win.depth, win.scores, win.proved) == ((0, 5), alphabeta.MATE - 1, 1, {}, True)
    # One threat to block: the block, worth nothing yet.
    block = result_of(grid(7, "OXXXX..", "", "...O..O"))
    assert (block.best, block.value, block.depth, block.proved) == ((5,), 0, 1, False)
    # Two completions to block: both named, and the game is lost in two plies.
    lost = result_of(grid(7, "X.X.X.X", "", ".OOOO.."))
    assert (lost.best, lost.value, lost.depth) == ((14, 19), -(alphabeta.MATE - 2), 1)
    # A win by fours: its first four, worth a win in that many plies, found at that depth.
    fours = result_of(VCF)
    assert (fours.best, fours.value, fours.depth, fours.proved) == ((112,), alphabeta.MATE - 5, 5, True)
    assert fours.forced.line[0] == 112 and len(fours.forced.line) == 5
    # One cell left and nothing to decide: played without a search.
    last = result_of("XXOXOOOOOOXXXOOXOOOXOXOXOXXXXXXOXOOOOXOXXXXXOXOO.")
    assert (last.best, last.value, last.depth) == ((48,), 0, 0)


def test_a_node_budget_stops_the_search_at_the_first_node_over_it():
    result = search(Gomoku.from_text(QUIET_15, 15, 5), Budget(nodes=700))
    assert result.nodes == 701
    assert 1 <= result.depth < 64
    assert result.value == max(result.scores.values())


class Clock:
    """A CPU clock for tests: the readings given, then the last one for ever."""

    def __init__(self, *readings: float):
        self.readings = list(readings)

    def __call__(self) -> float:
        return self.readings.pop(0) if len(self.readings) > 1 else self.readings[0]


def test_past_the_deadline_the_search_stops_with_what_it_has():
    # Every iteration may start, but the clock jumps past the deadline at its first reading in the search.
    budget = Budget(seconds=1.0, start_fraction=10.0, clock=Clock(0.0, 5.0))
    result = search(Gomoku.from_text(QUIET_15, 15, 5), budget)
    assert result.seconds == 5.0 and result.depth <= 2 and board_empty(result.best)
    assert result.nodes <= 2 * Meter.CHECK


def board_empty(moves) -> bool:
    return all(QUIET_15[m] == EMPTY for m in moves)


def opening_search(step: float, opening_nodes: int) -> hard.Result:
    """Hard's search of the quiet opening on a clock that advances ``step`` seconds at each reading."""
    ticks = itertools.count()
    budget = Budget(
        seconds=0.75,
        start_fraction=0.12,
        opening_stones=12,
        opening_nodes=opening_nodes,
        clock=lambda: next(ticks) * step,
    )
    return search(Gomoku.from_text(QUIET_15, 15, 5), budget)


def test_in_the_opening_the_move_does_not_depend_on_the_machines_speed():
    # The iterations start by the count of nodes: a machine ten times slower looks as deep and plays the same.
    fast, slow = opening_search(0.001, 3_000), opening_search(0.01, 3_000)
    assert fast.depth == slow.depth > 2
    assert (fast.best, fast.scores) == (slow.best, slow.scores)
    # By the clock (no count given), the slower machine stops deepening sooner.
    assert opening_search(0.01, 0).depth < opening_search(0.001, 0).depth


def transposed(cell: int, n: int) -> int:
    row, col = divmod(cell, n)
    return col * n + row


@pytest.mark.parametrize("tick", [8, 10, 15, 20])
def test_a_tie_stays_a_tie_when_the_clock_cuts_the_first_players_search(tick):
    # X's second move, both stones on the main diagonal: the position is its own mirror image in that diagonal, so
    # every depth ties a move with its mirror image. When a clock this slow cuts the search before its nodes run
    # out, no check may still run past the move's time and settle the tie for whichever it tried first.
    board = stones(15, x=[(7, 7)], o=[(6, 6)])
    ticks = itertools.count()
    budget = dataclasses.replace(DEFAULT_BUDGET, clock=lambda: next(ticks) * tick / 1000)
    result = search(Gomoku.from_text(board, 15, 5), budget)
    assert result.nodes < DEFAULT_BUDGET.first_nodes  # cut by the clock, not by the count
    assert result.reason == "search"
    assert {transposed(m, 15) for m in result.best} == set(result.best)


def test_the_first_players_move_stops_at_its_nodes_and_is_the_same_every_time():
    # A frozen clock is a machine infinitely fast: X's budget of nodes alone ends its move, and decides it.
    frozen = dataclasses.replace(DEFAULT_BUDGET, clock=lambda: 0.0)
    game = Gomoku.from_text(QUIET_15, 15, 5)
    first, again = search(game, frozen), search(game, frozen)
    assert DEFAULT_BUDGET.first_nodes < first.nodes <= DEFAULT_BUDGET.first_nodes + 1
    assert first.depth >= 3
    assert (first.best, first.depth, first.scores) == (again.best, again.depth, again.scores)


# X's seventh move in a position where O threatens a forced win, so that the defences' share is spent.
SEVENTH = grid(15, "", "", "", "..........O", ".........X", "........X", ".....OOX", "....OXXXO", ".....O")


def test_the_first_players_move_does_not_change_with_a_slower_clock_short_of_its_whole_budget():
    frozen = search(game_of(SEVENTH), dataclasses.replace(DEFAULT_BUDGET, clock=lambda: 0.0))
    # Each reading 5 ms later: the move's hundred or so readings pass every share's fraction of the 0.75 s, the
    # defences' 0.41 s among them, and stay short of the whole. The shares end by nodes alone, so nothing changes.
    ticks = itertools.count()
    slow = search(game_of(SEVENTH), dataclasses.replace(DEFAULT_BUDGET, clock=lambda: next(ticks) * 0.005))
    assert frozen.reason == "search" and frozen.best
    assert (slow.best, slow.depth, slow.nodes, slow.scores) == (frozen.best, frozen.depth, frozen.nodes, frozen.scores)
    assert 0.41 < slow.seconds < DEFAULT_BUDGET.seconds
    # The second player's budget is of seconds, and its steps keep their fractions of them.
    for mover, limited in (("X", False), ("O", True)):
        s = hard.MoveSearch(game_of(SEVENTH), DEFAULT_BUDGET.for_mover(mover))
        assert (s.until(DEFAULT_BUDGET.defence_fraction) is not None) == limited


@pytest.mark.parametrize(
    "moves",
    [
        (112, 126, 128, 96, 160),  # O's third move, counted by the early count
        (112, 126, 127, 142, 113, 141, 158, 143, 144),  # O's fifth, by the opening's
    ],
)
def test_the_openings_count_alone_stops_os_iterations_on_a_frozen_clock(moves):
    # A frozen clock is a machine infinitely fast: the count of nodes decides how deep O looks, and a larger
    # count looks at least as deep.
    game = Gomoku(15, 5)
    for move in moves:
        game.play(move)
    frozen = dataclasses.replace(DEFAULT_BUDGET, clock=lambda: 0.0)
    counted = search(game, frozen)
    more = search(game, dataclasses.replace(frozen, early_nodes=12_000, opening_nodes=12_000))
    assert counted.reason == more.reason == "search"
    assert 2 <= counted.depth <= more.depth and counted.nodes < more.nodes
    assert (counted.best, counted.depth) == (search(game, frozen).best, search(game, frozen).depth)


def test_the_count_of_nodes_bounds_the_openings_iterations():
    assert opening_search(0.001, 500).depth < opening_search(0.001, 5_000).depth
