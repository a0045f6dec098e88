import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.engine.positions import BIG, check_against_a_full_scan, random_game
from tests.proofs import wins_within
from webapp.engine.big import evaluation
from webapp.engine.big.board import Gomoku
from webapp.engine.big.budget import Meter
from webapp.engine.big.lines import (
    DOUBLE_THREE_W,
    DOUBLE_W,
    FOUR,
    FOUR_W,
    OPEN_FOUR,
    THREE_W,
    WEIGHTS,
)
from webapp.engine.big.moves import facing, generate
from webapp.engine.big.threats import ThreatSearch
from webapp.engine.rules import EMPTY, geometry, parse


def wins_by_the_rules(text: str, n: int, k: int) -> set[int]:
    """The empty cells where the side to move completes k or more in a row, as rules.py judges it."""
    pos = parse(text, n, k)
    return {c for c in pos.legal_moves() if pos.play(c).winner == pos.to_move}


def completes(board: str, cell: int, mark: str, n: int, k: int) -> bool:
    """Whether ``mark`` on the empty ``cell`` would make k in a row (rules.py's lines)."""
    board = board[:cell] + mark + board[cell + 1 :]
    return any(marks_of(board) == (mark,) * k for _, marks_of in geometry(n, k).lines_through[cell])


@pytest.mark.parametrize(("n", "k"), BIG)
def test_the_win_and_four_scans_agree_with_the_rules(n, k):
    rng = random.Random(n)
    checked = 0
    for _ in range(25 if n < 10 else 8):
        g = random_game(n, k, rng, rng.randrange(4, 50))
        text, me = g.text, g.mover
        assert set(g.wins()) == wins_by_the_rules(text, n, k), text
        if g.wins():
            continue
        # A four: a stone after which the same side could complete a line with one more.
        for move in g.candidates:
            after = text[:move] + me + text[move + 1 :]
            # With no line to complete before, a completion now is on a line through the new stone.
            reach = {c for line, _ in geometry(n, k).lines_through[move] for c in line if after[c] == EMPTY}
            four = any(completes(after, c, me, n, k) for c in reach)
            assert (move in g.forcing()) == four, (text, move)
            checked += four
    assert checked > 5


@given(n=st.sampled_from([7, 15]), seed=st.integers(0, 10**6), stones=st.integers(0, 60))
def test_the_pattern_codes_kept_move_by_move_match_a_slow_scan_and_undo_restores_everything(n, seed, stones):
    rng = random.Random(seed)
    fresh = Gomoku(n, 5)
    snapshot = (
        list(fresh.lines),
        list(fresh.infos),
        list(fresh.threat),
        list(fresh.four_lines),
        list(fresh.five_lines),
        fresh.total,
        fresh.hash,
    )
    g = random_game(n, 5, rng, stones)
    check_against_a_full_scan(g)
    if rng.random() < 0.5:
        g.pass_turn()
        check_against_a_full_scan(g)
    while g.history:
        g.undo()
    assert (
        list(g.lines),
        list(g.infos),
        list(g.threat),
        list(g.four_lines),
        list(g.five_lines),
        g.total,
        g.hash,
    ) == snapshot
    assert g.candidates == set() and g.stones == 0 and g.mover == "X"


@given(n=st.sampled_from([7, 15]), seed=st.integers(0, 10**6), stones=st.integers(0, 40), pushed=st.integers(1, 8))
def test_a_pushed_stone_makes_the_same_threats_as_a_played_one_and_undo_puts_the_candidates_back(
    n, seed, stones, pushed
):
    rng = random.Random(seed)
    g = random_game(n, 5, rng, stones)
    candidates, occupied, moves = set(g.candidates), set(g.occupied), g.moves()
    played = Gomoku.from_text(g.text, n, 5)
    done = 0
    for _ in range(pushed):
        if g.wins() or g.full():
            break
        move = rng.choice(g.legal())
        g.push(move)
        played.play(move)
        done += 1
    assert (g.text, g.hash, g.mover, g.stones, g.total) == (
        played.text,
        played.hash,
        played.mover,
        played.stones,
        played.total,
    )
    assert (g.threat, g.hot, g.fours) == (played.threat, played.hot, played.fours)
    assert g.completions("X") == played.completions("X") and g.threats("O", THREE_W) == played.threats("O", THREE_W)
    for _ in range(done):
        g.undo()
    assert (g.candidates, g.occupied, g.moves()) == (candidates, occupied, moves)


