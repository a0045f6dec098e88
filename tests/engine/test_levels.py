import random
from collections import Counter

import pytest
from support import reachable_boards, reference, reference_analysis, unfinished_boards

from webapp.engine.levels import (
    GAME,
    LEVELS,
    PACKED,
    PackedTicTacToe,
    TicTacToe,
    UnknownLevelError,
    analyze,
    candidates,
    choose_move,
    static_value,
)
from webapp.engine.rules import InvalidBoardError, Position, canonical_board, other, parse
from webapp.engine.search import Solver, children


def test_the_published_position_counts_hold_for_the_oracle():
    assert len(reachable_boards()) == 5478
    assert len(unfinished_boards()) == 4520


# --- minimax ---------------------------------------------------------------------------------


def explore_against_everything(pos: Position, me: str) -> int:
    """Walk every game minimax can play as ``me`` against every possible opponent, checking each
    move it could choose; returns the number of finished games seen."""
    if pos.is_over():
        assert pos.winner != other(me), f"minimax lost as {me}: {pos.board}"
        return 1
    if pos.to_move != me:
        return sum(explore_against_everything(pos.play(m), me) for m in pos.legal_moves())
    best = reference(pos.board)
    games = 0
    for move in candidates(pos.board, "minimax"):
        score, plies = reference(pos.play(move).board)
        assert (-score, plies + 1) == best, f"{move} in {pos.board} gives away value"
        games += explore_against_everything(pos.play(move), me)
    return games


@pytest.mark.parametrize("me", ["X", "O"])
def test_minimax_never_loses_against_any_sequence_of_moves(me):
    games = explore_against_everything(Position.empty(), me)
    assert games > 100  # every opponent line, and every tie minimax might break either way


def test_every_minimax_choice_keeps_the_best_value_in_every_position():
    for board in unfinished_boards():
        pos = parse(board)
        best = reference(board)
        for move in candidates(board, "minimax"):
            score, plies = reference(pos.play(move).board)
            assert (-score, plies + 1) == best, board


def test_minimax_wins_fastest():
    # X O X / O X O / . . .  -- 6 and 8 win at once; 7 wins too, but only two moves later
    assert set(candidates("XOXOXO...", "minimax")) == {6, 8}


def test_minimax_stalls_a_lost_game():
    # . . . / . . O / . X X  -- O to move is lost; every move but the block at 6 loses at once
    board = ".....O.XX"
    results = analyze(board)
    assert {result for result, _ in results.values()} == {"loss"}
    assert results[6] == ("loss", 4)
    assert all(plies == 2 for cell, (_, plies) in results.items() if cell != 6)
    assert candidates(board, "minimax") == (6,)


def test_minimax_opens_in_a_corner_where_a_careless_opponent_slips_most():
    # Every opening draws with perfect play; against a random opponent the corners win most.
    assert candidates(".........", "minimax") == (0, 2, 6, 8)
    # . . . / . X . / . . .  -- only a corner holds the draw for O
    assert set(candidates("....X....", "minimax")) <= {0, 2, 6, 8}


# --- one-ply ---------------------------------------------------------------------------------


def winning_cells(pos: Position, mark: str) -> set[int]:
    """The empty cells where ``mark`` would complete a line."""
    board = pos.board
    return {
        cell
        for cell in range(9)
        if board[cell] == "."
        and any(all(board[c] == mark or c == cell for c in line) for line in pos.geometry.lines if cell in line)
    }


def test_one_ply_takes_every_win_and_blocks_every_single_threat():
    checked_wins = checked_blocks = 0
    for board in unfinished_boards():
        pos = parse(board)
        choices = set(candidates(board, "one-ply"))
        wins = winning_cells(pos, pos.to_move)
        threats = winning_cells(pos, other(pos.to_move))
        if wins:
            assert choices <= wins, board
            checked_wins += 1
        elif len(threats) == 1:
            assert choices == threats, board
            checked_blocks += 1
    assert checked_wins > 500 and checked_blocks > 500


def beats_one_ply(pos: Position, human: str) -> bool:
    """Whether ``human`` can force a win whichever of its equally scored moves one-ply picks."""
    if pos.is_over():
        return pos.winner == human
    if pos.to_move == human:
        return any(beats_one_ply(pos.play(m), human) for m in pos.legal_moves())
    return all(beats_one_ply(pos.play(m), human) for m in candidates(pos.board, "one-ply"))


