"""The exact engine of 4×4 and 5×5 (four in a row), held against a plain negamax written from the rules."""

import itertools
import random

import pytest
from support import after, rank

from tests.engine.positions import TEN_DRAWS, sample
from webapp.engine import pacing
from webapp.engine.boards import is_exact_board, position
from webapp.engine.exact import perfect
from webapp.engine.exact.bitboard import bit_geometry
from webapp.engine.exact.negamax import CHECK_EVERY, INF, PAIRING_STEPS, WIN, AllowanceSpent, unpack
from webapp.engine.exact.search import Choice, ExactSearch, _interchangeable
from webapp.engine.levels import WIN as LEVELS_WIN
from webapp.engine.levels import analyze, candidates, choose_move
from webapp.engine.rules import Position, other


def as_words(outcome: tuple[int, int]) -> tuple[str, int]:
    score, plies = outcome
    return {1: "win", 0: "draw", -1: "loss"}[score], plies


def test_the_scales_of_the_two_engines_agree():
    assert WIN == LEVELS_WIN


def test_the_empty_4x4_board_is_a_draw_and_so_is_every_opening():
    search = ExactSearch(4, 4)
    assert search.solve("." * 16) == 0
    assert set(analyze("." * 16).values()) == {("draw", 16)}


def test_4x4_values_match_plain_negamax_on_two_thousand_positions_near_the_end():
    checked = 0
    for pos in sample(11, "." * 16, range(10, 15), 2000):
        got = perfect.analyze(pos.board)
        want = {m: as_words(after(pos, m)) for m in pos.legal_moves()}
        assert got == want, pos.board
        checked += len(want)
    assert checked > 4000


def test_4x4_values_match_plain_negamax_further_from_the_end():
    # Eight and nine empty cells: the reference's memo makes these affordable, and the search is no longer trivial.
    for pos in sample(12, "." * 16, range(7, 9), 12):
        search = ExactSearch(4, 4)
        empties = pos.board.count(".")
        for move in pos.legal_moves():
            assert perfect.describe(search.value_of_move(pos.board, move), empties) == as_words(after(pos, move))


def test_5x5_values_match_plain_negamax_near_the_end():
    for pos in sample(13, "." * 25, range(17, 21), 100):
        assert perfect.analyze(pos.board) == {m: as_words(after(pos, m)) for m in pos.legal_moves()}, pos.board


def test_a_window_search_returns_bounds_on_the_right_side():
    board = "..O.OOX.O..XX..X"  # X to move wins in 3
    exact = ExactSearch(4, 4).solve(board)
    assert exact == WIN + 8 - 3  # 8 cells empty now, 5 when X has won
    assert ExactSearch(4, 4).solve(board, exact, exact + 1) <= exact  # fails low: an upper bound
    assert ExactSearch(4, 4).solve(board, exact - 1, exact) >= exact  # fails high: a lower bound


def test_impossible_takes_the_fastest_win():
    # . . O .
    # O O X .
    # O . . X
    # X . . X    X to move: 3 wins in 3 plies; 13 and 14 win too, but only in 5
    board = "..O.OOX.O..XX..X"
    values = analyze(board)
    assert values[3] == ("win", 3)
    assert values[13] == values[14] == ("win", 5)
    assert candidates(board, "minimax") == (3,)


def test_impossible_stalls_a_lost_game():
    # X O O O
    # X X . X
    # . O . .
    # . . X .    O to move is lost: 6 blocks and loses in 6, every other move loses in 2
    board = "XOOOXX.X.O....X."
    values = analyze(board)
    assert values[6] == ("loss", 6)
    assert {values[c] for c in values if c != 6} == {("loss", 2)}
    assert candidates(board, "minimax") == (6,)


def test_every_impossible_choice_keeps_the_best_value():
    for pos in sample(14, "." * 16, range(8, 13), 60):
        best = max((after(pos, m) for m in pos.legal_moves()), key=rank)
        for move in candidates(pos.board, "minimax"):
            assert after(pos, move) == best, (pos.board, move)


