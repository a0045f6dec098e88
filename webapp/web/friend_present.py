"""What a friend game's page shows to each of its viewers: the inviter, the friend, or someone watching."""

from __future__ import annotations

from dataclasses import dataclass, replace

from webapp.engine.boards import BY_KEY
from webapp.friend_game import AGREED, FriendGame, other_seat
from webapp.learn.squares import where
from webapp.web.present import Grid, board_grid, board_rule

NO_UNDO = "No take-backs with a friend: a move is played once it is sent. A rematch starts afresh."
WATCHING = "You are watching: both seats are taken, so you cannot move."


@dataclass(frozen=True)
class FriendView:
    """Everything a friend game's templates need, for one viewer (``seat`` is None for a watcher)."""

    code: str
    game: FriendGame
    version: int
    seat: str | None
    grid: Grid
    headline: str
    tone: str
    scores: tuple[tuple[str, int], ...]
    link: str

    @property
    def side(self) -> str | None:
        return None if self.seat is None else self.game.side_of(self.seat)

    @property
    def is_waiting_for_friend(self) -> bool:
        return not self.game.has_guest

    @property
    def may_join(self) -> bool:
        return self.seat is None and not self.game.has_guest

    @property
    def is_watching(self) -> bool:
        return self.seat is None and self.game.has_guest

    @property
    def may_choose_side(self) -> bool:
        return self.seat == "inviter" and self.game.may_choose_side

    @property
    def may_rematch(self) -> bool:
        return self.seat is not None and self.game.is_over

    @property
    def is_playing(self) -> bool:
        """Whether this viewer holds a seat in a round under way with the friend: resign and draws are theirs."""
        return self.seat is not None and self.game.has_guest and not self.game.is_over

    @property
    def has_offered_draw(self) -> bool:
        return self.is_playing and self.game.draw_offer == self.seat

    @property
    def is_offered_draw(self) -> bool:
        return self.is_playing and self.seat is not None and self.game.draw_offer == other_seat(self.seat)

    @property
    def may_offer_draw(self) -> bool:
        return self.is_playing and not self.game.draw_offer and self.game.offered_at != len(self.game.moves)

    @property
    def offer_words(self) -> str:
        """What the page says of an open draw offer, to this viewer; "" when there is none."""
        offer = self.game.draw_offer
        if not offer or self.game.is_over:
            return ""
        if self.seat is None:
            return f"{self.game.side_of(offer)} offers a draw."
        if offer == self.seat:
            return "You have offered a draw: waiting for your friend's answer."
        return "Your friend offers a draw."

    @property
    def score_title(self) -> str:
        return "Score between you" if self.seat else "Score between the players"

    @property
    def refreshes(self) -> bool:
        """Whether the page, without JavaScript, reloads itself: always, but while this seat has a move to make (a
        finished game too, so that the friend's Rematch shows)."""
        game = self.game
        waits = self.has_offered_draw  # for the friend's answer
        return self.seat is None or not game.has_guest or game.is_over or game.to_move != self.side or waits

    @property
    def rule(self) -> str:
        return board_rule(self.game.board)

    @property
    def board_param(self) -> str | None:
        return None if self.game.board == "3x3" else self.game.board

    @property
    def review_ending(self) -> str | None:
        """The Review link's ``ending`` (review.ENDINGS): how the round ended off the board, None on the board."""
        if self.game.ending == AGREED:
            return "agreed"
        if self.game.resigned:
            return f"resigned-{self.game.side_of(self.game.resigned).lower()}"
        return None


