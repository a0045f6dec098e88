"""A visitor's table: the game in progress, who plays which side, and the running score.

Pure Python, like the rules: the web layer stores a Table in the session and calls its methods,
each of which returns a new Table or raises a ValueError that says what was wrong.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache

from webapp.game import GameOverError, Position
from webapp.solver import LEVELS, choose_move

MODES = ("hvc", "hvh", "cvc")
SIDES = ("X", "O")
MODE_NAMES = {"hvc": "Human vs Computer", "hvh": "Human vs Human", "cvc": "Computer vs Computer"}
LEVEL_NAMES = {"random": "Easy", "one-ply": "Medium", "minimax": "Impossible"}


class SettingError(ValueError):
    """A mode, side or level that the game does not have."""


class ConflictError(ValueError):
    """The request made sense, but not for the game as it stands now."""


class StaleBoardError(ConflictError):
    """The request was made from a board that has changed since (a double click, another tab)."""


class NotYourTurnError(ConflictError):
    """A person tried to move for the computer."""


class NothingToUndoError(ConflictError):
    """Undo with no move of the player's to take back."""


@lru_cache(maxsize=1 << 14)
def replay(moves: tuple[int, ...]) -> Position:
    """The position after playing ``moves`` from the empty board; raises a ValueError if they can't be.

    Every request replays its game from the cookie, and games share their openings, so the
    positions are remembered (there are only 5,478 of them, reached by far more move orders).
    """
    if not moves:
        return Position.empty()
    return replay(moves[:-1]).play(moves[-1])


def check_mode(mode: str) -> str:
    if mode not in MODES:
        raise SettingError(f"There is no mode {mode!r}; choose {', '.join(MODE_NAMES.values())}.")
    return mode


def check_side(side: str) -> str:
    if side not in SIDES:
        raise SettingError(f"There is no side {side!r}; play X (first) or O (second).")
    return side


def check_difficulty(level: str) -> str:
    if level not in LEVELS:
        names = ", ".join(f"{LEVEL_NAMES[lv]} ({lv})" for lv in LEVELS)
        raise SettingError(f"There is no difficulty {level!r}; choose {names}.")
    return level


@dataclass(frozen=True, slots=True)
class Settings:
    """Who plays: the mode, the person's side against the computer, and each computer's level."""

    mode: str = "hvc"
    human: str = "X"
    difficulty: str = "one-ply"
    x_level: str = "minimax"
    o_level: str = "one-ply"

    def __post_init__(self):
        check_mode(self.mode)
        check_side(self.human)
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
    """Finished games in one mode: against the computer, the person's wins, losses and draws;
    otherwise X's wins, O's wins and draws."""

    first: int = 0
    second: int = 0
    draws: int = 0


@dataclass(frozen=True, slots=True)
class Score:
    """The running score of a visit, kept separately for each mode."""

    hvc: Tally = Tally()
    hvh: Tally = Tally()
    cvc: Tally = Tally()

    def counted(self, settings: Settings, winner: str | None, times: int = 1) -> Score:
        """The score with one more (or, with ``times=-1``, one fewer) finished game."""
        tally = getattr(self, settings.mode)
        if winner is None:
            tally = replace(tally, draws=tally.draws + times)
        elif winner == (settings.human if settings.mode == "hvc" else "X"):
            tally = replace(tally, first=tally.first + times)
        else:
            tally = replace(tally, second=tally.second + times)
        return replace(self, **{settings.mode: tally})

    def reset(self, mode: str) -> Score:
        return replace(self, **{mode: Tally()})


