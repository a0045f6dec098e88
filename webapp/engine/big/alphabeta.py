"""Hard's alpha-beta from one position: iterative deepening, its table, and short threat searches inside it.

For k in a row on a big board, on the mutable ``Gomoku`` for speed, which answers the questions a threat search
asks: where a side completes a line, where it makes a four, a double or an open three, and what the other side can
answer to a double in the making.
``AlphaBeta`` holds one move's transposition table and caches, and counts its nodes on the move's meter, the
one the threat searches count on too; how long it may deepen is ``hard.py``'s to say.

Every value is a negamax value for the side to move. A win found ``p`` plies from the root is worth
``MATE - p``, so a faster win (and a slower loss) is worth more.
"""

from __future__ import annotations

from typing import Literal, overload

from webapp.engine.answers import MATE, MATE_BOUND
from webapp.engine.big.board import Gomoku
from webapp.engine.big.budget import Exhausted, Meter, OutOfBudget
from webapp.engine.big.lines import DOUBLE_W as DOUBLE
from webapp.engine.big.lines import FOUR_W as FOUR
from webapp.engine.big.moves import width
from webapp.engine.big.parameters import (
    FORCED_PLIES,
    INNER_NODES,
    LEAF_DEPTH,
    LEAF_NODES,
    LMR_DEPTH,
    LMR_MOVES,
    MAX_DEPTH,
    TABLE_LIMIT,
)
from webapp.engine.big.threats import ThreatSearch

__all__ = ["INF", "MATE", "MATE_BOUND", "AlphaBeta"]

INF = MATE + 1
EXACT, LOWER, UPPER = 0, 1, 2


def _other(mark: str) -> str:
    return "O" if mark == "X" else "X"


class AlphaBeta:
    """One move's alpha-beta: its transposition table and caches, its nodes counted on the move's ``meter``."""

    def __init__(self, game: Gomoku, meter: Meter, depth: int = MAX_DEPTH, reduce_from: int = LMR_DEPTH):
        self.game, self.meter, self.depth = game, meter, depth
        # Late quiet moves are reduced with at least this depth left (a test turns it off to compare exact values).
        self.reduce_from = reduce_from
        # Position key -> (depth, flag, value, best move): the transposition table.
        self.table: dict[int, tuple[int, int, int, int | None]] = {}
        # What ``fours`` found in each position it was asked about: the alpha-beta asks again of the same nodes at
        # each depth, and of the same positions reached by moves in another order.
        self.short: dict[tuple[int, str, bool], int | tuple[int, ...] | None] = {}
        # The move ordering of each position the alpha-beta has searched: each iteration visits again the nodes of the
        # last.
        self.orders: dict[tuple[int, int], list[int]] = {}

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
                return -self.negamax(depth if ply < FORCED_PLIES else 0, -beta, -alpha, ply + 1)
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
        # The moves that meet the position's threats (``moves.py``): against a double in the making only its
        # answers can hold (the rest lose within four plies).
        wide = width(ply)
        quiet = False  # the moves are the quiet ones (no threat met by rule), whose late ones may be reduced
        answers = game.answers(_other(me))
        if answers is not None and not answers:
            return -(MATE - ply - 4)
        if answers is not None:
            moves = answers[:wide]
        else:
            # A win by fours of our own ends the node; against one of the opponent's, only the cells of its line
            # and our own fours can hold. Else the quiet moves, best first by the fitted evaluation.
            plies = self.fours(me)
            if plies is not None:
                return MATE - ply - plies
            moves = self.ordered(key, wide)
            quiet = True
            threat = self.fours(_other(me), line=True)
            if threat is not None:
                stops = set(threat) | set(game.threats(me, FOUR))
                found = game.valued([m for m in game.candidates if m in stops], wide)
                quiet = not found
                moves = found or moves
        if first is not None and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        start_alpha, best, chosen = alpha, -INF, None
        # The nodes at the horizon never ask which moves are worth searching: their stones need no candidates.
        place = game.play if depth > 1 else game.push
        for index, move in enumerate(moves):
            place(move)
            try:
                if index == 0:
                    value = -self.negamax(depth - 1, -beta, -alpha, ply + 1)
                else:
                    # Principal-variation search: the first move is taken as best, each other only asked whether it
                    # beats alpha (a null window, far cheaper), and searched in full when it does.
                    reduced = depth - 1 - (quiet and depth >= self.reduce_from and index >= LMR_MOVES)
                    value = -self.negamax(reduced, -alpha - 1, -alpha, ply + 1)
                    if value > alpha and reduced < depth - 1:
                        # A late quiet move searched shallower beat alpha: it gets its full depth.
                        value = -self.negamax(depth - 1, -alpha - 1, -alpha, ply + 1)
                    if alpha < value < beta:
                        value = -self.negamax(depth - 1, -beta, -alpha, ply + 1)
            finally:
                game.undo()
            if value > best:
                best, chosen = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        if answers is not None and best < -MATE_BOUND and len(answers) > wide:
            best = max(best, -(MATE - ply - 4))  # some answer left unsearched may hold longer
        flag = UPPER if best <= start_alpha else LOWER if best >= beta else EXACT
        if len(self.table) >= TABLE_LIMIT:
            self.table.clear()
        self.table[key] = (depth, flag, _to_table(best, ply), chosen)
        return best

    def ordered(self, key: int, wide: int) -> list[int]:
        """The ``wide`` quiet moves best by the fitted evaluation in the position ``key`` names (the game's), and any
        as good as the last of them; a fresh list, the ordering kept for the position at that width."""
        moves = self.orders.get((key, wide))
        if moves is None:
            if len(self.orders) >= TABLE_LIMIT:
                self.orders.clear()
            moves = self.orders[key, wide] = self.game.moves(wide)
        return list(moves)

    @overload
    def fours(self, side: str, line: Literal[False] = False) -> int | None: ...
    @overload
    def fours(self, side: str, line: Literal[True]) -> tuple[int, ...] | None: ...
    def fours(self, side: str, line: bool = False) -> int | tuple[int, ...] | None:
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

    def _fours(self, side: str, line: bool) -> int | tuple[int, ...] | None:
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

    def deepen(
        self, moves: list[int], until: float | None = None, count: int = 0, seconds: float | None = None
    ) -> tuple[dict[int, int], int]:
        """Iterative deepening over ``moves``: each one's value at the last depth completed, and that depth.

        It stops at a win, or when every move loses; else a new iteration starts only while this search has
        visited fewer than ``count`` nodes or, without a count, used less than ``seconds`` of the clock; and it
        runs at most until the clock reads ``until``. One cut short mid-way leaves the last complete one."""
        scores = dict.fromkeys(moves, 0)
        reached = 0
        meter = self.meter
        began, visited = meter.clock(), meter.nodes
        try:
            with meter.share(until=until):
                for depth in range(1, self.depth + 1):
                    found = self.root(moves, depth)
                    scores, reached = found, depth
                    # The best first next time: the scores of the last iteration are the best ordering we have.
                    moves = sorted(moves, key=lambda m: -scores[m])
                    if scores[moves[0]] > MATE_BOUND or all(v < -MATE_BOUND for v in scores.values()):
                        break  # a win is found, or every move loses: looking deeper changes nothing
                    if count:
                        if meter.nodes - visited >= count:
                            break
                    elif seconds is not None and meter.clock() - began > seconds:
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
