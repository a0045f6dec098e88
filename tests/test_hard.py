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


# --- the search's values, its budget and its table (added with the mutation run, docs/mutation.md) ---


def reference(game: Gomoku, depth: int, ply: int) -> int:
    """Hard's negamax value by the book: the same rules at each node, but no window and no table."""
    if game.wins():
        return hard.MATE - ply - 1
    threats = game.wins(opponent=True)
    if len(threats) > 1:
        return -(hard.MATE - ply - 2)
    if game.full() or game.dead():
        return 0
    if threats:  # the forced block costs no depth, up to ply 40
        game.play(threats[0])
        try:
            return -reference(game, depth if ply < 40 else 0, ply + 1)
        finally:
            game.undo()
    if depth <= 0:
        found = hard.Search(game, Budget()).vcf(4, [24])
        return game.evaluate() if found is None else hard.MATE - ply - found
    best = -hard.INF
    for move in game.moves(hard.WIDTH):
        game.play(move)
        try:
            best = max(best, -reference(game, depth - 1, ply + 1))
        finally:
            game.undo()
    return best


# 7×7 middlegames: quiet, with threes about, and with fours to make and to answer.
MIDDLEGAMES = [
    grid(7, "", "", "..X", "..OX", "...O", "", ""),
    grid(7, "", ".O", "..XX", "..XO", "...O", "", ""),
    grid(7, "", "..O", ".XXX.", "..O", "..O", "", ""),
    grid(7, "O", ".X", "..X", "..OX", "O....", "", ""),
]


@pytest.mark.parametrize("board", MIDDLEGAMES)
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_the_windowed_search_with_its_table_finds_the_plain_negamax_value(board, depth):
    g = Gomoku.from_text(board, 7, 5)
    expected = reference(g, depth, 0)
    s = hard.Search(g, Budget())
    assert s.negamax(depth, -hard.INF, hard.INF, 0) == expected
    assert g.text == board  # every move taken back


@pytest.mark.parametrize("board", MIDDLEGAMES)
@pytest.mark.parametrize("ply", [39, 40])
def test_forced_replies_cost_no_depth_until_ply_40(board, ply):
    g = Gomoku.from_text(board, 7, 5)
    s = hard.Search(g, Budget())
    assert s.negamax(1, -hard.INF, hard.INF, ply) == reference(g, 1, ply)


@pytest.mark.parametrize("board", MIDDLEGAMES)
@pytest.mark.parametrize("depth", [1, 2])
def test_each_root_score_is_exact_for_the_best_moves_and_an_upper_bound_for_the_rest(board, depth):
    result = search(Gomoku.from_text(board, 7, 5), Budget(depth=depth))
    g = Gomoku.from_text(board, 7, 5)
    exact = {}
    for move in g.moves(hard.ROOT_WIDTH):
        g.play(move)
        exact[move] = -reference(g, depth - 1, 1)
        g.undo()
    top = max(exact.values())
    if top > hard.MATE_BOUND:  # a win found early ends the deepening
        assert result.proved and result.value == top
        return
    assert result.depth == depth
    assert set(result.scores) == set(exact)
    assert result.value == top == max(result.scores.values())
    assert result.best == tuple(sorted(m for m, v in exact.items() if v == top))
    for move, score in result.scores.items():
        assert score == exact[move] if exact[move] == top else exact[move] <= score < top


def test_at_depth_one_a_root_score_is_the_evaluation_of_the_position_it_leaves():
    board = MIDDLEGAMES[0]
    result = search(Gomoku.from_text(board, 7, 5), Budget(depth=1))
    g = Gomoku.from_text(board, 7, 5)
    for move, score in result.scores.items():
        g.play(move)
        assert score == -g.evaluate()  # no fours anywhere yet: the static judgement alone
        g.undo()


def result_of(board: str, budget: Budget = QUICK):
    return search(Gomoku.from_text(board, *shape(board)), budget)


