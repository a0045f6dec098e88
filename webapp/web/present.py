"""What the page shows for a table: words, labels and flags, worked out once so templates stay simple."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from webapp.engine.boards import BY_KEY, DEFAULT, board_for, position
from webapp.engine.rules import Position, cell_name, other
from webapp.learn import big_help
from webapp.learn.big_help import Facts
from webapp.learn.squares import place, where
from webapp.match import MODE_NAMES, Table, Tally, level_names
from webapp.solver import analyze, candidates

# The drawing of the line struck through a win: each cell is 100 units wide, so a cell's centre is
# at 50 + 100 × its column (and row), whatever the size of the board.
CELL_UNITS = 100
# Up to this size a square has room for a move's value in words ("win in 3"); beyond, in a letter.
WORDY_UP_TO = 4
# Views and drawings of boards up to 5×5 are remembered (see board_grid and rendering.remembered_partial):
# their positions recur from game to game. Bigger boards' positions seldom recur and each drawing is
# tens of kilobytes, so remembering them would only fill a worker's memory.
REMEMBERED_UP_TO = 25
# The short forms of move values on the bigger boards, said in full by each square's name and the key.
SHORT = {"win": "W", "draw": "D", "loss": "L"}
UNCLEAR = "unclear"
# The biggest board solved exactly (5×5): beyond, values are proved only here and there.
BIGGEST_SOLVED = 5
ORDINALS = ("first", "second", "third")


@dataclass(frozen=True, slots=True)
class CellView:
    index: int
    mark: str  # "X", "O" or ""
    label: str  # the accessible name
    value: str = ""  # "win in 3", "draw", "loss in 2", "unclear" (or W3, D, L2, ?) when move values are on
    result: str = ""  # "win", "draw", "loss" or "unclear", for the colour
    is_pick: bool = False  # a square the hint marks: the move it suggests (up to three, when truly equal)
    is_proved: bool = True  # a pick that keeps a proved result, not only the search's preference
    is_winning: bool = False
    is_last: bool = False  # the last move of the game
    is_previous: bool = False  # the move before it: the other side's last move
    choice: int = 0  # on a big board with move values, 1 for the search's first choice, 2 for its second...

    @property
    def last_of(self) -> str:
        """ "x" or "o" if this square holds that side's last move, for the mark on it; else ""."""
        return self.mark.lower() if self.is_last or self.is_previous else ""


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
    n: int  # the board is n×n
    status: str  # "playing", "x-won", "o-won" or "draw"
    ply: int
    cells: tuple[CellView, ...]
    strikes: tuple[Strike, ...]
    is_over: bool
    can_play: bool  # a person may click a square now

    @property
    def is_remembered(self) -> bool:
        """Whether drawings of this grid are worth remembering (see REMEMBERED_UP_TO)."""
        return len(self.board) <= REMEMBERED_UP_TO


@dataclass(frozen=True, slots=True)
class GameView:
    grid: Grid
    headline: str
    hint: str
    tone: str  # how the game ended for the player, for the status's colour: see outcome_tone()
    is_running: bool  # a Computer vs Computer game that plays on by itself
    facts: Facts | None = None  # on a big board, with move values or a hint: its threats and forced wins

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
    return "draw" if pos.winner is None else f"{pos.winner.lower()}-won"


def game_view(table: Table, *, hint: bool = False) -> GameView:
    """Everything the templates need to draw ``table``."""
    over = table.position.is_over()
    last = table.moves[-1] if table.moves else None
    previous = table.moves[-2] if len(table.moves) > 1 else None
    board = table.position.board
    grid = board_grid(board, last, previous, table.show_values, hint, table.is_humans_turn())
    helped = (hint or table.show_values) and not over
    return GameView(
        grid=grid,
        headline=status_line(table),
        tone=outcome_tone(table),
        hint=hint_text(grid.board) if hint and not over else values_key(grid) if table.show_values and not over else "",
        is_running=table.settings.mode == "cvc" and not table.paused and not over,
        facts=big_help.facts(board) if helped and not board_for(board).is_solved() else None,
    )


def board_grid(
    board: str, last: int | None, previous: int | None, show_values: bool, hint: bool, can_play: bool
) -> Grid:
    """The drawing of ``board`` for partials/board.html: its squares, the last two moves, the values and the hint
    if asked for, and whether a click plays. Remembered for boards up to REMEMBERED_UP_TO squares."""
    draw = _remembered_grid if len(board) <= REMEMBERED_UP_TO else _remembered_grid.__wrapped__
    return draw(board, last, previous, show_values, hint, can_play)


