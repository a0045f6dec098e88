"""A game between two friends on two devices: two seats, the moves, the rounds and the score between them.

Pure Python, like the table (webapp.match): the web layer keeps a FriendGame in the friends' store as one
line of text and calls its methods, each of which returns a new FriendGame or raises a ValueError that says
what was wrong. The seats are "inviter" (who made the link) and "guest" (the first other browser to open it);
which side each plays swaps with every rematch. A round ends on the board, by a resignation, or by a draw one
seat offered and the other accepted; there are no take-backs. A seat's holder may move it to another browser
through a one-time transfer, whose nonce the game keeps until it is claimed.

>>> game = FriendGame("3x3").joined_by_guest().move("inviter", 4)
>>> game.side_of("guest"), game.to_move, game.position.board
('O', 'O', '....X....')
"""

from __future__ import annotations

import re
import secrets
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


class DrawOfferError(ConflictError):
    """A draw offered twice, or answered when none is open."""


class TransferError(ValueError):
    """A seat transfer that is not the game's open one: already used, replaced, or never made."""


# How a round ended when not on the board: a seat resigned, or both agreed a draw.
RESIGNED = {"inviter": "inviter resigned", "guest": "guest resigned"}
AGREED = "draw agreed"
ENDINGS = ("", AGREED, *RESIGNED.values())
# A transfer's nonce: 16 random bytes as secrets.token_urlsafe writes them.
NONCE = re.compile(r"[A-Za-z0-9_-]{22}")


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
    ending: str = ""
    draw_offer: str = ""
    offered_at: int = -1
    transfer: str = ""
    moved: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        check_board(self.board)
        check_side(self.inviter)
        if self.last_by not in SEATS or self.round < 1 or not all(0 <= n <= MOST for n in self.score):
            raise ValueError("not a friend game")
        if self.ending not in ENDINGS or self.draw_offer not in ("", *SEATS) or self.offered_at < -1:
            raise ValueError("not a friend game")
        seat, _, nonce = self.transfer.partition(".")
        if self.transfer and not (seat in SEATS and NONCE.fullmatch(nonce)):
            raise ValueError("not a friend game")
        if not all(0 <= n <= MOST for n in self.moved):
            raise ValueError("not a friend game")

    def moves_of(self, seat: str) -> int:
        """How many times ``seat`` has moved to another browser: a browser holding an older count only watches."""
        return self.moved[SEATS.index(seat)]

    @cached_property
    def position(self) -> Position:
        return replay(self.moves, self.board)

    @property
    def to_move(self) -> str:
        return self.position.to_move

    @property
    def is_over(self) -> bool:
        """Whether this round has ended: on the board, by a resignation, or by an agreed draw."""
        return bool(self.ending) or self.position.is_over()

    @property
    def winner(self) -> str | None:
        """The side that won this round (a resignation loses it), None for a draw or a round still played."""
        if self.ending == AGREED:
            return None
        for seat, words in RESIGNED.items():
            if self.ending == words:
                return other(self.side_of(seat))
        return self.position.winner

    @property
    def resigned(self) -> str | None:
        """The seat that resigned this round, if one did."""
        return next((seat for seat, words in RESIGNED.items() if self.ending == words), None)

    def _check_playing(self, seat: str | None, doing: str) -> str:
        if seat not in SEATS:
            raise SeatError(f"You are watching this game, so you cannot {doing}.")
        if not self.has_guest:
            raise SeatError("Your friend has not opened the link yet: wait for them to join.")
        if self.is_over:
            raise GameOverError("This game is over: start a rematch to play again.")
        return seat

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

    def with_inviter_playing(self, seat: str | None, side: str) -> FriendGame:
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
        seat = self._check_playing(seat, "move")
        if self.side_of(seat) != self.to_move:
            raise SeatError("It is your friend's turn: wait for their move.")
        # A move answers an open draw offer with a no, as on chess sites.
        played = replace(self, moves=(*self.moves, cell), last_by=seat, draw_offer="")
        position = played.position  # raises for a square that is not on the board, or is taken
        if not position.is_over():
            return played
        return replace(played, score=self._scored(position.winner))

    def resign(self, seat: str | None) -> FriendGame:
        """The round lost by ``seat``, at any turn once the friend has come; it counts as the other seat's win.

        >>> game = FriendGame("3x3").joined_by_guest().resign("guest")
        >>> game.is_over, game.winner, game.score
        (True, 'X', (1, 0, 0))
        """
        seat = self._check_playing(seat, "resign")
        ended = replace(self, ending=RESIGNED[seat], draw_offer="", last_by=seat)
        return replace(ended, score=ended._scored(ended.winner))

    def offer_draw(self, seat: str | None) -> FriendGame:
        """The game with ``seat``'s draw offer open, or drawn if the friend had offered one already.

        Once an offer is declined, neither seat offers again until a move has been played.
        """
        seat = self._check_playing(seat, "offer a draw")
        if self.draw_offer == other_seat(seat):
            return self.accept_draw(seat)
        if self.draw_offer == seat:
            raise DrawOfferError("You have offered a draw already: wait for your friend's answer.")
        if self.offered_at == len(self.moves):
            raise DrawOfferError("A draw was just declined: you may offer one again after the next move.")
        return replace(self, draw_offer=seat, offered_at=len(self.moves), last_by=seat)

    def accept_draw(self, seat: str | None) -> FriendGame:
        """The round drawn, by ``seat`` accepting the friend's open offer; it counts as a draw.

        >>> FriendGame("3x3").joined_by_guest().offer_draw("inviter").accept_draw("guest").score
        (0, 0, 1)
        """
        seat = self._check_playing(seat, "accept a draw")
        if self.draw_offer != other_seat(seat):
            raise DrawOfferError("Your friend has not offered a draw.")
        return replace(self, ending=AGREED, draw_offer="", last_by=seat, score=self._scored(None))

    def decline_draw(self, seat: str | None) -> FriendGame:
        """The game played on, ``seat`` having said no to the friend's open offer."""
        seat = self._check_playing(seat, "decline a draw")
        if self.draw_offer != other_seat(seat):
            raise DrawOfferError("Your friend has not offered a draw.")
        return replace(self, draw_offer="", last_by=seat)

    def with_transfer(self, seat: str | None, nonce: str) -> FriendGame:
        """The game with a transfer of ``seat`` open under ``nonce``, replacing any earlier one of either seat."""
        if seat not in SEATS:
            raise SeatError("You are watching this game: only a player can move their seat.")
        if not NONCE.fullmatch(nonce):
            raise ValueError("not a transfer's nonce")
        return replace(self, transfer=f"{seat}.{nonce}", last_by=seat)

    def transferred(self, nonce: str) -> tuple[FriendGame, str]:
        """The game with the open transfer used up and the seat's move counted, and the seat it moves; a
        TransferError for any other nonce.

        >>> nonce = "A" * 22
        >>> game, seat = FriendGame("3x3").with_transfer("inviter", nonce).transferred(nonce)
        >>> seat, game.transfer, game.moved
        ('inviter', '', (1, 0))
        """
        seat, _, open_nonce = self.transfer.partition(".")
        if not open_nonce or not secrets.compare_digest(open_nonce, nonce):
            raise TransferError("This link to move a seat has been used already, or replaced by a newer one.")
        inviter, guest = self.moved
        moved = (min(MOST, inviter + 1), guest) if seat == "inviter" else (inviter, min(MOST, guest + 1))
        return replace(self, transfer="", moved=moved), seat

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
        return replace(
            self,
            moves=(),
            inviter=other(self.inviter),
            round=self.round + 1,
            last_by=seat,
            ending="",
            draw_offer="",
            offered_at=-1,
        )

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
        'f2|7x7|X|1|1|0.0.0|inviter|24.25|||-1||0.0'
        """
        fields = [VERSION, self.board, self.inviter, str(int(self.has_guest)), str(self.round)]
        fields += [".".join(map(str, self.score)), self.last_by, ".".join(map(str, self.moves))]
        fields += [self.ending, self.draw_offer, str(self.offered_at), self.transfer, ".".join(map(str, self.moved))]
        return "|".join(fields)

    @classmethod
    def from_line(cls, line: str) -> FriendGame:
        """The game in a line written by to_line() (or by the version before, without the ending's fields); a
        ValueError for anything else.

        >>> FriendGame.from_line("f1|7x7|X|1|1|0.0.0|inviter|24.25").moves
        (24, 25)
        """
        found = LINE.fullmatch(line)
        if found is None or (found[1] == VERSION) != (found[9] is not None):
            raise ValueError("not a friend game's line")
        board, inviter, has_guest, number, score, last_by, moves, ending, offer, offered_at, transfer, moved = (
            found.groups()[1:]
        )
        inviter_wins, guest_wins, draws = (int(n) for n in score.split("."))
        by_inviter, by_guest = (int(n) for n in moved.split(".")) if moved else (0, 0)
        game = cls(
            board=board,
            moves=tuple(int(cell) for cell in moves.split(".")) if moves else (),
            inviter=inviter,
            has_guest=has_guest == "1",
            round=int(number),
            score=(inviter_wins, guest_wins, draws),
            last_by=last_by,
            ending=ending or "",
            draw_offer=offer or "",
            offered_at=int(offered_at or -1),
            transfer=transfer or "",
            moved=(by_inviter, by_guest),
        )
        game.position  # noqa: B018 -- replaying the moves raises if they are not a legal game
        return game


VERSION = "f2"
_COUNT = r"(?:0|[1-9][0-9]{0,8})"
# f1 lines (written before resignations, draw offers and transfers) end after the moves.
LINE = re.compile(
    rf"(f[12])\|([0-9x]{{3,5}})\|([XO])\|([01])\|([1-9][0-9]{{0,8}})\|({_COUNT}\.{_COUNT}\.{_COUNT})"
    rf"\|(inviter|guest)\|((?:[0-9]{{1,3}}\.){{0,224}}[0-9]{{1,3}}|)"
    rf"(?:\|({'|'.join(ENDINGS[1:])}|)\|(inviter|guest|)\|(-1|[0-9]{{1,3}})\|((?:inviter|guest)\.[A-Za-z0-9_-]{{22}}|)"
    rf"\|({_COUNT}\.{_COUNT}))?"
)


def other_seat(seat: str) -> str:
    """The seat across the board from ``seat``."""
    return "guest" if seat == "inviter" else "inviter"
