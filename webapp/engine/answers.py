"""What the big boards' engine answers, as the pages read it: its forced wins, threats, views and estimates, the
error that ends a move's budget and the bound above which a figure is a win.

Plain data, with nothing that searches: ``webapp.solver`` re-exports them for the pages, so that a page names them
without loading the big boards' engine, which a 3×3 game never needs.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MATE", "MATE_BOUND", "Estimate", "ForcedWin", "MoveFacts", "OutOfBudget", "Threat", "View"]

# A win's value in the alpha-beta: ``MATE - p`` for a win found ``p`` plies from the root, beyond any evaluation.
MATE = 10**9
# Values beyond this are wins or losses, not static judgements.
MATE_BOUND = MATE - 10_000


class OutOfBudget(Exception):
    """The move's whole budget, of CPU time or of nodes, is spent."""


@dataclass(frozen=True, slots=True)
class ForcedWin:
    """A proved forced win: whose, by what kind of threats, its first move, and how long the game lasts at most."""

    side: str  # "X" or "O": who wins by force
    kind: str  # "fours" (continuous fours, VCF) or "threes" (fours and threes, VCT)
    first: int  # the first move of the winning sequence
    plies: int  # the game ends within this many plies, the first move included
    line: tuple[int, ...]  # one main line: attacker, defender, attacker, ... (first == line[0]); the
    # defender's replies are those that held out longest in the search


@dataclass(frozen=True, slots=True)
class Threat:
    """One side's five, open four, four or open three: its stones, and the empty cells that complete it."""

    side: str  # "X" or "O": whose stones
    kind: str  # "five", "open-four", "four", "open-three"
    stones: tuple[int, ...]  # the cells of that side's stones that make it, sorted
    gaps: tuple[int, ...]  # the empty cells where it is played to win or to extend, and where the other
    # side must block; sorted, and () for a five


@dataclass(frozen=True, slots=True)
class MoveFacts:
    """What is proved about one move of a big-board game: the forced wins found before and after it.

    ``had`` is the mover's forced win in the position before the move, ``allows`` the opponent's in the
    position after it: None when none was found, which is no proof that none exists.
    """

    wins: bool  # the move completes a line
    had: ForcedWin | None  # the mover's forced win before the move
    kept: int | None  # the plies of a forced win of the mover's that this move starts, if it is proved to
    allows: ForcedWin | None  # the opponent's forced win after the move
    # with ``allows``: moves tried instead, after which no forced win of the opponent's was found
    better: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class View:
    """What the Hard search made of a position: the moves it prefers, how far and how wide it looked,
    and its figure for each move it weighed. Every figure is a judgement, not a proof."""

    best: tuple[int, ...]
    depth: int  # plies of the last look-ahead it finished (for "fours", of the forced win); 0 if none
    nodes: int  # positions it visited, threat search included
    reason: str  # as hard.Result.reason: "search" when it looked ahead and weighed moves
    # (move, figure) for each move weighed, best first: the figure is the static evaluation at the
    # horizon, from the side to move's point of view, exact for the best moves and an upper bound for the rest.
    scores: tuple[tuple[int, int], ...] = ()
    # The forced win the search proved for the side to move, if any: a proof, not a judgement.
    forced: ForcedWin | None = None

    @property
    def top(self) -> int | None:
        """The best figure: the only one known exactly (None if no move was weighed)."""
        return self.scores[0][1] if self.scores else None

    def score(self, move: int) -> int | None:
        """The figure for ``move``, or None if the search did not weigh it."""
        return dict(self.scores).get(move)


@dataclass(frozen=True, slots=True)
class Estimate:
    """Hard's judgement of a position: the side to move's chance of winning, and the move it would play. A judgement
    from a short search of its evaluation, never a proof."""

    chance: float  # from 0 to 1
    move: int