def test_equal_moves_are_narrowed_to_those_that_leave_the_most_losing_replies():
    # . . . . / . O X X / O . O . / X . . .   X to move: ten moves hold the draw, and after 3 or 9
    # eight of O's replies lose, more than after any other
    board = ".....OXXO.O.X..."
    search = ExactSearch(4, 4)
    choice, optimal = search.optimal_moves(board)
    assert choice.exact and choice.low == 0 and len(optimal) == 10
    rope = {cell: search._mistakes_after(board, cell, 0) for cell in optimal}
    assert rope[3] == rope[9] == 8 == max(rope.values())
    assert candidates(board, "minimax") == (3, 9)
    # Each reply counted as a mistake is one: it gives X more than the draw.
    pos = position(board).play(3)
    losing = [m for m in pos.legal_moves() if after(pos, m)[0] < 0]
    assert len(losing) == 8


def test_a_node_budget_stops_the_search_and_the_analysis_says_unclear(monkeypatch):
    with pytest.raises(AllowanceSpent):
        ExactSearch(5, 4, max_nodes=50).solve("." * 25)
    monkeypatch.setattr(perfect, "ANALYSIS_NODES", 25 * 30)
    board = "..X..OO...X.....X...O..X."  # seven marks: past the book, and not solved in 750 nodes
    perfect.forget()
    try:
        values = perfect.analyze(board)
    finally:
        perfect.forget()
    assert ("unclear", None) in values.values()
    assert all(result == "unclear" or plies is not None for result, plies in values.values())
    # Only complete answers are remembered: the next request searches again, and may have the time.
    assert board not in perfect.ANALYSES.entries


def play_game(empty: str, levels: dict[str, str], rng: random.Random) -> Position:
    pos = position(empty)
    while not pos.is_over():
        pos = pos.play(choose_move(pos.board, levels[pos.to_move], rng))
    return pos


@pytest.mark.parametrize("empty", ["." * 16, "." * 25], ids=["4x4", "5x5"])
@pytest.mark.parametrize("opponent", ["random", "one-ply"])
@pytest.mark.parametrize("side", ["X", "O"])
def test_impossible_never_loses(empty, opponent, side):
    rng = random.Random(f"{empty}{opponent}{side}")
    # One game on 5×5, whose moves just past the book are searched live for a second or more.
    for _ in range(2 if len(empty) == 16 else 1):
        end = play_game(empty, {side: "minimax", other(side): opponent}, rng)
        assert end.winner != other(side), end.board


@pytest.mark.parametrize(("cells", "exact"), [(9, False), (16, True), (25, True), (49, False), (225, False)])
def test_impossible_plays_by_the_exact_search_on_4x4_and_5x5_only(cells, exact):
    assert is_exact_board("." * cells) is exact


# --- budgets, twins and the tie-break's windows (the second mutation run, docs/mutation.md) ---------------
# Small 4×4 positions with few empty cells: each test takes milliseconds, so a changed line is caught fast.


# X to move completes a line at 3 (the top row) or at 12 (the left column); six cells empty.
TWO_WINS = "XXX.XOO.XOO..O.."

# O to move: 0, 1, 10 and 11 are on no line either side can still complete, so they are alike.
DEAD_CELLS = "..OX.O.OOX..X.XX"


def test_a_calls_own_budget_ends_with_the_call():
    search = ExactSearch(4, 4, max_nodes=10**5)
    search.move_values(TEN_DRAWS, total_nodes=5)
    search.best_moves(TEN_DRAWS, extra_nodes=5)
    before = search.nodes
    assert search.solve(".X.X..O...O.....") == 0  # a draw that takes more than five nodes to prove
    assert search.nodes - before > 5


def test_the_budget_of_all_the_move_values_together():
    empties = [c for c, ch in enumerate(TWO_WINS) if ch == "."]
    search = ExactSearch(4, 4)
    search.solve(TEN_DRAWS)  # nodes already counted: the budget runs from here
    # The two wins at once cost nothing, and are exact with no budget at all.
    assert search.move_values(TWO_WINS, total_nodes=0) == {
        3: WIN + 5,
        7: None,
        11: None,
        12: WIN + 5,
        14: None,
        15: None,
    }
    # Each other move is asked win, draw or loss first, a node each here (O then faces both completions):
    # four nodes settle that, and only the fifth onwards go to the losses' distances.
    for budget, settled in [(4, {}), (6, {7: WIN + 3, 11: WIN + 3})]:
        values = ExactSearch(4, 4).move_values(TWO_WINS, total_nodes=budget)
        assert list(values) == empties
        assert values == {3: WIN + 5, 7: None, 11: None, 12: WIN + 5, 14: None, 15: None} | settled
    assert ExactSearch(4, 4).move_values(TWO_WINS, total_nodes=8) == {
        3: WIN + 5,
        7: WIN + 3,
        11: WIN + 3,
        12: WIN + 5,
        14: WIN + 3,
        15: WIN + 3,
    }


