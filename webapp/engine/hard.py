"""The Hard level: threat-space search for both sides, then alpha-beta, under a CPU-time budget.

For games of threats such as k in a row on a big board, on a mutable state for speed. The state (a
``ThreatGame``) answers the questions a threat search asks: where a side completes a line, where it
makes a four, a double or an open three, and what the other side can answer to a double in the making.

Each move goes in this order, each step within its share of the budget:

1. a win at once, or the one block of the opponent's completion;
2. our forced win by continuous fours (VCF), then by fours and threes (VCT): played when found;
3. the opponent's forced win, as if it were to move. If it has one, only the moves after which it has
   none are kept; if no move stops it, the one after which its win is longest (and needs threes, not
   fours alone) is played: Hard never gives up a game the opponent still has to find;
4. iterative-deepening alpha-beta among the moves left, a small VCF at the horizon;
5. the move it prefers is checked for the opponent's forced wins before it is played; one that loses
   to them gives way to the next.

Every value is a negamax value for the side to move. A win found ``p`` plies from the root is worth
``MATE - p``, so a faster win (and a slower loss) is worth more.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Protocol

from webapp.engine.gomoku import DOUBLE_W as DOUBLE
from webapp.engine.gomoku import THREE_W as THREE
from webapp.engine.vct import DEPTH, Exhausted, ForcedWin, Meter, OutOfBudget, ThreatSearch

__all__ = ["Budget", "ForcedWin", "OutOfBudget", "Result", "Search", "search"]

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
# The threat searches' shares of a move's nodes, so that no one of them can starve the others; with a
# budget of seconds each also has a share of the time (``Budget``'s fractions).
OWN_NODES = 6_000  # our VCF and VCT at the root
THEIR_NODES = 6_000  # the opponent's, at the root
CHECK_NODES = 2_000  # the opponent's, after one candidate move
LEAF_NODES = 24  # our VCF at the horizon
LEAF_DEPTH = 4  # fours in it
THREES = 3  # threes in a VCT, at most
# How many moves the opponent's threat is checked after, at most, before a move is played.
SAFETY_CHECKS = 8


class ThreatGame(Protocol):
    """A position that a search changes in place, and the threat questions asked about it."""

    mover: str
    hash: int

    def play(self, move: int) -> None: ...
    def undo(self) -> None: ...
    def pass_turn(self) -> None: ...
    def completions(self, mark: str) -> tuple[list[int], list[int]]:
        """Where ``mark`` completes a line at once, and where the other side does."""

    def threats(self, mark: str, weight: int) -> list[int]:
        """``mark``'s moves worth ``weight`` or more (a four, an open three), strongest first."""

    def has(self, mark: str, weight: int) -> bool: ...
    def answers(self, mark: str) -> list[int] | None:
        """The other side's only replies to ``mark``'s double in the making; None if there is none."""

    def worth(self, cell: int, mark: str) -> int: ...
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

    Tests give nodes or a depth (and a clock of their own) so that results do not depend on the
    machine; play gives seconds, read on the pace's clock (``pacing.current()``), whose deadline
    also stops the search. An alpha-beta iteration is only started while under ``start_fraction``
    of the time, since each one takes several times longer than the last, and one that runs out
    mid-iteration keeps the last complete one. The threat searches each have a share of the time
    as well as of the nodes: ours until ``own_fraction``, the opponent's until ``their_fraction``,
    the alpha-beta until ``search_fraction``; the checks before the move take the rest.
    """

    seconds: float | None = None
    nodes: int | None = None
    depth: int = 64
    start_fraction: float = 0.3
    clock: Callable[[], float] | None = None
    own_fraction: float = 0.15
    their_fraction: float = 0.35
    search_fraction: float = 0.75


# What a move costs the server: the default budget of the Hard level.
DEFAULT_BUDGET = Budget(seconds=0.8, start_fraction=0.15)


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
    # once), "block" (one threat to block), "lost" (two completions to block), "fours" or "threes" (a forced
    # win by continuous fours, or by fours and threes), "delay" (every move loses to a forced win of the
    # opponent's: the longest is played), "only" (one move worth searching) or "unfinished" (the budget
    # ran out before depth 1).
    reason: str = "search"
    # The forced win proved for the side to move at the root, if any.
    forced: ForcedWin | None = None

    @property
    def proved(self) -> bool:
        """Whether the value is a forced win found by the threat search, not a judgement."""
        return self.value > MATE_BOUND


@dataclass(frozen=True, slots=True)
class Outlook:
    """What a threat search found for one side: its forced win, if any, and whether it searched all it meant to."""

    win: ForcedWin | None
    finished: bool

    @property
    def hardness(self) -> tuple:
        """For the side defending against it: no win found at all is best, then one the search ran out looking
        for, then a longer win, then one that needs threes (harder to find than fours alone)."""
        if self.win is None:
            return (2 if self.finished else 1, 0, 0)
        return (0, self.win.plies, self.win.kind == "threes")


def _other(mark: str) -> str:
    return "O" if mark == "X" else "X"


class Search:
    """One search from one position: the meter, the transposition table and the threat searches."""

    def __init__(self, game: ThreatGame, budget: Budget, meter: Meter | None = None):
        self.game = game
        self.budget = budget
        self.meter = meter or Meter(budget.nodes, budget.seconds, budget.clock)
        self.table: dict = {}

    @property
    def nodes(self) -> int:
        return self.meter.nodes

    @property
    def start(self) -> float:
        return self.meter.start

    def tick(self) -> None:
        self.meter.tick()

    def elapsed(self) -> float:
        return self.meter.elapsed()

    def share(self, nodes: int, fraction: float) -> int:
        """A threat search's share of nodes: ``nodes``, or ``fraction`` of a smaller node budget."""
        budget = self.budget.nodes
        return nodes if budget is None else min(nodes, int(budget * fraction))

    def until(self, fraction: float) -> float | None:
        """The clock reading at ``fraction`` of the budget's seconds (None without seconds)."""
        seconds = self.budget.seconds
        return None if seconds is None else self.meter.start + seconds * fraction

    # --- the threat searches ---------------------------------------------------------------------

    def forced(self, side: str, nodes: int, until: float | None = None, threes: int = THREES) -> ForcedWin | None:
        """``side``'s forced win (continuous fours first, then threes), as if it were to move, found within
        ``nodes`` nodes (and by the clock reading ``until``); None if none was found in that share."""
        return self.outlook(side, nodes, until, threes).win

    def outlook(self, side: str, nodes: int, until: float | None = None, threes: int = THREES) -> Outlook:
        """As ``forced``, and whether the search finished within its share (so that None means none exists
        within its bounds) or ran out of it."""
        game = self.game
        passed = game.mover != side
        if passed:
            game.pass_turn()
        try:
            with self.meter.share(nodes, until):
                return Outlook(ThreatSearch(game, side, self.meter).vct(threes, DEPTH), True)
        except Exhausted:
            return Outlook(None, False)
        finally:
            if passed:
                game.undo()

    # --- alpha-beta ------------------------------------------------------------------------------

    def negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.meter.tick()
        game = self.game
        me = game.mover
        mine, theirs = game.completions(me)
        if mine:
            return MATE - ply - 1
        if len(theirs) > 1:
            return -(MATE - ply - 2)
        if game.full() or game.dead():
            return 0
        if theirs:
            # One move only, so it costs no depth: a forced reply is not a choice.
            game.play(theirs[0])
            try:
                return -self.negamax(depth if ply < 40 else 0, -beta, -alpha, ply + 1)
            finally:
                game.undo()
        if game.has(me, DOUBLE):
            return MATE - ply - 3  # a double to make, and no completion to answer: it wins
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
        # Against a double in the making only its answers can hold (the rest lose within four plies).
        answers = game.answers(_other(me))
        if answers is not None and not answers:
            return -(MATE - ply - 4)
        moves = answers[:WIDTH] if answers is not None else game.moves(WIDTH)
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
        if answers is not None and best < -MATE_BOUND and len(answers) > WIDTH:
            best = max(best, -(MATE - ply - 4))  # some answer left unsearched may hold longer
        flag = UPPER if best <= start_alpha else LOWER if best >= beta else EXACT
        if len(self.table) >= TABLE_LIMIT:
            self.table.clear()
        self.table[key] = (depth, flag, _to_table(best, ply), chosen)
        return best

    def leaf(self, ply: int) -> int:
        """At the horizon: a short forced win by fours for the side to move, else the static evaluation."""
        game = self.game
        # A fresh table each time, so that a leaf's value depends on its position alone.
        threat = ThreatSearch(game, game.mover, self.meter)
        try:
            with self.meter.share(LEAF_NODES):
                plies = threat.attack(0, LEAF_DEPTH)
        except Exhausted:
            plies = None
        if plies is not None:
            return MATE - ply - plies
        return game.evaluate()

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

    def deepen(self, moves: list[int]) -> tuple[dict[int, int], int]:
        """Iterative deepening over ``moves``: each one's value at the last depth completed, and that depth."""
        budget = self.budget
        scores = dict.fromkeys(moves, 0)
        reached = 0
        try:
            with self.meter.share(until=self.until(budget.search_fraction)):
                for depth in range(1, budget.depth + 1):
                    found = self.root(moves, depth)
                    scores, reached = found, depth
                    # The best first next time: the scores of the last iteration are the best ordering we have.
                    moves = sorted(moves, key=lambda m: -scores[m])
                    if scores[moves[0]] > MATE_BOUND or all(v < -MATE_BOUND for v in scores.values()):
                        break  # a win is found, or every move loses: looking deeper changes nothing
                    if self.meter.past(budget.start_fraction, budget.seconds):
                        break
        except (Exhausted, OutOfBudget):
            pass  # mid-iteration: the last complete one stands
        return scores, reached


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
    """The moves the Hard level prefers in ``game``'s position, within ``budget``."""
    s = Search(game, budget)
    me = game.mover
    them = _other(me)

    def done(best, value, depth, reason, scores=None, forced=None) -> Result:
        return Result(tuple(sorted(best)), value, depth, s.nodes, s.elapsed(), scores or {}, reason, forced)

    mine, theirs = game.completions(me)
    if mine:
        return done(mine, MATE - 1, 1, "win", forced=ForcedWin(me, "fours", mine[0], 1, (mine[0],)))
    if len(theirs) == 1:
        return done(theirs, 0, 1, "block")
    if theirs:
        # Every move loses; blocking one completion at least makes the opponent find the other.
        return done(theirs, -(MATE - 2), 1, "lost")
    try:
        return _choose(s, me, them, done)
    except OutOfBudget:
        # The move's whole budget ran out in a threat search: the best-looking move, nothing weighed.
        return done(game.moves(1), 0, 0, "unfinished")


