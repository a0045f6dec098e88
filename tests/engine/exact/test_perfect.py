"""Impossible on 4×4 and 5×5 (webapp/engine/exact/perfect.py): its memories, its budget and what a hint leaves it."""

import pytest
from support import after, rank

from tests.engine.positions import TEN_DRAWS, sample
from webapp.engine.exact import perfect
from webapp.engine.exact.search import ExactSearch


def test_the_memories_are_bounded_by_entries():
    perfect.forget()
    try:
        for memory in (perfect.DECISIONS, perfect.ANALYSES, perfect.OUTLOOKS):
            assert memory.size == perfect.CACHED_BOARDS
        found = dict.fromkeys(pos.board for pos in sample(16, "." * 16, range(10, 14), perfect.CACHED_BOARDS + 80))
        boards = list(found)[: perfect.CACHED_BOARDS + 20]
        assert len(boards) == perfect.CACHED_BOARDS + 20
        for board in boards:
            perfect.decide(board)
            perfect.analyze(board)
            perfect.outlook(board)
        for memory in (perfect.DECISIONS, perfect.ANALYSES, perfect.OUTLOOKS):
            assert len(memory.entries) == perfect.CACHED_BOARDS
            assert boards[-1] in memory.entries and boards[0] not in memory.entries  # the oldest went first
    finally:
        perfect.forget()


def test_where_not_losing_is_possible_impossible_never_picks_a_losing_move():
    checked = 0
    for pos in sample(18, "." * 16, range(7, 12), 120):
        values = [after(pos, m) for m in pos.legal_moves()]
        if max(values, key=rank)[0] < 0:
            continue
        perfect.forget()
        for cell in perfect.decide(pos.board).cells:
            assert after(pos, cell)[0] >= 0, (pos.board, cell)
        checked += 1
    perfect.forget()
    assert checked > 80


def test_the_reviewers_position_is_answered_exactly_within_the_budget():
    # 10 s of CPU for one move without the budget. X to move; the book knows it (two marks).
    board = "O.........X.............."
    perfect.forget()
    try:
        decision = perfect.decide(board)
        values = perfect.analyze(board)
    finally:
        perfect.forget()
    assert decision.exact
    assert "unclear" not in {result for result, _ in values.values()}
    best = max(
        values.values(), key=lambda v: ({"loss": 0, "draw": 1, "win": 2}[v[0]], -v[1] if v[0] == "win" else v[1])
    )
    assert {values[c] for c in decision.cells} == {best}


def test_a_search_for_a_request_keeps_its_table_small():
    board = "O.XOO.....X......X.X....."  # seven marks: 46,120 nodes for every move's value
    search = perfect.search_for(board, perfect.ANALYSIS_NODES)
    assert search.table_limit == perfect.TABLE_LIMIT <= 50_000
    search.move_values(board)
    assert 0 < len(search.table) <= perfect.TABLE_LIMIT
    assert all(type(entry) is int and entry < 2**24 for entry in search.table.values())


def test_a_hint_finds_the_best_moves_in_the_analysis_it_has_just_made(monkeypatch):
    # A hint asks for every move's value, then for Impossible's choice: once the values are all proved, the
    # choice needs no search for the best moves, only its tie-break.
    perfect.forget()
    try:
        values = perfect.analyze(TEN_DRAWS)
        monkeypatch.setattr(ExactSearch, "optimal_moves", lambda *args, **kwargs: pytest.fail("searched again"))
        decision = perfect.decide(TEN_DRAWS)
    finally:
        perfect.forget()
    assert decision.exact and decision.choice.low == 0
    assert decision.cells == (3, 9)
    assert {values[c] for c in decision.cells} == {("draw", 10)}


def test_a_move_after_an_unfinished_analysis_takes_the_values_it_proved(monkeypatch):
    board = "..X..OO...X.....X...O..X."  # seven marks: 9 of its 18 moves' values are proved in 10,000 nodes
    cold = perfect.decide(board)
    perfect.forget()
    given = []
    take = ExactSearch.given
    monkeypatch.setattr(ExactSearch, "given", lambda self, b, values: given.append(values) or take(self, b, values))
    monkeypatch.setattr(perfect, "ANALYSIS_NODES", 10_000)
    try:
        values = perfect.analyze(board)
        decision = perfect.decide(board)
    finally:
        perfect.forget()
    proved = {c for c, (result, _) in values.items() if result != "unclear"}
    assert proved and len(proved) < len(values)
    assert given and set(given[0]) == proved
    assert decision.exact and decision.choice.low == cold.choice.low
    search = ExactSearch(5, 4)
    search.given(board, {13: -5, 14: 7})
    assert search.settled(board, 14) == 7 and search.settled(board, 15) is None
    assert search.root_order(board)[0] == 14  # the best value given is tried first