@given(n=st.sampled_from([7, 15]), seed=st.integers(0, 10**6), stones=st.integers(1, 60))
def test_the_move_ordering_ranks_by_the_weights_in_full_read_off_each_cells_windows(n, seed, stones):
    # The ordering reads each line's parts kept with what it makes; the weights are read off the windows.
    g = random_game(n, 5, random.Random(seed), stones)
    cells = g.legal()
    for mark, other in (("X", "O"), ("O", "X")):
        worth = {c: (g.worth(c, mark), g.worth(c, other)) for c in cells}
        assert g.ranked(cells, mark) == sorted(cells, key=lambda c: (-(2 * worth[c][0] + worth[c][1]), c))
        assert g.ranked(cells, mark, own_first=True) == sorted(cells, key=lambda c: (-worth[c][0], -worth[c][1], c))
        assert g.ranked(cells, mark, limit=3) == g.ranked(cells, mark)[:3]


def evaluation_after(g: Gomoku, move: int) -> int:
    """The fitted evaluation's line part for the other side once the side to move plays ``move``, played for real."""
    g.play(move)
    try:
        return g.value_o if g.mover == "O" else g.value_x
    finally:
        g.undo()


@pytest.mark.parametrize("n", [7, 15])
@pytest.mark.parametrize(("seed", "stones"), [(1, 6), (2, 15), (3, 24)])
def test_the_quiet_moves_rank_by_the_fitted_evaluation_of_the_position_each_leaves(n, seed, stones):
    # The ordering reads the lines' values kept per contents; playing each move for real gives the same order.
    g = random_game(n, 5, random.Random(seed), stones)
    cells = sorted(g.candidates)
    assert g.moves() == sorted(cells, key=lambda c: (evaluation_after(g, c), c))
    assert g.moves(4) == g.moves()[:4] == g.valued(cells, 4)


def test_five_inside_a_longer_row_wins_on_15x15():
    # X X X X . X on the top row: the gap makes six in a row, which free-style counts as a win
    text = "XXXX.X" + "." * 9 + "OOOO." + "." * 10 + "O" + "." * 194
    g = Gomoku.from_text(text, 15, 5)
    assert g.wins() == [4]
    assert parse(text, 15, 5).play(4).winner == "X"


def test_the_side_with_an_open_three_is_judged_better():
    # X has an open three in the middle of the 7×7 board; O's stones are scattered
    text = "O.....O" + "......." + "......." + ".XXX..." + "......." + "O......" + "......."
    g = Gomoku.from_text(text, 7, 5)
    assert g.mover == "X"
    assert g.evaluate() > 0
    g.play(0 + 7 * 6)  # X plays a corner far away; now O is to move and X still has the three
    assert g.evaluate() < 0


def test_the_search_is_offered_moves_near_the_stones_and_against_a_four_the_block_alone():
    # O to move must deal with X's four: the block alone is searched
    text = "." * 49
    text = text[:22] + "XXXX" + text[26:]  # row 3, columns 1 to 4
    text = text[:21] + "O" + text[22:]
    text = text[:0] + "O" + text[1:]
    text = text[:48] + "O" + text[49:]
    g = Gomoku.from_text(text, 7, 5)
    assert g.mover == "O"
    assert (facing(g), generate(g, 10)) == ("four", [26])
    assert g.wins(opponent=True) == [26]
    assert all(g.cells[m] == EMPTY for m in g.moves()) and 26 in g.moves()


def test_a_board_where_nobody_can_complete_a_line_is_dead():
    # 7×7 with one cell left, and every line of five through it holds both marks
    text = "XXOXOOOOOOXXXOOXOOOXOXOXOXXXXXXOXOOOOXOXXXXXOXOO."
    g = Gomoku.from_text(text, 7, 5)
    assert g.dead()
    assert not Gomoku.from_text("." * 49, 7, 5).dead()


def test_a_moves_score_is_its_weight_in_attack_then_in_defence():
    # 15×15: X has an open three on the top row (columns 4 to 6); O two stones on the bottom row.
    text = "....XXX" + "." * 8 + "." * 195 + "OO" + "." * 13
    g = Gomoku.from_text(text, 15, 5)
    assert g.mover == "O"
    attack, defence = g.score(3)
    # O gains little at 3; X, were it to move, would make an open four there.
    assert (attack, defence) == (g.worth(3, "O"), g.worth(3, "X"))
    assert defence >= WEIGHTS[OPEN_FOUR] > attack
    g.play(224)
    assert g.mover == "X"
    assert g.score(3) == (g.worth(3, "X"), g.worth(3, "O"))
    assert g.score(3)[0] >= WEIGHTS[OPEN_FOUR]