def test_what_the_search_reports_when_it_need_not_search():
    # An immediate win: one ply, proved.
    win = result_of(IMMEDIATE_WINS[0][0])
    assert (win.best, win.value, win.depth, win.scores, win.proved) == ((0, 5), hard.MATE - 1, 1, {}, True)
    # One threat to block: the block, worth nothing yet.
    block = result_of(grid(7, "OXXXX..", "", "...O..O"))
    assert (block.best, block.value, block.depth, block.proved) == ((5,), 0, 1, False)
    # Two completions to block: both named, and the game is lost in two plies.
    lost = result_of(grid(7, "X.X.X.X", "", ".OOOO.."))
    assert (lost.best, lost.value, lost.depth) == ((14, 19), -(hard.MATE - 2), 1)
    # A win by fours: its first four, worth a win in that many plies, found at that depth.
    fours = result_of(VCF)
    assert (fours.best, fours.value, fours.depth, fours.proved) == ((112,), hard.MATE - 5, 5, True)
    # One cell left and nothing to decide: played without a search.
    last = result_of("XXOXOOOOOOXXXOOXOOOXOXOXOXXXXXXOXOOOOXOXXXXXOXOO.")
    assert (last.best, last.value, last.depth, last.nodes) == ((48,), 0, 0, 0)


def test_a_node_budget_stops_the_search_at_the_first_node_over_it():
    board = grid(15, "", "", "", "", "", "", "", ".......X", "......O")
    result = search(Gomoku.from_text(board, 15, 5), Budget(nodes=700))
    assert result.nodes == 701
    assert 1 <= result.depth < 64
    assert result.value == max(result.scores.values())


class Clock:
    """A CPU clock for tests: the readings given, then the last one for ever."""

    def __init__(self, *readings: float):
        self.readings = list(readings)

    def __call__(self) -> float:
        return self.readings.pop(0) if len(self.readings) > 1 else self.readings[0]


QUIET_15 = grid(15, "", "", "", "", "", "", "", ".......X", "......O")


def test_the_clock_is_read_every_256_nodes_and_stops_the_search_past_the_deadline():
    # Every iteration may start (start_fraction 10), so only the deadline stops the search.
    budget = Budget(seconds=1.0, start_fraction=10.0, clock=Clock(0.0, 5.0))
    result = search(Gomoku.from_text(QUIET_15, 15, 5), budget)
    assert result.nodes == 256
    assert result.seconds == 5.0


def test_at_the_deadline_exactly_the_search_goes_on():
    budget = Budget(seconds=1.0, start_fraction=1.0, depth=3, clock=Clock(0.0, 1.0))
    result = search(Gomoku.from_text(QUIET_15, 15, 5), budget)
    assert result.depth == 3
    assert result.nodes > 256


def test_a_new_iteration_starts_only_within_the_start_fraction_of_the_time():
    # 1.5 s of 2 used: past half of it, so no second iteration; well within the deadline itself.
    budget = Budget(seconds=2.0, start_fraction=0.5, depth=3, clock=Clock(10.0, 11.5))
    result = search(Gomoku.from_text(QUIET_15, 15, 5), budget)
    assert result.depth == 1
    assert result.seconds == 1.5


def test_wins_are_stored_in_the_table_as_plies_from_the_stored_node():
    mate_in_5, lost_in_4 = hard.MATE - 5, -(hard.MATE - 4)
    assert hard._to_table(mate_in_5, 3) == hard.MATE - 2
    assert hard._to_table(lost_in_4, 3) == -(hard.MATE - 1)
    for value in (0, 1234, -1234, hard.MATE_BOUND, -hard.MATE_BOUND):  # judgements, not wins
        assert hard._to_table(value, 3) == value == hard._from_table(value, 3)
    for value in (mate_in_5, lost_in_4, hard.MATE_BOUND + 1, -(hard.MATE_BOUND + 1)):
        assert hard._from_table(hard._to_table(value, 3), 3) == value
    assert hard._from_table(hard.MATE - 2, 3) == mate_in_5


def test_the_table_is_emptied_when_it_reaches_its_limit(monkeypatch):
    monkeypatch.setattr(hard, "TABLE_LIMIT", 5)
    s = hard.Search(Gomoku.from_text(MIDDLEGAMES[0], 7, 5), Budget())
    s.negamax(3, -hard.INF, hard.INF, 0)
    assert 1 <= len(s.table) <= 5


