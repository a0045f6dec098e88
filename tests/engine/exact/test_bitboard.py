"""The bit boards of 4×4 and 5×5 (webapp/engine/exact/bitboard.py): the text both ways, and one key for all twins."""

from webapp.engine.boards import position
from webapp.engine.exact.bitboard import bit_geometry, bits_of, text_of


def test_the_bit_board_reads_and_writes_the_text():
    board = "XO..X....O....X."
    me, them = bits_of(board)  # O to move, so X's cells are the opponent's
    assert text_of(them, me, 16) == board
    g = bit_geometry(4, 4)
    # Each image is the board turned or mirrored: all eight are boards of the same marks.
    for image in g.images(them, me):
        x, o = image & g.full, image >> g.cells
        assert bin(x).count("1") == 3 and bin(o).count("1") == 2


def test_every_symmetric_twin_has_the_same_key():
    g = bit_geometry(5, 4)
    board = "XO..X....O..X.....O......"
    keys = set()
    for perm in position(board).geometry.symmetries:
        twin = "".join(board[i] for i in perm)
        me, them = bits_of(twin)
        keys.add(min(g.images(me, them)))  # X is to move
    assert len(keys) == 1
