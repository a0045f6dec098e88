"""What the page shows for a table: words, labels and flags, worked out once so templates stay simple."""

from __future__ import annotations

from dataclasses import dataclass

from webapp.game import Position, cell_name, other
from webapp.match import LEVEL_NAMES, Table
from webapp.solver import analyze, candidates

PLACES = (
    "the top-left corner",
    "the top edge",
    "the top-right corner",
    "the left edge",
    "the centre",
    "the right edge",
    "the bottom-left corner",
    "the bottom edge",
    "the bottom-right corner",
)
# Centres of the cells in the board's 300 x 300 drawing, for the line struck through a win.
CENTRES = {i: (50 + 100 * (i % 3), 50 + 100 * (i // 3)) for i in range(9)}


@dataclass(frozen=True, slots=True)
class CellView:
    index: int
    mark: str  # "X", "O" or ""
    label: str  # the accessible name
    value: str = ""  # "win in 3", "draw", "loss in 2" when move values are on
    result: str = ""  # "win", "draw" or "loss", for the colour
    is_hint: bool = False
    is_winning: bool = False
    is_last: bool = False


@dataclass(frozen=True, slots=True)
class Strike:
    x1: int
    y1: int
    x2: int
    y2: int


@dataclass(frozen=True, slots=True)
class GameView:
    board: str
    status: str  # "playing", "x-won", "o-won" or "draw"
    ply: int
    headline: str
    cells: tuple[CellView, ...]
    strikes: tuple[Strike, ...]
    hint: str
    score: tuple[tuple[str, int], ...]
    is_over: bool
    can_play: bool  # a person may click a square now
    is_running: bool  # a Computer vs Computer game that plays on by itself


def status_of(pos: Position) -> str:
    """The game's state as the page and the API name it: playing, x-won, o-won or draw."""
    if not pos.is_over():
        return "playing"
    return "draw" if pos.is_draw() else f"{pos.winner.lower()}-won"


def game_view(table: Table, *, hint: bool = False) -> GameView:
    """Everything the templates need to draw ``table``."""
    pos = table.position
    outcome = pos.outcome()
    status = status_of(pos)
    values = analyze(pos.board) if table.show_values and outcome is None else {}
    hints = set(candidates(pos.board, "minimax")) if hint and outcome is None else set()
    last = table.moves[-1] if table.moves else None
    cells = tuple(_cell(i, pos.board[i], values.get(i), i in hints, i in pos.winning_line, i == last) for i in range(9))
    return GameView(
        board=pos.board,
        status=status,
        ply=table.ply,
        headline=headline(table),
        cells=cells,
        strikes=_strikes(pos),
        hint=_hint_text(pos.board, hints) if hints else "",
        score=score_items(table),
        is_over=outcome is not None,
        can_play=table.is_humans_turn(),
        is_running=table.settings.mode == "cvc" and not table.paused and outcome is None,
    )


def _cell(index, mark, value, is_hint, is_winning, is_last) -> CellView:
    mark = "" if mark == "." else mark
    label = f"{cell_name(index)}, {mark or 'empty'}"
    words = result = ""
    if value:
        result, plies = value
        words = "draw" if result == "draw" else f"{result} in {plies}"
        label += f", {words}"
    if is_hint:
        label += ", suggested move"
    return CellView(index, mark, label, words, result, is_hint, is_winning, is_last)


def _strikes(pos) -> tuple[Strike, ...]:
    winner = pos.winner
    if winner is None:
        return ()
    lines = [line for line in pos.geometry.lines if all(pos.board[c] == winner for c in line)]
    strikes = []
    for line in lines:
        (x1, y1), (x2, y2) = CENTRES[line[0]], CENTRES[line[-1]]
        # Reach a little past the two end marks, as a hand-drawn stroke would.
        dx, dy = (x2 - x1) // 8, (y2 - y1) // 8
        strikes.append(Strike(x1 - dx, y1 - dy, x2 + dx, y2 + dy))
    return tuple(strikes)


def controls_state(table: Table) -> tuple:
    """Everything the controls under the board depend on, to tell when they need redrawing."""
    return table.settings.mode, table.can_undo(), table.paused, table.position.is_over(), table.show_values


def headline(table: Table) -> str:
    """The one status line: whose turn it is and what just happened."""
    s, pos = table.settings, table.position
    winner = pos.winner
    if s.mode == "hvc":
        if winner:
            return "You win!" if winner == s.human else "The computer wins."
        if pos.is_draw():
            return "It's a draw."
        if not table.moves or pos.to_move != s.human:
            return f"You play {s.human}. Your turn."
        return f"The computer took {PLACES[table.moves[-1]]}. Your turn."
    if s.mode == "hvh":
        if winner:
            return f"{winner} wins!"
        if pos.is_draw():
            return "It's a draw."
        return f"{pos.to_move} to move."
    names = {side: f"{side} ({LEVEL_NAMES[s.level(side)]})" for side in "XO"}
    if winner:
        return f"{names[winner]} wins."
    if pos.is_draw():
        return "It's a draw."
    paused = "Paused. " if table.paused else ""
    if table.moves:
        mover = other(pos.to_move)
        return f"{paused}{names[mover]} took {PLACES[table.moves[-1]]}; {names[pos.to_move]} to move."
    return f"{paused}{names[pos.to_move]} to move."


def score_items(table: Table) -> tuple[tuple[str, int], ...]:
    mode = table.settings.mode
    tally = getattr(table.score, mode)
    first, second = ("You", "Computer") if mode == "hvc" else ("X", "O")
    return (first, tally.first), (second, tally.second), ("Draws", tally.draws)


def _hint_text(board: str, hints: set[int]) -> str:
    result, plies = analyze(board)[min(hints)]
    outcome = "holds the draw" if result == "draw" else f"{'wins' if result == 'win' else 'loses'} in {plies}"
    if len(hints) == 1:
        return f"Hint: {PLACES[min(hints)]} is the best move; it {outcome}."
    return f"Hint: each highlighted square is a best move; each {outcome}."
