"""The Hard level: threat-space search for both sides, then alpha-beta, under a CPU-time budget.

Each move goes in this order, each step within its share of the budget:

1. a win at once, or the one block of the opponent's completion;
2. our forced win by continuous fours (VCF), then by fours and threes (VCT): played when found;
3. the moves worth searching (``moves.py``): against an open three its answers and our fours, else the best by
   the fitted evaluation;
4. the opponent's forced win, as if it were to move. If it has one, only the moves after which it has
   none are kept; if no move stops it, the one after which its win is longest (and needs threes, not
   fours alone) is played: Hard never gives up a game the opponent still has to find. Of several moves that
   stop it, those that let the opponent take another of them and win however we answer are dropped;
5. iterative-deepening alpha-beta among the moves left, a small VCF at the horizon;
6. the move it prefers is checked for the opponent's forced wins before it is played; one that loses
   to them gives way to the next.

A move is one ``MoveSearch``: the position, its budget, the one meter every search of the move counts on, and each
step's share of them, with the steps themselves. The threat searches are ``threats.py``'s, the alpha-beta
``alphabeta.py``'s; the budget's figures are in ``parameters.py``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

from webapp.engine.big.alphabeta import MATE, MATE_BOUND, AlphaBeta
from webapp.engine.big.board import Gomoku
from webapp.engine.big.budget import DEFAULT_BUDGET, Budget, Exhausted, Meter, OutOfBudget
from webapp.engine.big.lines import THREE_W as THREE
from webapp.engine.big.moves import generate
from webapp.engine.big.parameters import (
    NARROW_DIVISOR,
    OWN_NODES,
    PRESS_CANDIDATES,
    PRESS_FRACTION,
    PRESS_MARGIN,
    PRESS_NODES,
    REBUT_FRACTION_OF_NODES,
    REBUT_MARGIN,
    REBUT_MOVES,
    REBUT_NODES,
    REBUT_TRIES,
    ROOT_WIDTH,
    ROUNDS,
    SAFETY_CHECKS,
    THEIR_NODES,
    THREES,
)
from webapp.engine.big.threats import DEPTH, ForcedWin, ThreatOutlook, ThreatSearch
from webapp.engine.rules import other

__all__ = ["MoveSearch", "Result", "search"]


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


class MoveSearch:
    """One move's search: the position, its budget, the one meter all its searches count on, and each step's share.

    Each step has its share of the move's nodes (``share``) and, with a budget of seconds, of its time
    (``until``), so that none starves the others; the alpha-beta deepens within its own (``deepen``).
    """

    def __init__(self, game: Gomoku, budget: Budget):
        self.game, self.budget = game, budget
        self.meter = Meter(budget.nodes, budget.seconds, budget.clock)
        self.alphabeta = AlphaBeta(game, self.meter, budget.depth)

    def share(self, nodes: int, fraction: float) -> int:
        """A step's share of nodes: ``nodes``, or ``fraction`` of a smaller node budget."""
        budget = self.budget.nodes
        return nodes if budget is None else min(nodes, int(budget * fraction))

    def until(self, fraction: float) -> float | None:
        """The clock reading at ``fraction`` of the budget's seconds; None without seconds, or where a budget of
        nodes ends each step by its share of them (``share``), the seconds ending only the whole move."""
        seconds = self.budget.seconds
        if seconds is None or self.budget.nodes is not None:
            return None
        return self.meter.start + seconds * fraction

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

    def deepen(self, moves: list[int]) -> tuple[dict[int, int], int]:
        """The alpha-beta's iterative deepening over ``moves``, within its share of the move."""
        budget = self.budget
        start = None if budget.seconds is None else budget.seconds * budget.start_fraction
        return self.alphabeta.deepen(moves, self.until(budget.search_fraction), self.opening_count(), start)

    def forced(self, side: str, nodes: int, until: float | None = None, threes: int = THREES) -> ForcedWin | None:
        """``side``'s forced win (continuous fours first, then threes), as if it were to move, found within
        ``nodes`` nodes (and by the clock reading ``until``); None if none was found in that share."""
        return self.outlook(side, nodes, until, threes).win

    def outlook(self, side: str, nodes: int, until: float | None = None, threes: int = THREES) -> ThreatOutlook:
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
                with meter.share(max(nodes // NARROW_DIVISOR, 1), until):
                    win = ThreatSearch(game, side, meter, narrow=True).vct(threes, DEPTH)
                if win is not None:
                    return ThreatOutlook(win, True)
            except Exhausted:
                pass
            with meter.share(max(nodes - (meter.nodes - start), 1), until):
                return ThreatOutlook(ThreatSearch(game, side, meter).vct(threes, DEPTH), True)
        except Exhausted:
            return ThreatOutlook(None, False)
        finally:
            if passed:
                game.undo()


class Finish(Protocol):
    """How a search ends: its result, from the moves it prefers and why."""

    def __call__(
        self,
        best: Iterable[int],
        value: int,
        depth: int,
        reason: str,
        scores: dict[int, int] | None = None,
        forced: ForcedWin | None = None,
    ) -> Result: ...


def search(game: Gomoku, budget: Budget = DEFAULT_BUDGET) -> Result:
    """The moves the Hard level prefers in ``game``'s position, within ``budget``."""
    s = MoveSearch(game, budget.for_mover(game.mover))
    me = game.mover
    them = other(me)

    def done(
        best: Iterable[int],
        value: int,
        depth: int,
        reason: str,
        scores: dict[int, int] | None = None,
        forced: ForcedWin | None = None,
    ) -> Result:
        return Result(tuple(sorted(best)), value, depth, s.meter.nodes, s.meter.elapsed(), scores or {}, reason, forced)

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


def _choose(s: MoveSearch, me: str, them: str, done: Finish) -> Result:
    game, budget = s.game, s.budget
    win = s.forced(me, s.share(OWN_NODES, budget.own_fraction), s.until(budget.own_fraction))
    if win is not None:
        return done((win.first,), MATE - win.plies, win.plies, win.kind, forced=win)
    moves = generate(game, ROOT_WIDTH)
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
            longest = after[worst].win
            assert longest is not None, "no move held: the opponent wins after each one checked"
            plies = longest.plies
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


def _pressing(s: MoveSearch, me: str, safe: list[int], scores: dict[int, int], checks: Checks) -> int:
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
            threat = s.outlook(me, s.share(PRESS_NODES, PRESS_FRACTION)).win
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

    def __init__(self, s: MoveSearch, them: str):
        self.s, self.them = s, them
        self.searches: dict[int, tuple[ThreatSearch, ThreatSearch]] = {}
        self.spent: dict[int, int] = {}
        self.after: dict[int, ThreatOutlook] = {}

    def settled(self, move: int) -> bool:
        """Whether the search after ``move`` found a win, or finished without one."""
        outlook = self.after.get(move)
        return outlook is not None and (outlook.win is not None or outlook.finished)

    def seen(self, move: int) -> tuple[int, int, bool]:
        """What the checks found after ``move``: its outlook's hardness; a move not checked counts as one whose
        check ran out of its share."""
        return self.after[move].hardness if move in self.after else (1, 0, False)

    def check(self, move: int, nodes: int, until: float | None = None) -> ThreatOutlook:
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
                with s.meter.share(max(more // NARROW_DIVISOR, 1), until):
                    win = narrow.vct(THREES, DEPTH)
            except Exhausted:
                pass
            if win is not None:
                outlook = ThreatOutlook(win, True)
            else:
                try:
                    with s.meter.share(max(more - (s.meter.nodes - start), 1), until):
                        outlook = ThreatOutlook(broad.vct(THREES, DEPTH), True)
                except Exhausted:
                    outlook = ThreatOutlook(None, False)
        finally:
            self.spent[move] = self.spent.get(move, 0) + s.meter.nodes - start
            game.undo()
        self.after[move] = outlook
        return outlook


def _rounds(s: MoveSearch) -> list[int]:
    """The nodes a check may have used after each round: a quick look at every candidate first."""
    return [s.share(nodes, fraction) for nodes, fraction in ROUNDS]


def _defences(s: MoveSearch, checks: Checks, threat: ForcedWin, me: str, moves: list[int]) -> list[int]:
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


def _unrefuted(s: MoveSearch, checks: Checks, me: str, them: str, held: list[int]) -> list[int]:
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


def _pressure(s: MoveSearch, me: str, them: str, reply: int, until: float | None = None) -> float:
    """After the opponent's ``reply``: the share of our replies tried after which it has a forced win found within
    REBUT_NODES nodes (0 if it has none found to start with). ``Exhausted`` once the clock reads past ``until``
    (checked before each search: the searches themselves end quietly when their share runs out)."""
    game = s.game

    def forced() -> ForcedWin | None:
        if until is not None and s.meter.clock() > until:
            raise Exhausted
        return s.forced(them, nodes)

    nodes = s.share(REBUT_NODES, REBUT_FRACTION_OF_NODES)
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


def _safe(s: MoveSearch, checks: Checks, ranked: list[int], scores: dict[int, int] | None = None) -> list[int]:
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

    def key(move: int) -> tuple[bool, tuple[int, int, bool], int]:
        # A loss the alpha-beta found goes last all the same.
        return (scores.get(move, 0) >= -MATE_BOUND, checks.seen(move), -order[move])

    return sorted(ranked, key=key, reverse=True)
