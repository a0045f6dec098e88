from dataclasses import replace

import pytest

from webapp.engine import hard
from webapp.engine.gomoku import Gomoku
from webapp.engine.openings import BETTER, ENTRIES, OWN, SETTLES, grid, reply, squares, why
from webapp.engine.rules import geometry, parse


def entry_id(moves) -> str:
    """An entry's name: its moves, joined by dots, as the match logs write a game."""
    return ".".join(map(str, moves))


ENTRY_IDS = [entry_id(moves) for moves, *_ in ENTRIES]


@pytest.mark.parametrize("entry", ENTRIES, ids=ENTRY_IDS)
def test_each_entry_is_a_game_still_going_and_its_reply_empty_squares(entry):
    moves, answer, *_ = entry
    position = parse(grid(15, moves), 15, 5)
    assert len(set(moves)) == len(moves)
    assert not position.is_over()
    assert squares(answer) == tuple(sorted(set(squares(answer))))  # a tie's squares once each, in order
    assert set(squares(answer)) <= set(position.legal_moves())
    assert entry[2] in (BETTER, SETTLES, OWN)
    assert entry[3]  # what was measured


@pytest.mark.parametrize("entry", ENTRIES, ids=ENTRY_IDS)
def test_the_reply_follows_the_position_through_its_eight_images(entry):
    moves, answer, *_ = entry
    for perm in geometry(15, 5).symmetries:  # the image's cell i is the board's cell perm[i]
        image = reply(grid(15, [perm.index(move) for move in moves]), 15, 5)
        assert image == tuple(sorted(perm.index(square) for square in squares(answer)))


@pytest.mark.parametrize("entry", ENTRIES, ids=ENTRY_IDS)
def test_the_order_the_stones_came_in_does_not_matter(entry):
    moves = entry[0]
    xs, os_ = moves[0::2][::-1], moves[1::2][::-1]  # each side's stones, last first
    reordered = [xs[turn // 2] if turn % 2 == 0 else os_[turn // 2] for turn in range(len(moves))]
    assert sorted(reordered) == sorted(moves)
    assert reply(grid(15, reordered), 15, 5) == squares(entry[1])


@pytest.mark.parametrize("entry", ENTRIES, ids=ENTRY_IDS)
def test_a_position_one_stone_away_from_an_entry_has_no_reply(entry):
    moves = entry[0]
    assert reply(grid(15, moves[:-1]), 15, 5) is None
    assert reply(grid(15, [*moves, squares(entry[1])[0]]), 15, 5) is None


@pytest.mark.parametrize(
    ("board", "n", "k"), [("." * 225, 15, 5), ("." * 24 + "X" + "." * 24, 7, 5), ("X" * 225, 15, 5)]
)
def test_other_boards_have_no_reply(board, n, k):
    assert reply(board, n, k) is None


# Entries that pass over a win a deeper search finds, each with that win's first move: Hard, within its budget,
# finds neither the win nor, once its first move is played, its later moves, and that first move lost games when
# played out (the entry's text). The deeper search must still name that move, and Hard's own must still miss it.
PASS_OVER_A_WIN_HARD_DOES_NOT_FOLLOW = {
    "112.96.82.97.98.111.83.126.141.81.66.114.50.34.113.68.143.128.142.140.127.99.157.172": 144,
}


def test_each_entry_passing_over_a_win_is_in_the_book():
    assert set(PASS_OVER_A_WIN_HARD_DOES_NOT_FOLLOW) <= set(ENTRY_IDS)


@pytest.mark.parametrize("entry", ENTRIES, ids=ENTRY_IDS)
def test_no_entry_passes_over_a_forced_win_the_search_would_have_played(entry, monkeypatch):
    # The book is looked up before Hard's own threat search: where a search of ten times its nodes finds a win,
    # the entry must be that win's first move (one the search misses at its budget), never another, unless the
    # entry is named above. Where ten times do not finish, a hundred times must: a long win by threes can hold the
    # search that long.
    moves, answer, *_ = entry
    game = Gomoku.from_text(grid(15, moves), 15, 5)
    for share in (10 * hard.OWN_NODES, 100 * hard.OWN_NODES):
        # The whole budget a node over the share, so that running out ends the share, not the search.
        outlook = hard.Search(game, hard.Budget(nodes=share + 1)).outlook(game.mover, share)
        if outlook.finished:  # searched to its bounds
            break
    assert outlook.finished
    passed_over = PASS_OVER_A_WIN_HARD_DOES_NOT_FOLLOW.get(entry_id(moves))
    if passed_over is None:
        assert outlook.win is None or outlook.win.first in squares(answer)
        return
    assert outlook.win is not None and outlook.win.first == passed_over not in squares(answer)
    # Hard's own move there, were the book silent, is no forced win and not the win's first move: the book hides
    # nothing Hard would have played. Its shipped budget, counted in nodes alone (the first player's, without the
    # clock), so that the machine's speed cannot change the answer.
    monkeypatch.setattr(Gomoku, "booked", lambda self: None)
    own = hard.search(game, replace(hard.DEFAULT_BUDGET, seconds=None))
    assert own.forced is None and passed_over not in own.best


# Entries that keep the search's own choice, counting its nodes alone, where a slower machine's clock cut the search to
# another, or to one of a tie (webapp/engine/openings.py): the entry must still be that choice.
SEARCHS_OWN = [entry for entry in ENTRIES if entry[2] == OWN]


def test_a_tie_is_booked_only_as_the_searchs_own():
    ties = [entry for entry in ENTRIES if not isinstance(entry[1], int)]
    assert ties
    assert all(entry[2] == OWN for entry in ties)
    assert len(SEARCHS_OWN) > len(ties)  # and single moves a clock cut


@pytest.mark.parametrize("entry", ENTRIES, ids=ENTRY_IDS)
def test_the_book_says_why_it_keeps_each_reply(entry):
    moves, _, kind, measured = entry
    assert (kind == SETTLES) == (measured.split(". ")[1].startswith("The search ties") and kind != OWN)
    reflected = [row * 15 + col for col, row in (divmod(move, 15) for move in moves)]
    assert why(grid(15, moves), 15, 5) == why(grid(15, reflected), 15, 5) == kind
    assert why(grid(15, moves[:-1]), 15, 5) is None


@pytest.mark.parametrize("entry", SEARCHS_OWN, ids=[entry_id(moves) for moves, *_ in SEARCHS_OWN])
def test_an_entry_that_keeps_the_searchs_own_choice_is_still_its_choice(entry, monkeypatch):
    # Such an entry is kept so that every machine plays as the full search does, whatever its clock cuts: it must be
    # what the search, with the book silent and its nodes counted alone, would offer the game to pick from.
    moves, answer, *_ = entry
    monkeypatch.setattr(Gomoku, "booked", lambda self: None)
    own = hard.search(Gomoku.from_text(grid(15, moves), 15, 5), replace(hard.DEFAULT_BUDGET, seconds=None))
    assert own.reason == "search" and own.best == squares(answer)