def friend_view(code: str, game: FriendGame, version: int, seat: str | None, link: str) -> FriendView:
    """The page of ``game`` as ``seat`` (or a watcher) sees it."""
    pos = game.position
    moves = game.moves
    last = moves[-1] if moves else None
    previous = moves[-2] if len(moves) > 1 else None
    can_play = seat is not None and game.has_guest and not game.is_over and game.side_of(seat) == pos.to_move
    grid = board_grid(pos.board, last, previous, False, False, can_play)
    if game.is_over and not pos.is_over():
        # Resigned or drawn by agreement: the board is over too, for its looks and for app.js.
        status = "draw" if game.winner is None else f"{game.winner.lower()}-won"
        grid = replace(grid, status=status, is_over=True)
    return FriendView(code, game, version, seat, grid, headline(game, seat), tone(game, seat), scores(game, seat), link)


def headline(game: FriendGame, seat: str | None) -> str:
    """The status line: whose turn it is, what the friend just played, and when the friend has joined.

    >>> game = FriendGame("3x3")
    >>> headline(game, "inviter")
    'Waiting for your friend to open the link. You play X.'
    >>> headline(game.joined_by_guest(), "inviter")
    'Your friend has joined and plays O. Your turn: you play X.'
    >>> headline(game.joined_by_guest().move("inviter", 4), "guest")
    'Your friend played the centre. Your turn: you play O.'
    """
    pos, n = game.position, game.n
    if seat is None:
        return _watched(game)
    side = game.side_of(seat)
    if game.ending == AGREED:
        return "It's a draw: you agreed to it."
    if game.resigned:
        return "You resigned: your friend wins." if game.resigned == seat else "Your friend resigned: you win!"
    if pos.is_over():
        if pos.winner is None:
            return "It's a draw."
        return "You win!" if pos.winner == side else "Your friend wins."
    if not game.has_guest:
        return f"Waiting for your friend to open the link. You play {side}."
    my_turn = pos.to_move == side
    turn = f"Your turn: you play {side}." if my_turn else f"Your friend's turn: you play {side}."
    if not game.moves:
        if game.round > 1:
            return f"Rematch, sides swapped. {turn}"
        if seat == "inviter" and game.last_by == "guest":
            return f"Your friend has joined and plays {game.side_of('guest')}. {turn}"
        if seat == "guest":
            return f"You have joined. {turn}"
        return turn
    if my_turn:
        return f"Your friend played {where(game.moves[-1], n)}. {turn}"
    return f"You played {where(game.moves[-1], n)}. {turn}"


def _watched(game: FriendGame) -> str:
    pos = game.position
    if game.ending == AGREED:
        return "It's a draw: the players agreed to it."
    if game.resigned:
        return f"{game.side_of(game.resigned)} resigned: {game.winner} wins."
    if pos.is_over():
        return "It's a draw." if pos.winner is None else f"{pos.winner} wins."
    if not game.has_guest:
        return "Waiting for the second player."
    if game.moves:
        return f"{pos.to_move} to move; {game.position.board[game.moves[-1]]} played {where(game.moves[-1], game.n)}."
    return f"{pos.to_move} to move."


def tone(game: FriendGame, seat: str | None) -> str:
    """ "win", "loss" or "draw" for the status's colour once the game is over; "" before."""
    if not game.is_over:
        return ""
    if game.winner is None:
        return "draw"
    return "loss" if seat is not None and game.winner != game.side_of(seat) else "win"


def scores(game: FriendGame, seat: str | None) -> tuple[tuple[str, int], ...]:
    """The score between the two friends, from this viewer's side.

    >>> scores(FriendGame("3x3", score=(2, 1, 0)), "guest")
    (('You', 1), ('Your friend', 2), ('Draws', 0))
    """
    inviter, guest, draws = game.score
    if seat == "inviter":
        return ("You", inviter), ("Your friend", guest), ("Draws", draws)
    if seat == "guest":
        return ("You", guest), ("Your friend", inviter), ("Draws", draws)
    return ("Who invited", inviter), ("Who joined", guest), ("Draws", draws)


def seat_words(seat: str) -> str:
    """The seat in a sentence: a transfer's page names the seat it moves."""
    return "your seat as the player who made the link" if seat == "inviter" else "your seat as the friend who joined"


def board_name(game: FriendGame) -> str:
    return BY_KEY[game.board].name
