"""A game between two friends on two devices: two seats, the moves, the rounds and the score between them.

Pure Python, like the table (webapp.match): the web layer keeps a FriendGame in the friends' store as one
line of text and calls its methods, each of which returns a new FriendGame or raises a ValueError that says
what was wrong. The seats are "inviter" (who made the link) and "guest" (the first other browser to open it);
which side each plays swaps with every rematch.

>>> game = FriendGame("3x3").joined_by_guest().move("inviter", 4)
>>> game.side_of("guest"), game.to_move, game.position.board
('O', 'O', '....X....')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cached_property

from webapp.engine.boards import BY_KEY
from webapp.engine.rules import GameOverError, Position, other
from webapp.match import ConflictError, check_board, check_side, replay

SEATS = ("inviter", "guest")
# The score's most per count: the line keeps nine digits.
MOST = 999_999_999


class SeatError(ConflictError):
    """A move or a rematch from someone without a seat at this game, or from the seat whose turn it is not."""


class SeatTakenError(ConflictError):
    """The friend's seat is already taken."""


@dataclass(frozen=True)
class FriendGame:
    """One link's game: the board, this round's moves, the inviter's side this round, whether the friend has
    come, the round's number, the score (the inviter's wins, the guest's wins, draws) and who acted last."""

    board: str
    moves: tuple[int, ...] = ()
    inviter: str = "X"
    has_guest: bool = False
    round: int = 1
    score: tuple[int, int, int] = (0, 0, 0)
    last_by: str = "inviter"

    def __post_init__(self):
        check_board(self.board)
        check_side(self.inviter)
        if self.last_by not in SEATS or self.round < 1 or not all(0 <= n <= MOST for n in self.score):
            raise ValueError("not a friend game")

    @cached_property
    def position(self) -> Position:
        return replay(self.moves, self.board)

    @property
    def to_move(self) -> str:
        return self.position.to_move

    @property
    def is_over(self) -> bool:
        return self.position.is_over()

    @property
    def n(self) -> int:
        return BY_KEY[self.board].n

    def side_of(self, seat: str) -> str:
        """The side ``seat`` plays this round.

        >>> FriendGame("3x3", inviter="O").side_of("guest")
        'X'
        """
        return self.inviter if seat == "inviter" else other(self.inviter)

    def seat_of(self, side: str) -> str:
        return "inviter" if side == self.inviter else "guest"

    def joined_by_guest(self) -> FriendGame:
        """The game with the friend in the free seat; a SeatTakenError if someone already took it."""
        if self.has_guest:
            raise SeatTakenError("Someone has already taken the friend's seat: you can watch this game.")
        return replace(self, has_guest=True, last_by="guest")

    @property
    def may_choose_side(self) -> bool:
        """Whether the inviter may still choose a side: before the first game's first move."""
        return self.round == 1 and not self.moves

    def with_inviter_playing(self, seat: str, side: str) -> FriendGame:
        """The game with the inviter playing ``side``, before the first move of the first game.

        >>> FriendGame("3x3").with_inviter_playing("inviter", "O").side_of("guest")
        'X'
        """
        if seat != "inviter":
            raise SeatError("Only the player who made the link chooses the sides.")
        if not self.may_choose_side:
            raise ConflictError("The game has begun: the sides swap with each rematch.")
        return replace(self, inviter=check_side(side), last_by=seat)

    def move(self, seat: str | None, cell: int) -> FriendGame:
        """The game after ``seat`` plays ``cell``: only in its turn, once the friend has come, and on a free square.

        >>> FriendGame("3x3").move("inviter", 0)
        Traceback (most recent call last):
        ...
        webapp.friend_game.SeatError: Your friend has not opened the link yet: wait for them to join.
        """
        if seat not in SEATS:
            raise SeatError("You are watching this game, so you cannot move.")
        if not self.has_guest:
            raise SeatError("Your friend has not opened the link yet: wait for them to join.")
        if self.is_over:
            raise GameOverError("This game is over: start a rematch to play again.")
        if self.side_of(seat) != self.to_move:
            raise SeatError("It is your friend's turn: wait for their move.")
        played = replace(self, moves=(*self.moves, cell), last_by=seat)
        position = played.position  # raises for a square that is not on the board, or is taken
        if not position.is_over():
            return played
        return replace(played, score=self._scored(position.winner))

    def rematch(self, seat: str | None) -> FriendGame:
        """A new round on the same link, once this one is over, with the sides swapped.

        >>> done = FriendGame("3x3", moves=(0, 3, 1, 4, 2), has_guest=True, score=(1, 0, 0))
        >>> again = done.rematch("guest")
        >>> again.inviter, again.moves, again.round, again.score
        ('O', (), 2, (1, 0, 0))
        """
        if seat not in SEATS:
            raise SeatError("You are watching this game, so you cannot start a rematch.")
        if not self.is_over:
            raise ConflictError("This game is still being played: a rematch starts when it ends.")
        return replace(self, moves=(), inviter=other(self.inviter), round=self.round + 1, last_by=seat)

    def _scored(self, winner: str | None) -> tuple[int, int, int]:
        inviter, guest, draws = self.score
        if winner is None:
            return inviter, guest, min(MOST, draws + 1)
        if self.seat_of(winner) == "inviter":
            return min(MOST, inviter + 1), guest, draws
        return inviter, min(MOST, guest + 1), draws

    def to_line(self) -> str:
        """The game as the store keeps it: one line of text, nothing but the choices and the moves.

        >>> FriendGame("7x7", moves=(24, 25), has_guest=True).to_line()
        'f1|7x7|X|1|1|0.0.0|inviter|24.25'
        """
        fields = [VERSION, self.board, self.inviter, str(int(self.has_guest)), str(self.round)]
        fields += [".".join(map(str, self.score)), self.last_by, ".".join(map(str, self.moves))]
        return "|".join(fields)

    @classmethod
    def from_line(cls, line: str) -> FriendGame:
        """The game in a line written by to_line(); a ValueError for anything else.

        >>> FriendGame.from_line("f1|7x7|X|1|1|0.0.0|inviter|24.25").moves
        (24, 25)
        """
        found = LINE.fullmatch(line)
        if found is None:
            raise ValueError("not a friend game's line")
        board, inviter, has_guest, number, score, last_by, moves = found.groups()
        inviter_wins, guest_wins, draws = (int(n) for n in score.split("."))
        game = cls(
            board=board,
            moves=tuple(int(cell) for cell in moves.split(".")) if moves else (),
            inviter=inviter,
            has_guest=has_guest == "1",
            round=int(number),
            score=(inviter_wins, guest_wins, draws),
            last_by=last_by,
        )
        game.position  # noqa: B018 -- replaying the moves raises if they are not a legal game
        return game


VERSION = "f1"
_COUNT = r"(?:0|[1-9][0-9]{0,8})"
LINE = re.compile(
    rf"{VERSION}\|([0-9x]{{3,5}})\|([XO])\|([01])\|([1-9][0-9]{{0,8}})\|({_COUNT}\.{_COUNT}\.{_COUNT})"
    rf"\|(inviter|guest)\|((?:[0-9]{{1,3}}\.){{0,224}}[0-9]{{1,3}}|)"
)
