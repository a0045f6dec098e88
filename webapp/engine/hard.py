"""The Hard level: iterative-deepening alpha-beta under a CPU-time budget, for boards too big to solve.

Game-agnostic like ``search.py``, but for games of threats such as k in a row on a big board, and on
a mutable state for speed. The state (a ``ThreatGame``) answers the questions a threat search asks:
where the side to move wins at once, where the opponent would, and which moves threaten to win next
move (fours). At the horizon, instead of a quiescence search, a threat search looks for a forced win by
continuous fours (VCF); otherwise the static evaluation judges the position.

Every value is a negamax value for the side to move. A win found ``p`` plies from the root is worth
``MATE - p``, so a faster win (and a slower loss) is worth more.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Protocol

MATE = 10**9
# Values beyond this are wins or losses, not static judgements.
MATE_BOUND = MATE - 10_000
INF = MATE + 1
EXACT, LOWER, UPPER = 0, 1, 2
# How many moves an inner node searches, best-looking first; the root searches ROOT_WIDTH.
WIDTH = 10
ROOT_WIDTH = 24
# A per-search transposition table is cleared when it grows past this, to bound a worker's memory.
TABLE_LIMIT = 200_000


class ThreatGame(Protocol):
    """A position that a search changes in place, and the threat questions asked about it."""

    def play(self, move: int) -> None: ...
    def undo(self) -> None: ...
    def wins(self, opponent: bool = False) -> list[int]:
        """The moves that win at once for the side to move (or for the opponent, if it were to move)."""

    def forcing(self) -> list[int]:
        """The moves that threaten to win at once next move, strongest first."""

    def moves(self, limit: int | None = None) -> list[int]:
        """The moves worth searching, best-looking first."""

    def legal(self) -> list[int]: ...
    def full(self) -> bool: ...
    def dead(self) -> bool:
        """Whether neither side can ever win: a certain draw."""

    def key(self) -> Hashable: ...
    def evaluate(self) -> int: ...


@dataclass(frozen=True)
class Budget:
    """When a search stops: after ``seconds`` of CPU time, ``nodes`` nodes or ``depth`` plies.

    Tests give nodes or a depth so that results do not depend on the machine; play gives seconds.
    An iteration is only started while under ``start_fraction`` of the time, since each one takes
    several times longer than the last, and a search that runs out mid-iteration keeps the last
    complete one.
    """

    seconds: float | None = None
    nodes: int | None = None
    depth: int = 64
    start_fraction: float = 0.3
    clock: Callable[[], float] = time.process_time


# What a move costs the server: the default budget of the Hard level.
DEFAULT_BUDGET = Budget(seconds=0.5, start_fraction=0.2)


class OutOfBudget(Exception):
    """The search used up its budget in the middle of an iteration."""


@dataclass
class Result:
    """What a search found: the moves it prefers, and how hard it looked."""

    best: tuple[int, ...]
    value: int
    depth: int
    nodes: int
    seconds: float
    # Each root move's value at the last complete depth (a bound, for those that failed low); empty when
    # no look-ahead was needed, or none was completed.
    scores: dict[int, int] = field(default_factory=dict)
    # Why the search chose as it did: "search" (it looked ahead), or with no look-ahead: "win" (a win at
    # once), "block" (one threat to block), "lost" (two threats), "fours" (a forced win by fours),
    # "only" (one move worth searching) or "unfinished" (the budget ran out before depth 1).
    reason: str = "search"

    @property
    def proved(self) -> bool:
        """Whether the value is a forced win found by the threat search, not a judgement."""
        return self.value > MATE_BOUND


class Search:
    """One search from one position: the counters, the deadline and the transposition table."""

    def __init__(self, game: ThreatGame, budget: Budget):
        self.game = game
        self.budget = budget
        self.nodes = 0
        self.start = budget.clock()
        self.deadline = None if budget.seconds is None else self.start + budget.seconds
        self.table: dict = {}

    def tick(self) -> None:
        self.nodes += 1
        budget = self.budget
        if budget.nodes is not None and self.nodes > budget.nodes:
            raise OutOfBudget
        if self.deadline is not None and self.nodes & 255 == 0 and budget.clock() > self.deadline:
            raise OutOfBudget

    def elapsed(self) -> float:
        return self.budget.clock() - self.start

    # --- the threat search ---------------------------------------------------------------------

    def vcf(self, fours: int, limit: list[int]) -> int | None:
        """Plies to a forced win by continuous fours for the side to move, with at most ``fours``
        fours; None if none is found within ``limit[0]`` more nodes.

        Sound: after each four the defender's only move that does not lose at once is the block,
        and a defender who can complete a line of its own first makes the sequence fail.
        """
        game = self.game
        if game.wins():
            return 1
        threats = game.wins(opponent=True)
        if len(threats) > 1 or fours <= 0:
            return None
        tries = game.forcing()
        if threats:
            # The defender threatens to win: only a four that is also the block keeps the initiative.
            tries = [m for m in tries if m == threats[0]]
        for move in tries:
            if limit[0] <= 0:
                return None
            limit[0] -= 1
            self.tick()
            game.play(move)
            try:
                if game.wins():  # the defender completes a line first
                    continue
                blocks = game.wins(opponent=True)
                if len(blocks) > 1:
                    return 3
                if not blocks:  # not a four after all
                    continue
                game.play(blocks[0])
                try:
                    rest = self.vcf(fours - 1, limit)
                finally:
                    game.undo()
                if rest is not None:
                    return 2 + rest
            finally:
                game.undo()
        return None

    def winning_fours(self, max_fours: int, nodes: int) -> dict[int, int]:
        """Each first four of a forced win by continuous fours, with the plies of its shortest sequence
        (at most ``max_fours`` fours, within ``nodes`` nodes in all); the side to move must not face
        an immediate loss."""
        game = self.game
        found: dict[int, int] = {}
        limit = [nodes]
        for move in game.forcing():
            if limit[0] <= 0:
                break
            game.play(move)
            try:
                if game.wins():
                    continue
                blocks = game.wins(opponent=True)
                if len(blocks) > 1:
                    found[move] = 3
                elif blocks:
                    game.play(blocks[0])
                    try:
                        # Longer sequences only when shorter ones fail: the first found is the shortest.
                        for fours in range(1, max_fours):
                            rest = self.vcf(fours, limit)
                            if rest is not None:
                                found[move] = 2 + rest
                                break
                    finally:
                        game.undo()
            finally:
                game.undo()
        return found

    # --- alpha-beta ------------------------------------------------------------------------------

    def negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.tick()
        game = self.game
        if game.wins():
            return MATE - ply - 1
        threats = game.wins(opponent=True)
        if len(threats) > 1:
            return -(MATE - ply - 2)
        if game.full() or game.dead():
            return 0
        if threats:
            # One move only, so it costs no depth: a forced reply is not a choice.
            game.play(threats[0])
            try:
                return -self.negamax(depth if ply < 40 else 0, -beta, -alpha, ply + 1)
            finally:
                game.undo()
        if depth <= 0:
            return self.leaf(ply)
        key = game.key()
        entry = self.table.get(key)
        first = None
        if entry is not None:
            stored_depth, flag, stored, first = entry
            if stored_depth >= depth:
                value = _from_table(stored, ply)
                if flag == EXACT or (flag == LOWER and value >= beta) or (flag == UPPER and value <= alpha):
                    return value
        moves = game.moves(WIDTH)
        if first is not None and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        start_alpha, best, chosen = alpha, -INF, None
        for move in moves:
            game.play(move)
            try:
                value = -self.negamax(depth - 1, -beta, -alpha, ply + 1)
            finally:
                game.undo()
            if value > best:
                best, chosen = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        flag = UPPER if best <= start_alpha else LOWER if best >= beta else EXACT
        if len(self.table) >= TABLE_LIMIT:
            self.table.clear()
        self.table[key] = (depth, flag, _to_table(best, ply), chosen)
        return best

    def leaf(self, ply: int) -> int:
        found = self.vcf(4, [24])
        if found is not None:
            return MATE - ply - found
        return self.game.evaluate()

    def root(self, moves: list[int], depth: int) -> dict[int, int]:
        """Each root move's value at ``depth``: exact for the best ones, an upper bound for the rest."""
        game = self.game
        scores, best = {}, -INF
        for move in moves:
            game.play(move)
            try:
                # A window one below the best so far keeps ties exact, so that all equal moves are known.
                value = -self.negamax(depth - 1, -INF, -(best - 1), 1)
            finally:
                game.undo()
            scores[move] = value
            best = max(best, value)
        return scores


