"""Forced wins on the big boards: continuous fours (VCF) and fours and threes (VCT), each one proved.

A *four* threatens to complete a line next move: the defender must block its one completion or lose.
A *double* (an open four, or two fours at once) threatens two completions: one block cannot stop it.
An *open three* threatens to make a double next move. The attacker plays only such threats, so the
defender's choice is narrow, and the search is an AND/OR search over the attacker's threats and the
defender's answers, bounded in threes, in attacker moves and in nodes (``Meter``).

Why the defender's answers it tries are all that matter (so a win reported here is a proof):

- after a four, every reply but the block lets the attacker complete the line at once (the defender
  cannot complete one of its own: a defender with a completion refutes the four before anything else);
- after a three, the attacker has a double to make. A defender stone can spoil a double only on its
  cell or on one of its completions, and each of those cells is, before the double is made, a cell
  where the attacker would make a four. So a reply that is neither one of the attacker's four cells
  nor a four of the defender's own leaves the double, and the attacker makes it and wins: four plies.

The attacker's side of the search is pruned (all its fours, but only its strongest few threes, and past its
first move only threes on the lines of its earlier stones): that can miss a win, never make one up. The
searches here never guess: "no win found" means only that, within the bounds.

>>> g = Gomoku.from_text("." * 96 + "XXX" + "." * 12 + "O" * 3 + "." * 111, 15, 5)  # X to move, an open three
>>> proof = ThreatSearch(g, "X", Meter()).vct(2)
>>> proof.kind, proof.first in (95, 99), proof.plies
('fours', True, 3)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from webapp.engine import pacing
from webapp.engine.gomoku import Gomoku
from webapp.engine.lines import FOUR_W, THREE_W

# How many attacker moves a sequence may have at most, unless the caller says otherwise.
DEPTH = 20
# The attacker tries all its fours, but only its strongest few open threes: so many at the first move, and
# past it so many of those on the lines of its earlier stones of the sequence. Measured on 360 positions of
# lost games (docs/engine.md): 2.6 times fewer nodes than trying every three, and more wins found within a
# share of 20,000 nodes.
THREES_AT_ROOT = 5
THREES_TRIED = 3


class OutOfBudget(Exception):
    """The move's whole budget, of CPU time or of nodes, is spent."""


class Exhausted(Exception):
    """One threat search has used up its own share of nodes; the move's budget may go on."""


def _no_pause() -> None:
    """A search given a clock of its own (a test's) has no one to make room for."""