def test_there_is_a_line_of_play_that_beats_one_ply():
    assert beats_one_ply(Position.empty(), "X")
    # A concrete line: X takes a corner, one-ply takes the centre, X takes the opposite corner,
    # one-ply answers in a corner (it scores corners higher) and X forks.
    # X . . / . O . / . . X  -> one-ply plays 2 or 6, X then blocks and forks.
    assert set(candidates("X...O...X", "one-ply")) <= {2, 6}
    assert beats_one_ply(parse("X...O...X"), "X")


def test_minimax_beats_no_one_but_one_ply_can_be_beaten():
    assert not any(beats_minimax(Position.empty(), human) for human in "XO")


def beats_minimax(pos: Position, human: str) -> bool:
    if pos.is_over():
        return pos.winner == human
    if pos.to_move == human:
        return any(beats_minimax(pos.play(m), human) for m in pos.legal_moves())
    return all(beats_minimax(pos.play(m), human) for m in candidates(pos.board, "minimax"))


# --- random ----------------------------------------------------------------------------------


@pytest.mark.parametrize("board", [".........", "X...O....", "XO.XO...."])
def test_random_plays_only_legal_moves_and_every_one_of_them(board):
    rng = random.Random(1)
    legal = parse(board).legal_moves()
    counts = Counter(choose_move(board, "random", rng) for _ in range(3000))
    assert set(counts) == set(legal)
    expected = 3000 / len(legal)
    assert all(0.75 * expected < n < 1.25 * expected for n in counts.values())


def test_randomness_comes_from_the_injected_generator():
    def game(seed: int) -> list[int]:
        rng, pos, moves = random.Random(seed), Position.empty(), []
        while not pos.is_over():
            moves.append(choose_move(pos.board, "random", rng))
            pos = pos.play(moves[-1])
        return moves

    assert game(3) == game(3)
    assert len({tuple(game(seed)) for seed in range(20)}) > 10


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_chooses_among_its_candidates(level):
    rng = random.Random(5)
    for board in unfinished_boards()[::37]:
        assert choose_move(board, level, rng) in candidates(board, level)
        assert set(candidates(board, level)) <= set(parse(board).legal_moves())


# --- analyze ---------------------------------------------------------------------------------


def test_analyze_agrees_with_plain_minimax_everywhere():
    for board in unfinished_boards():
        assert analyze(board) == reference_analysis(board), board


def test_analyze_describes_results_in_plies():
    # X X . / O O . / . . .  -- X wins at 2 at once; blocking at 5 draws; anything else lets O in
    result = analyze("XX.OO....")
    assert result[2] == ("win", 1)
    assert result[5] == ("draw", 5)
    assert result[6] == ("loss", 2)
    assert analyze(".........")[4] == ("draw", 9)


# --- bad input -------------------------------------------------------------------------------

BAD_BOARDS = [
    ("", "9, 16, 25, 49 or 225 cells"),
    ("XO", "9, 16, 25, 49 or 225 cells"),
    ("XOX.O.X..Z", "9, 16, 25, 49 or 225 cells"),
    ("xo.......", "holds 'x'"),
    ("OO.......", "X has 0 marks and O has 2"),
    ("XXXOOO...", "Both X and O"),
    ("XXXOO.O..", "played on after"),
]
FINISHED = [("XXXOO....", "won by X"), ("XOXXOOOXX", "a draw")]


@pytest.mark.parametrize(("board", "message"), BAD_BOARDS + FINISHED)
@pytest.mark.parametrize("level", LEVELS)
def test_choose_move_rejects_bad_and_finished_boards(board, message, level):
    with pytest.raises(ValueError, match=message):
        choose_move(board, level)


@pytest.mark.parametrize(("board", "message"), BAD_BOARDS + FINISHED)
def test_analyze_rejects_bad_and_finished_boards(board, message):
    with pytest.raises(ValueError, match=message):
        analyze(board)


@pytest.mark.parametrize("level", ["hard", "", "Minimax", "one_ply", None])
def test_unknown_levels_are_named(level):
    with pytest.raises(UnknownLevelError, match=r"Unknown level .* choose one of: random, one-ply, minimax"):
        choose_move(".........", level)


def test_bad_boards_raise_the_precise_error():
    with pytest.raises(InvalidBoardError):
        choose_move("X", "random")