def test_the_evaluation_weighs_each_sides_features_with_its_own_weights_and_the_constant():
    text = "O.....O" + "......." + "......." + ".XXX..." + "......." + "O......" + "......."
    g = Gomoku.from_text(text, 7, 5)
    for _ in range(2):  # X to move, then O to move with the same stones but one
        mine, theirs = evaluation.features(g)
        fitted = evaluation.FITTED
        assert g.evaluate() == fitted.constant + sum(
            fitted.mover[i] * mine[name] + fitted.other[i] * theirs[name] for i, name in enumerate(evaluation.FEATURES)
        )
        assert isinstance(g.evaluate(), int)
        g.play(42)


def test_play_and_undo_keep_the_positions_key_whatever_the_order():
    g = Gomoku(15, 5)
    start = g.key()
    for move in (112, 113, 97, 128):
        g.play(move)
    after = g.key()
    other = Gomoku(15, 5)
    for move in (97, 128, 112, 113):  # the same stones for each side, in another order
        other.play(move)
    assert other.key() == after != start
    g.undo()
    g.undo()
    two = Gomoku(15, 5)
    two.play(112)
    two.play(113)
    assert g.key() == two.key() != start
    g.undo()
    g.undo()
    assert g.key() == start


def test_an_empty_board_offers_the_centre_and_a_full_one_nothing():
    assert Gomoku(7, 5).moves() == [24]
    assert Gomoku(15, 5).moves() == [112]
    full = "XXOXOOOOOOXXXOOXOOOXOXOXOXXXXXXOXOOOOXOXXXXXOXOOX"
    assert Gomoku.from_text(full, 7, 5).moves() == []


def test_fours_rank_by_attack_then_defence():
    # 15×15: each side has threes and twos about the middle, O to move.
    text = list("." * 225)
    for cell in (96, 97, 98, 126, 141, 80, 173):
        text[cell] = "X"
    for cell in (111, 112, 113, 127, 142, 65):
        text[cell] = "O"
    g = Gomoku.from_text("".join(text), 15, 5)
    assert g.mover == "O"

    def attack(c):
        return g.score(c)[0]

    def defence(c):
        return g.score(c)[1]

    # The threat searches' ordering: attack counts double; by mine alone or three times mine it would differ here.
    ranked = sorted(g.candidates, key=lambda c: (-(2 * attack(c) + defence(c)), c))
    assert g.ranked(list(g.candidates), g.mover) == ranked
    assert sorted(g.candidates, key=lambda c: (-(3 * attack(c) + defence(c)), c)) != ranked
    assert sorted(g.candidates, key=lambda c: (-(2 * defence(c) + attack(c)), c)) != ranked
    fours = [c for c in g.candidates if attack(c) >= WEIGHTS[FOUR]]
    assert len(fours) > 1
    assert g.forcing() == sorted(fours, key=lambda c: (-attack(c), -defence(c), c))
    assert sorted(fours, key=lambda c: (attack(c), -defence(c), c)) != g.forcing()
    assert sorted(fours, key=lambda c: (-attack(c), defence(c), c)) != g.forcing()
    # And with X to move, X's fours first, ranked by what they would also take from O.
    g.play(0)
    fours = [c for c in g.candidates if attack(c) >= WEIGHTS[FOUR]]
    assert g.mover == "X" and len(fours) > 1
    assert g.forcing() == sorted(fours, key=lambda c: (-attack(c), -defence(c), c))


def test_of_two_equally_strong_fours_the_one_that_also_blocks_more_comes_first():
    # X to move with a three in the middle row (111 to 113); O's stones at 83, 96 and 97 above it.
    text = "." * 83 + "O" + "." * 12 + "OO" + "." * 13 + "XXX" + "." * 111
    g = Gomoku.from_text(text, 15, 5)
    assert g.mover == "X"
    # 115 and 109 each make a four worth the same; 115 also takes more from O, so it goes first.
    assert g.forcing() == [110, 114, 115, 109]
    assert g.score(115)[0] == g.score(109)[0] and g.score(115)[1] > g.score(109)[1]


