"""The exact engine's negamax parts (webapp/engine/exact/negamax.py): pairings, and the table's packed entries."""

from support import reference

from tests.engine.positions import sample
from webapp.engine.exact.bitboard import bit_geometry
from webapp.engine.exact.negamax import INF, PAIRING_STEPS, WIN, has_pairing, pack, unpack


def open_lines(board: str, against: str) -> list[int]:
    """The lines (as masks) on which ``against`` has no mark: the ones its opponent could still complete."""
    g = bit_geometry(int(len(board) ** 0.5), 4)
    theirs = sum(1 << c for c, ch in enumerate(board) if ch == against)
    return [line for line in g.lines if not line & theirs]


def test_a_pairing_found_means_the_other_side_cannot_win_whoever_is_to_move():
    found = 0
    for pos in sample(17, "." * 16, range(8, 12), 200):
        free = sum(1 << c for c, ch in enumerate(pos.board) if ch == ".")
        for defender in "XO":
            # The side to move may take a cell before it pairs off the rest; its opponent may not.
            if has_pairing(open_lines(pos.board, defender), free, move_first=pos.to_move == defender)[0]:
                found += 1
                score, _ = reference(pos.board)
                # The defender's result is a draw or better: as the side to move, or as its opponent.
                assert (score if pos.to_move == defender else -score) >= 0, (pos.board, defender)
    assert found > 100


def test_a_pairing_gives_each_line_its_own_two_cells():
    # The two windows of one row of five share the cells 1 to 3: one pair in there serves both.
    row = [0b01111, 0b11110]
    assert has_pairing(row, 0b01110) == (True, 1)
    assert has_pairing(row, 0b10001) == (False, 1)
    # Two columns of four and a row crossing them: six cells are needed, and five are too few.
    lines = [0b0001_0001_0001_0001, 0b0010_0010_0010_0010, 0b1111]
    assert has_pairing(lines, 0b0011_0011_0001_1111)[0] is True
    assert has_pairing(lines, 0b0001_0001_0001_0111)[0] is False


def test_a_look_for_a_pairing_gives_up_after_its_steps():
    lines = open_lines("." * 25, "X")  # every line of the empty 5×5 board: 28 lines, 25 cells
    assert has_pairing(lines, (1 << 25) - 1) == (False, PAIRING_STEPS)
    assert has_pairing(lines, (1 << 25) - 1, steps=3) == (False, 3)


def test_a_table_entry_packs_both_bounds_and_the_move_into_a_small_integer():
    for low, high, cell in [(-INF, INF, -1), (-(WIN + 24), WIN + 24, 24), (0, 0, 0), (-3, 105, 7)]:
        assert unpack(pack(low, high, cell)) == (low, high, cell)
        assert pack(low, high, cell) < 2**24