class RecordingTicTacToe(TicTacToe):
    """Tic-tac-toe that records every position whose moves a search plays."""

    def __init__(self):
        super().__init__()
        self.expanded: set[str] = set()

    def play(self, pos, move):
        self.expanded.add(pos.board)
        return super().play(pos, move)


def test_the_first_call_expands_each_symmetry_class_once():
    # The tie-break walks one representative per class instead of each symmetric twin again.
    game = RecordingTicTacToe()
    assert sorted(Solver(game).best_moves(Position.empty())) == [0, 2, 6, 8]
    classes = [canonical_board(board) for board in game.expanded]
    assert len(classes) == len(set(classes))


# --- the packed game the solver plays on 3×3 ---------------------------------------------------


def test_the_packed_game_follows_the_rules_in_every_position():
    game = PackedTicTacToe(parse(".........").geometry)
    for board in reachable_boards():
        pos = parse(board)
        state = game.state(pos)
        assert game.board(state) == board
        assert game.terminal_value(state) == TicTacToe().terminal_value(pos), board
        assert game.moves(state) == pos.legal_moves(), board
        for move in game.moves(state):
            child = game.play(state, move)
            assert game.board(child) == pos.play(move).board
            assert game.terminal_value(child) == TicTacToe().terminal_value(pos.play(move)), (board, move)


def test_packed_keys_are_equal_exactly_for_symmetric_boards():
    game = PackedTicTacToe(parse(".........").geometry)
    classes = {}
    for board in reachable_boards():
        classes.setdefault(game.key(game.state(parse(board))), set()).add(canonical_board(board))
    assert len(classes) == 765  # the published count of positions up to symmetry
    assert all(len(canonical) == 1 for canonical in classes.values())


def test_the_packed_solver_chooses_as_the_solver_of_positions_everywhere():
    packed, positions = Solver(PackedTicTacToe(parse(".........").geometry)), Solver(TicTacToe())
    for board in unfinished_boards():
        pos = parse(board)
        state = packed.game.state(pos)
        assert packed.move_values(state) == positions.move_values(pos), board
        assert sorted(packed.best_moves(state)) == sorted(positions.best_moves(pos)), board


class RecordingPackedTicTacToe(PackedTicTacToe):
    """The packed game, recording the board of every state whose moves a search plays."""

    def __init__(self, g):
        super().__init__(g)
        self.expanded: set[str] = set()

    def play(self, state, move):
        self.expanded.add(self.board(state))
        return super().play(state, move)


def test_the_packed_first_call_expands_each_symmetry_class_once():
    game = RecordingPackedTicTacToe(parse(".........").geometry)
    assert sorted(Solver(game).best_moves(game.state(Position.empty()))) == [0, 2, 6, 8]
    classes = [canonical_board(board) for board in game.expanded]
    assert len(classes) == len(set(classes)) == 765 - 138  # every unfinished class: all classes less the finished


def test_outlook_claims_nothing_unproved_on_the_big_boards():
    from webapp.engine.boards import position
    from webapp.engine.levels import outlook

    assert outlook(position("." * 49)) == ("unclear", None)
    assert outlook(position("." * 225)) == ("unclear", None)


@pytest.mark.parametrize(
    ("board", "expected"),
    [
        # 3×3, the packed solver: X to move wins at once; a corner opening holds the draw for 8 more plies.
        ("XX.OO....", ("win", 1)),
        ("X........", ("draw", 8)),
        # O to move must block the diagonal at 8; X then forks and wins 4 plies from now.
        ("XO..X....", ("loss", 4)),
        # X to move against O's edge beside its corner wins in 5 plies.
        ("XO.......", ("win", 5)),
        # Finished games: O, to move, has lost; a full board is drawn; nothing is left to play.
        ("XXXOO....", ("loss", 0)),
        ("XOXXOOOXX", ("draw", 0)),
        # 4×4, the exact search: X to move completes the top row at once.
        ("XXX.OOO." + "." * 8, ("win", 1)),
        # 4×4 and 7×7, finished: O, to move, has lost; the solver of positions only reads the result.
        ("XXXXOOO." + "." * 8, ("loss", 0)),
        ("XXXXX.." + "OOOO..." + "." * 35, ("loss", 0)),
    ],
)
def test_outlook_is_the_result_with_perfect_play_and_the_plies_to_the_end(board, expected):
    from webapp.engine.boards import position
    from webapp.engine.levels import outlook

    assert outlook(position(board)) == expected


