"""The 5×5 opening book: what it holds, that it is what the builder writes, and that play uses it."""

import pytest

from webapp.engine import book, perfect
from webapp.engine.boards import position
from webapp.engine.exact import WIN, ExactSearch
from webapp.engine.levels import analyze, candidates


def entries_by_moves_played() -> list[int]:
    """The book's keys, the positions with the most moves played (the cheapest to solve) first."""
    _, entries = book.load()
    return sorted(entries, key=lambda key: (book.canonical_text(key).count("."), key))


def test_the_shipped_book_holds_every_position_impossible_can_face_in_its_first_moves():
    depth, entries = book.load()
    assert depth >= 3
    # Walking the games again, with the book's own choices for Impossible and every reply for the
    # other side, finds the book's positions and no others.
    walked = {book.key_of(board)[0] for board in book.positions(depth, lambda board: book.lookup(board).candidates)}
    assert walked == set(entries)
    assert book.key_of("." * 25)[0] in entries


def test_the_file_is_exactly_what_the_encoder_writes_for_its_entries():
    depth, entries = book.load()
    assert book.encode(entries, depth) == book.PATH.read_bytes()
    assert book.PATH.stat().st_size < 300_000


def test_an_entry_is_what_the_builder_solves_for_it_again():
    # X in the centre, O to move: the cheapest entry to solve again (seconds).
    key, _ = book.key_of("............X............")
    assert book.solve_entry(book.canonical_text(key)) == book.load()[1][key]


def test_an_entry_agrees_with_the_live_search():
    key = entries_by_moves_played()[2]
    board = book.canonical_text(key)
    entry = book.lookup(board)
    search = ExactSearch(5, 4)
    top = search.solve(board)
    proved = {cell: value for cell, value in entry.values.items() if value is not None}
    assert max(entry.values[c] for c in entry.candidates) == top
    assert all(value <= top for value in proved.values())
    for cell in entry.candidates:
        assert search.value_of_move(board, cell, top - 1, top) >= top
    for cell, value in list(proved.items())[:3]:
        assert search.value_of_move(board, cell) == value


def twins(board: str) -> list[str]:
    return ["".join(board[i] for i in perm) for perm in position(board).geometry.symmetries]


def test_a_lookup_turns_the_entry_to_the_board_asked_about():
    # A position with no symmetry of its own, so each twin has one way back to the entry's frame.
    board = next(b for b in map(book.canonical_text, entries_by_moves_played()) if len(set(twins(b))) == 8)
    entry = book.lookup(board)
    for perm in position(board).geometry.symmetries:
        twin = "".join(board[i] for i in perm)
        twin_entry = book.lookup(twin)
        # Cell perm[j] of the board is cell j of the twin.
        assert twin_entry.candidates == tuple(sorted(perm.index(c) for c in entry.candidates))
        assert twin_entry.values == {perm.index(c): v for c, v in entry.values.items()}


def test_play_and_analysis_take_the_book_without_searching(monkeypatch):
    def no_search(*args, **kwargs):
        raise AssertionError("searched a position the book holds")

    monkeypatch.setattr(perfect, "ExactSearch", no_search)
    perfect.candidates.cache_clear()
    perfect._analysis.cache_clear()
    try:
        chosen = candidates("." * 25, "minimax")
        values = analyze("." * 25)
    finally:
        perfect.candidates.cache_clear()
        perfect._analysis.cache_clear()
    assert chosen == book.lookup("." * 25).candidates
    assert {values[c] for c in chosen} == {("draw", 25)}  # 5×5, four in a row, is a draw
    assert len(values) == 25


def test_a_board_outside_the_book_is_not_found():
    assert book.lookup("XXO.O" + "." * 20) is None
    assert book.lookup("." * 16) is None


@pytest.mark.parametrize(
    ("data", "message"),
    [(b"not a book", "not a book file"), (book.MAGIC + bytes([4, 4, 1, 0, 0]), "a book for 4×4")],
)
def test_a_file_that_is_not_this_book_is_refused(data, message):
    with pytest.raises(ValueError, match=message):
        book.decode(data)


# --- the builder (`make book`), with the solving itself replaced by the shipped book's answers ---------