@lru_cache(maxsize=1 << 12)
def _remembered_grid(
    board: str, last: int | None, previous: int | None, show_values: bool, hint: bool, can_play: bool
) -> Grid:
    # A pure function of a few small values that recur from game to game, so worked out once.
    pos = position(board)
    n = pos.geometry.n
    outcome = pos.outcome()
    values = analyze(board) if show_values and outcome is None else {}
    picks, proved = hinted(board) if hint and outcome is None else ((), True)
    # On a big board only what is worth reading is shown (see shown_values), the search's first choices numbered.
    big = not board_for(board).is_solved()
    shown = shown_values(values, big_help.choices(board) if big and values else ()) if big else values
    won = pos.winning_line
    cells = tuple(
        _cell(i, n, board[i], shown.get(i), i in picks, proved, i in won, i == last, i == previous)
        for i in range(len(board))
    )
    return Grid(board, n, status_of(pos), pos.ply, cells, _strikes(pos), outcome is not None, can_play)


# The most squares a hint marks: more than one only when they are truly equal, and its words say how many.
MARKED = 3


def hinted(board: str) -> tuple[tuple[int, ...], bool]:
    """The squares a hint marks, and whether the result they keep is proved.

    The move the computer would choose, among those that keep the best result there is (in a lost game, among
    those that hold out longest); up to three when they are equal, else one. Where nothing is proved to win and
    some moves are unclear (the big boards, searched under a time limit), the search's own first choice.

    >>> hinted(".........")  # every square keeps the draw: of the four corners that give O most ways to slip, one
    ((0,), True)
    >>> hinted("X.......O")  # X to move: the two free corners win, equally fast
    ((2, 6), True)
    >>> hinted("." * 49)  # nothing is proved on an empty 7×7 board: the search's choice alone
    ((24,), False)
    """
    return _hint(board)[:2]


def _hint(board: str) -> tuple[tuple[int, ...], bool, tuple[int, ...]]:
    """hinted's two answers, then the moves that keep the best result."""
    values = analyze(board)
    picks = candidates(board, "minimax")
    proved = {
        cell: (result, plies) for cell, (result, plies) in values.items() if result != UNCLEAR and plies is not None
    }
    if not any(result == "win" for result, _ in proved.values()) and len(proved) < len(values):
        return picks[:1], False, ()
    best = max(map(_rank, proved.values()))
    keep = tuple(cell for cell, value in proved.items() if _rank(value) == best)
    chosen = tuple(cell for cell in picks if cell in keep)
    if not chosen:
        fastest = min(proved[cell][1] if proved[cell][0] == "win" else 0 for cell in keep)
        chosen = tuple(cell for cell in keep if proved[cell][0] != "win" or proved[cell][1] == fastest)
    return (chosen if len(chosen) <= MARKED else chosen[:1]), True, keep


def shown_values(values: dict, ranked: tuple[int, ...]) -> dict:
    """The move values a big board shows: only what is proved and worth reading, and the search's choices.

    Proved wins, if there are any. Otherwise the proved losses, when they are the few; when most moves lose, the
    few that do not (the search's choices numbered, the others "?") and the unmarked squares lose; when every
    move is worth the same, nothing, and the key says it. Each value is (result, plies), or ("choice", rank).

    >>> shown_values({0: ("loss", 2), 1: ("unclear", None), 2: ("unclear", None)}, (2, 1))
    {0: ('loss', 2), 2: ('choice', 1), 1: ('choice', 2)}
    >>> shown_values({0: ("loss", 2), 1: ("loss", 2), 2: ("unclear", None), 3: ("unclear", None)}, (2,))
    {0: ('loss', 2), 1: ('loss', 2), 2: ('choice', 1)}
    >>> shown_values({0: ("loss", 2), 1: ("loss", 2), 2: ("loss", 2), 3: ("unclear", None)}, ())
    {3: ('unclear', None)}
    """
    wins = {cell: value for cell, value in values.items() if value[0] == "win"}
    if wins or not values:
        return wins
    losses = {cell: value for cell, value in values.items() if value[0] == "loss"}
    rest = [cell for cell in values if cell not in losses]
    choices = {cell: ("choice", rank) for rank, cell in enumerate((c for c in ranked if c in rest), 1)}
    if not rest:  # every move loses: those that hold out longest, unless all hold out as long
        longest = max(plies for _, plies in losses.values())
        held = {cell: value for cell, value in losses.items() if value[1] == longest}
        return {} if len(held) == len(losses) else held
    if len(losses) <= len(rest):
        return losses | choices
    return choices | {cell: values[cell] for cell in rest if cell not in choices}


