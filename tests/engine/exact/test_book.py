"""The 5×5 book: what it holds, that it is what the builder writes, and that play uses it."""

import random
import zlib

import pytest

from webapp.engine.boards import position
from webapp.engine.exact import book, perfect
from webapp.engine.exact.search import ExactSearch
from webapp.engine.levels import analyze, candidates


@pytest.fixture(scope="module")
def layers() -> list[list[int]]:
    return book.layers(4)  # the first five layers; all six take the builder ten seconds


def twins(board: str) -> list[str]:
    return ["".join(board[i] for i in perm) for perm in position(board).geometry.symmetries]


def random_board(rng: random.Random, marks: int) -> str:
    pos = position("." * 25)
    for _ in range(marks):
        pos = pos.play(rng.choice(pos.legal_moves()))
    return pos.board


def test_the_shipped_book_holds_every_position_with_up_to_six_marks(layers):
    shipped = book.load()
    assert shipped.marks == book.MARKS == 6
    # Up to rotation and reflection: the empty board, X's 6 first moves, 85 positions of two marks, 904 of
    # three, 9,664 of four, 66,859 of five and 443,850 of six.
    assert [len(layer) for layer in layers] == [1, 6, 85, 904, 9664]
    assert len(shipped) == 1 + 6 + 85 + 904 + 9664 + 66859 + 443850
    assert list(shipped.keys) == sorted(shipped.keys)
    assert {key for layer in layers for key in layer} <= set(shipped.keys)
    rng = random.Random(4)
    assert all(book.value(random_board(rng, marks)) is not None for marks in (5, 6) for _ in range(200))


def test_the_file_is_exactly_what_the_encoder_writes_for_its_values():
    shipped = book.load()
    assert book.encode(dict(shipped.items()), shipped.marks) == book.PATH.read_bytes()
    assert book.PATH.stat().st_size < 2_000_000


def test_a_value_below_the_last_layer_is_the_best_of_its_moves(layers):
    rng = random.Random(3)
    for board in [book.canonical_text(key) for key in layers[0] + layers[1]] + [
        random_board(rng, marks) for marks in (2, 3, 4, 5) for _ in range(10)
    ]:
        assert book.value(board) == max(-book.value(after) for _, after in book.children(board))
    assert book.value("." * 25) == 0  # 5×5, four in a row, is a draw


def test_values_of_the_last_layer_are_what_the_exact_search_finds_again():
    # Six positions with six marks, each solved again from nothing (a tenth of a second or so each).
    rng = random.Random(5)
    for board in [random_board(rng, 6) for _ in range(6)]:
        assert ExactSearch(5, 4).exact_value(board) == book.value(board), board


def test_every_twin_of_a_position_has_its_value():
    board = "XO...X..........O........"  # no symmetry of its own
    assert len(set(twins(board))) == 8
    assert {book.value(twin) for twin in twins(board)} == {book.value(board)}


@pytest.mark.parametrize(
    "board",
    ["." * 16, "." * 24 + "X", "XXOXO.O" + "." * 18, "XXOXOXO" + "." * 18],  # 4×4, and one, six and seven marks
)
def test_a_board_the_book_does_not_hold_is_not_found(board):
    marks = len(board) - board.count(".")
    assert (book.value(board) is None) is (len(board) != 25 or marks > book.MARKS)


def test_play_and_analysis_take_the_book_without_searching(monkeypatch):
    def no_search(*args, **kwargs):
        raise AssertionError("searched a position the book settles")

    monkeypatch.setattr(ExactSearch, "_run", no_search)
    perfect.forget()
    try:
        # Four marks: every move's value, and every reply's after it (the tie-break), is in the book.
        board = "X.....O.....X.....O......"
        chosen = candidates(board, "minimax")
        values = analyze(board)
        assert len(values) == 21 and "unclear" not in {result for result, _ in values.values()}
        assert {values[c] for c in chosen} == {perfect.describe(book.value(board), 21)}
        # Five marks: every move's value.
        values = analyze("X.....O.....X.....O.X....")
        assert len(values) == 20 and "unclear" not in {result for result, _ in values.values()}
        six = "X.....O.....X.....O.X...O"
        assert perfect.outlook(six) == perfect.describe(book.value(six), 19)
    finally:
        perfect.forget()


def test_with_six_marks_the_search_only_looks_for_a_move_that_keeps_the_books_value():
    perfect.forget()
    try:
        for board in ["O...O.....X.........X.O.X", "X.O.......X.....O.X.O...."]:
            decision = perfect.decide(board)
            assert decision.exact and decision.choice.low == book.value(board)
            for cell in decision.cells:
                assert ExactSearch(5, 4).exact_value_of_move(board, cell) == book.value(board)
    finally:
        perfect.forget()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"not a book", "not a book file"),
        (book.MAGIC + book.HEADER.pack(4, 4, 1, 0), "a book for 4×4"),
        # Fewer keys than the count, a key whose value is missing, bytes past the last value.
        (book.MAGIC + book.HEADER.pack(5, 4, 1, 2) + zlib.compress(b"\x05"), "a damaged book file"),
        (book.MAGIC + book.HEADER.pack(5, 4, 1, 1) + zlib.compress(b"\x05"), "a damaged book file"),
        (book.MAGIC + book.HEADER.pack(5, 4, 1, 1) + zlib.compress(b"\x05\x00\x00"), "a damaged book file"),
    ],
)
def test_a_file_that_is_not_this_book_is_refused(data, message):
    with pytest.raises(ValueError, match=message):
        book.decode(data)