class Meter:
    """A move's node count, and its limits: the move's own nodes and seconds, and one search's share.

    The clock is read and the pace's pause called every ``CHECK`` nodes. Without an explicit clock it
    is the pace's (``pacing.current()``), whose deadline stops the move too.
    """

    CHECK = 256

    def __init__(
        self, nodes: int | None = None, seconds: float | None = None, clock: Callable[[], float] | None = None
    ):
        if clock is None:
            pace = pacing.current()
            pace.begin()  # before the first node: the pace may refuse the search here
            self.clock, self.pause = pace.clock, pace.pause
            self.start = self.clock()
            self.deadline = pace.stop_by(seconds, self.start)
        else:
            self.clock, self.pause = clock, _no_pause
            self.start = clock()
            self.deadline = None if seconds is None else self.start + seconds
        self.nodes = 0
        self.limit = float("inf") if nodes is None else nodes
        self.timed_out = False  # a reading found the move's time up (``spent``)
        # One search's share: a node count and a clock reading past which it stops (``share``).
        self.cap = float("inf")
        self.until: float | None = None
        self._clock_at = self.CHECK
        self._next = min(self.limit + 1, self._clock_at)

    def tick(self) -> None:
        """Count a node; stop the search when a limit is passed."""
        self.nodes += 1
        if self.nodes >= self._next:
            self._check()

    def _check(self) -> None:
        n = self.nodes
        if n > self.limit:
            raise OutOfBudget
        if n > self.cap:
            raise Exhausted
        if n >= self._clock_at:
            self._clock_at = n + self.CHECK
            now = self.clock()
            if self.deadline is not None and now > self.deadline:
                self.timed_out = True
                raise OutOfBudget
            if self.until is not None and now > self.until:
                raise Exhausted
            self.pause()
        self._next = min(self.limit + 1, self.cap + 1, self._clock_at)

    def elapsed(self) -> float:
        return self.clock() - self.start

    def spent(self) -> bool:
        """Whether the move's own budget is used up: its nodes, or its time, once a reading has found it past.

        Once found, the time stays spent: a check of fewer nodes than the next reading could otherwise still run
        and finish after the move's time is up, and settle a tie that a budget of nodes, spent, leaves alone
        (docs/engine.md, *A tie the clock settled, and a check the clock cut*)."""
        return self.nodes >= self.limit or self.timed_out

    def past(self, fraction: float, seconds: float | None) -> bool:
        """Whether more than ``fraction`` of ``seconds`` (None: no limit) has gone since the start."""
        return seconds is not None and self.elapsed() > seconds * fraction

    def begin(self, nodes: int) -> tuple:
        """``share(nodes)`` without a ``with`` block, for the hottest callers: what ``end`` needs to put back."""
        saved = self.cap, self.until
        self.cap = min(self.cap, self.nodes + nodes)
        self._next = min(self.limit + 1, self.cap + 1, self._clock_at)
        return saved

    def end(self, saved: tuple) -> None:
        """The end of a share ``begin`` started."""
        self.cap, self.until = saved
        self._next = min(self.limit + 1, self.cap + 1, self._clock_at)

    @contextmanager
    def share(self, nodes: float | None = None, until: float | None = None) -> Iterator[None]:
        """Within the block a search may visit at most ``nodes`` more nodes, and run until the clock reads
        ``until``, before ``Exhausted`` stops it (None: no limit of its own)."""
        saved = self.cap, self.until
        if nodes is not None:
            self.cap = min(self.cap, self.nodes + nodes)
        if until is not None:
            self.until = until if self.until is None else min(self.until, until)
        self._next = min(self.limit + 1, self.cap + 1, self._clock_at)
        try:
            yield
        finally:
            self.cap, self.until = saved
            self._next = min(self.limit + 1, self.cap + 1, self._clock_at)


@dataclass(frozen=True, slots=True)
class ForcedWin:
    """A proved forced win: whose, by what kind of threats, its first move, and how long the game lasts at most."""

    side: str  # "X" or "O": who wins by force
    kind: str  # "fours" (continuous fours, VCF) or "threes" (fours and threes, VCT)
    first: int  # the first move of the winning sequence
    plies: int  # the game ends within this many plies, the first move included
    line: tuple[int, ...]  # one main line: attacker, defender, attacker, ... (first == line[0]); the
    # defender's replies are those that held out longest in the search