def _choose(s: Search, me: str, them: str, done) -> Result:
    game, budget = s.game, s.budget
    win = s.forced(me, s.share(OWN_NODES, budget.own_fraction), s.until(budget.own_fraction))
    if win is not None:
        return done((win.first,), MATE - win.plies, win.plies, win.kind, forced=win)
    moves = game.moves(ROOT_WIDTH)
    if len(moves) == 1:
        return done(moves, 0, 0, "only")
    # What the opponent threatens now, and after which of our moves it still wins.
    threat = s.forced(
        them, s.share(THEIR_NODES, budget.their_fraction - budget.own_fraction), s.until(budget.their_fraction)
    )
    after: dict[int, Outlook] = {}
    if threat is not None:
        held = _defences(s, threat, me, moves, after)
        moves = held or moves
        if not held and after:
            # No move stops it: the one after which its win is longest, and hardest to find.
            order = list(after)
            worst = max(order, key=lambda m: (after[m].hardness, -order.index(m)))
            plies = after[worst].win.plies
            return done((worst,), -(MATE - 1 - plies), plies + 1, "delay")
        if len(moves) == 1:
            return done(moves, 0, 0, "only")
    scores, depth = s.deepen(moves)
    if not depth:
        # Not one iteration finished: the scores are placeholders, and every move ties at them.
        return done(_safe(s, them, moves, after)[:1], 0, 0, "unfinished")
    ranked = sorted(moves, key=lambda m: -scores[m])
    top = scores[ranked[0]]
    if top > MATE_BOUND:
        return done([m for m in ranked if scores[m] == top], top, depth, "search", scores)
    safe = _safe(s, them, ranked, after)
    best = [m for m in safe if scores[m] == scores[safe[0]]]
    return done(best, scores[best[0]], depth, "search", scores)