def test_the_lifetime_budget_bounds_every_call_together():
    search = ExactSearch(5, 4, max_nodes=2_000)
    with pytest.raises(AllowanceSpent):
        search.exact_value("..X...X.O...O.......X....")
    # The budget is spent to the node, give or take the steps of one look for a pairing.
    assert 2_000 < search.nodes <= 2_000 + PAIRING_STEPS + 1
    with pytest.raises(AllowanceSpent):
        search.solve("." * 24 + "X")  # nothing is left for any question
    assert search.move_values(".X" + "." * 23)[0] is None


def test_the_first_best_move_is_kept_and_others_only_within_the_extra_budget():
    search = ExactSearch(4, 4)
    assert search.best_move(TWO_WINS) == Choice(3, WIN + 5, True)  # the win at once is tried first
    assert ExactSearch(4, 4).optimal_moves(TWO_WINS, extra_nodes=0) == (
        Choice(3, WIN + 5, True),
        (3, 12),
    )  # 12: no node
    assert ExactSearch(4, 4).optimal_moves(TEN_DRAWS, extra_nodes=0) == (Choice(9, 0, True), (9,))


def test_the_tie_break_is_skipped_when_its_budget_runs_out():
    ten = ExactSearch(4, 4).optimal_moves(TEN_DRAWS)[1]
    chosen = ExactSearch(4, 4).best_moves(TEN_DRAWS)[1]
    assert len(ten) == 10 and chosen == (3, 9)
    given = [ExactSearch(4, 4).best_moves(TEN_DRAWS, extra_nodes=extra)[1] for extra in range(0, 2001, 25)]
    # Every answer keeps the first best move and holds only proved draws.
    assert all(9 in answer and set(answer) <= set(ten) for answer in given)
    assert given[0] == (9,) and given[-1] == chosen
    # Short of the tie-break's whole cost the answer is every draw proved so far, more with more budget; from
    # the budget that lets the tie-break finish, its choice.
    cut = given.index(chosen)
    assert all(answer == chosen for answer in given[cut:])
    assert all(len(before) <= len(after) for before, after in itertools.pairwise(given[:cut]))
    assert ten in given[:cut]  # all ten proved, and the tie-break not done


@pytest.mark.parametrize("board", [TEN_DRAWS, "..OXOX..OX..XX.O"])  # X to move draws; O to move is lost
def test_the_tie_break_counts_the_replies_that_give_more_than_the_best_value(board):
    search = ExactSearch(4, 4)
    choice, optimal = search.optimal_moves(board)
    mark = "X" if board.count("X") == board.count("O") else "O"
    mistakes = {}
    for cell in optimal:
        after = board[:cell] + mark + board[cell + 1 :]
        replies = [c for c, ch in enumerate(after) if ch == "."]
        mistakes[cell] = sum(ExactSearch(4, 4).value_of_move(after, r) < -choice.low for r in replies)
    most = max(mistakes.values())
    assert search.best_moves(board)[1] == tuple(c for c in optimal if mistakes[c] == most)
    assert len(search.best_moves(board)[1]) < len(optimal)


def test_cells_on_no_open_line_are_searched_once_for_all(monkeypatch):
    g = bit_geometry(4, 4)
    assert _interchangeable(g, DEAD_CELLS) == {0: 0, 1: 0, 10: 0, 11: 0}
    search = ExactSearch(4, 4)
    assert sorted(search.root_order(DEAD_CELLS)) == [0, 4, 6, 13]
    asked = []
    ask = ExactSearch.value_of_move

    def recorded(self, board, cell, *window):
        asked.append(cell)
        return ask(self, board, cell, *window)

    monkeypatch.setattr(ExactSearch, "value_of_move", recorded)
    values = search.move_values(DEAD_CELLS)
    assert values[0] == values[1] == values[10] == values[11]
    assert set(asked) == {0, 4, 6, 13}  # the twins cost nothing
    for cell in (0, 4, 6, 13):
        assert ExactSearch(4, 4).exact_value_of_move(DEAD_CELLS, cell) == values[cell]