# --- the threat questions the searches ask --------------------------------------------------------


def makes(text: str, cell: int, mark: str, n: int, k: int) -> int:
    """How many distinct cells would complete k in a row for ``mark`` after it plays ``cell``, by the rules'
    lines, where it had none before (so that they all lie on the lines through ``cell``)."""
    after = text[:cell] + mark + text[cell + 1 :]
    near = {c for line, _ in geometry(n, k).lines_through[cell] for c in line if after[c] == EMPTY}
    return sum(1 for c in near if completes(after, c, mark, n, k))


@given(n=st.sampled_from([7, 15]), seed=st.integers(0, 10**6), stones=st.integers(4, 40))
def test_the_threat_scans_agree_with_the_rules(n, seed, stones):
    g = random_game(n, 5, random.Random(seed), stones)
    text = g.text
    for mark in "XO":
        other = "O" if mark == "X" else "X"
        mine, theirs = g.completions(mark)
        assert mine == sorted(c for c in g.candidates if completes(text, c, mark, n, 5))
        assert theirs == g.completions(other)[0]
        if mine:
            continue  # completions already there would be counted again after any move
        for c in g.candidates:
            completions = makes(text, c, mark, n, 5)
            # A four: one completion after it; a double (or more): two or more; DOUBLE_W reads it.
            assert (c in g.threats(mark, FOUR_W)) == (completions >= 1), (text, c, mark)
            assert (g.worth(c, mark) >= DOUBLE_W) == (completions >= 2), (text, c, mark)
        assert g.has(mark, DOUBLE_W) == any(g.worth(c, mark) >= DOUBLE_W for c in g.candidates)
        ranked = g.threats(mark, THREE_W)
        assert ranked == sorted(ranked, key=lambda c: (-(2 * g.worth(c, mark) + g.worth(c, other)), c))


@given(n=st.sampled_from([7, 15]), seed=st.integers(0, 10**6), stones=st.integers(4, 40))
def test_against_a_double_in_the_making_every_move_but_the_answers_leaves_it(n, seed, stones):
    # The claim the threat search's soundness rests on: a reply that is not an answer leaves the double
    # (read off the board, whose scans are checked against the rules above).
    g = random_game(n, 5, random.Random(seed), stones)
    for mark in "XO":
        other = "O" if mark == "X" else "X"
        if g.completions(mark)[0] or g.completions(other)[0]:
            continue
        answers = g.answers(mark)
        assert (answers is None) == (not g.has(mark, DOUBLE_W))
        if answers is None:
            continue
        assert set(answers) == set(g.threats(mark, FOUR_W)) | set(g.threats(other, FOUR_W))
        passed = g.mover != other
        if passed:
            g.pass_turn()
        for reply in g.legal():
            if reply in answers:
                continue
            g.play(reply)
            assert g.has(mark, DOUBLE_W) and not g.completions(other)[0], (g.text, reply)
            g.undo()
        if passed:
            g.undo()


def test_a_pass_hands_the_move_over_and_changes_the_key():
    g = Gomoku.from_text("." * 112 + "X" + "." * 112, 15, 5)
    key = g.key()
    g.pass_turn()
    assert g.mover == "X" and g.key() != key
    g.undo()
    assert g.mover == "O" and g.key() == key and g.text == "." * 112 + "X" + "." * 112


def test_two_open_threes_at_once_against_no_four_win_within_five_plies():
    # The claim the alpha-beta's double-three rule rests on, checked against every defence in the first ten random
    # positions where it applies: the side to move plays the cell of its two open threes, and whatever the other side
    # answers, it wins within four more plies.
    checked = 0
    for seed in itertools.count():
        rng = random.Random(seed)
        g = random_game(rng.choice([7, 15]), 5, rng, rng.randint(4, 30))
        me, them = g.mover, "O" if g.mover == "X" else "X"
        if any(g.completions(me)) or g.has(them, FOUR_W) or not g.double_three(me):
            continue
        cell = next(c for c in sorted(g.hot) if DOUBLE_THREE_W <= g.threat_worth(c, me) < FOUR_W)
        assert wins_within(g, me, 5, lambda game, side: ThreatSearch(game, side, Meter(nodes=5_000)).vct(1), cell)
        checked += 1
        if checked == 10:
            break