def book_depth_2() -> dict[int, tuple[int, bytes]]:
    """The entries of a book of depth 2: the empty board (Impossible is X) and X's six first moves (it is O)."""
    keys = {book.key_of(board)[0] for board in book.positions(2, lambda board: book.lookup(board).candidates)}
    return {key: book.load()[1][key] for key in keys}


@pytest.fixture
def solved(monkeypatch):
    """Each board the builder solves, in order; the answer is the shipped book's, so nothing is searched."""
    boards = []

    def from_the_book(board):
        boards.append(board)
        return book.load()[1][book.key_of(board)[0]]

    monkeypatch.setattr(book, "solve_entry", from_the_book)
    return boards


def test_the_builder_solves_each_position_once_and_logs_and_saves_after_each(solved):
    wanted = book_depth_2()
    assert len(wanted) == 7
    logged, saved = [], []
    entries = book.build(2, log=logged.append, known={}, save=lambda so_far: saved.append(dict(so_far)))
    assert entries == wanted
    assert sorted(book.key_of(board)[0] for board in solved) == sorted(wanted)
    assert all(board == book.canonical_text(book.key_of(board)[0]) for board in solved)
    assert [len(s) for s in saved] == [1, 2, 3, 4, 5, 6, 7]
    assert saved[-1] == wanted
    assert len(logged) == 7
    for number, (line, board) in enumerate(zip(logged, solved, strict=True), start=1):
        assert line.split()[:2] == [str(number), board]
        assert line.endswith(" s")
        assert line.startswith(f"{number:5} ")


def test_the_builder_takes_known_entries_as_they_are(solved):
    wanted = book_depth_2()
    empty_key = book.key_of("." * 25)[0]
    odd = (wanted[empty_key][0], bytes(25))  # not what a search would say: the builder must not look
    entries = book.build(2, known={empty_key: odd})
    assert entries == wanted | {empty_key: odd}
    assert len(solved) == 6
    assert "." * 25 not in solved
    assert book.build(2, known=wanted) == wanted
    assert len(solved) == 6  # nothing more solved, and no log or save needed


def test_make_book_keeps_the_entries_it_has_and_writes_the_file(solved, tmp_path, capsys):
    out = tmp_path / "book.bin"
    out.write_bytes(book.PATH.read_bytes())
    assert book.main(["--depth", "2", "--out", str(out)]) == 0
    assert solved == []
    assert book.decode(out.read_bytes()) == (2, book_depth_2())
    assert not out.with_suffix(".partial").exists()
    printed = capsys.readouterr().out
    assert printed.startswith(f"7 positions, {out.stat().st_size:,} bytes, ")
    assert printed.rstrip().endswith(f"s of CPU: {out}")


def test_make_book_fresh_solves_every_entry_again(solved, tmp_path, capsys):
    out = tmp_path / "book.bin"
    out.write_bytes(book.PATH.read_bytes())
    assert book.main(["--depth", "2", "--out", str(out), "--fresh"]) == 0
    assert len(solved) == 7
    assert book.decode(out.read_bytes()) == (2, book_depth_2())
    err = capsys.readouterr().err
    # One line per entry solved, on stderr: its number, the board, the CPU seconds it took.
    assert [line.split()[:2] for line in err.splitlines()] == [[str(i), b] for i, b in enumerate(solved, start=1)]


def test_an_interrupted_build_goes_on_from_the_book_and_the_partial_file(solved, tmp_path, monkeypatch):
    wanted = sorted(book_depth_2().items())
    out = tmp_path / "book.bin"
    partial = tmp_path / "book.partial"
    in_the_book, in_the_partial = dict(wanted[:2]), dict(wanted[2:5])
    out.write_bytes(book.encode(in_the_book, 4))
    partial.write_bytes(book.encode(in_the_partial, 0))
    seen = []

    def solve_and_look(board):
        # What was saved beside the book before this entry: what was known, and every entry solved since.
        seen.append(book.decode(partial.read_bytes()))
        return book.load()[1][book.key_of(board)[0]]

    monkeypatch.setattr(book, "solve_entry", solve_and_look)
    # The defaults: the package's book, of DEPTH moves.
    monkeypatch.setattr(book, "PATH", out)
    monkeypatch.setattr(book, "DEPTH", 2)
    assert book.main([]) == 0
    # Two left to solve: before the first, the partial file as it was; after it, all that is known so far,
    # marked as no book yet (depth 0).
    assert seen[0] == (0, in_the_partial)
    assert seen[1][0] == 0 and len(seen[1][1]) == 6
    assert (in_the_book | in_the_partial).items() <= seen[1][1].items()
    assert book.decode(out.read_bytes()) == (2, dict(wanted))
    assert not partial.exists()


