"""A visitor's table: the game in progress, who plays which side, and the running score.

Pure Python, like the rules: the web layer stores a Table in the session and calls its methods,
each of which returns a new Table or raises a ValueError that says what was wrong.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache

from webapp.engine.boards import BOARDS, BY_KEY, DEFAULT
from webapp.engine.rules import GameOverError, Position
from webapp.solver import LEVELS, choose_move

MODES = ("hvc", "hvh", "cvc")
SIDES = ("X", "O")
MODE_NAMES = {"hvc": "Human vs Computer", "hvh": "Human vs Human", "cvc": "Computer vs Computer"}
LEVEL_NAMES = {"random": "Easy", "one-ply": "Medium", "minimax": "Impossible"}
# Where the top level cannot play perfectly it searches under a time limit, and says so by its name.
HARD_LEVEL_NAMES = {**LEVEL_NAMES, "minimax": "Hard"}
BOARD_NAMES = {board.key: board.name for board in BOARDS}
# The most a score counter holds: nine digits, the width the cookie keeps for each count.
MOST = 999_999_999
# The hex digits of Table.digest, which every form that changes the game carries.
DIGEST_LENGTH = 12
# How much of a visitor's own text a message repeats back: enough to recognise, never a flood.
ECHO = 40
# A game's id: random hex digits, given when the game starts (Table.game_id).
GAME_ID_LENGTH = 12
# How many counted games the score remembers by id (Scores.counted): a race is between the last few; an older
# game is held off by its number (Scores.floor).
LEDGER = 4


def new_game_id(rng: random.Random) -> str:
    """A fresh game's id, from the injected generator.

    >>> is_game_id(new_game_id(random.Random(1)))
    True
    """
    return f"{rng.getrandbits(4 * GAME_ID_LENGTH):0{GAME_ID_LENGTH}x}"


def is_game_id(text: str) -> bool:
    return len(text) == GAME_ID_LENGTH and all(c in "0123456789abcdef" for c in text)


# Unicode's bidirectional controls (Bidi_Control): in a visitor's text shown back they would reorder the words
# around them ("knl.com etis live"), so they are shown as escapes instead.
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_BIDI_ESCAPES = {ord(c): f"\\u{ord(c):04x}" for c in BIDI_CONTROLS}


def visible(text: str) -> str:
    r"""``text`` with every bidirectional control shown as its escape, so that it reads in the order it was sent.

    >>> print(visible("live site \u202eknl.com"))
    live site \u202eknl.com
    """
    return text.translate(_BIDI_ESCAPES)


def shown(text: str) -> str:
    """A visitor's text as a message quotes it: cut short, and quoted so that blanks show.

    >>> shown("online")
    "'online'"
    >>> len(shown("x" * 5000)) < 50
    True
    """
    return repr(text if len(text) <= ECHO else text[:ECHO] + "…")


class SettingError(ValueError):
    """A mode, side or level that the game does not have."""


class ConflictError(ValueError):
    """The request made sense, but not for the game as it stands now."""


class StaleBoardError(ConflictError):
    """The request was made from a page whose game has changed since (a double click, another tab)."""


class ConfirmationNeeded(ConflictError):
    """The request would throw away something the person may want: it waits for a yes."""


class NotYourTurnError(ConflictError):
    """A person tried to move for the computer."""


class NothingToUndoError(ConflictError):
    """Undo with no move of the player's to take back."""


def replay(moves: tuple[int, ...], board: str = DEFAULT.key) -> Position:
    """The position after playing ``moves`` from the empty ``board``; raises a ValueError if they can't be.

    >>> replay((0, 5), "4x4").board
    'X....O..........'
    """
    return _replay_small(moves) if board == DEFAULT.key else _replay(moves, board)


@lru_cache(maxsize=1 << 14)
def _replay_small(moves: tuple[int, ...]) -> Position:
    # Every request replays its game from the cookie, and games share their openings, so the
    # positions are remembered (there are only 5,478 of them, reached by far more move orders).
    if not moves:
        return Position.empty()
    return _replay_small(moves[:-1]).play(moves[-1])


@lru_cache(maxsize=1 << 10)
def _replay(moves: tuple[int, ...], board: str) -> Position:
    # Bigger boards have too many positions to remember each opening; a game is replayed in one go
    # (a whole 15×15 game in about a millisecond), and only the last games are remembered.
    spec = BY_KEY[board]
    pos = Position.empty(spec.n, spec.k)
    for cell in moves:
        pos = pos.play(cell)
    return pos