def test_the_root_tries_the_tables_best_move_first_in_the_boards_own_frame():
    # O to move; solved once, the table holds the position with its best move, in the frame of its key.
    board = "O..X...X.O.X...."
    search = ExactSearch(4, 4)
    assert search.root_order(board)[0] == 5  # before: the cell on the most lines
    value = search.solve(board)
    first = search.root_order(board)[0]
    assert first == 15 and search.value_of_move(board, first) == value
    # The empty board: all eight images are one key, and the first of them is the board itself.
    search = ExactSearch(4, 4)
    search.solve("." * 16)
    assert search.root_order("." * 16)[0] == unpack(search.table[0])[2]


def test_the_root_tries_a_win_at_once_first():
    # X to move: 3 and 12 complete a line; 3 comes first among the cells, whatever the table says.
    assert ExactSearch(4, 4).root_order(TWO_WINS)[0] == 3
    assert ExactSearch(4, 4).root_order("XXX.OOO.........")[0] == 3


def test_solve_values_match_plain_negamax_with_either_side_to_move():
    for pos in sample(15, "." * 16, range(9, 12), 40):
        search = ExactSearch(4, 4)
        best = max((after(pos, m) for m in pos.legal_moves()), key=rank)
        assert perfect.describe(search.solve(pos.board), pos.board.count(".")) == as_words(best), pos.board


def test_the_table_is_emptied_at_the_limit_given():
    search = ExactSearch(4, 4, table_limit=20)
    assert search.solve(TEN_DRAWS) == 0
    assert 1 <= len(search.table) <= 20
    unlimited = ExactSearch(4, 4)
    unlimited.solve(TEN_DRAWS)
    assert len(unlimited.table) > 20  # so the limit was reached


def test_the_nodes_are_counted_from_nought():
    search = ExactSearch(4, 4)
    assert search.nodes == 0
    search.value_of_move(TWO_WINS, 3)  # a win at once: no node
    assert search.nodes == 0
    search.value_of_move(TWO_WINS, 7)  # one node: O to move faces two completions
    assert search.nodes == 1


def test_a_board_of_the_wrong_size_is_refused_with_its_size():
    with pytest.raises(ValueError, match="a 4×4 board has 16 cells, not 9"):
        ExactSearch(4, 4).solve("." * 9)


def test_easy_on_4x4_is_not_the_exact_search():
    empties = tuple(c for c, ch in enumerate(TWO_WINS) if ch == ".")
    assert candidates(TWO_WINS, "random") == empties
    assert candidates(TWO_WINS, "minimax") == (3, 12)


def test_a_position_three_cells_from_the_end_can_still_be_won_or_lost_there():
    # O to move with six cells empty: 12 loses (X then makes two completions with three cells left).
    pos = position("...OX.OXOXOX.X.O")
    values = ExactSearch(4, 4).move_values(pos.board)
    assert {m: perfect.describe(v, 6) for m, v in values.items()} == {m: as_words(after(pos, m)) for m in values}
    assert values[12] == -WIN


# The nodes that move_values and then best_moves visit today, pinned (a step of a look for a pairing counts
# as one): the order the cells are tried in, the pairings and the bounds from the distance to the end decide
# them, and a change there that keeps every value shows only here.
EXACT_NODES = {
    "XOOOXXXO.O...X.X": 25,
    ".O.X..XX.OO.OXOX": 26,
    ".XXOX.OX.XO..O..": 223,
    "OXOO.XX..OXXXXOO": 15,
    "OXXX..XOO..OXOO.XXO.X.OX.": 53,
    ".OX.OXXO..X..OXOOX..XOXOX": 61,
    "XOXO.X.X.XOO.OXX.OX....OO": 53,
    ".XX.X.OOO.......": 894,
}


@pytest.mark.parametrize("board", sorted(EXACT_NODES))
def test_the_nodes_the_exact_search_visits_are_the_same_as_today(board):
    search = ExactSearch(int(len(board) ** 0.5), 4)
    search.move_values(board)
    search.best_moves(board)
    assert search.nodes == EXACT_NODES[board]


# --- the third mutation run (docs/mutation.md): the distance bounds, the side to move, budgets over a lifetime ---