def test_the_walk_meets_each_position_once_and_the_builder_follows_the_candidates_it_solved(solved):
    boards = list(book.positions(2, lambda board: book.lookup(board).candidates))
    assert len(boards) == len(set(boards)) == 7
    assert boards[0] == "." * 25  # Impossible as X first: the empty board
    # Three moves deep, the positions Impossible meets as X depend on its own first choices.
    shipped = book.load()[1]
    walked = {book.key_of(board)[0] for board in book.positions(3, lambda board: book.lookup(board).candidates)}
    assert book.build(3, known=shipped) == {key: shipped[key] for key in walked}
    assert len(walked) > 7


def test_a_file_that_is_not_a_book_is_named_so():
    with pytest.raises(ValueError) as refused:
        book.decode(b"not a book")
    assert str(refused.value) == "not a book file"


# --- what solving one entry may spend, on a board solved in milliseconds rather than a book position -----

# X O . O .
# . . X . X
# . O X . .
# O . . . O
# X . . X O   X to move wins: at 6, 8, 17 or 22 on its next move, anywhere else only later.
QUICK_WIN = "XO.O...X.X.OX..O...OX..XO"


def cells_of(mask: int) -> list[int]:
    return [c for c in range(book.N * book.N) if mask >> c & 1]


def test_an_entry_with_no_nodes_for_the_other_best_moves_keeps_the_first_one_found(monkeypatch):
    full_mask, full_row = book.solve_entry(QUICK_WIN)
    assert cells_of(full_mask) == [6, 8, 17, 22]
    monkeypatch.setattr(book, "EXTRA_NODES", 0)
    mask, row = book.solve_entry(QUICK_WIN)
    # One best move is found whatever it costs; proving the others as good would cost more.
    assert len(cells_of(mask)) == 1
    assert mask & full_mask == mask
    assert row == full_row  # the values have a budget of their own


def test_an_entry_marks_the_move_values_its_budget_did_not_prove(monkeypatch):
    full_mask, full_row = book.solve_entry(QUICK_WIN)
    assert book.UNPROVED not in full_row  # the full budget proves every value here
    monkeypatch.setattr(book, "VALUE_NODES", 1)
    mask, row = book.solve_entry(QUICK_WIN)
    assert mask == full_mask  # the candidates have a budget of their own
    # One node settles only some moves; the rest are written as unproved, never as a guess.
    unproved = [c for c, byte in enumerate(row) if byte == book.UNPROVED]
    assert 0 < len(unproved) < QUICK_WIN.count(".")
    assert all(byte == full_row[c] for c, byte in enumerate(row) if c not in unproved)


def test_the_builders_table_is_emptied_at_its_limit(monkeypatch):
    searches = []

    class Watched(ExactSearch):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            searches.append(self)

    monkeypatch.setattr(book, "ExactSearch", Watched)
    entry = book.solve_entry(QUICK_WIN)
    grown = len(searches[-1].table)
    monkeypatch.setattr(book, "BUILD_TABLE_LIMIT", 20)
    # The table only saves work: emptied whenever it holds 20 positions, it gives the same entry.
    assert book.solve_entry(QUICK_WIN) == entry
    assert 1 <= len(searches[-1].table) <= 20 < grown


def test_a_value_the_book_could_not_prove_is_read_as_unknown_never_as_a_number():
    # Each entry's move values were searched within a node budget; where it ran out the book holds UNPROVED,
    # and a lookup must give None there (the analysis then says "unclear"), never a value.
    unproved = 0
    for key, (_, row) in book.load()[1].items():
        values = book.lookup(book.canonical_text(key)).values
        assert sum(value is None for value in values.values()) == row.count(book.UNPROVED)
        assert all(value is None or abs(value) <= WIN + 25 for value in values.values())
        unproved += row.count(book.UNPROVED)
    assert unproved > 0  # the shipped book has some: the empty board's corners, for one
