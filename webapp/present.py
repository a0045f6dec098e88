"""What the page shows for a table: words, labels and flags, worked out once so templates stay simple."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from webapp.engine.rules import Position, cell_name, other, parse
from webapp.match import LEVEL_NAMES, Table, Tally
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
    is_hint: bool = False  # keeps the best result there is, when a hint is asked for
    is_pick: bool = False  # the computer's own choice among those
    is_winning: bool = False
    is_last: bool = False


@dataclass(frozen=True, slots=True)
class Strike:
    x1: int
    y1: int
    x2: int
    y2: int


@dataclass(frozen=True, slots=True)
class Grid:
    """What the board itself shows and nothing else, so that one drawing serves every visit to it."""

    board: str
    status: str  # "playing", "x-won", "o-won" or "draw"
    ply: int
    cells: tuple[CellView, ...]
    strikes: tuple[Strike, ...]
    is_over: bool
    can_play: bool  # a person may click a square now


@dataclass(frozen=True, slots=True)
class GameView:
    grid: Grid
    headline: str
    hint: str
    tone: str  # how the game ended for the player, for the status's colour: see outcome_tone()
    is_running: bool  # a Computer vs Computer game that plays on by itself

    @property
    def board(self) -> str:
        return self.grid.board

    @property
    def status(self) -> str:
        return self.grid.status

    @property
    def ply(self) -> int:
        return self.grid.ply

    @property
    def cells(self) -> tuple[CellView, ...]:
        return self.grid.cells

    @property
    def strikes(self) -> tuple[Strike, ...]:
        return self.grid.strikes

    @property
    def is_over(self) -> bool:
        return self.grid.is_over

    @property
    def can_play(self) -> bool:
        return self.grid.can_play


def status_of(pos: Position) -> str:
    """The game's state as the page and the API name it: playing, x-won, o-won or draw."""
    if not pos.is_over():
        return "playing"
    return "draw" if pos.is_draw() else f"{pos.winner.lower()}-won"


def game_view(table: Table, *, hint: bool = False) -> GameView:
    """Everything the templates need to draw ``table``."""
    over = table.position.is_over()
    last = table.moves[-1] if table.moves else None
    grid = _grid(table.position.board, last, table.show_values, hint, table.is_humans_turn())
    return GameView(
        grid=grid,
        headline=headline(table),
        tone=outcome_tone(table),
        hint=hint_text(grid.board) if hint and not over else VALUES_KEY if table.show_values and not over else "",
        is_running=table.settings.mode == "cvc" and not table.paused and not over,
    )


@lru_cache(maxsize=1 << 14)
def _grid(board: str, last: int | None, show_values: bool, hint: bool, can_play: bool) -> Grid:
    # A pure function of a few small values that recur from game to game, so worked out once.
    pos = parse(board)
    outcome = pos.outcome()
    values = analyze(board) if show_values and outcome is None else {}
    keep, picks = hinted(board) if hint and outcome is None else ((), ())
    cells = tuple(
        _cell(i, board[i], values.get(i), i in keep, i in picks, i in pos.winning_line, i == last)
        for i in range(len(board))
    )
    return Grid(board, status_of(pos), pos.ply, cells, _strikes(pos), outcome is not None, can_play)


