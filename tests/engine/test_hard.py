import dataclasses
import itertools
import random

import pytest
from support import stones

from tests.proofs import wins_within
from webapp.engine import alphabeta, big, hard, levels, pacing
from webapp.engine.budget import DEFAULT_BUDGET, Budget
from webapp.engine.gomoku import Gomoku
from webapp.engine.hard import search
from webapp.engine.lines import DOUBLE_W, FOUR_W
from webapp.engine.rules import EMPTY, Position, other, parse
from webapp.engine.vct import Exhausted, Meter, ThreatSearch

# Node budgets keep every result here independent of the machine's speed.
QUICK = Budget(nodes=3000)
# Enough for the threat searches at the root to run their full shares.
AMPLE = Budget(nodes=60_000)


def grid(n: int, *rows: str) -> str:
    """A board of n×n cells from its top rows, each padded with empty cells; the rest is empty."""
    return "".join(row.ljust(n, EMPTY) for row in rows).ljust(n * n, EMPTY)


# X to move on 15×15 after the centre and O's reply beside it: a quiet position, searched for real.
QUIET_15 = grid(15, "", "", "", "", "", "", "", ".......X", ".......O")


def hard_moves(board: str, budget: Budget = QUICK) -> tuple[int, ...]:
    return big.candidates(board, "minimax", budget)


def shape(board: str) -> tuple[int, int]:
    return (7, 5) if len(board) == 49 else (15, 5)


def game_of(board: str) -> Gomoku:
    return Gomoku.from_text(board, *shape(board))


def find(game: Gomoku, side: str):
    """A strong threat search, for the checks: three threes, many nodes."""
    return ThreatSearch(game, side, Meter(nodes=300_000)).vct(3)


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


# X to move: the four at (7, 7) forces O to (7, 8), then (6, 7) or (10, 7) is an open four: five plies.
VCF = grid(
    15, "O.............O", "", "", "", "", "", "", "...OXXX", ".......X", ".......X", "", "", "", "", "O...........O"
)

CORNERS = [(0, 0), (0, 14), (14, 0), (14, 14)]
# X to move on 15×15. (7, 8) makes a four on row 7 (closed by O at (7, 4)) and an open three in column 8.
FOUR_THREE = stones(15, x=[(7, 5), (7, 6), (7, 7), (5, 8), (6, 8)], o=[(7, 4), *CORNERS])
# X to move on 15×15. (7, 8) makes two open threes, on row 7 and in column 8.
DOUBLE_THREE = stones(15, x=[(7, 6), (7, 7), (5, 8), (6, 8)], o=CORNERS)
# The position of issue 21, X to move: Hard played 85 and O won by continuous fours. Every move loses to
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
    # After Hard's move O has no forced win by fours (after the move the issue saw played, 85, it had one).
    g.play(85)
    assert ThreatSearch(g, "O", Meter()).vcf() is not None
    g.undo()
    g.play(move)
    assert ThreatSearch(g, "O", Meter()).vcf() is None
    g.undo()
    # And of the moves that could stop O's threat (the cells of its line, and the moves Hard looks at
    # first), none leaves O a win that is longer, or harder to find within the same share of nodes.
    s = alphabeta.Search(g, Budget())
    threat = s.forced("O", hard.THEIR_NODES)
    after = {}
    for cell in {*threat.line, *g.moves(hard.ROOT_WIDTH), move}:
        g.play(cell)
        after[cell] = s.outlook("O", hard.CHECK_NODES)
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
    s = alphabeta.Search(g, Budget(nodes=100_000))
    pressure = {}
    for ours, theirs in ((158, 173), (173, 158)):
        g.play(ours)
        pressure[ours] = hard._pressure(s, "O", "X", theirs)
        g.undo()
    assert pressure[158] > pressure[173] + hard.REBUT_MARGIN
    s = alphabeta.Search(g, Budget(nodes=100_000))
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


def test_the_hard_budget_reads_the_paces_clock():
    assert DEFAULT_BUDGET.clock is None  # the pace's clock: CPU time alone, the request's in a server
    assert pacing.current().clock.__name__ == "process_time"


# --- the search's view, as the tree explorer shows it ----------------------------------------

# O to move on 7×7 after X took the centre and O and X one move each: a quiet position, searched for real.
QUIET_7 = grid(7, "", "", "...O", "...X", "....X")


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