def test_easy_and_medium_on_the_big_boards_never_search_and_hard_keeps_to_the_budget_given(monkeypatch):
    board = QUIET_15
    given = []

    def recording_search(game, budget=hard.DEFAULT_BUDGET):
        given.append(budget)
        return hard.Result((0,), 0, 0, 0, 0.0)

    monkeypatch.setattr(hard, "search", recording_search)
    assert big.candidates(board, "random") == tuple(c for c, mark in enumerate(board) if mark == EMPTY)
    assert big.candidates(board, "one-ply") == big.one_ply(Gomoku.from_text(board, 15, 5))
    assert given == []
    assert big.candidates(board, "minimax", Budget(depth=1)) == (0,)
    assert given == [Budget(depth=1)]


def vcf(board: str, fours: int, nodes: int = 100) -> tuple[int | None, int]:
    """(plies to a win by at most ``fours`` fours or None, the nodes of ``nodes`` left) for the side to move."""
    limit = [nodes]
    found = hard.Search(Gomoku.from_text(board, *shape(board)), Budget()).vcf(fours, limit)
    return found, limit[0]


def with_stones(board: str, x: tuple[int, ...], o: tuple[int, ...]) -> str:
    cells = list(board)
    for mark, at in (("X", x), ("O", o)):
        for cell in at:
            cells[cell] = mark
    return "".join(cells)


def test_the_threat_search_counts_plies_fours_and_nodes():
    # VCF: the four at 112 and O's block, then an open four: five plies, two fours, one node each.
    assert vcf(VCF, 0) == (None, 100)
    assert vcf(VCF, 1)[0] is None
    assert vcf(VCF, 2) == (5, 98)
    assert vcf(VCF, 3) == (5, 98)
    assert vcf(VCF, 2, nodes=2) == (5, 0)
    assert vcf(VCF, 2, nodes=1) == (None, 0)
    # FOURS_7X7: 16 makes two completions at once, three plies, one four.
    assert vcf(FOURS_7X7, 1) == (3, 99)
    # A win on the board already: one ply, nothing searched.
    assert vcf(IMMEDIATE_WINS[0][0], 4) == (1, 100)


def test_against_a_threat_the_threat_search_tries_only_the_four_that_blocks_it():
    # VCF with an O column of four above 112 (X caps it at 37): O's one completion is 112, X's four.
    board = with_stones(VCF, x=(37, 215, 217, 219), o=(52, 67, 82, 97))
    g = Gomoku.from_text(board, 15, 5)
    assert g.wins(opponent=True) == [112] and len(g.forcing()) > 1
    assert vcf(board, 1) == (None, 99)  # 112 alone was tried
    # With an open four of O's (two completions) nothing is tried at all.
    board = with_stones(VCF, x=(215, 217, 219, 221), o=(37, 52, 67, 82))
    assert len(Gomoku.from_text(board, 15, 5).wins(opponent=True)) == 2
    assert vcf(board, 2) == (None, 100)


# Positions the search's own callers settle before it starts: a win at once, one threat, two, a dead board.
TACTICAL = [
    IMMEDIATE_WINS[0][0],
    grid(7, "OXXXX..", "", "...O..O"),
    grid(7, "X.X.X.X", "", ".OOOO.."),
    "XXOXOOOOOOXXXOOXOOOXOXOXOXXXXXXOXOOOOXOXXXXXOXOO.",
]


@pytest.mark.parametrize("board", TACTICAL)
@pytest.mark.parametrize("ply", [0, 3])
def test_the_search_values_wins_losses_and_draws_by_the_plies_to_them(board, ply):
    g = Gomoku.from_text(board, 7, 5)
    s = hard.Search(g, Budget())
    assert s.negamax(2, -hard.INF, hard.INF, ply) == reference(g, 2, ply)
    expected = {0: hard.MATE - ply - 1, 2: -(hard.MATE - ply - 2), 3: 0}
    if TACTICAL.index(board) in expected:
        assert reference(g, 2, ply) == expected[TACTICAL.index(board)]


# The nodes a search visits on the middlegames today, to depth 2 and 3 by search() and to depth 3 by one
# full-window negamax. Move ordering, the windows and the table are what buy depth within the time
# budget, so a change that costs nodes is a regression even where the values stay right (checked above).
NODES_TODAY = {0: (93, 602, 210), 1: (114, 460, 184), 3: (119, 585, 299)}