@pytest.mark.parametrize("cells", [16, 25])
@pytest.mark.parametrize("level", ["random", "one-ply"])
def test_easy_and_medium_on_bigger_boards_keep_nothing(cells, level):
    from webapp.engine import levels

    before = levels._candidates.cache_info().currsize
    for first in range(cells):
        board = "X" if first == 0 else "." * first + "X"
        board = (board + "." * cells)[:cells]
        assert levels.candidates(board, level)
    assert levels._candidates.cache_info().currsize == before


@pytest.mark.parametrize(("n", "k"), [(3, 3), (4, 4), (5, 4)])
def test_a_packed_game_on_a_bigger_board_plays_and_keys_as_the_positions_do(n, k):
    # Built here, not at import: the module's PACKED (3×3) is made before any test can change a line.
    from webapp.engine.levels import static_value, terminal_value
    from webapp.engine.rules import geometry

    game = PackedTicTacToe(geometry(n, k))
    pos = Position.empty(n, k).play(1).play(n * n - 1).play(n)
    state = game.state(pos)
    assert game.board(state) == pos.board
    assert game.board(game.play(state, 2)) == pos.play(2).board
    twins = {game.key(game.state(parse(board, n, k))) for board in pos.symmetric_boards()}
    assert twins == {game.key(state)}
    assert game.key(game.state(pos.play(2))) != game.key(state)
    assert game.static_value(state) == static_value(pos)
    # A finished position handed in from outside is known to be over, with its value, at once.
    won = Position.empty(n, k)
    for cell in (0, n, 1, n + 1, 2, n + 2, 3)[: 2 * k - 1]:
        won = won.play(cell)
    assert won.winner == "X"
    assert game.terminal_value(game.state(won)) == terminal_value(won) < 0
    assert game.moves(game.state(won)) == ()


def test_a_packed_game_holds_boards_of_32_cells_at_most():
    from webapp.engine.rules import geometry

    with pytest.raises(ValueError, match=r"^A packed board holds at most 32 cells; this one has 36\.$"):
        PackedTicTacToe(geometry(6, 4))


# --- the static evaluation ----------------------------------------------------------------------
# The static evaluation in webapp.solver: what it says of a position, the order it puts moves in,
# and what Medium (one-ply), which sees nothing else, plays when no move wins or blocks.
#
# Every expected value is counted by hand in the comment beside it. The evaluation, for the side to
# move: 4 × (lines still open to it − lines still open to the opponent), + 1 per corner and + 2 for
# the centre it holds, − the same for the opponent's; 60 (THREAT) if it can complete a line at once.


@pytest.mark.parametrize(
    ("board", "value"),
    [
        # . . . / . . . / . . .  X to move: every line open to both sides, nobody placed: 4·(8 − 8).
        (".........", 0),
        # . . . / . X . / . . .  O to move: 4 lines open to O, all 8 to X, X's centre: 4·(4 − 8) − 2.
        ("....X....", -18),
        # X . . / . . . / . . .  O to move: 5 lines open to O, 8 to X, X's corner: 4·(5 − 8) − 1.
        ("X........", -13),
        # . . X / . . . / . . .  the same for every corner.
        ("..X......", -13),
        ("......X..", -13),
        ("........X", -13),
        # . X . / . . . / . . .  O to move: an edge lies on 2 lines and earns no bonus: 4·(6 − 8).
        (".X.......", -8),
        # X . . / . O . / . . .  X to move: X has 4 open lines, O has 5; X's corner, O's centre: 4·(4 − 5) + 1 − 2.
        ("X...O....", -5),
        # O . . / . X . / . . .  X to move: X has 5 open lines, O has 4; X's centre, O's corner: 4·(5 − 4) + 2 − 1.
        ("O...X....", 5),
        # X . . / . X . / . O .  O to move: O has 2 open lines, X has 6; X's corner and centre: 4·(2 − 6) − 3.
        ("X...X..O.", -19),
        # X O . / . . . / . . .  X to move: X has 6 open lines, O has 5; X's corner: 4·(6 − 5) + 1.
        ("XO.......", 5),
        # X . O / . . . / . . .  X to move: 5 open lines each, a corner each: 4·(5 − 5) + 1 − 1.
        ("X.O......", 0),
    ],
)
def test_the_static_value_of_drawn_positions(board, value):
    assert static_value(parse(board)) == value


