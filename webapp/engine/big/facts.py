"""What the engine can say for certain about a big-board position (7×7 and 15×15), for the pages.

Three questions, each with a proved answer or none: the threats on the board (``threats``), a forced
win by continuous fours or by fours and threes (``forced_win``), and what one move does (``move_notes``).
On the solved boards (3×3, 4×4, 5×5) there is nothing to add to the exact values: empty answers.

>>> board = "." * 96 + "XXX" + "." * 12 + "OO" + "." * 112  # 15×15, O to move
>>> [(t.side, t.kind, t.gaps) for t in threats(board)]
[('X', 'open-three', (95, 99))]
>>> move_notes(board, 95)
("blocks X's open three",)
>>> forced_win(board, "X").first in (95, 99)  # were X to move, an open four wins
True
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache, lru_cache

from webapp.engine.answers import ForcedWin, MoveFacts, Threat
from webapp.engine.big.board import Gomoku
from webapp.engine.big.budget import Exhausted, Meter, OutOfBudget
from webapp.engine.big.lines import DIRECTIONS, FIVE, FOUR, OPEN_FOUR, OPEN_THREE
from webapp.engine.big.parameters import (
    DEPTH,
    FACTS_CACHE,
    FACTS_NODES,
    FACTS_SECONDS,
    REVIEW_SEARCH_NODES,
    REVIEW_TRIED,
    THREES,
)
from webapp.engine.big.threats import ThreatSearch
from webapp.engine.boards import board_for, position
from webapp.engine.rules import EMPTY, O, X, other

__all__ = ["ForcedWin", "MoveFacts", "Threat", "forced_win", "game_facts", "move_notes", "threats"]

KINDS = ("five", "open-four", "four", "open-three")  # strongest first


def _big(board: str) -> bool:
    """Whether ``board`` (checked: a ValueError subclass names what is wrong with it) is 7×7 or 15×15."""
    return not board_for(position(board).board).is_solved()


@cache
def _lines(n: int) -> tuple[tuple[int, ...], ...]:
    """Every full line of the n×n board in the four directions, cells in order, those of five cells or more."""
    lines = []
    for dr, dc in DIRECTIONS:
        for r0 in range(n):
            for c0 in range(n):
                if 0 <= r0 - dr < n and 0 <= c0 - dc < n:
                    continue  # not the first cell of its line
                cells, r, c = [], r0, c0
                while 0 <= r < n and 0 <= c < n:
                    cells.append(r * n + c)
                    r, c = r + dr, c + dc
                if len(cells) >= 5:
                    lines.append(tuple(cells))
    return tuple(lines)


def _fours(marks: str, side: str, k: int) -> dict[tuple[int, ...], set[int]]:
    """Within one line (as marks): each set of k-1 stones of ``side`` that one more stone makes k in a row,
    with the positions that do it. Positions are indices into the line."""
    found: dict[tuple[int, ...], set[int]] = {}
    for start in range(len(marks) - k + 1):
        window = marks[start : start + k]
        if window.count(side) == k - 1 and window.count(EMPTY) == 1:
            gap = start + window.index(EMPTY)
            stones = tuple(i for i in range(start, start + k) if marks[i] == side)
            found.setdefault(stones, set()).add(gap)
    return found


def _line_threats(line: tuple[int, ...], board: str, side: str, k: int) -> list[Threat]:
    marks = "".join(board[c] for c in line)
    out = []
    # Fives: runs of k or more.
    run = 0
    for i, mark in enumerate(marks + EMPTY):
        if mark == side:
            run += 1
            continue
        if run >= k:
            out.append(Threat(side, "five", tuple(sorted(line[j] for j in range(i - run, i))), ()))
        run = 0
    for stones, gaps in _fours(marks, side, k).items():
        kind = "open-four" if len(gaps) > 1 else "four"
        out.append(Threat(side, kind, tuple(sorted(line[i] for i in stones)), tuple(sorted(line[g] for g in gaps))))
    # Open threes: k-2 stones that one more stone (a gap) turns into an open four.
    threes: dict[tuple[int, ...], set[int]] = {}
    for i, mark in enumerate(marks):
        if mark != EMPTY:
            continue
        played = marks[:i] + side + marks[i + 1 :]
        for stones, gaps in _fours(played, side, k).items():
            if i in stones and len(gaps) > 1:
                threes.setdefault(tuple(j for j in stones if j != i), set()).add(i)
    for stones, gaps in threes.items():
        cells, ends = tuple(sorted(line[i] for i in stones)), tuple(sorted(line[g] for g in gaps))
        out.append(Threat(side, "open-three", cells, ends))
    return out


def threats(board: str) -> tuple[Threat, ...]:
    """Every five, open four, four and open three on the board, for both sides, strongest first.

    Remembered for a few boards (a page asks for the notes of many cells of one board).

    >>> [(t.side, t.kind, t.stones, t.gaps) for t in threats("XXXX..." + ".OOO.O." + "." * 35)]  # 7×7, X to move
    [('X', 'four', (0, 1, 2, 3), (4,)), ('O', 'four', (8, 9, 10, 12), (11,))]
    """
    if not _big(board):
        return ()
    return _threats(board)


@lru_cache(maxsize=FACTS_CACHE)
def _threats(board: str) -> tuple[Threat, ...]:
    spec = board_for(board)
    found = {t for side in (X, O) for line in _lines(spec.n) for t in _line_threats(line, board, side, spec.k)}
    # A finished line already says it all: not the fours and threes inside it.
    fives = [set(t.stones) for t in found if t.kind == "five"]
    found = {t for t in found if t.kind == "five" or not any(set(t.stones) <= five for five in fives)}
    return tuple(sorted(found, key=lambda t: (KINDS.index(t.kind), t.side != _to_move(board), t.stones, t.gaps)))


def _to_move(board: str) -> str:
    return X if board.count(X) == board.count(O) else O


@lru_cache(maxsize=FACTS_CACHE)
def _read_only_game(board: str) -> Gomoku:
    # Only read, never played on: safe to share between the questions about one board.
    return Gomoku.for_board(board)


def forced_win(board: str, side: str | None = None) -> ForcedWin | None:
    """A proved forced win for ``side`` (default: the side to move; for the other side, as if it were
    to move) found within a small bounded budget, or None if none was found (not a proof that there
    is none)."""
    if not _big(board):
        return None
    game = Gomoku.for_board(board)
    side = side or game.mover
    mine, theirs = game.completions(side)
    if mine:
        return ForcedWin(side, "fours", mine[0], 1, (mine[0],))
    if game.mover != side:
        if theirs:
            return None  # were it to move, the other side would still have a line to complete
        game.pass_turn()
    try:
        return ThreatSearch(game, side, Meter(nodes=FACTS_NODES, seconds=FACTS_SECONDS)).vct(THREES, DEPTH)
    except OutOfBudget:
        return None


def move_notes(board: str, cell: int) -> tuple[str, ...]:
    """What playing the empty ``cell`` does, in short plain words, from the side to move's point of view:
    the shapes it makes, strongest first, then those of the opponent's it blocks. Empty if nothing notable.

    >>> move_notes("XXXX..." + ".OOO.O." + "." * 35, 4)  # 7×7, X to move
    ('wins: five in a row',)
    >>> move_notes("XXXX..." + ".OOO.O." + "." * 35, 11)
    ("blocks O's four",)
    """
    position(board).play(cell)  # a square of the board, empty, in a game not over: else a ValueError subclass
    if not _big(board):
        return ()
    game = _read_only_game(board)
    me = game.mover
    them = other(me)
    made = sorted((game.shape(cell, d, me) for d in range(4)), reverse=True)
    notes = []
    if made[0] == FIVE:
        notes.append("wins: five in a row")
    else:
        fours = sum(1 for shape in made if shape in (FOUR, OPEN_FOUR))
        if OPEN_FOUR in made:
            notes.append("makes an open four")
        elif fours > 1:
            notes.append("makes two fours")
        elif fours:
            notes.append("makes a four")
        threes = made.count(OPEN_THREE)
        if threes > 1:
            notes.append("makes two open threes")
        elif threes:
            notes.append("makes an open three")
    blocked = sorted({t.kind for t in threats(board) if t.side == them and cell in t.gaps}, key=KINDS.index)
    names = {"open-four": "open four", "four": "four", "open-three": "open three"}
    notes += [f"blocks {them}'s {names[kind]}" for kind in blocked]
    return tuple(notes)


# --- what a game's moves did, for its review ------------------------------------------------------------
# A review of a 15×15 game may have 225 moves to look at, and one request has under a second: the moves are looked
# at in order, one at a time (``game_facts`` is a generator), and the caller stops when its time is up and goes on
# from there in another request. Each search has its own small share of nodes, so that what is found about a move
# depends on its position alone, whichever request looks at it (``REVIEW_SEARCH_NODES``).


def game_facts(n: int, k: int, moves: tuple[int, ...], start: int = 0) -> Iterator[MoveFacts]:
    """What is proved about each move of a legal game on the big n×n board (k in a row), from move ``start`` (0 for
    the first) on, one move at a time. OutOfBudget if the request's time runs out in the middle of a move.

    >>> race = (0, 7, 1, 8, 2, 9, 3, 10, 4)  # 7×7: X fills the top row; O's 10 leaves X's four open
    >>> facts = list(game_facts(7, 5, race))
    >>> facts[7].allows.plies, facts[7].better, facts[8].wins
    (1, (4,), True)
    >>> list(game_facts(7, 5, race, 7))[0] == facts[7]  # the same, looked at alone
    True
    """
    game = Gomoku(n, k)
    for move in moves[:start]:
        game.play(move)
    meter = Meter()
    had = None if start >= len(moves) else _win_for_mover(game, meter)
    for move in moves[start:]:
        wins = move in game.completions(game.mover)[0]
        allows = None if wins or game.stones + 1 == n * n else _after(game, move, meter)
        kept = 1 if wins else had.plies if had is not None and move == had.first else None
        if kept is None and had is not None and allows is None:
            kept = _keeps_win(game, move, meter)
        better = _defences(game, move, allows, meter) if had is None and allows is not None else ()
        yield MoveFacts(wins, had, kept, allows, better)
        game.play(move)
        had = allows


def _after(game: Gomoku, move: int, meter: Meter) -> ForcedWin | None:
    """The forced win of the side to move once ``move`` is played."""
    game.play(move)
    try:
        return _win_for_mover(game, meter)
    finally:
        game.undo()


def _win_for_mover(game: Gomoku, meter: Meter) -> ForcedWin | None:
    """The side to move's forced win, within a search's share of the budget; None if none is found."""
    side = game.mover
    mine, _ = game.completions(side)
    if mine:
        return ForcedWin(side, "fours", mine[0], 1, (mine[0],))
    try:
        with meter.share(REVIEW_SEARCH_NODES):
            return ThreatSearch(game, side, meter).vct(THREES, DEPTH)
    except Exhausted:
        return None


def _keeps_win(game: Gomoku, move: int, meter: Meter) -> int | None:
    """The plies of the mover's forced win if ``move``, another than the one the search found, wins by force too."""
    side = game.mover
    game.play(move)
    try:
        with meter.share(REVIEW_SEARCH_NODES):
            rest = ThreatSearch(game, side, meter).defend(THREES, DEPTH - 1)
    except Exhausted:
        rest = None
    finally:
        game.undo()
    return None if rest is None else 1 + rest


def _defences(game: Gomoku, move: int, allows: ForcedWin, meter: Meter) -> tuple[int, ...]:
    """Moves instead of ``move`` after which the opponent's forced win (``allows``, found after it) is no longer
    found: the blocks of its fours, then the squares of its attack, taken first."""
    tried: list[int] = []
    for cell in (*game.completions(game.mover)[1], *allows.line[::2]):
        if cell != move and cell not in tried and game.board[cell] == 0:
            tried.append(cell)
    return tuple(cell for cell in tried[:REVIEW_TRIED] if _after(game, cell, meter) is None)