def check_mode(mode: str) -> str:
    if mode not in MODES:
        raise SettingError(f"There is no mode {shown(mode)}; choose {', '.join(MODE_NAMES.values())}.")
    return mode


def check_side(side: str) -> str:
    if side not in SIDES:
        raise SettingError(f"There is no side {shown(side)}; play X (first) or O (second).")
    return side


def check_board(board: str) -> str:
    if board not in BY_KEY:
        names = ", ".join(f"{b.name} ({b.key})" for b in BOARDS)
        raise SettingError(f"There is no board {shown(board)}; choose {names}.")
    return board


def level_names(board: str = DEFAULT.key) -> dict[str, str]:
    """The names of the levels on ``board``: the top one is Impossible where it is perfect, else Hard."""
    return LEVEL_NAMES if BY_KEY[board].solved else HARD_LEVEL_NAMES


def check_difficulty(level: str) -> str:
    if level not in LEVELS:
        names = ", ".join(f"{LEVEL_NAMES[lv]} ({lv})" for lv in LEVELS)
        raise SettingError(f"There is no difficulty {shown(level)}; choose {names}.")
    return level


@dataclass(frozen=True, slots=True)
class Settings:
    """Who plays: the mode, the person's side against the computer, and each computer's level."""

    mode: str = "hvc"
    human: str = "X"
    difficulty: str = "one-ply"
    x_level: str = "minimax"
    o_level: str = "one-ply"
    board: str = DEFAULT.key  # a key of the board catalogue, such as "4x4"

    def __post_init__(self):
        check_mode(self.mode)
        check_side(self.human)
        check_board(self.board)
        for level in (self.difficulty, self.x_level, self.o_level):
            check_difficulty(level)

    def level(self, side: str) -> str | None:
        """The level of the computer playing ``side``, or None if a person plays it."""
        if self.mode == "hvh" or (self.mode == "hvc" and side == self.human):
            return None
        if self.mode == "hvc":
            return self.difficulty
        return self.x_level if side == "X" else self.o_level

    def is_computer(self, side: str) -> bool:
        return self.level(side) is not None


@dataclass(frozen=True, slots=True)
class Tally:
    """Finished games of one kind: against the computer, the person's wins, losses and draws;
    otherwise X's wins, O's wins and draws. Each count stays between 0 and MOST."""

    first: int = 0
    second: int = 0
    draws: int = 0

    def __post_init__(self):
        for count in (self.first, self.second, self.draws):
            if not 0 <= count <= MOST:
                raise ValueError(f"a score count must be from 0 to {MOST}, not {count}")

    def plus(self, winner_is_first: bool | None) -> Tally:
        """The tally with one more game: won by the first side (True), the second (False), or drawn (None)."""
        if winner_is_first is None:
            return replace(self, draws=min(MOST, self.draws + 1))
        if winner_is_first:
            return replace(self, first=min(MOST, self.first + 1))
        return replace(self, second=min(MOST, self.second + 1))


@dataclass(frozen=True, slots=True)
class Score:
    """The running score of a visit: against the computer one tally per difficulty, and one each for
    Human vs Human and Computer vs Computer."""

    easy: Tally = Tally()
    medium: Tally = Tally()
    impossible: Tally = Tally()
    hvh: Tally = Tally()
    cvc: Tally = Tally()

    def counted(self, settings: Settings, winner: str | None, level: str | None = None) -> Score:
        """The score with one more finished game; against the computer it counts for ``level``
        (by default the difficulty set now)."""
        name = tally_name(settings.mode, level or settings.difficulty)
        first = settings.human if settings.mode == "hvc" else "X"
        return replace(self, **{name: getattr(self, name).plus(None if winner is None else winner == first)})

    def of(self, mode: str, level: str) -> Tally:
        """The tally that a game in ``mode`` (against the computer at ``level``) counts in."""
        return getattr(self, tally_name(mode, level))

    def reset(self, mode: str, level: str) -> Score:
        return replace(self, **{tally_name(mode, level): Tally()})


# Against the computer each difficulty keeps its own score: a win against Easy is not one against Impossible.
_HVC_TALLIES = {"random": "easy", "one-ply": "medium", "minimax": "impossible"}
SCORE_TALLIES = ("easy", "medium", "impossible", "hvh", "cvc")


def tally_name(mode: str, level: str) -> str:
    return _HVC_TALLIES[level] if mode == "hvc" else mode