class ThreatSearch:
    """Searches for ``side``'s forced wins in ``game``'s position, with ``side`` to move.

    One per question: its table (wins proved, failures with the bounds they were searched to) is
    valid only for one attacker and one root's side to move. The board answers the threat questions
    (``completions``, ``threats``, ``answers``, ``worth``), so the search itself knows no patterns.
    """

    def __init__(self, game: Gomoku, side: str, meter: Meter, narrow: bool = False):
        self.game, self.side, self.meter = game, side, meter
        self.table: dict[int, tuple] = {}
        self.last: list[int] = []  # the attacker's moves of the sequence in hand
        # Narrow: past the first move, every threat (four or three) on the lines of the attacker's last move, as
        # in Allis's dependency-based search: it misses wins that combine independent threats, but finds long
        # chains of dependent ones in a fraction of the nodes.
        self.narrow = narrow

    # --- the AND/OR search ------------------------------------------------------------------------

    def attack(self, threes: int, depth: int) -> int | None:
        """Plies to a forced win with the attacker to move, using at most ``threes`` threes and ``depth``
        attacker moves; None if none is found."""
        self.meter.tick()
        game, side = self.game, self.side
        mine, theirs = game.completions(side)
        if mine:
            return 1
        if len(theirs) > 1 or depth <= 0:
            return None
        key = game.hash
        entry = self.table.get(key)
        if entry is not None:
            plies, _, t, d = entry
            if plies is not None:
                return plies
            if t >= threes and d >= depth:
                return None
        # Facing a four the attacker must block, and the block must itself be a threat.
        moves = theirs or self._threats(threes)
        for move in moves:
            cost = 0 if game.threat_worth(move, side) >= FOUR_W else 1
            if cost > threes:
                continue
            game.push(move)
            self.last.append(move)
            try:
                rest = self.defend(threes - cost, depth - 1)
            finally:
                self.last.pop()
                game.undo()
            if rest is not None:
                self.table[key] = (1 + rest, move, threes, depth)
                return 1 + rest
        self._failed(key, threes, depth)
        return None

    def _threats(self, threes: int) -> list[int]:
        """The attacker's moves to try: all its fours, then (with threes left) its strongest few open threes, those
        on the lines of its earlier stones of the sequence only, past the first move."""
        game, side = self.game, self.side
        if self.narrow and self.last:
            near = game.lay.reach[self.last[-1]]
            moves = [m for m in game.threats(side, FOUR_W if threes <= 0 else THREE_W) if m in near]
            fours = [m for m in moves if game.threat_worth(m, side) >= FOUR_W]
            return fours + [m for m in moves if game.threat_worth(m, side) < FOUR_W][:THREES_TRIED]
        if threes <= 0:
            return game.threats(side, FOUR_W)
        moves = game.threats(side, THREE_W)
        fours = [m for m in moves if game.threat_worth(m, side) >= FOUR_W]
        opens = [m for m in moves if game.threat_worth(m, side) < FOUR_W]
        if self.last:
            lines = game.lay.reach
            opens = [m for m in opens if any(m in lines[a] for a in self.last)][:THREES_TRIED]
        else:
            opens = opens[:THREES_AT_ROOT]
        return fours + opens

    def defend(self, threes: int, depth: int) -> int | None:
        """Plies to the attacker's forced win with the defender to move (the attacker's last move a
        threat), or None if some reply holds within the bounds."""
        self.meter.tick()
        game, side = self.game, self.side
        mine, theirs = game.completions(side)
        if theirs:
            return None  # the defender completes a line first
        if len(mine) > 1:
            return 2
        key = game.hash
        entry = self.table.get(key)
        if entry is not None:
            plies, _, t, d = entry
            if plies is not None:
                return plies
            if t >= threes and d >= depth:
                return None
        if mine:
            replies, worst = mine, 2  # any other reply: the attacker completes the line next
        else:
            replies = game.answers(side)
            if replies is None:
                self._failed(key, threes, depth)
                return None  # the attacker's move threatened nothing
            worst = 4  # any other reply: the double, any reply, the line
        hardest = None
        for reply in replies:
            game.push(reply)
            try:
                rest = self.attack(threes, depth)
            finally:
                game.undo()
            if rest is None:
                self._failed(key, threes, depth)
                return None
            if 1 + rest > worst:
                worst, hardest = 1 + rest, reply
        self.table[key] = (worst, hardest, threes, depth)
        return worst

    def _failed(self, key: int, threes: int, depth: int) -> None:
        entry = self.table.get(key)
        if entry is not None:
            threes, depth = max(threes, entry[2]), max(depth, entry[3])
        self.table[key] = (None, None, threes, depth)

    # --- the questions asked ----------------------------------------------------------------------

    def vcf(self, depth: int = DEPTH) -> ForcedWin | None:
        """A forced win by continuous fours within ``depth`` attacker moves, or None if none is found."""
        return self.vct(0, depth)

    def vct(self, threes: int, depth: int = DEPTH) -> ForcedWin | None:
        """A forced win by fours and at most ``threes`` threes, fewest threes first; None if none is found."""
        for t in range(threes + 1):
            if self.attack(t, depth) is not None:
                return self._proof(t, depth)
        return None

    def _proof(self, threes: int, depth: int) -> ForcedWin:
        """The proved win from the root, with one main line: the table's moves, and its hardest replies."""
        game, side = self.game, self.side
        plies = self.attack(threes, depth)
        line: list[int] = []
        played = 0
        try:
            while True:
                mine, _ = game.completions(side)
                if mine:
                    line.append(mine[0])
                    break
                move = self.table[game.hash][1]
                line.append(move)
                game.push(move)
                played += 1
                mine, _ = game.completions(side)
                entry = self.table.get(game.hash)
                if entry is not None and entry[1] is not None:
                    reply = entry[1]  # the reply that held out longest
                else:
                    reply = mine[0] if mine else game.answers(side)[0]
                line.append(reply)
                game.push(reply)
                played += 1
        finally:
            for _ in range(played):
                game.undo()
        return ForcedWin(side, "threes" if threes else "fours", line[0], plies, tuple(line))
