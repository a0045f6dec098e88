"""What the page says about a big board (7×7, 15×15) from what the engine proves: the threats on it, a
forced win, what a move does, and the search's top choices, in words a gomoku player reads at a glance.

Nothing here is a guess: every sentence comes from ``solver.threats``, ``solver.forced_win`` or
``solver.move_notes``, and the search's choices are called choices, never values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from webapp import solver
from webapp.engine.rules import cell_name, other

if TYPE_CHECKING:
    from webapp.solver import ForcedWin, Threat

# The threats listed by name; the rest are counted. A 15×15 middle game can hold a dozen open threes.
LISTED = 6
# How many of the search's choices the move values number (1 is its first choice).
CHOICES = 3
KIND_WORDS = {"five": "five in a row", "open-four": "an open four", "four": "a four", "open-three": "an open three"}
METHOD_WORDS = {"fours": "continuous fours", "threes": "fours and threes"}
NO_FORCED_WIN = "No forced win was found for either side within the search's limit; that is no proof that none exists."


@dataclass(frozen=True, slots=True)
class Facts:
    """The help beside a big board: one sentence a line, strongest first."""

    threats: tuple[str, ...]  # each five, open four, four and open three, for both sides (at most LISTED)
    unlisted: int  # how many more threats there are
    forced: tuple[str, ...]  # the forced wins found, or why none is claimed


def facts(board: str) -> Facts:
    """The help for a valid, unfinished big ``board``.

    >>> found = facts("." * 96 + "XXX" + "." * 12 + "OO" + "." * 112)  # 15×15, O to move
    >>> found.threats
    ('X has an open three on row 7, columns 7–9: it makes an open four at row 7, column 6 or 10.',)
    >>> facts("." * 96 + "XXXX" + "." * 11 + "OOO" + "." * 111).forced  # O to move, X's open four: said once
    ()
    """
    n = _size(board)
    found = solver.threats(board)
    listed = tuple(threat_words(t, n) for t in found[:LISTED])
    mover = _to_move(board)
    forced = []
    win = solver.forced_win(board, mover)
    if win is not None:
        forced.append(forced_words(win, n, to_move=True))
    them = other(mover)
    # Two squares that make five (an open four, or two fours) cannot both be blocked: that is already decisive,
    # and the open four's own line says so.
    fives = {gap for t in found if t.side == them and t.kind in ("open-four", "four") for gap in t.gaps}
    if win is None and len(fives) > 1:
        if not any(t.side == them and t.kind == "open-four" for t in found):
            forced.append(f"{mover} cannot block both of {them}'s fours: {them} makes five next move.")
        return Facts(listed, len(found) - len(listed), tuple(forced))
    threat = solver.forced_win(board, them) if win is None or win.plies > 1 else None
    if threat is not None:
        forced.append(forced_words(threat, n, to_move=False))
    if not forced:
        forced.append(NO_FORCED_WIN)
    return Facts(listed, len(found) - len(listed), tuple(forced))


def threat_words(threat: Threat, n: int) -> str:
    """A threat in a sentence: whose, what, where, and where it is played.

    >>> threat_words(solver.Threat("O", "four", (16, 17, 18, 19), (20,)), 15)
    'O has a four on row 2, columns 2–5: it makes five at row 2, column 6.'
    """
    head = f"{threat.side} has {KIND_WORDS[threat.kind]} on {stretch(threat.stones, n)}"
    if threat.kind == "five":
        return head + "."
    gaps = squares(threat.gaps, n)
    if threat.kind == "open-four":
        return f"{head}: it makes five at {gaps}, and one block cannot stop both."
    if threat.kind == "four":
        return f"{head}: it makes five at {gaps}."
    return f"{head}: it makes an open four at {gaps}."


def forced_words(win: ForcedWin, n: int, *, to_move: bool) -> str:
    """A forced win in a sentence; for the side not to move, as the danger it would be on its turn.

    >>> forced_words(solver.ForcedWin("X", "fours", 112, 5, (112, 113, 97, 98, 82)), 15, to_move=True)
    'X, to move, wins by force with continuous fours from row 8, column 8: five within 5 moves of both sides.'
    """
    how = f"with {METHOD_WORDS[win.kind]} from {cell_name(win.first, n).lower()}"
    if to_move:
        if win.plies == 1:
            return f"{win.side}, to move, wins at once at {cell_name(win.first, n).lower()}: five in a row."
        return f"{win.side}, to move, wins by force {how}: five within {win.plies} moves of both sides."
    return f"{win.side} threatens a forced win {how}, if it gets the move: {other(win.side)} must stop it."


def move_words(board: str, cell: int) -> str:
    """What playing ``cell`` does, as the hint says it after the square: "" if nothing notable.

    >>> move_words("XXXX..." + ".OOO.O." + "." * 35, 11)
    "blocks O's four"
    >>> move_words("." * 96 + ".XX" + "." * 12 + "OO" + "." * 112, 96)  # 15×15, X to move
    'makes an open three'
    """
    notes = list(solver.move_notes(board, cell))
    made = [note.removeprefix("makes ") for note in notes if note.startswith("makes ")]
    blocked = [note.removeprefix("blocks ") for note in notes if note.startswith("blocks ")]
    rest = [note for note in notes if not note.startswith(("makes ", "blocks "))]
    parts = rest
    if made:
        parts.append("makes " + " and ".join(made))
    if blocked:
        parts.append("blocks " + " and ".join(blocked))
    return ", and ".join(parts)


def choices(board: str) -> tuple[int, ...]:
    """The search's first few choices in ``board``, best first: what it prefers, not what it proved."""
    view = solver.search_view(board)
    if view is None:
        return ()
    ranked = list(view.best) + [move for move, _ in view.scores if move not in view.best]
    return tuple(ranked[:CHOICES])


def stretch(cells: tuple[int, ...], n: int) -> str:
    """Where a line of stones lies: "row 7, columns 4–6", "column 3, rows 2–5", or its two ends.

    >>> stretch((97, 98, 99), 15), stretch((2, 17, 32), 15), stretch((0, 16, 32), 15)
    ('row 7, columns 8–10', 'column 3, rows 1–3', 'row 1, column 1 to row 3, column 3')
    """
    rows = [cell // n + 1 for cell in cells]
    cols = [cell % n + 1 for cell in cells]
    if len(set(rows)) == 1:
        return f"row {rows[0]}, columns {min(cols)}–{max(cols)}"
    if len(set(cols)) == 1:
        return f"column {cols[0]}, rows {min(rows)}–{max(rows)}"
    first, last = cells[0], cells[-1]
    return f"{cell_name(first, n).lower()} to {cell_name(last, n).lower()}"


def squares(cells: tuple[int, ...], n: int) -> str:
    """Empty squares named for a sentence: "row 7, column 3 or 8" when they share a row.

    >>> squares((95, 99), 15), squares((20,), 15), squares((5, 35), 15)
    ('row 7, column 6 or 10', 'row 2, column 6', 'row 1, column 6 or row 3, column 6')
    """
    rows = {cell // n for cell in cells}
    if len(rows) == 1 and len(cells) > 1:
        cols = [str(cell % n + 1) for cell in cells]
        return f"row {cells[0] // n + 1}, column {', '.join(cols[:-1])} or {cols[-1]}"
    return " or ".join(cell_name(cell, n).lower() for cell in cells)


def _size(board: str) -> int:
    return round(len(board) ** 0.5)


def _to_move(board: str) -> str:
    return "X" if board.count("X") == board.count("O") else "O"