def _rank(value: tuple[str, int]) -> tuple[int, int]:
    # Any win keeps a win and any draw the draw; in a lost game only holding out longest does.
    result, plies = value
    return (0, plies) if result == "loss" else ({"draw": 1, "win": 2}[result], 0)


# What the numbers on the squares count, said under the board while they are shown.
VALUES_KEY = "Move values: the result with best play, and the moves of both sides until the game ends."
SPELLED = {"win": "wins", "draw": "draws", "loss": "loses"}


def values_key(grid: Grid) -> str:
    """The line under the board that says what the values on its squares mean: only those it shows.

    >>> values_key(game_view(Table(moves=(0, 3, 1), show_values=True)).grid)
    'Move values: the result with best play, and the moves of both sides until the game ends.'
    >>> from webapp.match import Settings
    >>> race = Table(Settings(board="7x7", mode="hvh"), moves=(0, 7, 1, 8, 2, 9, 3), show_values=True)
    >>> values_key(game_view(race).grid)  # O must block X's four: every other move loses
    "Unmarked squares lose. 1: the search's choice, not proved."
    """
    shown = [cell for cell in grid.cells if cell.value]
    if grid.n <= WORDY_UP_TO and shown:
        return VALUES_KEY
    # Each short form said in words once, as the squares name it: "W3, a win in 3 moves of both sides; D, a draw".
    parts = []
    for result in ("win", "draw", "loss"):
        example = next((cell for cell in shown if cell.result == result), None)
        if example is None:
            continue
        if result == "draw":
            parts.append(f"{example.value}, a draw")
        elif example.value[1:] == "1":
            parts.append(f"{example.value}, a {result} in 1 move")
        else:
            # Said once, at the first value that counts moves.
            counted = any(" moves of both sides" in part for part in parts)
            parts.append(
                f"{example.value}, a {result} in {example.value[1:]} moves{'' if counted else ' of both sides'}"
            )
    lead = "Move values with best play" if grid.n <= BIGGEST_SOLVED else "Proved with best play"
    key = [f"{lead}: {'; '.join(parts)}."] if parts else []
    if grid.n > BIGGEST_SOLVED:
        key.append(_unmarked(grid, shown))
    ranks = sorted(cell.choice for cell in shown if cell.choice)
    if ranks:
        many = len(ranks) > 1
        key.append(f"{f'1–{ranks[-1]}' if many else '1'}: the search's {'choices' if many else 'choice'}, not proved.")
    if any(cell.result == UNCLEAR for cell in shown):
        key.append("?: not proved.")
    return " ".join(part for part in key if part)


def _unmarked(grid: Grid, shown: list[CellView]) -> str:
    """What a big board's unmarked empty squares are worth, when shown_values left them out for being alike."""
    values = analyze(grid.board)
    left = {values[cell.index] for cell in grid.cells if not cell.mark and not cell.value}
    results = {result for result, _ in left}
    if not left or len(results) > 1 or UNCLEAR in results or any(cell.result == "win" for cell in shown):
        return ""
    result = results.pop()
    if shown:
        return f"Unmarked squares {'draw' if result == 'draw' else 'lose'}."
    (_, plies), *_ = left
    return f"Every move {SPELLED[result]}{'' if result == 'draw' else f' in {plies}'}, proved."


def _cell(index, n, mark, value, is_pick, is_proved, is_winning, is_last, is_previous=False) -> CellView:
    mark = "" if mark == "." else mark
    label = f"{cell_name(index, n)}, {mark or 'empty'}"
    if is_last:
        label += ", last move"
    elif is_previous:
        label += ", the move before"
    words = result = said = ""
    choice = 0
    if value and value[0] == "choice":
        choice = value[1]
        words, result = str(choice), "choice"
        said = f"the search's {ORDINALS[choice - 1]} choice, not proved"
    elif value:
        result, plies = value
        words = _value_words(result, plies, n)
        said = result if result in ("draw", UNCLEAR) else f"{result} in {plies} {'move' if plies == 1 else 'moves'}"
    # The name holds the words the square shows, in their order and together (WCAG 2.5.3), then what they mean:
    # "W3, win in 3 moves"; "Best move"; with both, "draw Best: draw, the best move".
    badge = ("Best" if is_proved else "Pick") if is_pick else ""
    meant = ("the best move" if is_proved else "the search's choice, not proved") if is_pick else ""
    if words and badge:
        label += f", {words} {badge}: {said}" + ("" if choice and not is_proved else f", {meant}")
    elif words:
        label += f", {said}" if said.startswith(words) else f", {words}: {said}" if choice else f", {words}, {said}"
    elif badge:
        label += ", Best move" if is_proved else ", Pick: the search's choice, not proved"
    return CellView(index, mark, label, words, result, is_pick, is_proved, is_winning, is_last, is_previous, choice)


