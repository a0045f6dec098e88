import random

from support import stones

from tools import opponents


def test_stones_replay_alternately_to_the_same_position():
    board = stones(15, x=[(7, 7), (8, 8)], o=[(6, 6)])
    order = opponents.stones_of(board)
    assert order[0::2] == [7 * 15 + 7, 8 * 15 + 8] and order[1::2] == [6 * 15 + 6]


def test_the_games_own_levels_play_by_their_names():
    board = "XXXX..." + "OOOO..." + "." * 35  # 7×7: X completes the top row at 4
    assert opponents.level("one-ply")(board, random.Random(0)) == 4
    assert board[opponents.level("random")(board, random.Random(0))] == "."