@pytest.mark.parametrize("index", sorted(NODES_TODAY))
def test_the_search_visits_no_more_nodes_than_it_does_today(index):
    board = MIDDLEGAMES[index]
    at_2, at_3, window = NODES_TODAY[index]
    assert search(Gomoku.from_text(board, 7, 5), Budget(depth=2)).nodes <= at_2
    assert search(Gomoku.from_text(board, 7, 5), Budget(depth=3)).nodes <= at_3
    s = hard.Search(Gomoku.from_text(board, 7, 5), Budget())
    s.negamax(3, -hard.INF, hard.INF, 0)
    assert s.nodes <= window


@pytest.mark.parametrize("ply", [0, 2])
def test_at_the_horizon_a_win_by_fours_is_valued_by_its_plies(ply):
    # VCF: X to move wins in five plies by fours; with no depth left, the threat search finds it.
    g = Gomoku.from_text(VCF, 15, 5)
    assert hard.Search(g, Budget()).negamax(0, -hard.INF, hard.INF, ply) == hard.MATE - ply - 5
    assert hard.Search(g, Budget()).leaf(ply) == hard.MATE - ply - 5


# --- the table, the windows and the threat search's edges (the second mutation run, docs/mutation.md) ---


def table_entry(board: str, depth: int, alpha: int, beta: int) -> tuple[int, tuple]:
    """A fresh search's value in the window (alpha, beta) and what it stored for the position itself."""
    g = Gomoku.from_text(board, *shape(board))
    s = hard.Search(g, Budget())
    return s.negamax(depth, alpha, beta, 0), s.table[g.key()]


@pytest.mark.parametrize("board", [*MIDDLEGAMES, QUIET_15])
def test_the_table_stores_a_fail_low_as_an_upper_bound_and_a_fail_high_as_a_lower_bound(board):
    depth = 2
    value, (stored_depth, flag, stored, move) = table_entry(board, depth, -hard.INF, hard.INF)
    assert (stored_depth, flag, stored) == (depth, hard.EXACT, value)
    assert move in Gomoku.from_text(board, *shape(board)).moves(hard.WIDTH)
    # Below the value: the search fails high and knows only that the value is at least what it returns.
    high, entry = table_entry(board, depth, value - 2, value - 1)
    assert high >= value - 1 and entry[:3] == (depth, hard.LOWER, high)
    # At the value itself, the edges of the window are bounds too: beta reached, alpha not passed.
    assert table_entry(board, depth, value - 1, value)[1][1] == hard.LOWER
    assert table_entry(board, depth, value, value + 1)[1][1] == hard.UPPER
    # Above it: fails low, an upper bound.
    low, entry = table_entry(board, depth, value + 1, value + 2)
    assert low <= value + 1 and entry[:3] == (depth, hard.UPPER, low)
    # Inside the window: exact.
    assert table_entry(board, depth, value - 1, value + 1) == (value, (depth, hard.EXACT, value, move))


@pytest.mark.parametrize("board", MIDDLEGAMES)
def test_a_search_repeated_at_the_same_depth_is_answered_by_the_table_in_one_node(board):
    g = Gomoku.from_text(board, 7, 5)
    s = hard.Search(g, Budget())
    value = s.negamax(3, -hard.INF, hard.INF, 0)
    first = s.nodes
    assert s.negamax(3, -hard.INF, hard.INF, 0) == value
    assert s.nodes == first + 1
    # One ply deeper the entry is not enough: searched again.
    s.negamax(4, -hard.INF, hard.INF, 0)
    assert s.nodes > first + 2


SETTLED = 12_345  # a stored value far from any position's real one, so that a value taken from the table shows


