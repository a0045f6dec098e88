"""The Hard level: threat-space search for both sides, then alpha-beta, under a CPU-time budget.

For games of threats such as k in a row on a big board, on a mutable state for speed. The state (a
``ThreatGame``) answers the questions a threat search asks: where a side completes a line, where it
makes a four, a double or an open three, and what the other side can answer to a double in the making.

Each move goes in this order, each step within its share of the budget:

1. a win at once, or the one block of the opponent's completion;
2. our forced win by continuous fours (VCF), then by fours and threes (VCT): played when found;
3. the opponent's forced win, as if it were to move. If it has one, only the moves after which it has
   none are kept; if no move stops it, the one after which its win is longest (and needs threes, not
   fours alone) is played: Hard never gives up a game the opponent still has to find. Of several moves that
   stop it, those that let the opponent take another of them and win however we answer are dropped;
4. iterative-deepening alpha-beta among the moves left, a small VCF at the horizon;
5. the move it prefers is checked for the opponent's forced wins before it is played; one that loses
   to them gives way to the next.

Every value is a negamax value for the side to move. A win found ``p`` plies from the root is worth
``MATE - p``, so a faster win (and a slower loss) is worth more.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from typing import Protocol

from webapp.engine.gomoku import DOUBLE_W as DOUBLE
from webapp.engine.gomoku import FOUR_W as FOUR
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
CHECK_NODES = 2_000  # the opponent's, after one candidate move (in the analysis)
# The opponent's threat search after each candidate move is run in rounds: after each, it has used at most so
# many nodes in all (or this fraction of a smaller node budget), so that quick answers come first.
ROUNDS = ((250, 0.01), (1_200, 0.03), (5_000, 0.06))
LEAF_NODES = 24  # our VCF at the horizon
INNER_NODES = 40  # ours, and the opponent's, at the nodes before it
LEAF_DEPTH = 4  # fours in it
THREES = 3  # threes in a VCT, at most
# Keeping the initiative: of the moves within PRESS_MARGIN of the best (PRESS_CANDIDATES at most), one after which
# we would have a forced win were we to move again (found within PRESS_NODES) is preferred.
PRESS_CANDIDATES, PRESS_MARGIN, PRESS_NODES = 5, 1_500, 600
# How many moves the opponent's threat is checked after, at most, before a move is played.
SAFETY_CHECKS = 8
# Of several moves that stop the opponent's forced win, one can leave it a quiet reply after which nothing stops
# the next: often another of those moves, the point both sides need. So many of them are checked against the
# others taken by the opponent, each reply of ours there tried with REBUT_NODES nodes (REBUT_TRIES replies at most),
# and those under more pressure than the least by over REBUT_MARGIN are dropped (``_unrefuted``).
REBUT_MOVES, REBUT_TRIES, REBUT_NODES, REBUT_MARGIN = 4, 10, 400, 0.15


class ThreatGame(Protocol):
    """A position that a search changes in place, and the threat questions asked about it."""

    mover: str
    hash: int

    def play(self, move: int) -> None: ...
    def push(self, move: int) -> None:
        """``play`` for a search that never asks for ``moves`` until it is undone (the threat searches, the horizon)."""

    def undo(self) -> None: ...
    def pass_turn(self) -> None: ...
    def completions(self, mark: str) -> tuple[list[int], list[int]]:
        """Where ``mark`` completes a line at once, and where the other side does."""

    def threats(self, mark: str, weight: int) -> list[int]:
        """``mark``'s moves worth ``weight`` or more (a four, an open three), strongest first."""

    def has(self, mark: str, weight: int) -> bool: ...
    def double_three(self, mark: str) -> bool:
        """Whether ``mark`` has a cell where its stone makes two open threes (and no four)."""

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
    also stops the search. The steps of a move each have a share of the time (as of the nodes), so
    that none starves the others, counted from the move's start: our threat search until
    ``own_fraction`` of the seconds, the opponent's until ``their_fraction``, the moves that stop it
    until ``defence_fraction``, the check of those moves against one another until ``rebut_fraction``,
    the alpha-beta until ``search_fraction``; the checks before the move take the rest. An alpha-beta
    iteration is only started while the alpha-beta has used less than ``start_fraction`` of the seconds,
    since each one takes several times longer than the last, and one that runs out mid-iteration keeps
    the last complete one. In the opening (fewer than ``opening_stones`` stones) an iteration is started
    while the alpha-beta has visited fewer than ``opening_nodes`` nodes instead (``early_nodes`` for the
    second player's moves before ``early_stones`` stones): a count, not a clock, so that a faster machine
    does not start deeper iterations there. The iteration started last still runs until it ends or the time
    limits stop it, so the clock can still cut it.

    ``first_nodes``, if given, is the first player's (X's) budget of nodes: see ``for_mover``. A budget of nodes ends
    each step by its share of them (``Search.share``); where it has seconds too, they end only the move as a whole.
    """

    seconds: float | None = None
    nodes: int | None = None
    depth: int = 64
    start_fraction: float = 0.3
    clock: Callable[[], float] | None = None
    own_fraction: float = 0.12
    their_fraction: float = 0.25
    defence_fraction: float = 0.55
    rebut_fraction: float = 0.7
    search_fraction: float = 0.8
    opening_stones: int = 0
    opening_nodes: int = 0
    first_nodes: int | None = None
    early_stones: int = 0
    early_nodes: int = 0

    def for_mover(self, mover: str) -> Budget:
        """The budget of a move by ``mover``: the first player's stops at ``first_nodes`` nodes too, if given.

        Its alpha-beta then starts iterations until those nodes (or its share of the seconds) run out, in the
        opening as past it, and takes every node the steps before it left, so that the checks after it run only
        when it stops early. On a machine fast enough to spend the nodes before the clock, X's move is the same
        every time. The second player, who defends, keeps the clock and the opening's counts (docs/engine.md).

        Each step's share of the move ends by nodes alone, not by the clock's fraction as well, so that a clock
        running slow (a busy host) cannot cut a step short and change X's move. The seconds still end the whole
        move.

        >>> budget = Budget(seconds=0.75, opening_stones=12, first_nodes=24_000)
        >>> budget.for_mover("X").nodes, budget.for_mover("X").opening_stones, budget.for_mover("O") is budget
        (24000, 0, True)
        """
        if mover != "X" or self.first_nodes is None:
            return self
        nodes = self.first_nodes if self.nodes is None else min(self.nodes, self.first_nodes)
        return replace(self, nodes=nodes, start_fraction=1.0, opening_stones=0, first_nodes=None)


# What a move costs the server: the default budget of the Hard level. It fits inside a request's own deadline
# (0.8 s of CPU, webapp.web.costs), so that the move the page plays is the one the strength matches measured, not
# one cut short before its last checks; X's nodes fit inside the seconds on a machine of ordinary speed.
DEFAULT_BUDGET = Budget(
    seconds=0.75,
    start_fraction=0.12,
    opening_stones=12,
    opening_nodes=6_000,
    first_nodes=24_000,
    early_stones=6,
    early_nodes=4_000,
)


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
    # opponent's: the longest is played), "only" (one move worth searching) or "unfinished" (the budget ran out
    # before depth 1).
    reason: str = "search"
    # The forced win proved for the side to move at the root, if any.
    forced: ForcedWin | None = None

    @property
    def proved(self) -> bool:
        """Whether the value is a forced win the threat search proved (an alpha-beta win, whose defender tried
        only its best-looking moves, is a judgement)."""
        return self.forced is not None


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
        # What ``fours`` found in each position it was asked about: the alpha-beta asks again of the same nodes at
        # each depth, and of the same positions reached by moves in another order.
        self.short: dict = {}
        # The move ordering of each position the alpha-beta has searched: each iteration visits again the nodes of the
        # last.
        self.orders: dict = {}

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

    def opening_count(self) -> int:
        """The nodes within which an alpha-beta iteration may start, in the opening; 0 past it (the clock decides).

        In the quiet opening a few decisions shape the whole game, and which depth a clock lets the search reach
        there flips them. A node count decides which iterations start the same way on every machine (the last one
        may still be cut by the clock). The first player, with a budget of nodes of its own (``Budget.for_mover``),
        has no opening count."""
        budget = self.budget
        if self.game.stones >= budget.opening_stones:
            return 0
        if self.game.stones < budget.early_stones:
            # O's first moves count fewer nodes than its later opening moves: the early moves and the later ones
            # are each best at their own depth (docs/engine.md, *Budget and time control*).
            return budget.early_nodes
        return budget.opening_nodes

    def until(self, fraction: float) -> float | None:
        """The clock reading at ``fraction`` of the budget's seconds; None without seconds, or where a budget of
        nodes ends each step by its share of them (``share``), the seconds ending only the whole move."""
        seconds = self.budget.seconds
        if seconds is None or self.budget.nodes is not None:
            return None
        return self.meter.start + seconds * fraction

    # --- the threat searches ---------------------------------------------------------------------

    def forced(self, side: str, nodes: int, until: float | None = None, threes: int = THREES) -> ForcedWin | None:
        """``side``'s forced win (continuous fours first, then threes), as if it were to move, found within
        ``nodes`` nodes (and by the clock reading ``until``); None if none was found in that share."""
        return self.outlook(side, nodes, until, threes).win

    def outlook(self, side: str, nodes: int, until: float | None = None, threes: int = THREES) -> Outlook:
        """As ``forced``, and whether the broad search finished within its share (so that None means none exists
        within its bounds) or ran out of it. A narrow search (long chains of dependent threats) goes first, with
        a third of the share."""
        game, meter = self.game, self.meter
        passed = game.mover != side
        if passed:
            game.pass_turn()
        start = meter.nodes
        try:
            try:
                with meter.share(max(nodes // 3, 1), until):
                    win = ThreatSearch(game, side, meter, narrow=True).vct(threes, DEPTH)
                if win is not None:
                    return Outlook(win, True)
            except Exhausted:
                pass
            with meter.share(max(nodes - (meter.nodes - start), 1), until):
                return Outlook(ThreatSearch(game, side, meter).vct(threes, DEPTH), True)
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
            # One move only, so it costs no depth: a forced reply is not a choice. At the horizon (depth 0) nothing
            # below asks for moves, so the stone is pushed.
            (game.play if depth > 0 else game.push)(theirs[0])
            try:
                return -self.negamax(depth if ply < 40 else 0, -beta, -alpha, ply + 1)
            finally:
                game.undo()
        if game.has(me, DOUBLE):
            return MATE - ply - 3  # a double to make, and no completion to answer: it wins
        if game.double_three(me) and not game.has(_other(me), FOUR):
            # Two open threes at once, and not one four to answer with: one stone blocks one three, the other
            # becomes an open four.
            return MATE - ply - 5
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
        if answers is not None:
            moves = answers[:WIDTH]
        else:
            # A win by fours of our own ends the node; against one of the opponent's, only the cells of its line
            # and our own fours can hold.
            plies = self.fours(me)
            if plies is not None:
                return MATE - ply - plies
            moves = self.ordered(key)
            threat = self.fours(_other(me), line=True)
            if threat is not None:
                stops = set(threat) | set(game.threats(me, FOUR))
                moves = [m for m in game.moves() if m in stops][:WIDTH] or moves
        if first is not None and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        start_alpha, best, chosen = alpha, -INF, None
        # The nodes at the horizon never ask which moves are worth searching: their stones need no candidates.
        place = game.play if depth > 1 else game.push
        for move in moves:
            place(move)
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

    def ordered(self, key: Hashable) -> list[int]:
        """The alpha-beta's WIDTH best-looking moves in the position ``key`` names (the game's), a fresh list."""
        moves = self.orders.get(key)
        if moves is None:
            if len(self.orders) >= TABLE_LIMIT:
                self.orders.clear()
            moves = self.orders[key] = self.game.moves(WIDTH)
        return list(moves)

    def fours(self, side: str, line: bool = False):
        """``side``'s short forced win by fours (as if it were to move) within INNER_NODES nodes: its plies, or with
        ``line`` its main line; None if none is found."""
        game = self.game
        if not game.has(side, FOUR):
            return None  # not one four to make: no win by fours (no completion is on the board here)
        key = (game.hash, side, line)
        if key in self.short:
            return self.short[key]
        if len(self.short) >= TABLE_LIMIT:
            self.short.clear()
        self.short[key] = found = self._fours(side, line)
        return found

    def _fours(self, side: str, line: bool):
        """``fours``, searched."""
        game, meter = self.game, self.meter
        passed = game.mover != side
        if passed:
            game.pass_turn()
        saved = meter.begin(INNER_NODES)
        try:
            threat = ThreatSearch(game, side, meter)
            if line:
                found = threat.vcf(LEAF_DEPTH)
                return None if found is None else found.line
            return threat.attack(0, LEAF_DEPTH)
        except Exhausted:
            return None
        finally:
            meter.end(saved)
            if passed:
                game.undo()

    def leaf(self, ply: int) -> int:
        """At the horizon: a short forced win by fours for the side to move, else the static evaluation."""
        game = self.game
        if not game.has(game.mover, FOUR):
            return game.evaluate()  # not one four to make: no win by fours
        # A fresh table each time, so that a leaf's value depends on its position alone.
        meter = self.meter
        threat = ThreatSearch(game, game.mover, meter)
        saved = meter.begin(LEAF_NODES)
        try:
            plies = threat.attack(0, LEAF_DEPTH)
        except Exhausted:
            plies = None
        finally:
            meter.end(saved)
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
        began, visited = self.meter.clock(), self.meter.nodes
        count = self.opening_count()
        try:
            with self.meter.share(until=self.until(budget.search_fraction)):
                for depth in range(1, budget.depth + 1):
                    found = self.root(moves, depth)
                    scores, reached = found, depth
                    # The best first next time: the scores of the last iteration are the best ordering we have.
                    moves = sorted(moves, key=lambda m: -scores[m])
                    if scores[moves[0]] > MATE_BOUND or all(v < -MATE_BOUND for v in scores.values()):
                        break  # a win is found, or every move loses: looking deeper changes nothing
                    if count:
                        if self.meter.nodes - visited >= count:
                            break
                    elif (
                        budget.seconds is not None
                        and self.meter.clock() - began > budget.seconds * budget.start_fraction
                    ):
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
    s = Search(game, budget.for_mover(game.mover))
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
    checks = Checks(s, them)
    if threat is not None:
        held = _defences(s, checks, threat, me, moves)
        after = checks.after
        if not held and after:
            # No move stops it: the one after which its win is longest, and hardest to find.
            order = list(after)
            worst = max(order, key=lambda m: (after[m].hardness, -order.index(m)))
            plies = after[worst].win.plies
            return done((worst,), -(MATE - 1 - plies), plies + 1, "delay")
        moves = held or moves
        if len(moves) == 1:
            return done(moves, 0, 0, "only")
        if held:
            moves = _unrefuted(s, checks, me, them, moves)
    scores, depth = s.deepen(moves)
    if not depth:
        # Not one iteration finished: the scores are placeholders, and every move ties at them.
        return done(_safe(s, checks, moves)[:1], 0, 0, "unfinished")
    ranked = sorted(moves, key=lambda m: -scores[m])
    top = scores[ranked[0]]
    if top > MATE_BOUND:
        return done([m for m in ranked if scores[m] == top], top, depth, "search", scores)
    safe = _safe(s, checks, ranked, scores)
    first = _pressing(s, me, safe, scores, checks)
    best = [m for m in safe if scores[m] == scores[first] and checks.seen(m) == checks.seen(first)]
    return done(best, scores[first], depth, "search", scores)


def _pressing(s: Search, me: str, safe: list[int], scores: dict, checks: Checks) -> int:
    """Of the moves about as good as the first of ``safe`` (and as safe), the best-ranked one after which we would
    have a forced win if we could move again: a threat the opponent must answer, so that we keep the initiative.
    The first of ``safe`` if none is, or if there is no time left to look."""
    first = safe[0]
    close = [
        m
        for m in safe[:PRESS_CANDIDATES]
        if scores[m] >= scores[first] - PRESS_MARGIN and checks.seen(m) == checks.seen(first)
    ]
    game = s.game
    for move in close:
        if s.meter.spent():
            break
        game.play(move)
        try:
            threat = s.outlook(me, s.share(PRESS_NODES, 0.02)).win
        except OutOfBudget:
            break
        finally:
            game.undo()
        if threat is not None:
            return move
    return first


class Checks:
    """The opponent's threat searches after each of our candidate moves, each kept between rounds so that a
    search given more nodes goes on where it stopped (its table holds what it found)."""

    def __init__(self, s: Search, them: str):
        self.s, self.them = s, them
        self.searches: dict[int, tuple[ThreatSearch, ThreatSearch]] = {}
        self.spent: dict[int, int] = {}
        self.after: dict[int, Outlook] = {}

    def settled(self, move: int) -> bool:
        """Whether the search after ``move`` found a win, or finished without one."""
        outlook = self.after.get(move)
        return outlook is not None and (outlook.win is not None or outlook.finished)

    def seen(self, move: int) -> tuple:
        """What the checks found after ``move``: its outlook's hardness; a move not checked counts as one whose
        check ran out of its share."""
        return self.after[move].hardness if move in self.after else (1, 0, 0)

    def check(self, move: int, nodes: int, until: float | None = None) -> Outlook:
        """The opponent's outlook after ``move``, its searches run on until they have used ``nodes`` in all: a
        narrow one (long chains of dependent threats) with a third of them, the broad one with the rest."""
        s, game = self.s, self.s.game
        more = nodes - self.spent.get(move, 0)
        if move in self.after and (self.settled(move) or more <= 0):
            return self.after[move]
        game.play(move)
        start = s.meter.nodes
        try:
            searches = self.searches.get(move)
            if searches is None:
                searches = self.searches[move] = (
                    ThreatSearch(game, self.them, s.meter, narrow=True),
                    ThreatSearch(game, self.them, s.meter),
                )
            narrow, broad = searches
            win = None
            try:
                with s.meter.share(max(more // 3, 1), until):
                    win = narrow.vct(THREES, DEPTH)
            except Exhausted:
                pass
            if win is not None:
                outlook = Outlook(win, True)
            else:
                try:
                    with s.meter.share(max(more - (s.meter.nodes - start), 1), until):
                        outlook = Outlook(broad.vct(THREES, DEPTH), True)
                except Exhausted:
                    outlook = Outlook(None, False)
        finally:
            self.spent[move] = self.spent.get(move, 0) + s.meter.nodes - start
            game.undo()
        self.after[move] = outlook
        return outlook


def _rounds(s: Search) -> list[int]:
    """The nodes a check may have used after each round: a quick look at every candidate first."""
    return [s.share(nodes, fraction) for nodes, fraction in ROUNDS]


def _defences(s: Search, checks: Checks, threat: ForcedWin, me: str, moves: list[int]) -> list[int]:
    """The moves after which the opponent's threat finds no forced win, among those that could stop it: the
    cells of its main line, and our own fours and threes (which it must answer first), the others after. All
    are looked at with a few nodes first, then more, until some are shown to leave no forced win within the
    bounds. Those first; failing them, those whose searches ran out; none if every one tried loses."""
    game = s.game
    line = set(threat.line)
    tries = [m for m in moves if m in line] + [m for m in game.moves() if m in line and m not in moves]
    tries += [m for m in game.threats(me, THREE) if m not in tries]
    tries += [m for m in moves if m not in tries]
    until = s.until(s.budget.defence_fraction)
    try:
        # Not the last round: a defence that a few thousand nodes cannot settle is left to the alpha-beta (and to
        # the checks before the move, which go on where these stopped).
        for nodes in _rounds(s)[:-1]:
            for move in tries:
                if s.meter.spent() or (until is not None and s.meter.clock() > until):
                    raise Exhausted
                checks.check(move, nodes, until)
            if any(checks.after[m].win is None and checks.after[m].finished for m in tries):
                break
    except (Exhausted, OutOfBudget):
        pass  # the time for defences is over: what was found stands
    held = [m for m in tries if m in checks.after and checks.after[m].win is None]
    finished = [m for m in held if checks.after[m].finished]
    return finished or held


def _unrefuted(s: Search, checks: Checks, me: str, them: str, held: list[int]) -> list[int]:
    """``held`` (the moves that stop the opponent's forced win) without those that leave it the stronger reply.

    After each of the first REBUT_MOVES, the opponent is given each of the others: its *pressure* is the share of
    our replies tried there (the cells of its new forced win's line, and our own fours and threes) after which
    a quick search finds it a forced win again. The moves whose worst pressure is within REBUT_MARGIN of the
    lowest are kept, the rest dropped: a defence that lets the opponent take the point both sides need, and win
    however we answer, is what loses games as O. ``held`` itself if the time runs out before all are measured,
    or if the checks could not settle whether they stop the threat at all (then the time is the alpha-beta's and
    the checks')."""
    if not all(checks.settled(m) for m in held):
        return held
    game = s.game
    checked = held[:REBUT_MOVES]
    pressure: dict[int, float] = {}
    until = s.until(s.budget.rebut_fraction)
    try:
        for move in checked:
            game.play(move)
            try:
                pressure[move] = max(_pressure(s, me, them, reply, until) for reply in checked if reply != move)
            finally:
                game.undo()
    except (Exhausted, OutOfBudget):
        return held  # not every move was measured: they cannot be compared
    lowest = min(pressure.values())
    return [m for m in held if pressure.get(m, lowest) <= lowest + REBUT_MARGIN]


def _pressure(s: Search, me: str, them: str, reply: int, until: float | None = None) -> float:
    """After the opponent's ``reply``: the share of our replies tried after which it has a forced win found within
    REBUT_NODES nodes (0 if it has none found to start with). ``Exhausted`` once the clock reads past ``until``
    (checked before each search: the searches themselves end quietly when their share runs out)."""
    game = s.game

    def forced() -> ForcedWin | None:
        if until is not None and s.meter.clock() > until:
            raise Exhausted
        return s.forced(them, nodes)

    nodes = s.share(REBUT_NODES, 0.01)
    game.play(reply)
    try:
        threat = forced()
        if threat is None:
            return 0.0
        line = set(threat.line)
        tries = [m for m in game.moves() if m in line]
        tries += [m for m in game.threats(me, THREE) if m not in tries]
        tries = tries[:REBUT_TRIES]
        lost = 0
        for move in tries:
            game.play(move)
            try:
                lost += forced() is not None
            finally:
                game.undo()
        return lost / len(tries) if tries else 1.0
    finally:
        game.undo()


def _safe(s: Search, checks: Checks, ranked: list[int], scores: dict | None = None) -> list[int]:
    """``ranked`` ordered for safety: first the best-ranked move after which the opponent's threat search
    finished and found no forced win, then those whose search ran out of its share, then those it wins
    after, the longest win first. The best-ranked moves are checked one by one (each given more nodes, round
    by round, until its search settles), a few at most, within the time left."""
    rounds = _rounds(s)
    try:
        for move in ranked[:SAFETY_CHECKS]:
            for nodes in rounds:
                if s.meter.spent():
                    raise Exhausted
                if checks.settled(move):
                    break
                checks.check(move, nodes)
            outlook = checks.after[move]
            if outlook.win is None and outlook.finished:
                break
    except (Exhausted, OutOfBudget):
        pass
    order = {move: i for i, move in enumerate(ranked)}
    scores = scores or {}

    def key(move: int) -> tuple:
        # A loss the alpha-beta found goes last all the same.
        return (scores.get(move, 0) >= -MATE_BOUND, checks.seen(move), -order[move])

    return sorted(ranked, key=key, reverse=True)