@pytest.mark.parametrize(
    "board",
    [
        "XX.OO....",  # X X . / O O . / . . .  X to move completes the top row
        "X.X.O.O..",  # X . X / . O . / O . .  X to move completes the top row in the middle
        "XO..XO...",  # X O . / . X O / . . .  X to move completes the diagonal
        "XX.OO.X..",  # X X . / O O . / X . .  O to move completes the middle row
    ],
)
def test_a_win_on_offer_is_worth_a_threat_whatever_else_is_on_the_board(board):
    # 60: above any quiet position (at most 4·8 + 6 = 38) and below any finished game (100 and more).
    assert static_value(parse(board)) == 60


def test_a_line_the_opponent_could_complete_is_no_threat_for_the_side_to_move():
    # X X . / O . . / . . .  O to move. X threatens the top row, which is not O's win:
    # O has 4 open lines, X has 6, and X holds a corner.
    assert static_value(parse("XX.O.....")) == 4 * (4 - 6) - 1


def test_the_static_value_is_general_in_the_run_length():
    # On 4×4 with 3 in a row, two marks of X's on an open line are a win on offer.
    assert static_value(parse("XX..OO..........", n=4, k=3)) == 60
    # 4×4, four in a row: 10 lines. X O . . / . . . .  X to move: 8 lines are open to X (all but
    # the top row and the second column), 7 to O (all but the top row, the first column and the
    # diagonal), and X holds a corner.
    assert static_value(parse("XO..............", n=4, k=4)) == 4 * (8 - 7) + 1
    # An even board has no centre: X on cell 8 (row 3, column 1) earns nothing. O to move: 8 lines
    # are open to O (all but the third row and the first column), 10 to X.
    assert static_value(parse("........X.......", n=4, k=4)) == 4 * (8 - 10)


@pytest.mark.parametrize(
    ("board", "order"),
    [
        # The empty board: the centre (−18 for O after it), then the corners (−13), then the edges (−8).
        (".........", [4, 0, 2, 6, 8, 1, 3, 5, 7]),
        # After X's centre, O looks at the corners (X's value then 5) before the edges (10).
        ("....X....", [0, 2, 6, 8, 1, 3, 5, 7]),
        # After X's corner, O looks at the centre (−5), the other corners (0), then the edges (5).
        ("X........", [4, 2, 6, 8, 1, 3, 5, 7]),
    ],
)
def test_moves_are_searched_best_looking_first(board, order):
    assert [move for move, _ in children(GAME, parse(board), ordered=True)] == order


def test_a_winning_move_is_searched_before_any_quiet_one():
    # X X . / O O . / . . .  X to move: 2 wins at once; the rest leave O a win on offer.
    (first, _), *_ = children(GAME, parse("XX.OO...."), ordered=True)
    assert first == 2


@pytest.mark.parametrize(
    ("board", "moves"),
    [
        # With nothing to win or block, Medium plays where the evaluation is best for it afterwards.
        (".........", (4,)),  # the centre: O is left with −18, against −13 after a corner
        ("....X....", (0, 2, 6, 8)),  # against the centre, a corner: X is left with 5, against 10 after an edge
        ("X........", (4,)),  # against a corner, the centre: X is left with −5, against 0 or 5
        # X . . / . O . / . . X  a corner (X is left with −5, against 0 after an edge), which loses to
        # X's fork on the other corner: the trap that one ply cannot see.
        ("X...O...X", (2, 6)),
    ],
)
def test_medium_plays_the_best_looking_move_when_nothing_wins_or_blocks(board, moves):
    assert candidates(board, "one-ply") == moves


def test_medium_prefers_a_win_to_a_block_and_a_block_to_a_quiet_move():
    # X X . / O O . / . . .  X to move: winning at 2 beats blocking nothing.
    assert candidates("XX.OO....", "one-ply") == (2,)
    # X X . / O . . / . . .  O to move: only 2 stops X's row; every other move leaves X a win on offer.
    assert candidates("XX.O.....", "one-ply") == (2,)


@pytest.mark.parametrize("board", [".........", "X...O....", "XX.OO....", "X...X..O.", "XO..XO..."])
def test_the_packed_game_judges_a_state_as_the_positions_evaluation_does(board):
    # The solver's packed states are never judged in play (perfect play needs no evaluation), but the
    # interface must agree with itself, as any game handed to a depth-limited search would be asked.
    assert PACKED.static_value(PACKED.state(parse(board))) == static_value(parse(board))