# X to move with ten cells empty: X cannot win before its second move (WIN + 10 − 3 = 107), nor lose
# before O's second (−(WIN + 10 − 4) = −106); the value is a draw.
TEN_EMPTY = ".XX..O....OXO..."


def test_a_window_beyond_what_the_distance_to_the_end_allows_is_answered_in_one_node():
    for window, bound in [((WIN + 7, INF), WIN + 7), ((-INF, -(WIN + 6)), -(WIN + 6))]:
        search = ExactSearch(4, 4)
        assert search.solve(TEN_EMPTY, *window) == bound
        assert search.nodes == 1
    # One point inside either edge, the search has to look.
    inside = ExactSearch(4, 4)
    assert inside.solve(TEN_EMPTY, WIN + 6, INF) <= WIN + 6
    assert inside.nodes > 1


def test_a_loss_on_the_opponents_second_move_is_found_in_a_window_just_above_it():
    # . . X . / O O X O / . X . X / X O . .  O to move, seven cells empty: X wins on its second move
    # whatever O does, with three cells left: −(WIN + 3). No loss can come sooner, so −(WIN + 3) is the
    # least the search may assume; a window whose top is one above it must still see it.
    board = "..X.OOXO.X.XXO.."
    assert ExactSearch(4, 4).solve(board) == -(WIN + 3)
    assert ExactSearch(4, 4).solve(board, -INF, -(WIN + 2)) == -(WIN + 3)


def test_the_root_says_who_is_to_move_and_keys_the_board_by_its_x_and_o():
    g = bit_geometry(4, 4)
    search = ExactSearch(4, 4)
    for board, x_to_move in [(TEN_EMPTY, True), ("O..X...X.O.X....", False)]:
        x = sum(1 << c for c, ch in enumerate(board) if ch == "X")
        o = sum(1 << c for c, ch in enumerate(board) if ch == "O")
        root = search.root(board)
        assert root.x_to_move is x_to_move
        assert (root.me, root.them) == ((x, o) if x_to_move else (o, x))
        assert root.keys == tuple(g.images(x, o))
        assert root.empties == board.count(".")


@pytest.mark.parametrize("board", [TEN_EMPTY, "O..X...X.O.X...."])  # X to move, O to move
def test_the_position_after_the_tables_best_move_is_then_answered_from_the_table(board):
    # The keys are kept up to date move by move; if they went wrong, a position met in the search would be
    # stored under another position's key, and asking for it again would mean searching it again.
    search = ExactSearch(4, 4)
    value = search.solve(board)
    after = position(board).play(search.root_order(board)[0]).board
    before = search.nodes
    assert search.solve(after) == -value
    assert search.nodes == before + 1


def test_a_search_with_no_budget_is_never_stopped_however_many_nodes_came_before():
    # The node count only grows over a search's life (a book entry, a request's analysis); with no budget
    # given, no count may be taken for one.
    search = ExactSearch(4, 4)
    search.nodes = 3 * 10**6
    assert search.solve(TEN_DRAWS) == 0


def test_the_tie_break_spends_its_budget_to_the_node():
    board = "O..OOXXO...XXXO."  # X to move: all six moves hold the draw
    six = ExactSearch(4, 4).optimal_moves(board)[1]
    chosen = ExactSearch(4, 4).best_moves(board)[1]
    assert len(six) == 6 and len(chosen) < 6
    answers = []
    for extra in range(0, 150, 3):
        proving = ExactSearch(4, 4)
        proved = proving.optimal_moves(board, extra_nodes=extra)[1]
        search = ExactSearch(4, 4)
        answer = search.best_moves(board, extra_nodes=extra)[1]
        # The tie-break stops where its nodes run out, give or take the last step of a pairing...
        assert search.nodes <= proving.nodes + extra + 1 + PAIRING_STEPS
        # ...and then keeps every move proved as good.
        assert answer in (chosen, proved)
        answers.append(answer)
    assert six in answers and answers[-1] == chosen