def _defences(s: Search, threat: ForcedWin, me: str, moves: list[int], after: dict) -> list[int]:
    """The moves after which the opponent's threat finds no forced win, among those that could stop it: the
    cells of its main line, and our own fours and threes (which it must answer first). Each move tried is
    noted in ``after`` with the opponent's win after it (None if none was found)."""
    game, budget = s.game, s.budget
    them = threat.side
    line = set(threat.line)
    own = game.threats(me, THREE)
    tries = [m for m in moves if m in line] + [m for m in game.moves() if m in line and m not in moves]
    tries += [m for m in own if m not in tries]
    tries += [m for m in moves if m not in tries]
    held = []
    until = s.until(budget.search_fraction)
    for move in tries:
        if s.meter.spent() or (until is not None and s.meter.clock() > until):
            break
        game.play(move)
        try:
            after[move] = s.outlook(them, s.share(CHECK_NODES, 0.05), until)
        except OutOfBudget:
            break
        finally:
            game.undo()
        if after[move].win is None:
            held.append(move)
    # The moves proved to leave no forced win within the bounds first, then those the search ran out on.
    return sorted(held, key=lambda m: -after[m].hardness[0])


def _safe(s: Search, them: str, ranked: list[int], after: dict) -> list[int]:
    """``ranked`` with the moves after which the opponent has a forced win moved to the end (a few checked,
    the best first, within the time left); those losing soonest last."""
    game = s.game
    checked = 0
    for move in ranked:
        if move in after:
            if after[move].win is None:
                break
            continue
        if checked >= SAFETY_CHECKS or s.meter.spent():
            break
        checked += 1
        game.play(move)
        try:
            after[move] = s.outlook(them, s.share(CHECK_NODES, 0.05))
        except OutOfBudget:
            break
        finally:
            game.undo()
        if after[move].win is None:
            break
    losing = [m for m in ranked if m in after and after[m].win is not None]
    if len(losing) == len(ranked):
        return sorted(ranked, key=lambda m: after[m].hardness, reverse=True)
    return [m for m in ranked if m not in losing] + sorted(losing, key=lambda m: after[m].hardness, reverse=True)