def _value_words(result: str, plies: int | None, n: int) -> str:
    """A move's value as its square shows it: "win in 3" where there is room, "W3" where there is not.

    >>> _value_words("win", 3, 3), _value_words("loss", 2, 7), _value_words("unclear", None, 15)
    ('win in 3', 'L2', '?')
    """
    if n <= WORDY_UP_TO:
        return result if result in ("draw", UNCLEAR) else f"{result} in {plies}"
    if result == UNCLEAR:
        return "?"
    return SHORT[result] if result == "draw" else f"{SHORT[result]}{plies}"


def _strikes(pos: Position) -> tuple[Strike, ...]:
    """One stroke through each winning run: on 15×15 six in a row is one run, not two lines of five."""
    winner = pos.winner
    if winner is None:
        return ()
    n = pos.geometry.n
    runs: list[list[int]] = []
    for line in sorted(line for line in pos.geometry.lines if all(pos.board[c] == winner for c in line)):
        step = line[1] - line[0]
        joined = next((run for run in runs if run[1] - run[0] == step and line[0] in run), None)
        if joined is None:
            runs.append(list(line))
        else:
            joined.extend(c for c in line if c not in joined)
    strikes = []
    for run in runs:
        (x1, y1), (x2, y2) = _centre(run[0], n), _centre(run[-1], n)
        # Reach a little past the two end marks, as a hand-drawn stroke would.
        reach = CELL_UNITS // 4
        dx, dy = _sign(x2 - x1) * reach, _sign(y2 - y1) * reach
        strikes.append(Strike(x1 - dx, y1 - dy, x2 + dx, y2 + dy))
    return tuple(strikes)


def _centre(cell: int, n: int) -> tuple[int, int]:
    row, col = divmod(cell, n)
    return CELL_UNITS * col + CELL_UNITS // 2, CELL_UNITS * row + CELL_UNITS // 2


def _sign(number: int) -> int:
    return (number > 0) - (number < 0)


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


def status_line(table: Table) -> str:
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
        return f"The computer took {where(table.moves[-1], pos.geometry.n)}. Your turn."
    if s.mode == "hvh":
        return f"{winner} wins!" if winner else f"{pos.to_move} to move."
    # The levels are on the settings line; naming them here made the line wrap on a phone.
    if winner:
        level = s.level(winner)
        assert level is not None, "the computer plays both sides"
        return f"{winner} ({level_names(s.board)[level]}) wins."
    paused = "Paused. " if table.paused else ""
    if table.moves:
        return f"{paused}{other(pos.to_move)} took {where(table.moves[-1], pos.geometry.n)}; {pos.to_move} to move."
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
    note: str | None = None


# A game from a link may have been played by anyone up to its position: its end is not the player's result.
PRACTICE = "This game started from a shared position, so it is practice: its result is not counted."


def score_view(table: Table) -> ScoreView:
    """The score shown beside the game: against the computer, the current difficulty's own."""
    tally = table.tally
    first, second = ("You", "Computer") if table.settings.mode == "hvc" else ("X", "O")
    items = ((first, tally.first), (second, tally.second), ("Draws", tally.draws))
    title = f"Score against {table.score_name}" if table.settings.mode == "hvc" else f"Score, {table.score_name}"
    # Each board keeps its own score: say which, except on the classic board, where it always was.
    if table.settings.board != DEFAULT.key:
        title += f", {board_size_name(table.settings.board)}"
    return ScoreView(title, items, tally == Tally(), PRACTICE if table.practice else None)


# The fields a question about a new game sends again with its yes: settings, already checked.
RESENT_FIELDS = ("board", "mode", "human", "difficulty", "x_level", "o_level")
ANSWERS = {"game.new": "Start the new game", "game.reset_score": "Reset the score"}


@dataclass(frozen=True, slots=True)
class Confirmation:
    """A question that waits for a yes: the form that says yes sends the same request again."""

    question: str
    endpoint: str
    fields: tuple[tuple[str, str], ...]
    yes: str

    @classmethod
    def of(cls, question: ValueError, endpoint: str, form, table: Table) -> Confirmation:
        fields = tuple((name, form[name]) for name in RESENT_FIELDS if name in form)
        return cls(question_words(table, endpoint, dict(fields)) or str(question), endpoint, fields, ANSWERS[endpoint])