@dataclass(frozen=True, slots=True)
class Scores:
    """One Score per board of the catalogue, in its order: a win on 15×15 against Hard is not one on
    3×3 against Impossible, nor is Medium the same opponent on both.

    A game counts once, however often it is finished (after an Undo, in two tabs at once, or from a game
    cookie sent back later). Each game started gets a number past every one the score knows (``latest``,
    the highest counted); ``counted`` holds the numbers and ids of the last games whose results are in the
    score, and every game numbered ``floor`` or less is counted or can no longer be: when a game leaves
    ``counted``, the floor rises to its number. Starting a game leaves the scores as they are, so that only
    a result (or a reset) writes them, and no answer that arrives later can undo a result counted beside it.
    """

    boards: tuple[Score, ...] = (Score(),) * len(BOARDS)
    counted: tuple[tuple[int, str], ...] = ()
    latest: int = 0
    floor: int = 0

    def __post_init__(self):
        if len(self.boards) != len(BOARDS) or not all(isinstance(score, Score) for score in self.boards):
            raise ValueError(f"the scores hold one Score for each of the {len(BOARDS)} boards")
        if len(self.counted) > LEDGER or not all(is_game_id(game_id) for _, game_id in self.counted):
            raise ValueError(f"the scores remember at most {LEDGER} game ids of {GAME_ID_LENGTH} hex digits")
        if not 0 <= self.floor <= self.latest <= MOST or any(
            not self.floor < n <= self.latest for n, _ in self.counted
        ):
            raise ValueError("the games' numbers must run from the floor to the latest")

    def can_count(self, number: int, game_id: str) -> bool:
        """Whether the game numbered ``number``, with ``game_id``, may still add its result.

        >>> Scores().can_count(1, "0123456789ab")
        True
        >>> Scores().with_counted(1, "0123456789ab").can_count(1, "0123456789ab")
        False
        """
        return number > self.floor and (number, game_id) not in self.counted

    def with_counted(self, number: int, game_id: str) -> Scores:
        """The same scores, remembering that the game ``number``, ``game_id``, is in them.

        A game's number may be past the latest the score knows, as every game started since the last result
        is: it is then the latest.
        """
        latest = max(self.latest, number)
        counted = tuple(sorted({*self.counted, (number, game_id)}))
        if len(counted) <= LEDGER:
            return replace(self, counted=counted, latest=latest)
        floor = max(self.floor, counted[-LEDGER - 1][0])
        return replace(self, counted=counted[-LEDGER:], latest=latest, floor=floor)

    def next_number(self, after: int = 0) -> int:
        """The number of a game started after the game numbered ``after``: past it and past every game counted.

        >>> Scores().next_number(), Scores().with_counted(7, "0123456789ab").next_number(after=3)
        (1, 8)
        """
        return min(MOST, max(self.latest, after) + 1)

    @classmethod
    def on(cls, board: str, score: Score, **fields) -> Scores:
        """Nothing scored anywhere but ``score`` on ``board``."""
        return cls(**fields).with_score(board, score)

    def of(self, board: str) -> Score:
        return self.boards[_BOARD_INDEX[board]]

    def with_score(self, board: str, score: Score) -> Scores:
        index = _BOARD_INDEX[board]
        return replace(self, boards=(*self.boards[:index], score, *self.boards[index + 1 :]))


_BOARD_INDEX = {board.key: index for index, board in enumerate(BOARDS)}


def weaker(level: str, other_level: str) -> str:
    """The weaker of two computer levels.

    >>> weaker("minimax", "random")
    'random'
    """
    return min(level, other_level, key=LEVELS.index)