@dataclass(frozen=True)
class Table:
    """Everything about one visitor's game, as stored in the session cookie."""

    settings: Settings = field(default_factory=Settings)
    moves: tuple[int, ...] = ()
    paused: bool = False
    show_values: bool = False
    score: Score = field(default_factory=Score)

    @cached_property
    def position(self) -> Position:
        """The position after the moves; raises a ValueError if they are not a legal game."""
        return replay(self.moves)

    @property
    def ply(self) -> int:
        return len(self.moves)

    def is_humans_turn(self) -> bool:
        return not self.position.is_over() and not self.settings.is_computer(self.position.to_move)

    def can_undo(self) -> bool:
        return bool(self._undone_moves())

    # --- what a visitor can do -------------------------------------------------------------

    def new_game(self, settings: Settings, rng: random.Random) -> Table:
        """A fresh game with ``settings``; the computer makes its first move if it plays X."""
        fresh = replace(self, settings=settings, moves=(), paused=False)
        return fresh._computer_replies(rng) if settings.mode == "hvc" else fresh

    def with_levels(self, difficulty=None, x_level=None, o_level=None) -> Table:
        """The same game with other computer levels, which play from the next computer move."""
        levels = {"difficulty": difficulty, "x_level": x_level, "o_level": o_level}
        changed = {name: check_difficulty(value) for name, value in levels.items() if value is not None}
        return replace(self, settings=replace(self.settings, **changed))

    def move(self, cell: int, ply: int, rng: random.Random) -> Table:
        """The person plays ``cell``; against the computer, its reply comes with it."""
        self._check_current(ply)
        pos = self.position
        if pos.is_over():
            raise GameOverError("This game is over. Start a new game to play again.")
        if self.settings.mode == "cvc":
            raise NotYourTurnError("The computers are playing this game; start a new game to play yourself.")
        if self.settings.is_computer(pos.to_move):
            raise NotYourTurnError("It is the computer's turn.")
        return self._played(cell)._computer_replies(rng)

    def step(self, ply: int | None, rng: random.Random) -> Table:
        """In Computer vs Computer, the side to move plays one move.

        With ``ply``, refuse if the board has changed since (a step already taken elsewhere).
        """
        if ply is not None:
            self._check_current(ply)
        if self.settings.mode != "cvc":
            raise NotYourTurnError("Only Computer vs Computer games play themselves.")
        pos = self.position
        if pos.is_over():
            raise GameOverError("This game is over. Start a new game to watch another.")
        return self._played(choose_move(pos.board, self.settings.level(pos.to_move), rng))

    def undo(self, ply: int | None = None) -> Table:
        """Take back the last move; against the computer, its reply and the person's move before it.

        With ``ply``, refuse if the board has changed since (so a double click undoes only once).
        """
        if ply is not None:
            self._check_current(ply)
        undone = self._undone_moves()
        if not undone:
            raise NothingToUndoError("There is no move to undo.")
        table = self
        if self.position.is_over():
            table = replace(table, score=table.score.counted(self.settings, self.position.winner, times=-1))
        # Stepping back by hand in a computer game stops it playing on straight away.
        return replace(table, moves=self.moves[:-undone], paused=self.settings.mode == "cvc")

    def play_from(self, moves: tuple[int, ...], settings: Settings, rng: random.Random) -> Table:
        """Continue from the position after ``moves`` with ``settings``, dropping the game in hand.

        The score is kept as it is: only finishing a game counts. Against the computer, it replies
        at once if it is its turn; a Computer vs Computer game waits, paused, for Resume or Step.
        """
        if replay(tuple(moves)).is_over():
            raise GameOverError("That position is the end of the game; choose an earlier move to play from.")
        table = replace(self, settings=settings, moves=tuple(moves), paused=settings.mode == "cvc")
        return table._computer_replies(rng) if settings.mode == "hvc" else table

    def set_paused(self, paused: bool) -> Table:
        """Pause or resume a Computer vs Computer game."""
        if self.settings.mode != "cvc":
            raise NotYourTurnError("Only Computer vs Computer games can be paused.")
        return replace(self, paused=paused)

    def toggle_values(self) -> Table:
        return replace(self, show_values=not self.show_values)

    def reset_score(self) -> Table:
        return replace(self, score=self.score.reset(self.settings.mode))

    # --- helpers ---------------------------------------------------------------------------

    def _check_current(self, ply: int) -> None:
        if ply != self.ply:
            raise StaleBoardError("The board changed in another tab or window; here is the game as it is now.")

    def _played(self, cell: int) -> Table:
        pos = self.position.play(cell)
        table = replace(self, moves=(*self.moves, cell))
        if pos.is_over():
            table = replace(table, score=table.score.counted(self.settings, pos.winner))
        # The new table's position is known already: hand it over instead of replaying every move.
        table.__dict__["position"] = pos
        return table

    def _computer_replies(self, rng: random.Random) -> Table:
        table = self
        while not table.position.is_over() and table.settings.is_computer(table.position.to_move):
            level = table.settings.level(table.position.to_move)
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