@pytest.mark.parametrize(
    ("board", "top", "cell", "mistakes", "nodes"),
    [
        # O . O X / . O . . / X . . . / X O . X  X to move wins on its third move (WIN + 3), by 9 or 11. After 9,
        # six of O's seven replies let X win at once; the seventh (6, the block) leaves X no win before its
        # second move, which the distance to the end shows in the one node.
        ("O.OX.O..X...XO.X", WIN + 3, 9, 6, 7),
        # X . O O / X X X . / . O . . / O . . X  O to move has lost: X wins at once whatever O plays. After 7, five
        # of X's six replies let O off (a mistake each, shown in one node: O cannot then lose before X's
        # second move); 10 wins at once, at no node.
        ("X.OOXXX..O..O..X", -(WIN + 5), 7, 5, 5),
    ],
)
def test_the_tie_break_asks_each_reply_only_whether_it_gives_more(board, top, cell, mistakes, nodes):
    # A null window just above the best value: a reply that cannot give more is dismissed at once.
    search = ExactSearch(4, 4)
    assert search._mistakes_after(board, cell, top) == mistakes
    assert search.nodes == nodes


def test_the_table_is_emptied_as_soon_as_it_holds_its_limit():
    unlimited = ExactSearch(4, 4)
    unlimited.solve(TEN_DRAWS)
    stored = len(unlimited.table)  # the positions one search stores, the root last
    exact_fit = ExactSearch(4, 4, table_limit=stored)
    exact_fit.solve(TEN_DRAWS)
    assert len(exact_fit.table) == stored
    # With room for one fewer, the table is full when the root comes to be stored: emptied, then the root.
    one_short = ExactSearch(4, 4, table_limit=stored - 1)
    assert one_short.solve(TEN_DRAWS) == 0
    assert len(one_short.table) == 1


# --- the budget's fallback and the pace -----------------------------------------------------------------

# . O . . / . . X . / X . X . / O O X .   O to move: one move holds the draw (12, the block), the eight others lose.
SHARP = ".O....X.X.X.OOX."

# . . . . / X O . O / . . X X / X O . O   X to move: one move wins, the seven others only draw.
ONE_WIN = "....XO.O..XXXO.O"


def negamax_value(outcome: tuple[int, int], empties: int) -> int:
    """The reference's (score, plies to the end) on the exact search's scale."""
    score, plies = outcome
    return score * (WIN + empties - plies) if score else 0


@pytest.mark.parametrize("board", [SHARP, ONE_WIN, ".......XOOX.O.XX", TEN_DRAWS, TWO_WINS, "XOOOXX.X.O....X."])
def test_out_of_budget_the_move_kept_is_proved_as_good_as_it_says(board):
    pos = position(board)
    empties = board.count(".")
    best = max(negamax_value(after(pos, m), empties) for m in pos.legal_moves())
    full = ExactSearch(4, 4)
    full.best_move(board)
    lows = []
    for budget in range(0, full.nodes + 2):
        choice = ExactSearch(4, 4, max_nodes=budget).best_move(board)
        value = negamax_value(after(pos, choice.cell), empties)
        assert value >= choice.low  # what is claimed is proved: a win is a win, "not losing" does not lose
        if choice.exact:
            assert value == choice.low == best
        lows.append(choice.low)
    assert lows == sorted(lows)  # more budget never proves less
    assert lows[-1] == best and ExactSearch(4, 4, max_nodes=full.nodes).best_move(board).exact


def test_the_search_reads_its_pace_and_lets_other_work_run_every_few_hundred_nodes():
    pauses = []
    ticks = iter(range(10**6))
    pace = pacing.Pace(clock=lambda: next(ticks) / 1000, pause=lambda: pauses.append(1), deadline=None)
    with pacing.pacing(pace):
        search = ExactSearch(5, 4, seconds=0.02)  # twenty ticks of the pace's clock
        with pytest.raises(AllowanceSpent):
            search.exact_value("O.........X..............")
    # The clock is read once to start and after each pause: the twentieth pause's reading ends the search.
    assert len(pauses) == 20
    assert CHECK_EVERY * 20 <= search.nodes <= (CHECK_EVERY + PAIRING_STEPS) * 20


def test_the_requests_deadline_stops_a_search_with_a_budget_of_its_own():
    ticks = iter(range(10**6))
    with pacing.pacing(pacing.Pace(clock=lambda: next(ticks) / 1000, deadline=0.005)):
        search = ExactSearch(5, 4, seconds=10.0)
        with pytest.raises(AllowanceSpent):
            search.exact_value("O.........X..............")
    assert search.nodes <= (CHECK_EVERY + PAIRING_STEPS) * 5