def test_the_view_lists_equal_figures_by_cell():
    result = hard.Result(best=(5,), value=10, depth=1, nodes=1, seconds=0.0, scores={9: 3, 2: 3, 5: 10})
    assert big.View.of(result).scores == ((5, 10), (2, 3), (9, 3))


def test_easy_and_medium_asked_through_the_levels_never_search_on_the_big_boards():
    g = Gomoku.from_text(QUIET_7, 7, 5)
    assert levels.candidates(QUIET_7, "random") == tuple(g.legal())
    assert levels.candidates(QUIET_7, "one-ply") == big.one_ply(g)


def test_the_search_view_keeps_to_the_budget_given():
    assert levels.search_view(QUIET_7, Budget(depth=1)).depth == 1


# --- the alpha-beta's values, its window and its table ---------------------------------------


def fours_of(game: Gomoku, side: str, line: bool = False):
    """A fresh search for ``side``'s short win by fours, as if it were to move, within the inner nodes' share."""
    passed = game.mover != side
    if passed:
        game.pass_turn()
    meter = Meter()
    try:
        with meter.share(alphabeta.INNER_NODES):
            search = ThreatSearch(game, side, meter)
            if line:
                found = search.vcf(alphabeta.LEAF_DEPTH)
                return None if found is None else found.line
            return search.attack(0, alphabeta.LEAF_DEPTH)
    except Exhausted:
        return None
    finally:
        if passed:
            game.undo()


def reference(game: Gomoku, depth: int, ply: int) -> int:
    """Hard's negamax value by the book: the same rules at each node, but no window and no table."""
    me = game.mover
    mine, theirs = game.completions(me)
    if mine:
        return alphabeta.MATE - ply - 1
    if len(theirs) > 1:
        return -(alphabeta.MATE - ply - 2)
    if game.full() or game.dead():
        return 0
    if theirs:  # the forced block costs no depth, up to ply 40
        game.play(theirs[0])
        try:
            return -reference(game, depth if ply < 40 else 0, ply + 1)
        finally:
            game.undo()
    if game.has(me, DOUBLE_W):  # a double to make: two completions, and the opponent has none
        return alphabeta.MATE - ply - 3
    if depth <= 0:
        meter = Meter()
        try:
            with meter.share(alphabeta.LEAF_NODES):
                found = ThreatSearch(game, me, meter).attack(0, alphabeta.LEAF_DEPTH)
        except Exhausted:
            found = None
        return game.evaluate() if found is None else alphabeta.MATE - ply - found
    answers = game.answers(other(me))
    if answers == []:
        return -(alphabeta.MATE - ply - 4)
    if answers is None:
        plies = fours_of(game, me)
        if plies is not None:
            return alphabeta.MATE - ply - plies
        moves = game.moves(alphabeta.WIDTH)
        threat = fours_of(game, other(me), line=True)
        if threat is not None:
            stops = set(threat) | set(game.threats(me, FOUR_W))
            moves = [m for m in game.moves() if m in stops][: alphabeta.WIDTH] or moves
    else:
        moves = answers[: alphabeta.WIDTH]
    best = -alphabeta.INF
    for move in moves:
        game.play(move)
        try:
            best = max(best, -reference(game, depth - 1, ply + 1))
        finally:
            game.undo()
    if answers is not None and best < -alphabeta.MATE_BOUND and len(answers) > alphabeta.WIDTH:
        best = max(best, -(alphabeta.MATE - ply - 4))
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
    s = alphabeta.Search(g, Budget())
    assert s.negamax(depth, -alphabeta.INF, alphabeta.INF, 0) == expected
    assert g.text == board  # every move taken back


@pytest.mark.parametrize("board", MIDDLEGAMES)
@pytest.mark.parametrize("ply", [39, 40])
def test_forced_replies_cost_no_depth_until_ply_40(board, ply):
    g = Gomoku.from_text(board, 7, 5)
    s = alphabeta.Search(g, Budget())
    assert s.negamax(1, -alphabeta.INF, alphabeta.INF, ply) == reference(g, 1, ply)


@pytest.mark.parametrize("board", [MIDDLEGAMES[0], MIDDLEGAMES[1], MIDDLEGAMES[3], QUIET_15])
@pytest.mark.parametrize("depth", [1, 2])
def test_each_root_score_is_exact_for_the_best_moves_and_an_upper_bound_for_the_rest(board, depth):
    g = game_of(board)
    s = alphabeta.Search(g, Budget())
    moves = g.moves(hard.ROOT_WIDTH)
    scores = s.root(moves, depth)
    exact = {}
    for move in moves:
        g.play(move)
        exact[move] = -reference(g, depth - 1, 1)
        g.undo()
    top = max(exact.values())
    assert set(scores) == set(exact) and max(scores.values()) == top
    for move, score in scores.items():
        assert score == exact[move] if exact[move] == top else exact[move] <= score < top


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