@pytest.mark.parametrize(
    ("flag", "stored_depth", "alpha", "beta", "settled"),
    [
        (hard.EXACT, 2, -hard.INF, hard.INF, True),
        (hard.EXACT, 3, -hard.INF, hard.INF, True),  # a deeper search's value is as good
        (hard.EXACT, 1, -hard.INF, hard.INF, False),  # a shallower one's is not
        # A lower bound settles a search whose beta it reaches, and nothing else.
        (hard.LOWER, 2, SETTLED - 10, SETTLED, True),
        (hard.LOWER, 2, SETTLED - 10, SETTLED + 1, False),
        (hard.LOWER, 2, SETTLED, SETTLED + 10, False),
        # An upper bound settles a search whose alpha it does not pass.
        (hard.UPPER, 2, SETTLED, SETTLED + 10, True),
        (hard.UPPER, 2, SETTLED - 1, SETTLED + 10, False),
        (hard.UPPER, 2, SETTLED - 10, SETTLED, False),
    ],
)
def test_a_stored_bound_settles_a_later_search_only_on_its_side_of_the_window(flag, stored_depth, alpha, beta, settled):
    board = MIDDLEGAMES[0]
    g = Gomoku.from_text(board, 7, 5)
    s = hard.Search(g, Budget())
    s.table[g.key()] = (stored_depth, flag, SETTLED, None)
    value = s.negamax(2, alpha, beta, 0)
    if settled:
        assert (value, s.nodes) == (SETTLED, 1)
    else:  # searched as if the entry were not there
        fresh = hard.Search(Gomoku.from_text(board, 7, 5), Budget())
        assert (value, s.nodes) == (fresh.negamax(2, alpha, beta, 0), fresh.nodes)


def test_a_win_taken_from_the_table_is_counted_from_the_node_that_asks():
    g = Gomoku.from_text(MIDDLEGAMES[0], 7, 5)
    s = hard.Search(g, Budget())
    s.table[g.key()] = (2, hard.EXACT, hard.MATE - 3, None)  # stored: a win 3 plies from that node
    assert s.negamax(2, -hard.INF, hard.INF, 4) == hard.MATE - 7


def test_each_iteration_searches_the_last_ones_best_move_first():
    # MIDDLEGAMES[1]: the ordering puts 9 first, but a depth-2 search prefers 18.
    g = Gomoku.from_text(MIDDLEGAMES[1], 7, 5)
    s = hard.Search(g, Budget())
    s.negamax(2, -hard.INF, hard.INF, 0)
    best = s.table[g.key()][3]
    assert best != g.moves(hard.WIDTH)[0]
    played = []
    play = g.play
    g.play = lambda move: (played.append(move), play(move))[1]
    s.negamax(3, -hard.INF, hard.INF, 0)
    assert played[0] == best


def test_of_equally_good_moves_the_table_keeps_the_first_searched():
    g = Gomoku.from_text(QUIET_15, 15, 5)
    s = hard.Search(g, Budget())
    value = s.negamax(1, -hard.INF, hard.INF, 0)
    worth = {}
    for move in g.moves(hard.WIDTH):
        g.play(move)
        worth[move] = -g.evaluate()  # depth 1: each move's value is the evaluation after it, exactly
        g.undo()
    tied = [move for move, v in worth.items() if v == value]
    assert len(tied) > 1
    assert s.table[g.key()][3] == tied[0]


class SizeLog(dict):
    """A table that remembers the most entries it ever held."""

    most = 0

    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        self.most = max(self.most, len(self))


def test_the_table_never_holds_more_than_its_limit(monkeypatch):
    monkeypatch.setattr(hard, "TABLE_LIMIT", 5)
    s = hard.Search(Gomoku.from_text(MIDDLEGAMES[0], 7, 5), Budget())
    s.table = SizeLog()
    s.negamax(3, -hard.INF, hard.INF, 0)
    assert s.table.most == 5


@pytest.mark.parametrize("board", MIDDLEGAMES[2:])
@pytest.mark.parametrize("ply", [38, 39, 40, 41])
def test_a_chain_of_forced_replies_deepens_only_until_ply_40(board, ply):
    g = Gomoku.from_text(board, 7, 5)
    assert hard.Search(g, Budget()).negamax(2, -hard.INF, hard.INF, ply) == reference(g, 2, ply)


# X to move, with O's four on the top row to block: the forced reply costs no depth for X as for O.
X_BLOCKS = grid(7, "XOOOO..", "", "...X..X", "X")


@pytest.mark.parametrize("depth", [1, 2])
@pytest.mark.parametrize("board", [X_BLOCKS, TACTICAL[1]])
def test_either_side_blocks_a_single_threat_without_using_depth(board, depth):
    g = Gomoku.from_text(board, 7, 5)
    assert g.wins(opponent=True) == [5]
    assert hard.Search(g, Budget()).negamax(depth, -hard.INF, hard.INF, 0) == reference(g, depth, 0)