def hinted(board: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The moves that keep the best result there is, and the computer's own choice among them.

    >>> hinted(".........")  # every square keeps the draw; a corner gives O the most ways to go wrong
    ((0, 1, 2, 3, 4, 5, 6, 7, 8), (0, 2, 6, 8))
    """
    values = analyze(board)
    best = max(map(_rank, values.values()))
    keep = tuple(cell for cell, value in values.items() if _rank(value) == best)
    return keep, candidates(board, "minimax")


def _rank(value: tuple[str, int]) -> tuple[int, int]:
    # Any win keeps a win and any draw the draw; in a lost game only holding out longest does.
    result, plies = value
    return (0, plies) if result == "loss" else ({"draw": 1, "win": 2}[result], 0)


# What the numbers on the squares count, said under the board while they are shown.
VALUES_KEY = "Move values: the result with best play, and the moves of both sides until the game ends."


def _cell(index, mark, value, is_hint, is_pick, is_winning, is_last) -> CellView:
    mark = "" if mark == "." else mark
    label = f"{cell_name(index)}, {mark or 'empty'}"
    words = result = ""
    if value:
        result, plies = value
        words = "draw" if result == "draw" else f"{result} in {plies}"
        label += ", draw" if result == "draw" else f", {result} in {plies} {'move' if plies == 1 else 'moves'}"
    if is_pick:
        label += ", Best move"  # the square shows "Best": its name says it too
    elif is_hint:
        label += ", also keeps the best result"
    return CellView(index, mark, label, words, result, is_hint, is_pick, is_winning, is_last)


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


@dataclass(frozen=True, slots=True)
class Controls:
    """Everything the buttons under the board depend on: equal values draw the same buttons."""

    mode: str
    can_undo: bool
    paused: bool
    is_over: bool
    show_values: bool


def controls_state(table: Table) -> Controls:
    """What the controls under the board show, to draw them and to tell when they need redrawing."""
    return Controls(table.settings.mode, table.can_undo(), table.paused, table.position.is_over(), table.show_values)


def headline(table: Table) -> str:
    """The one status line: whose turn it is and what just happened, short enough for two lines on a phone."""
    s, pos = table.settings, table.position
    winner = pos.winner
    if pos.is_draw():
        return "It's a draw."
    if s.mode == "hvc":
        if winner:
            return "You win!" if winner == s.human else "The computer wins."
        if not table.moves or pos.to_move != s.human:
            return f"You play {s.human}. Your turn."
        return f"The computer took {PLACES[table.moves[-1]]}. Your turn."
    if s.mode == "hvh":
        return f"{winner} wins!" if winner else f"{pos.to_move} to move."
    # The levels are on the settings line; naming them here made the line wrap on a phone.
    if winner:
        return f"{winner} ({LEVEL_NAMES[s.level(winner)]}) wins."
    paused = "Paused. " if table.paused else ""
    if table.moves:
        return f"{paused}{other(pos.to_move)} took {PLACES[table.moves[-1]]}; {pos.to_move} to move."
    return f"{paused}{pos.to_move} to move."


def outcome_tone(table: Table) -> str:
    """ "win", "loss" or "draw" once the game is over ("win" for any winner when no person plays the
    computer); "" while it goes on."""
    pos = table.position
    if not pos.is_over():
        return ""
    if pos.winner is None:
        return "draw"
    return "loss" if table.settings.mode == "hvc" and pos.winner != table.settings.human else "win"


@dataclass(frozen=True, slots=True)
class ScoreView:
    """The score the current game counts in: its name and its three counts."""

    title: str
    items: tuple[tuple[str, int], ...]
    is_empty: bool


def score_view(table: Table) -> ScoreView:
    """The score shown beside the game: against the computer, the current difficulty's own."""
    tally = table.tally
    first, second = ("You", "Computer") if table.settings.mode == "hvc" else ("X", "O")
    items = ((first, tally.first), (second, tally.second), ("Draws", tally.draws))
    title = f"Score against {table.score_name}" if table.settings.mode == "hvc" else f"Score, {table.score_name}"
    return ScoreView(title, items, tally == Tally())


# The fields a question about a new game sends again with its yes: settings, already checked.
RESENT_FIELDS = ("mode", "human", "difficulty", "x_level", "o_level")
ANSWERS = {"game.new": "Start the new game", "game.reset_score": "Reset the score"}


@dataclass(frozen=True, slots=True)
class Confirmation:
    """A question that waits for a yes: the form that says yes sends the same request again."""

    question: str
    endpoint: str
    fields: tuple[tuple[str, str], ...]
    yes: str

    @classmethod
    def of(cls, question: ValueError, endpoint: str, form) -> Confirmation:
        fields = tuple((name, form[name]) for name in RESENT_FIELDS if name in form)
        return cls(str(question), endpoint, fields, ANSWERS[endpoint])


def hint_text(board: str) -> str:
    """The hint's one line: which squares keep the best result, and why the marked one is the pick.

    Short enough for the two lines its slot keeps under the board on a 320 px phone.

    >>> hint_text(".........")
    'Hint: all draw; the marked corners give O most ways to slip.'
    >>> hint_text("XX.OO....")
    'Hint: the marked corner wins at once.'
    """
    keep, picks = hinted(board)
    result, plies = analyze(board)[picks[0]]
    opponent = other(parse(board).to_move)
    chosen = _squares(picks)
    verb = "gives" if len(picks) == 1 else "give"
    if result == "win":
        if plies == 1:
            return f"Hint: {chosen} {'wins' if len(picks) == 1 else 'win'} at once."
        fastest = f"{chosen} {'wins' if len(picks) == 1 else 'win'} in {(plies + 1) // 2} of your moves"
        return f"Hint: {fastest}." if len(keep) == len(picks) else f"Hint: {len(keep)} squares win; {fastest}."
    if result == "loss":
        return f"Hint: every move loses; {chosen} {'holds' if len(picks) == 1 else 'hold'} out longest."
    if len(keep) == len(picks):
        return f"Hint: {chosen} {'keeps' if len(picks) == 1 else 'keep'} the draw."
    count = "all" if len(keep) == len(parse(board).legal_moves()) else f"{len(keep)} squares"
    return f"Hint: {count} draw; {chosen} {verb} {opponent} most ways to slip."


def _squares(cells: tuple[int, ...]) -> str:
    """The marked squares in a few words, such as "the centre" or "the marked corners"."""
    if len(cells) == 1:
        place = PLACES[cells[0]]
        return place if place == "the centre" else f"the marked {place.split()[-1]}"
    kinds = {PLACES[cell].split()[-1] for cell in cells}
    return f"the marked {kinds.pop()}s" if len(kinds) == 1 else "the marked squares"
