"""Hard's alpha-beta (webapp/engine/big/alphabeta.py): held against a plain negamax, its iterations and its table."""

import pytest
from support import stones

from tests.engine.positions import MIDDLEGAMES, QUIET_15, VCF, game_of, grid, shape
from webapp.engine.big import alphabeta, hard, parameters
from webapp.engine.big.board import Gomoku
from webapp.engine.big.budget import DEFAULT_BUDGET, Budget, Exhausted, Meter
from webapp.engine.big.lines import DOUBLE_W, FOUR_W
from webapp.engine.big.moves import width
from webapp.engine.big.threats import ThreatSearch
from webapp.engine.rules import other


def fours_of(game: Gomoku, side: str, line: bool = False):
    """A fresh search for ``side``'s short win by fours, as if it were to move, within the inner nodes' share."""
    passed = game.mover != side
    if passed:
        game.pass_turn()
    meter = Meter()
    try:
        with meter.share(parameters.INNER_NODES):
            search = ThreatSearch(game, side, meter)
            if line:
                found = search.vcf(parameters.LEAF_DEPTH)
                return None if found is None else found.line
            return search.attack(0, parameters.LEAF_DEPTH)
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
            with meter.share(parameters.LEAF_NODES):
                found = ThreatSearch(game, me, meter).attack(0, parameters.LEAF_DEPTH)
        except Exhausted:
            found = None
        return game.evaluate() if found is None else alphabeta.MATE - ply - found
    answers = game.answers(other(me))
    if answers == []:
        return -(alphabeta.MATE - ply - 4)
    wide = width(ply)  # fewer moves the deeper the node
    if answers is None:
        plies = fours_of(game, me)
        if plies is not None:
            return alphabeta.MATE - ply - plies
        moves = game.moves(wide)
        threat = fours_of(game, other(me), line=True)
        if threat is not None:
            stops = set(threat) | set(game.threats(me, FOUR_W))
            moves = [m for m in game.moves() if m in stops][:wide] or moves
    else:
        moves = answers[:wide]
    best = -alphabeta.INF
    for move in moves:
        game.play(move)
        try:
            best = max(best, -reference(game, depth - 1, ply + 1))
        finally:
            game.undo()
    if answers is not None and best < -alphabeta.MATE_BOUND and len(answers) > wide:
        best = max(best, -(alphabeta.MATE - ply - 4))
    return best


@pytest.mark.parametrize("board", MIDDLEGAMES)
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_the_windowed_search_with_its_table_finds_the_plain_negamax_value(board, depth):
    g = Gomoku.from_text(board, 7, 5)
    expected = reference(g, depth, 0)
    # Late-move reductions make the value a judgement, not the plain negamax one: off here (never reached below).
    s = alphabeta.AlphaBeta(g, Meter(), reduce_from=parameters.MAX_DEPTH)
    assert s.negamax(depth, -alphabeta.INF, alphabeta.INF, 0) == expected
    assert g.text == board  # every move taken back


@pytest.mark.parametrize("board", MIDDLEGAMES)
def test_reductions_leave_the_searches_shallower_than_their_depth_exact(board):
    g = Gomoku.from_text(board, 7, 5)
    depth = parameters.LMR_DEPTH - 1
    s = alphabeta.AlphaBeta(g, Meter())
    assert s.negamax(depth, -alphabeta.INF, alphabeta.INF, 0) == reference(g, depth, 0)


@pytest.mark.parametrize("board", MIDDLEGAMES)
@pytest.mark.parametrize("ply", [39, 40])
def test_forced_replies_cost_no_depth_until_ply_40(board, ply):
    g = Gomoku.from_text(board, 7, 5)
    s = alphabeta.AlphaBeta(g, Meter())
    assert s.negamax(1, -alphabeta.INF, alphabeta.INF, ply) == reference(g, 1, ply)


@pytest.mark.parametrize("board", [MIDDLEGAMES[0], MIDDLEGAMES[1], MIDDLEGAMES[3], QUIET_15])
@pytest.mark.parametrize("depth", [1, 2])
def test_each_root_score_is_exact_for_the_best_moves_and_an_upper_bound_for_the_rest(board, depth):
    g = game_of(board)
    s = alphabeta.AlphaBeta(g, Meter())
    moves = g.moves(parameters.ROOT_WIDTH)
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