@pytest.mark.parametrize("ply", [0, 2])
def test_a_win_by_fours_behind_a_forced_block_is_valued_from_the_root(ply):
    # O to move blocks X's four at 200 (row 13), and then X wins by the fours of VCF: five plies more.
    board = with_stones(VCF, x=(196, 197, 198, 199), o=(195, 7, 217))
    g = Gomoku.from_text(board, 15, 5)
    assert g.wins(opponent=True) == [200] and not g.forcing()
    assert hard.Search(g, Budget()).negamax(0, -hard.INF, hard.INF, ply) == -(hard.MATE - ply - 6)


def test_a_dead_position_is_a_draw_in_one_node():
    g = Gomoku.from_text(TACTICAL[3], 7, 5)
    assert g.dead() and not g.full()
    s = hard.Search(g, Budget())
    assert (s.negamax(2, -hard.INF, hard.INF, 0), s.nodes) == (0, 1)


def test_a_win_found_by_the_look_ahead_is_valued_by_its_plies_from_the_root():
    # X to move: 112 makes two open threes at once (no four anywhere), so the win needs the search.
    board = with_stones(EMPTY * 225, x=(110, 111, 82, 97), o=(0, 14, 210, 224))
    result = search(Gomoku.from_text(board, 15, 5), Budget(depth=4))
    # 112, any answer, an open four, any answer, five: found at depth 2, which ends the deepening.
    assert (result.best, result.value, result.depth, result.reason) == ((112,), hard.MATE - 5, 2, "search")


def test_the_threat_search_from_the_root_keeps_to_its_fours_and_nodes():
    def first_fours(board, max_fours, nodes):
        s = hard.Search(Gomoku.from_text(board, *shape(board)), Budget())
        return s.winning_fours(max_fours, nodes), s.nodes

    # FOURS_7X7: 16 wins with one four (two completions), 44 and 45 with two.
    assert first_fours(FOURS_7X7, 8, 4000) == ({16: 3, 44: 5, 45: 5}, 2)
    assert first_fours(FOURS_7X7, 1, 4000) == ({16: 3}, 0)
    assert first_fours(FOURS_7X7, 2, 4000) == ({16: 3, 44: 5, 45: 5}, 2)
    assert first_fours(VCF, 2, 4000) == ({112: 5}, 1)
    # The node budget: none at all tries nothing; one is spent on the first four that needs a search.
    assert first_fours(FOURS_7X7, 8, 0) == ({}, 0)
    assert first_fours(FOURS_7X7, 8, 1) == ({16: 3, 44: 5}, 1)


def test_facing_two_completions_the_threat_search_tries_nothing():
    # X to move, O's open four on row 3 (45 and 50 complete it); 45 would also make X's four in column 0.
    board = with_stones(EMPTY * 225, x=(60, 75, 90, 224), o=(46, 47, 48, 49))
    g = Gomoku.from_text(board, 15, 5)
    assert g.wins(opponent=True) == [45, 50] and 45 in g.forcing()
    assert vcf(board, 2) == (None, 100)


# X to move on 7×7 wins by six fours (eleven plies) at 29 or 39, but by no sequence of four fours or fewer.
SIX_FOURS_7X7 = "...X.O.O..OXX.OXOXX..O.XX..OX.OX.....O....O......"


def test_at_the_horizon_the_threat_search_looks_for_four_fours_at_most():
    g = Gomoku.from_text(SIX_FOURS_7X7, 7, 5)
    assert hard.Search(g, Budget()).winning_fours(8, 4000)[29] == 11
    assert vcf(SIX_FOURS_7X7, 4, nodes=24) == (None, 0)
    # So the horizon judges the position by the evaluation, not as the win a deeper threat search would see.
    assert hard.Search(g, Budget()).leaf(0) == g.evaluate()


def test_a_search_that_finishes_no_depth_is_worth_nothing_yet():
    result = search(Gomoku.from_text(QUIET_7, 7, 5), Budget(nodes=5))
    assert (result.reason, result.value, result.depth, result.scores, result.proved) == ("unfinished", 0, 0, {}, False)


