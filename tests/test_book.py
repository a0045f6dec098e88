"""The 5×5 opening book: what it holds, that it is what the builder writes, and that play uses it."""

import pytest

from webapp.engine import book, perfect
from webapp.engine.boards import position
from webapp.engine.exact import ExactSearch
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