def test_a_file_that_is_not_a_book_is_named_so():
    with pytest.raises(ValueError) as refused:
        book.decode(b"not a book")
    assert str(refused.value) == "not a book file"


def test_the_encoding_round_trips_keys_of_every_size():
    values = {0: 0, 1: -3, 127: 105, 128: -124, 2**49 + 5: 7, 2**50 - 1: -1}
    decoded = book.decode(book.encode(values, 3))
    assert decoded.marks == 3 and len(decoded) == 6
    assert dict(decoded.items()) == values
    assert decoded.get(2) is None and decoded.get(2**50) is None


# --- the builder (`make book`), at two marks, the last layer's values taken from the shipped book ----------


@pytest.fixture
def solved(monkeypatch):
    """Each board the builder solves, in order; the answer is the shipped book's, so nothing is searched."""
    boards = []
    shipped = book.load()

    def from_the_book(board):
        boards.append(board)
        return shipped.get(book.key_of(board)[0])

    monkeypatch.setattr(book, "solver", lambda: from_the_book)
    monkeypatch.setattr(book, "SAVE_EVERY", 20)
    monkeypatch.setattr(book, "LOG_EVERY", 40)
    return boards


def two_marks(layers) -> dict[int, int]:
    return {key: book.load().get(key) for layer in layers[:3] for key in layer}


def test_the_builder_solves_the_last_layer_once_and_works_out_the_rest(solved, layers):
    logged, saved = [], []
    values = book.build(2, log=logged.append, known={}, save=lambda so_far: saved.append(dict(so_far)))
    assert values == two_marks(layers)
    assert solved == [book.canonical_text(key) for key in layers[2]]  # in the order of their keys
    assert [len(s) for s in saved] == [20, 40, 60, 80]
    assert [line.split(", ")[0] for line in logged] == [f"{n} of 85 positions with 2 marks" for n in (40, 80)]
    assert all(line.endswith(" s") for line in logged)


def test_the_builder_takes_known_values_as_they_are(solved, layers):
    wanted = two_marks(layers)
    first = layers[2][0]
    odd = {first: 99}  # not what a search would say: the builder must not look
    values = book.build(2, known=odd)
    assert values[first] == 99 and len(solved) == 84
    assert book.build(2, known=wanted) == wanted
    assert len(solved) == 84  # nothing more solved


def test_make_book_keeps_the_values_it_has_and_writes_the_file(solved, tmp_path, capsys, layers):
    out = tmp_path / "book.bin"
    out.write_bytes(book.PATH.read_bytes())
    assert book.main(["--marks", "2", "--out", str(out)]) == 0
    assert solved == []
    decoded = book.decode(out.read_bytes())
    assert decoded.marks == 2 and dict(decoded.items()) == two_marks(layers)
    assert not out.with_suffix(".partial").exists()
    printed = capsys.readouterr().out
    assert printed.startswith(f"92 positions, {out.stat().st_size:,} bytes, ")
    assert printed.rstrip().endswith(f"s of CPU: {out}")


def test_make_book_fresh_solves_every_value_again(solved, tmp_path, capsys, layers):
    out = tmp_path / "book.bin"
    out.write_bytes(book.PATH.read_bytes())
    assert book.main(["--marks", "2", "--out", str(out), "--fresh"]) == 0
    assert len(solved) == 85
    assert dict(book.decode(out.read_bytes()).items()) == two_marks(layers)
    assert capsys.readouterr().err.splitlines()[0].startswith("40 of 85 positions with 2 marks, ")


def test_an_interrupted_build_goes_on_from_the_book_and_the_partial_file(solved, tmp_path, monkeypatch, layers):
    wanted = two_marks(layers)
    last = layers[2]
    out = tmp_path / "book.bin"
    partial = tmp_path / "book.partial"
    in_the_book = {key: wanted[key] for key in last[:30]}
    in_the_partial = {key: wanted[key] for key in last[30:50]}
    out.write_bytes(book.encode(in_the_book, 2))
    partial.write_bytes(book.encode(in_the_partial, 0))
    # The defaults: the package's book, of MARKS marks.
    monkeypatch.setattr(book, "PATH", out)
    monkeypatch.setattr(book, "MARKS", 2)
    assert book.main([]) == 0
    assert len(solved) == 35  # only the values neither file held
    assert dict(book.decode(out.read_bytes()).items()) == wanted
    assert not partial.exists()


def test_a_build_saves_what_it_has_solved_beside_the_book(solved, tmp_path, monkeypatch):
    out = tmp_path / "book.bin"
    seen = []
    shipped = book.load()

    def solve_and_look(board):
        if out.with_suffix(".partial").exists():
            seen.append(book.decode(out.with_suffix(".partial").read_bytes()))
        return shipped.get(book.key_of(board)[0])

    monkeypatch.setattr(book, "solver", lambda: solve_and_look)
    assert book.main(["--marks", "2", "--out", str(out)]) == 0
    # Saved after every 20 solved, marked as no book yet (0 marks); gone once the book is written.
    assert [len(s) for s in seen] == [20] * 20 + [40] * 20 + [60] * 20 + [80] * 5
    assert {s.marks for s in seen} == {0}
    assert not out.with_suffix(".partial").exists()


def test_a_file_that_is_not_a_book_is_not_reused(solved, tmp_path, capsys):
    out = tmp_path / "book.bin"
    out.write_bytes(b"an old book")
    assert book.main(["--marks", "1", "--out", str(out)]) == 0
    assert f"not reusing {out}: not a book file" in capsys.readouterr().err
    assert len(solved) == 6
