"""The moves Hard searches (webapp/engine/big/moves.py): the threats met by rule, else the best few by the fit."""

import random

import pytest
from support import stones

from tests.engine.positions import FOUR_THREE, random_game
from tests.proofs import loses_within
from webapp.engine.big.board import Gomoku
from webapp.engine.big.budget import Meter
from webapp.engine.big.moves import facing, generate, width
from webapp.engine.big.parameters import WIDTHS
from webapp.engine.big.threats import ThreatSearch

CORNERS = [(0, 0), (0, 14), (14, 0), (14, 14)]


def test_a_line_to_complete_comes_before_blocking_the_others():
    # X to move with four on row 2 and O four on row 3: X completes its own.
    board = stones(15, x=[(2, 3), (2, 4), (2, 5), (2, 6)], o=[(3, 3), (3, 4), (3, 5), (3, 6)])
    game = Gomoku.for_board(board)
    assert facing(game) == "win" and generate(game, 10) == [2 * 15 + 2, 2 * 15 + 7]


def test_against_a_four_only_the_block_is_searched():
    board = stones(15, x=[(7, 4), (7, 5), (7, 6), (7, 7), (0, 7)], o=[(7, 3), *CORNERS[:3]])
    game = Gomoku.for_board(board)
    assert game.mover == "O" and facing(game) == "four" and generate(game, 10) == [7 * 15 + 8]


def test_against_an_open_three_only_its_answers_and_our_fours_are_searched_and_every_other_move_loses():
    # O to move: X's open three on row 7; O has three on row 2, closed by X on the left, so fours of its own to make.
    board = stones(15, x=[(7, 5), (7, 6), (7, 7), (2, 0), (14, 7)], o=[(2, 1), (2, 2), (2, 3), (0, 0)])
    game = Gomoku.for_board(board)
    assert game.mover == "O" and facing(game) == "three"
    moves = generate(game, 30)
    assert {7 * 15 + 4, 7 * 15 + 8} <= set(moves)  # the ends of the three
    assert {2 * 15 + 4} <= set(moves)  # O's own four
    others = [m for m in game.moves() if m not in moves]
    assert others and loses_within(game, 5, find, others)


def find(game: Gomoku, side: str):
    return ThreatSearch(game, side, Meter(nodes=100_000)).vct(1)


def row_of(mark: str, cells: list[tuple[int, int]], others: list[tuple[int, int]]) -> Gomoku:
    """``mark``'s stones on ``cells`` and the other side's on ``others``, ``mark`` to move (``others`` has as many
    stones as ``cells`` for X to move, one more for O)."""
    x, o = (cells, others) if mark == "X" else (others, cells)
    game = Gomoku.for_board(stones(15, x=x, o=o))
    assert game.mover == mark
    return game


@pytest.mark.parametrize("mark", ["X", "O"])
def test_either_side_with_a_line_to_complete_completes_it_and_the_other_blocks_it(mark):
    four = [(2, 3), (2, 4), (2, 5), (2, 6)]
    game = row_of(mark, four, CORNERS if mark == "X" else [*CORNERS, (14, 7)])
    assert facing(game) == "win" and generate(game, 10) == [2 * 15 + 2, 2 * 15 + 7]
    # The other side to move, against the same open four: both ends are blocks, and either loses.
    game.push(7 * 15 + 7)
    assert facing(game) == "four" and generate(game, 10) == [2 * 15 + 2, 2 * 15 + 7]


@pytest.mark.parametrize("mark", ["X", "O"])
def test_either_side_against_an_open_three_searches_exactly_the_boards_answers_to_it(mark):
    # ``mark`` to move, with no four of its own, against the other side's open three on row 7.
    three = [(7, 5), (7, 6), (7, 7)]
    game = row_of(mark, CORNERS[:3], three if mark == "X" else [*three, (14, 14)])
    assert facing(game) == "three"
    answers = game.answers("O" if mark == "X" else "X")
    assert sorted(answers) == [7 * 15 + 3, 7 * 15 + 4, 7 * 15 + 8, 7 * 15 + 9]  # the cells of its fours
    assert generate(game, 10) == answers and generate(game, 2) == answers[:2]


def test_a_quiet_position_offers_the_best_few_by_the_fit_and_never_cuts_between_equals():
    game = Gomoku.for_board(stones(15, x=[(7, 7)], o=[(6, 6)]))  # symmetric about the main diagonal
    assert facing(game) == "quiet"
    ranked = game.moves()
    for limit in range(1, 12):
        found = generate(game, limit)
        assert found == ranked[: len(found)] and limit <= len(found) < len(ranked)  # a few, not all 32
        mirrors = {(m % 15) * 15 + m // 15 for m in found}
        assert mirrors == set(found), limit  # each move's mirror image is as good, and kept with it


def test_fewer_moves_are_searched_the_deeper_the_node():
    assert [width(ply) for ply in range(len(WIDTHS) + 2)] == [*WIDTHS, WIDTHS[-1], WIDTHS[-1]]
    assert list(WIDTHS) == sorted(WIDTHS, reverse=True) and WIDTHS[0] > WIDTHS[-1]


def test_a_four_three_of_our_own_is_the_first_quiet_move():
    # A four and an open three at once: the strongest move of a quiet position, by the fit.
    game = Gomoku.for_board(FOUR_THREE)
    assert game.mover == "X" and facing(game) == "quiet"
    assert generate(game, 3)[0] == 7 * 15 + 8


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_in_positions_from_games_the_moves_offered_are_empty_cells_near_the_stones(seed):
    game = random_game(15, 5, random.Random(seed), 12)
    for limit in (1, 5, 24):
        moves = generate(game, limit)
        assert moves and len(set(moves)) == len(moves)
        assert all(game.board[m] == 0 for m in moves)
        assert facing(game) != "quiet" or set(moves) <= game.candidates
