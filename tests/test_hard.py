import itertools
import random

import pytest

from webapp.engine import big, hard, levels
from webapp.engine.gomoku import OPEN_FOUR, WEIGHTS, Gomoku
from webapp.engine.hard import Budget, search
from webapp.engine.rules import EMPTY, Position, parse

# Node budgets keep every result here independent of the machine's speed.
QUICK = Budget(nodes=3000)


def grid(n: int, *rows: str) -> str:
    """A board of n×n cells from its top rows, each padded with empty cells; the rest is empty."""
    return "".join(row.ljust(n, EMPTY) for row in rows).ljust(n * n, EMPTY)


def hard_moves(board: str, budget: Budget = QUICK) -> tuple[int, ...]:
    return big.candidates(board, "minimax", budget)


# X to move in each, with a line of its own to complete and one of O's to block.
IMMEDIATE_WINS = [
    (grid(7, ".XXXX..", "OOOO..."), {0, 5}),
    (grid(15, "", "", "....X", "....X", "....X", "....X", "", "OOOO"), {19, 94}),
    (grid(15, "", "......X", ".......X", "", ".........X", "..........X", "OOOO"), {53}),
]


@pytest.mark.parametrize(("board", "wins"), IMMEDIATE_WINS)
def test_hard_takes_an_immediate_win_rather_than_block(board, wins):
    assert set(hard_moves(board)) == wins
    assert set(levels.candidates(board, "minimax")) == wins  # the level itself, at its own budget
    for move in wins:
        assert parse(board, *shape(board)).play(move).winner == "X"


def shape(board: str) -> tuple[int, int]:
    return (7, 5) if len(board) == 49 else (15, 5)


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
    g = Gomoku.from_text(board, 15, 5)
    g.play(move)
    # After the answer X has no move left that makes an open four
    assert max(g.wx) < WEIGHTS[OPEN_FOUR]


# X to move: the four at (7, 7) forces O to (7, 8), then (6, 7) or (10, 7) is an open four: five plies.
VCF = grid(
    15,
    "O.............O",
    "",
    "",
    "",
    "",
    "",
    "",
    "...OXXX",
    ".......X",
    ".......X",
    "",
    "",
    "",
    "",
    "O.............O",
)


def test_hard_finds_a_forced_win_by_fours_and_analyze_proves_it():
    assert hard_moves(VCF) == (112,)
    assert big.analyze(VCF)[112] == ("win", 5)
    # The result is played out against every defence O has: each one loses within five plies.
    pos = parse(VCF, 15, 5).play(112)
    for reply in pos.legal_moves():
        after = pos.play(reply)
        follow = hard_moves(after.board)
        assert len(follow) >= 1
        after = after.play(follow[0])
        if after.is_over():
            assert after.winner == "X"
            continue
        # O's block is the only move that did not lose at once; now X has two completions
        g = Gomoku.from_text(after.board, 15, 5)
        assert len(g.wins()) == 0 and len(g.wins(opponent=True)) >= 2, reply


def test_in_free_style_six_in_a_row_wins_on_15x15():
    board = grid(15, "XX.XXX", "OOOO", "", "", "O")
    assert levels.candidates(board, "minimax") == (2,)
    assert levels.analyze(board)[2] == ("win", 1)
    final = parse(board, 15, 5).play(2)
    assert final.winner == "X" and len(final.winning_line) == 6