def _to_table(value: int, ply: int) -> int:
    # Wins are stored as plies from the stored node, not from the root, so they stay true elsewhere.
    if value > MATE_BOUND:
        return value + ply
    if value < -MATE_BOUND:
        return value - ply
    return value


def _from_table(value: int, ply: int) -> int:
    if value > MATE_BOUND:
        return value - ply
    if value < -MATE_BOUND:
        return value + ply
    return value


def search(game: ThreatGame, budget: Budget = DEFAULT_BUDGET) -> Result:
    """The moves the Hard level prefers in ``game``'s position, by iterative deepening within ``budget``."""
    s = Search(game, budget)

    def done(best, value, depth, reason, scores=None) -> Result:
        return Result(tuple(sorted(best)), value, depth, s.nodes, s.elapsed(), scores or {}, reason)

    wins = game.wins()
    if wins:
        return done(wins, MATE - 1, 1, "win")
    threats = game.wins(opponent=True)
    if len(threats) == 1:
        return done(threats, 0, 1, "block")
    if threats:
        # Every move loses; blocking one threat at least makes the opponent find the other.
        return done(threats, -(MATE - 2), 1, "lost")
    try:
        fours = s.winning_fours(8, 4000)
    except OutOfBudget:
        fours = {}
    if fours:
        fastest = min(fours.values())
        return done([m for m, plies in fours.items() if plies == fastest], MATE - fastest, fastest, "fours")
    moves = game.moves(ROOT_WIDTH)
    if len(moves) == 1:
        return done(moves, 0, 0, "only")
    scores = {m: 0 for m in moves}
    depth_reached = 0
    try:
        for depth in range(1, budget.depth + 1):
            found_scores = s.root(moves, depth)
            scores, depth_reached = found_scores, depth
            # The best first next time: the scores of the last iteration are the best ordering we have.
            moves = sorted(moves, key=lambda m: -scores[m])
            if scores[moves[0]] > MATE_BOUND or all(v < -MATE_BOUND for v in scores.values()):
                break  # a win is found, or every move loses: looking deeper changes nothing
            if budget.seconds is not None and s.elapsed() > budget.seconds * budget.start_fraction:
                break
    except OutOfBudget:
        pass
    if not depth_reached:
        # Not one iteration finished: the scores are placeholders, and every move ties at them.
        return done(moves, 0, 0, "unfinished")
    top = max(scores.values())
    return done([m for m, v in scores.items() if v == top], top, depth_reached, "search", scores)