def test_a_new_iteration_starts_only_within_the_start_fraction_of_the_time():
    readings = []

    def clock():
        # At the start of the move and of the alpha-beta, 10 s; once the first iteration is over, 1.5 s of the 2
        # are gone: past half of them, so no second iteration.
        readings.append(1)
        return 10.0 if len(readings) <= 2 else 11.5

    s = alphabeta.Search(
        Gomoku.from_text(QUIET_15, 15, 5), Budget(seconds=2.0, start_fraction=0.5, depth=3, clock=clock)
    )
    scores, depth = s.deepen(s.game.moves(hard.ROOT_WIDTH))
    assert depth == 1 and scores
    # Under the fraction, the iterations go on.
    s = alphabeta.Search(
        Gomoku.from_text(QUIET_15, 15, 5), Budget(seconds=2.0, start_fraction=0.9, depth=3, clock=clock)
    )
    assert s.deepen(s.game.moves(hard.ROOT_WIDTH))[1] == 3


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


@pytest.mark.parametrize(
    ("board", "count"),
    [
        (QUIET_15, 0),  # X to move in the opening: the first player's budget is of nodes, not a count in it
        (grid(15, "", "", "", "", "", "", "", ".......X"), 4_000),  # O to move: the second, who defends...
        (stones(15, x=[(5, 5), (7, 7), (9, 5), (11, 7)], o=[(5, 7), (7, 5), (9, 7)]), 6_000),  # ...further later on
        (
            stones(
                15,
                x=[(5, 5), (5, 9), (9, 5), (9, 9), (3, 3), (3, 11)],
                o=[(6, 6), (6, 8), (8, 6), (8, 8), (4, 4), (4, 10)],
            ),
            0,
        ),
    ],
)
def test_each_player_has_its_own_count_in_the_opening_and_the_clock_decides_past_it(board, count):
    game = Gomoku.from_text(board, 15, 5)
    s = alphabeta.Search(game, DEFAULT_BUDGET.for_mover(game.mover))
    assert s.opening_count() == count


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
        s = alphabeta.Search(game_of(SEVENTH), DEFAULT_BUDGET.for_mover(mover))
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


def test_wins_are_stored_in_the_table_as_plies_from_the_stored_node():
    mate_in_5, lost_in_4 = alphabeta.MATE - 5, -(alphabeta.MATE - 4)
    assert alphabeta._to_table(mate_in_5, 3) == alphabeta.MATE - 2
    assert alphabeta._to_table(lost_in_4, 3) == -(alphabeta.MATE - 1)
    for value in (0, 1234, -1234, alphabeta.MATE_BOUND, -alphabeta.MATE_BOUND):  # judgements, not wins
        assert alphabeta._to_table(value, 3) == value == alphabeta._from_table(value, 3)
    for value in (mate_in_5, lost_in_4, alphabeta.MATE_BOUND + 1, -(alphabeta.MATE_BOUND + 1)):
        assert alphabeta._from_table(alphabeta._to_table(value, 3), 3) == value
    assert alphabeta._from_table(alphabeta.MATE - 2, 3) == mate_in_5


class SizeLog(dict):
    """A table that remembers the most entries it ever held."""

    most = 0

    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        self.most = max(self.most, len(self))


def test_the_table_never_holds_more_than_its_limit(monkeypatch):
    monkeypatch.setattr(alphabeta, "TABLE_LIMIT", 5)
    s = alphabeta.Search(Gomoku.from_text(MIDDLEGAMES[0], 7, 5), Budget())
    s.table = SizeLog()
    s.negamax(3, -alphabeta.INF, alphabeta.INF, 0)
    assert s.table.most == 5


def table_entry(board: str, depth: int, alpha: int, beta: int) -> tuple[int, tuple]:
    """A fresh search's value in the window (alpha, beta) and what it stored for the position itself."""
    g = Gomoku.from_text(board, *shape(board))
    s = alphabeta.Search(g, Budget())
    return s.negamax(depth, alpha, beta, 0), s.table[g.key()]