def random_positions(n: int, seed: int, count: int):
    """Positions from games of plausible moves (random among the best-looking few), none finished."""
    rng = random.Random(seed)
    for _ in range(count):
        g = Gomoku(n, 5)
        for _ in range(rng.randrange(1, min(n * n // 2, 40))):
            if g.wins():
                break
            g.play(rng.choice(g.moves(6)))
        yield parse(g.text, n, 5)


@pytest.mark.parametrize("n", [7, 15])
def test_no_level_ever_plays_an_illegal_move(n):
    for pos in random_positions(n, n, 12):
        for level in levels.LEVELS:
            moves = big.candidates(pos.board, level, Budget(nodes=400))
            assert moves
            assert all(pos.board[m] == EMPTY for m in moves), (pos.board, level)


def test_under_a_node_budget_the_search_is_deterministic_and_keeps_to_its_depth():
    board = grid(15, "", "", "", "", "", "", "", ".......X", "......O")
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
    # A clock that moves on a millisecond at each reading: the budget of 10 ms runs out mid-search.
    budget = Budget(seconds=0.01, start_fraction=1.0, clock=lambda: next(ticks) / 1000)
    board = grid(15, "", "", "", "", "", "", "", ".......X", "......O")
    result = search(Gomoku.from_text(board, 15, 5), budget)
    assert 1 <= result.depth < 64
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


# --- the analysis proves what it says ------------------------------------------------------


def wins_within(pos: Position, plies: int) -> bool:
    """Whether the side to move can force a win within ``plies`` plies, by looking at every move."""
    if plies < 1:
        return False
    for move in pos.legal_moves():
        child = pos.play(move)
        if child.winner or (plies >= 3 and loses_within(child, plies - 1)):
            return True
    return False


def loses_within(pos: Position, plies: int) -> bool:
    """Whether every move of the side to move loses within ``plies`` plies."""
    if pos.winner:
        return True
    if pos.is_over():
        return False
    return all(wins_within(pos.play(move), plies - 1) for move in pos.legal_moves())


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
            move = rng.choice(g.moves(4) if rng.random() < 0.5 else g.legal())
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
                assert after.winner == pos.to_move or loses_within(after, plies - 1), (pos.board, move)
                longest = max(longest, plies)
            elif result == "loss":
                assert wins_within(after, plies - 1), (pos.board, move)
            else:
                assert plies == pos.board.count(EMPTY)
                assert nobody_can_win(after), (pos.board, move)
    # The check means something only if every kind of result came up, a win by fours among them.
    assert all(proved.values()), proved
    assert longest >= 5


def test_analyze_covers_every_legal_cell_and_claims_nothing_in_a_quiet_position():
    board = grid(15, "", "", "", "", "", "", "", ".......X", "......O")
    result = big.analyze(board)
    assert set(result) == {c for c, mark in enumerate(board) if mark == EMPTY}
    assert set(result.values()) == {("unclear", None)}


def test_the_hard_budget_is_cpu_time():
    assert hard.DEFAULT_BUDGET.clock.__name__ == "process_time"


# --- the search's view, as the tree explorer shows it ----------------------------------------

# O to move on 7×7 after X took the centre and O and X one move each: a quiet position, searched for real.
QUIET_7 = grid(7, "", "", "...O", "...X", "....X")


def test_the_view_is_the_search_itself_under_a_node_budget():
    found = big.view(QUIET_7, QUICK)
    direct = search(Gomoku.from_text(QUIET_7, 7, 5), QUICK)
    assert found == big.view(QUIET_7, QUICK)  # deterministic
    assert (found.best, found.depth, found.nodes, found.reason) == (direct.best, direct.depth, direct.nodes, "search")
    assert dict(found.scores) == direct.scores and len(found.scores) > len(found.best)
    assert found.depth >= 2 and found.nodes > 1000
    # Best first, and the moves it prefers are exactly those with the top figure, the search's value.
    figures = [figure for _, figure in found.scores]
    assert figures == sorted(figures, reverse=True) and found.top == direct.value
    assert set(found.best) == {move for move, figure in found.scores if figure == found.top}
    assert found.score(found.best[0]) == found.top and found.score(0) is None  # a corner it never weighed


def test_a_depth_budget_is_the_depth_the_view_reports():
    assert big.view(QUIET_7, Budget(depth=2)).depth == 2
    assert big.view(QUIET_7, Budget(depth=3)).nodes > big.view(QUIET_7, Budget(depth=2)).nodes


@pytest.mark.parametrize(
    ("board", "reason", "best"),
    [
        (IMMEDIATE_WINS[0][0], "win", (0, 5)),
        (grid(7, "OXXXX..", "", "...O..O"), "block", (5,)),
        (grid(7, "", ".XXXX..", "OO.....", "O......"), "lost", (7, 12)),
        (VCF, "fours", (112,)),
        (EMPTY * 49, "only", (24,)),  # the centre: nothing else is worth searching on an empty board
    ],
)
def test_without_a_look_ahead_the_view_says_why_and_weighs_no_move(board, reason, best):
    found = big.view(board, QUICK)
    assert (found.reason, found.best, found.scores, found.top) == (reason, best, (), None)
    assert found.depth == {"fours": 5, "only": 0}.get(reason, 1)


def test_a_search_that_finishes_no_depth_claims_no_figure():
    found = big.view(QUIET_7, Budget(nodes=5))
    assert (found.reason, found.depth, found.scores) == ("unfinished", 0, ())
    assert found.best  # it still plays: among the moves that look strongest before any search


@pytest.mark.parametrize("board", [EMPTY * 9, "X" + EMPTY * 15, EMPTY * 12 + "X" + EMPTY * 12])
def test_a_solved_board_has_no_search_view(board):
    assert levels.search_view(board) is None


def test_the_view_and_the_top_levels_move_come_from_one_search():
    board = IMMEDIATE_WINS[0][0]
    big._hard.cache_clear()
    found = levels.search_view(board)
    assert levels.candidates(board, "minimax") == found.best
    assert big._hard.cache_info().misses == 1 and big._hard.cache_info().hits == 1