@dataclass(frozen=True)
class Table:
    """Everything about one visitor's game, as stored in the session cookie.

    ``counts_as`` is the difficulty a game against the computer is scored under: the weakest one
    that played in it, so that turning Easy into Impossible just before winning counts as Easy.
    ``game_id`` and ``number`` tell this game from the visitor's others, so that its result counts once
    (see Scores); a table made without a generator has neither, and its result counts however often it
    ends. A ``practice`` game, started from a position of a link or "Play from here", is never counted.
    """

    settings: Settings = field(default_factory=Settings)
    moves: tuple[int, ...] = ()
    paused: bool = False
    show_values: bool = False
    scores: Scores = field(default_factory=Scores)
    # None asks __post_init__ for the difficulty set now, so the field holds a str once made.
    counts_as: str = None  # type: ignore[assignment]
    game_id: str = ""
    number: int = 0
    practice: bool = False

    def __post_init__(self):
        if self.counts_as is None:
            object.__setattr__(self, "counts_as", self.settings.difficulty)
        check_difficulty(self.counts_as)
        if self.game_id and not is_game_id(self.game_id):
            raise ValueError(f"a game id is {GAME_ID_LENGTH} hex digits")

    @cached_property
    def position(self) -> Position:
        """The position after the moves; raises a ValueError if they are not a legal game."""
        return replay(self.moves, self.settings.board)

    @property
    def score(self) -> Score:
        """The score on the board being played."""
        return self.scores.of(self.settings.board)

    def _with_score(self, score: Score) -> Table:
        return replace(self, scores=self.scores.with_score(self.settings.board, score))

    @property
    def ply(self) -> int:
        return len(self.moves)

    @cached_property
    def digest(self) -> str:
        """A short fingerprint of the game a page shows: every form carries it, so that a form
        drawn from another game (an older page, another tab, a double submit) can be told apart.

        >>> Table().digest == Table(scores=Scores.on("3x3", Score(cvc=Tally(1, 0, 0)))).digest
        True
        >>> Table().digest == Table(moves=(4,)).digest
        False
        >>> Table().digest == Table(settings=Settings(board="4x4")).digest
        False
        """
        s = self.settings
        text = f"{s.board}|{s.mode}|{s.human}|{','.join(map(str, self.moves))}"
        return hashlib.blake2b(text.encode(), digest_size=DIGEST_LENGTH // 2).hexdigest()

    def check_drawn_from(self, digest: str) -> None:
        """Refuse a request whose page was drawn from another game than this one."""
        if digest != self.digest:
            raise StaleBoardError("The game changed in another tab or window; here is the game as it is now.")

    def is_humans_turn(self) -> bool:
        return not self.position.is_over() and not self.settings.is_computer(self.position.to_move)

    def can_undo(self) -> bool:
        return bool(self._undone_moves())

    def is_counted(self) -> bool:
        """Whether this game's result is in the score, or can no longer be."""
        return self.practice or (bool(self.game_id) and not self.scores.can_count(self.number, self.game_id))

    def is_in_progress(self) -> bool:
        """A person has moved in this game and it is not over: starting another would lose it."""
        if self.position.is_over() or self.settings.mode == "cvc":
            return False
        return bool(self._undone_moves())

    @property
    def tally(self) -> Tally:
        """The score this game counts in."""
        return self.score.of(self.settings.mode, self.counts_as)

    # --- what a visitor can do -------------------------------------------------------------

    def new_game(self, settings: Settings, rng: random.Random, *, confirmed: bool = True) -> Table:
        """A fresh game with ``settings``; the computer makes its first move if it plays X.

        Unless ``confirmed``, a change of board, mode or side in the middle of a game waits for a yes.
        """
        s = self.settings
        changes_board = settings.board != s.board
        changes_sides = changes_board or (settings.mode, settings.human) != (s.mode, s.human)
        if not confirmed and changes_sides and self.is_in_progress():
            kind = f"{BOARD_NAMES[settings.board]} game" if changes_board else f"{MODE_NAMES[settings.mode]} game"
            raise ConfirmationNeeded(f"Start a new {kind}? This one will be abandoned.")
        fresh = replace(
            self,
            settings=settings,
            moves=(),
            paused=False,
            counts_as=settings.difficulty,
            game_id=new_game_id(rng),
            number=self.scores.next_number(after=self.number),
            practice=False,
        )
        return fresh._computer_replies(rng) if settings.mode == "hvc" else fresh

    def with_levels(self, difficulty=None, x_level=None, o_level=None) -> Table:
        """The same game with other computer levels, which play from the next computer move."""
        levels = {"difficulty": difficulty, "x_level": x_level, "o_level": o_level}
        changed = {name: check_difficulty(value) for name, value in levels.items() if value is not None}
        table = replace(self, settings=replace(self.settings, **changed))
        new = table.settings.difficulty
        if not self.moves:
            return replace(table, counts_as=new)  # a fresh game counts as the new level
        if self.position.is_over():
            # The finished game keeps the level it was scored under, so that its result stays in view until
            # the next game, which counts as the new one (new_game).
            return table
        # A game under way counts as the weakest difficulty that played in it.
        return replace(table, counts_as=weaker(self.counts_as, new))

    def move(self, cell: int, rng: random.Random) -> Table:
        """The person plays ``cell``; against the computer, its reply comes with it."""
        pos = self.position
        if pos.is_over():
            raise GameOverError("This game is over. Start a new game to play again.")
        if self.settings.mode == "cvc":
            raise NotYourTurnError("The computers are playing this game; start a new game to play yourself.")
        if self.settings.is_computer(pos.to_move):
            raise NotYourTurnError("It is the computer's turn.")
        return self._played(cell)._computer_replies(rng)

    def step(self, rng: random.Random) -> Table:
        """In Computer vs Computer, the side to move plays one move."""
        if self.settings.mode != "cvc":
            raise NotYourTurnError("Only Computer vs Computer games play themselves.")
        pos = self.position
        if pos.is_over():
            raise GameOverError("This game is over. Start a new game to watch another.")
        level = self.settings.level(pos.to_move)
        assert level is not None, "the computer plays both sides"
        return self._played(choose_move(pos.board, level, rng))

    def undo(self) -> Table:
        """Take back the last move; against the computer, its reply and the person's move before it.

        After the end, too, to try again from there: the finished game's result stays counted, and
        the game, finished again, does not count a second time.
        """
        undone = self._undone_moves()
        if not undone:
            raise NothingToUndoError("There is no move to undo.")
        # Stepping back by hand in a computer game stops it playing on straight away.
        return replace(self, moves=self.moves[:-undone], paused=self.settings.mode == "cvc")

    def play_from(self, moves: tuple[int, ...], settings: Settings, rng: random.Random) -> Table:
        """Continue from the position after ``moves`` with ``settings``, dropping the game in hand.

        The game is practice: a position from a link may have been played by anyone, so its end is not
        counted. Against the computer, it replies at once if it is its turn; a Computer vs Computer game
        waits, paused, for Resume or Step.
        """
        if replay(tuple(moves), settings.board).is_over():
            raise GameOverError("That position is the end of the game; choose an earlier move to play from.")
        table = replace(
            self,
            settings=settings,
            moves=tuple(moves),
            paused=settings.mode == "cvc",
            counts_as=settings.difficulty,
            game_id=new_game_id(rng),
            number=0,
            practice=True,
        )
        return table._computer_replies(rng) if settings.mode == "hvc" else table

    def set_paused(self, paused: bool) -> Table:
        """Pause or resume a Computer vs Computer game."""
        if self.settings.mode != "cvc":
            raise NotYourTurnError("Only Computer vs Computer games can be paused.")
        return replace(self, paused=paused)

    def with_values(self, show: bool) -> Table:
        """Show or hide each square's value."""
        return replace(self, show_values=show)

    def reset_score(self, *, confirmed: bool = True) -> Table:
        """The same game with the score it counts in set back to nothing, once the person says yes."""
        if not confirmed and self.tally != Tally():
            raise ConfirmationNeeded(f"Reset the {self.score_name} score to nothing?")
        return self._with_score(self.score.reset(self.settings.mode, self.counts_as))

    @property
    def score_name(self) -> str:
        """The name of the score this game counts in, such as "Impossible" or "Human vs Human"."""
        if self.settings.mode == "hvc":
            return level_names(self.settings.board)[self.counts_as]
        return MODE_NAMES[self.settings.mode]

    # --- helpers ---------------------------------------------------------------------------

    def _played(self, cell: int) -> Table:
        pos = self.position.play(cell)
        table = replace(self, moves=(*self.moves, cell))
        if pos.is_over() and not self.is_counted():
            table = table._with_score(table.score.counted(self.settings, pos.winner, self.counts_as))
            if self.game_id:
                table = replace(table, scores=table.scores.with_counted(self.number, self.game_id))
        # The new table's position is known already: hand it over instead of replaying every move.
        table.__dict__["position"] = pos
        return table

    def _computer_replies(self, rng: random.Random) -> Table:
        table = self
        while not table.position.is_over() and (level := table.settings.level(table.position.to_move)) is not None:
            table = table._played(choose_move(table.position.board, level, rng))
        return table

    def _undone_moves(self) -> int:
        """How many moves Undo takes back: 0 when there is nothing of the person's to undo."""
        if self.settings.mode != "hvc":
            return 1 if self.moves else 0
        human = self.settings.human
        # Back to the person's last move, which is the last one made by the side they play.
        for back, index in enumerate(range(len(self.moves) - 1, -1, -1), start=1):
            mover = "X" if index % 2 == 0 else "O"
            if mover == human:
                return back
        return 0