def question_words(table: Table, endpoint: str, fields: dict) -> str:
    """The question before a change that throws something away, in words that say what would change.

    >>> question_words(Table(moves=(4, 0)), "game.new", {"human": "O"})
    'Start a new game as O? This one will be abandoned.'
    >>> from webapp.match import Settings
    >>> question_words(Table(Settings(mode="hvh")), "game.reset_score", {})
    'Reset the Human vs Human score?'
    """
    if endpoint == "game.reset_score":
        return f"Reset the {table.score_name} score?"
    s = table.settings
    board, mode, human = (fields.get(name, getattr(s, name)) for name in ("board", "mode", "human"))
    if board != s.board:
        kind = f"a new {board_size_name(board)} game"
    elif mode != s.mode:
        kind = f"a new {MODE_NAMES.get(mode, 'game')} game"
    elif human != s.human:
        kind = f"a new game as {human}"
    else:
        return ""
    return f"Start {kind}? This one will be abandoned."


def hint_text(board: str) -> str:
    """The hint's one line: what the marked square does (the marked squares, counted, when they are equal);
    or, where nothing is proved, what the search prefers, said as a preference.

    Short enough for the two lines its slot keeps under the board on a 320 px phone.

    >>> hint_text(".........")
    'Hint: all draw; the marked corner gives O most ways to slip.'
    >>> hint_text("XX.OO....")
    'Hint: the marked corner wins at once.'
    >>> hint_text("X.......O")
    'Hint: the two marked corners win in 3 of your moves.'
    >>> hint_text("." * 49)
    'Hint: the search prefers the centre; nothing is proved.'
    >>> hint_text("." * 96 + "XXX" + "." * 12 + "OO" + "." * 112)  # 15×15, O to move
    "Hint: row 7, column 10 blocks X's open three."
    """
    marked, proved, keep = _hint(board)
    pos = position(board)
    n = pos.geometry.n
    label = _squares(marked, n)
    one = len(marked) == 1
    s = "s" if one else ""
    if not proved:
        # What the search's move does, where the engine can say it for certain (a four made, a three blocked).
        does = big_help.move_words(board, marked[0]) if n > BIGGEST_SOLVED else ""
        if does:
            return f"Hint: {where(marked[0], n)} {does}."
        return f"Hint: the search prefers {label}; nothing is proved."
    result, plies = analyze(board)[marked[0]]
    if result == "win":
        assert plies is not None, "a proved win counts its plies"
        if plies == 1:
            return f"Hint: {label} win{s} at once."
        fastest = f"{label} win{s} in {(plies + 1) // 2} of your moves"
        return f"Hint: {fastest}." if len(keep) == len(marked) else f"Hint: {len(keep)} squares win; {fastest}."
    if result == "loss":
        return f"Hint: every move loses; {label} hold{s} out longest."
    count = "all" if len(keep) == len(pos.legal_moves()) else f"{len(keep)} squares"
    if len(keep) == len(marked):
        return f"Hint: {label} keep{s} the draw."
    # "Most" is true of a square tied with others for most; the ones marked are named, and no more.
    return f"Hint: {count} draw; {label} give{s} {other(pos.to_move)} most ways to slip."


def _squares(cells: tuple[int, ...], n: int = 3) -> str:
    """The marked squares in a few words, such as "the centre", "the marked corner" or "the two marked edges"."""
    if len(cells) == 1:
        spot = where(cells[0], n)
        # A named place reads as the marked square; a row and column already says where it is.
        return spot if spot == "the centre" or not spot.startswith("the ") else f"the marked {spot.split()[-1]}"
    kinds = {place(cell, n).split()[-1] for cell in cells}
    kind = f"{kinds.pop()}s" if n == 3 and len(kinds) == 1 else "squares"
    return f"the {('two', 'three')[len(cells) - 2]} marked {kind}"


def board_size_name(board: str) -> str:
    """The name of a catalogue board by its key: "4×4"."""
    return BY_KEY[board].name


def board_rule(board: str) -> str:
    """What wins on a catalogue board, by its key, in a few words.

    >>> board_rule("3x3"), board_rule("15x15")
    ('Three in a row wins.', 'Five or more in a row win.')
    """
    spec = BY_KEY[board]
    count = ("Three", "Four", "Five")[spec.k - 3]
    # On 15×15 the game is free-style gomoku, where six or more in a row win too (rules.py).
    return f"{count} or more in a row win." if spec.n == 15 else f"{count} in a row wins."