@pytest.mark.parametrize("board", [MIDDLEGAMES[0], MIDDLEGAMES[1], QUIET_15])
def test_the_table_stores_a_fail_low_as_an_upper_bound_and_a_fail_high_as_a_lower_bound(board):
    depth = 2
    value, (stored_depth, flag, stored, move) = table_entry(board, depth, -alphabeta.INF, alphabeta.INF)
    assert (stored_depth, flag, stored) == (depth, alphabeta.EXACT, value)
    high, entry = table_entry(board, depth, value - 2, value - 1)
    assert high >= value - 1 and entry[:3] == (depth, alphabeta.LOWER, high)
    assert table_entry(board, depth, value - 1, value)[1][1] == alphabeta.LOWER
    assert table_entry(board, depth, value, value + 1)[1][1] == alphabeta.UPPER
    low, entry = table_entry(board, depth, value + 1, value + 2)
    assert low <= value + 1 and entry[:3] == (depth, alphabeta.UPPER, low)
    assert table_entry(board, depth, value - 1, value + 1) == (value, (depth, alphabeta.EXACT, value, move))


@pytest.mark.parametrize("board", [MIDDLEGAMES[0], MIDDLEGAMES[1]])
def test_a_search_repeated_at_the_same_depth_is_answered_by_the_table_in_one_node(board):
    g = Gomoku.from_text(board, 7, 5)
    s = alphabeta.Search(g, Budget())
    value = s.negamax(3, -alphabeta.INF, alphabeta.INF, 0)
    first = s.nodes
    assert s.negamax(3, -alphabeta.INF, alphabeta.INF, 0) == value
    assert s.nodes == first + 1
    s.negamax(4, -alphabeta.INF, alphabeta.INF, 0)
    assert s.nodes > first + 2


def test_a_double_to_make_is_a_win_in_three_and_facing_one_only_its_answers_are_searched():
    # X to move with an open three on row 3 of 7×7 (O's stones out of the way): X makes an open four.
    board = grid(7, "O.....O", "", "", ".XXX...", "", "", "O..O..X")
    g = game_of(board)
    assert g.mover == "X"
    assert alphabeta.Search(g, Budget()).negamax(2, -alphabeta.INF, alphabeta.INF, 0) == alphabeta.MATE - 3
    # With O to move (one more X stone far away), the search tries X's four cells only: the answers.
    g = game_of(board[:14] + "X" + board[15:])
    answers = g.answers("X")
    assert g.mover == "O" and answers and len(answers) < len(g.moves())
    s = alphabeta.Search(g, Budget())
    s.negamax(1, -alphabeta.INF, alphabeta.INF, 0)
    assert s.table[g.key()][3] in answers


@pytest.mark.parametrize("ply", [0, 2])
def test_at_the_horizon_a_win_by_fours_is_valued_by_its_plies(ply):
    g = Gomoku.from_text(VCF, 15, 5)
    assert alphabeta.Search(g, Budget()).negamax(0, -alphabeta.INF, alphabeta.INF, ply) == alphabeta.MATE - ply - 5
    assert alphabeta.Search(g, Budget()).leaf(ply) == alphabeta.MATE - ply - 5


def test_a_dead_position_is_a_draw_in_one_node():
    board = "XXOXOOOOOOXXXOOXOOOXOXOXOXXXXXXOXOOOOXOXXXXXOXOO."
    g = Gomoku.from_text(board, 7, 5)
    assert g.dead()
    s = alphabeta.Search(g, Budget())
    assert (s.negamax(2, -alphabeta.INF, alphabeta.INF, 0), s.nodes) == (0, 1)


# O to move while X has a win by fours (VCF with one more X stone far away): only the cells of X's line and O's
# fours are searched; and X to move in VCF, whose own win by fours ends the search at once.
AGAINST_FOURS = VCF[:220] + "X" + VCF[221:]


@pytest.mark.parametrize("board", [AGAINST_FOURS, VCF])
@pytest.mark.parametrize("depth", [1, 2])
def test_wins_by_fours_inside_the_tree_are_found_and_answered(board, depth):
    g = game_of(board)
    s = alphabeta.Search(g, Budget())
    value = s.negamax(depth, -alphabeta.INF, alphabeta.INF, 0)
    assert value == reference(g, depth, 0)
    if board == VCF:
        assert value == alphabeta.MATE - 5 and s.nodes < 40
    else:
        assert g.mover == "O" and s.table[g.key()][3] in set(s.fours("X", line=True)) | set(g.threats("O", FOUR_W))