def test_a_new_iteration_starts_only_within_the_start_fraction_of_the_time():
    readings = []

    def clock():
        # At the start of the move and of the alpha-beta, 10 s; once the first iteration is over, 1.5 s of the 2
        # are gone: past half of them, so no second iteration.
        readings.append(1)
        return 10.0 if len(readings) <= 2 else 11.5

    s = hard.MoveSearch(
        Gomoku.from_text(QUIET_15, 15, 5), Budget(seconds=2.0, start_fraction=0.5, depth=3, clock=clock)
    )
    scores, depth = s.deepen(s.game.moves(parameters.ROOT_WIDTH))
    assert depth == 1 and scores
    # Under the fraction, the iterations go on.
    s = hard.MoveSearch(
        Gomoku.from_text(QUIET_15, 15, 5), Budget(seconds=2.0, start_fraction=0.9, depth=3, clock=clock)
    )
    assert s.deepen(s.game.moves(parameters.ROOT_WIDTH))[1] == 3


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
    s = hard.MoveSearch(game, DEFAULT_BUDGET.for_mover(game.mover))
    assert s.opening_count() == count


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
    s = alphabeta.AlphaBeta(Gomoku.from_text(MIDDLEGAMES[0], 7, 5), Meter())
    s.table = SizeLog()
    s.negamax(3, -alphabeta.INF, alphabeta.INF, 0)
    assert s.table.most == 5


def table_entry(board: str, depth: int, alpha: int, beta: int) -> tuple[int, tuple]:
    """A fresh search's value in the window (alpha, beta) and what it stored for the position itself."""
    g = Gomoku.from_text(board, *shape(board))
    s = alphabeta.AlphaBeta(g, Meter())
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
    s = alphabeta.AlphaBeta(g, Meter())
    value = s.negamax(3, -alphabeta.INF, alphabeta.INF, 0)
    first = s.meter.nodes
    assert s.negamax(3, -alphabeta.INF, alphabeta.INF, 0) == value
    assert s.meter.nodes == first + 1
    s.negamax(4, -alphabeta.INF, alphabeta.INF, 0)
    assert s.meter.nodes > first + 2


def test_a_double_to_make_is_a_win_in_three_and_facing_one_only_its_answers_are_searched():
    # X to move with an open three on row 3 of 7×7 (O's stones out of the way): X makes an open four.
    board = grid(7, "O.....O", "", "", ".XXX...", "", "", "O..O..X")
    g = game_of(board)
    assert g.mover == "X"
    assert alphabeta.AlphaBeta(g, Meter()).negamax(2, -alphabeta.INF, alphabeta.INF, 0) == alphabeta.MATE - 3
    # With O to move (one more X stone far away), the search tries X's four cells only: the answers.
    g = game_of(board[:14] + "X" + board[15:])
    answers = g.answers("X")
    assert g.mover == "O" and answers and len(answers) < len(g.moves())
    s = alphabeta.AlphaBeta(g, Meter())
    s.negamax(1, -alphabeta.INF, alphabeta.INF, 0)
    assert s.table[g.key()][3] in answers


@pytest.mark.parametrize("ply", [0, 2])
def test_at_the_horizon_a_win_by_fours_is_valued_by_its_plies(ply):
    g = Gomoku.from_text(VCF, 15, 5)
    assert alphabeta.AlphaBeta(g, Meter()).negamax(0, -alphabeta.INF, alphabeta.INF, ply) == alphabeta.MATE - ply - 5
    assert alphabeta.AlphaBeta(g, Meter()).leaf(ply) == alphabeta.MATE - ply - 5


def test_a_dead_position_is_a_draw_in_one_node():
    board = "XXOXOOOOOOXXXOOXOOOXOXOXOXXXXXXOXOOOOXOXXXXXOXOO."
    g = Gomoku.from_text(board, 7, 5)
    assert g.dead()
    s = alphabeta.AlphaBeta(g, Meter())
    assert (s.negamax(2, -alphabeta.INF, alphabeta.INF, 0), s.meter.nodes) == (0, 1)


# O to move while X has a win by fours (VCF with one more X stone far away): only the cells of X's line and O's
# fours are searched; and X to move in VCF, whose own win by fours ends the search at once.
AGAINST_FOURS = VCF[:220] + "X" + VCF[221:]


@pytest.mark.parametrize("board", [AGAINST_FOURS, VCF])
@pytest.mark.parametrize("depth", [1, 2])
def test_wins_by_fours_inside_the_tree_are_found_and_answered(board, depth):
    g = game_of(board)
    s = alphabeta.AlphaBeta(g, Meter())
    value = s.negamax(depth, -alphabeta.INF, alphabeta.INF, 0)
    assert value == reference(g, depth, 0)
    if board == VCF:
        assert value == alphabeta.MATE - 5 and s.meter.nodes < 40
    else:
        assert g.mover == "O" and s.table[g.key()][3] in set(s.fours("X", line=True)) | set(g.threats("O", FOUR_W))