# The nodes each search visits today, pinned: the windows, the table and the move ordering decide them, and
# a change there that keeps every value (tested above) shows only here. Update them when a change is meant.
NODES_PINNED = {
    0: (93, 602, 1543),
    1: (114, 460, 1309),
    3: (119, 585, 2246),
    4: (81, 638, 2527),
    5: (154, 728, 2147),
}


@pytest.mark.parametrize("index", sorted(NODES_PINNED))
def test_the_nodes_a_search_visits_are_the_same_as_today(index):
    board = [*MIDDLEGAMES, QUIET_7, QUIET_15][index]
    nodes = tuple(search(Gomoku.from_text(board, *shape(board)), Budget(depth=d)).nodes for d in (2, 3, 4))
    assert nodes == NODES_PINNED[index]


def test_easy_and_medium_asked_through_the_levels_never_search_on_the_big_boards():
    g = Gomoku.from_text(QUIET_7, 7, 5)
    assert levels.candidates(QUIET_7, "random") == tuple(g.legal())
    assert levels.candidates(QUIET_7, "one-ply") == big.one_ply(g)


def test_the_search_view_keeps_to_the_budget_given():
    assert levels.search_view(QUIET_7, Budget(depth=1)).depth == 1


def test_the_view_lists_equal_figures_by_cell():
    result = hard.Result(best=(5,), value=10, depth=1, nodes=1, seconds=0.0, scores={9: 3, 2: 3, 5: 10})
    assert big.View.of(result).scores == ((5, 10), (2, 3), (9, 3))


# --- the third mutation run (docs/mutation.md): the threat searches' budgets and the root's window -------

# X to move on 15×15: ten closed threes (O X X X), on rows three apart so that no two share a line, and twenty
# O marks with at most two on any line. X has twenty fours but no forced win by them (the threat search finds
# none in 85,404 nodes), so every threat search here runs until its budget stops it.
MANY_FOURS = grid(
    15,
    "OXXX....OXXX...",
    ".....OO........",
    ".O.......O.O...",
    "OXXX....OXXX...",
    "....O..........",
    "...........O.O.",
    "OXXX....OXXX...",
    ".....O.........",
    ".............O.",
    "OXXX....OXXX...",
    ".......O.......",
    "...O.O...OO....",
    "OXXX....OXXX...",
    "......O........",
    "O..O...O..O....",
)


def test_the_threat_searches_stop_at_their_node_budgets():
    game = Gomoku.from_text(MANY_FOURS, 15, 5)
    # At the horizon: 24 nodes, then the evaluation.
    horizon = hard.Search(game, Budget())
    assert horizon.leaf(0) == game.evaluate()
    assert horizon.nodes == 24
    # At the root: 4,000 nodes, then the look-ahead, which costs what it costs on its own.
    look_ahead = hard.Search(game, Budget())
    look_ahead.root(game.moves(hard.ROOT_WIDTH), 1)
    assert search(game, Budget(depth=1)).nodes == 4000 + look_ahead.nodes


# Positions where a threat search's budget, or the root's window, moved by one changes only the nodes visited
# (each found by running the changed search beside this one on random positions): pinned, with the depth.
# 15×15, X to move wins by fours in three plies (126): the root's threat search, up to eight fours.
FOURS_AT_THE_ROOT = grid(
    15, "", "", "", "", ".....O.XO.X", "....X.X..O", ".....X", ".....O", "........XX", ".......O", "........O"
)
# 7×7, X to move: the threat search at the horizon, up to 24 nodes.
FOURS_AT_THE_HORIZON = grid(7, "...X", "O", "...X.O", ".O", "O.X..O", "X", ".OX.X")
# 7×7, X to move: the root's window, one point below the best so far.
NEAR_TIES = grid(7, ".X.O", "...X", "O..X", "", "O..O.X", "", "..O.X")
EDGE_NODES = {FOURS_AT_THE_ROOT: (2, 14), FOURS_AT_THE_HORIZON: (2, 360), NEAR_TIES: (3, 673)}


@pytest.mark.parametrize("board", list(EDGE_NODES), ids=["fours-at-the-root", "fours-at-the-horizon", "near-ties"])
def test_the_nodes_at_the_budgets_edges_are_the_same_as_today(board):
    depth, nodes = EDGE_NODES[board]
    assert search(Gomoku.from_text(board, *shape(board)), Budget(depth=depth)).nodes == nodes
