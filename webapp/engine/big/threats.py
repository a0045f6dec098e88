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

from dataclasses import dataclass

from webapp.engine.answers import ForcedWin
from webapp.engine.big.board import Gomoku
from webapp.engine.big.budget import Exhausted, Meter, OutOfBudget
from webapp.engine.big.lines import FOUR_W, THREE_W
from webapp.engine.big.parameters import DEPTH, THREES_AT_ROOT, THREES_TRIED

__all__ = ["DEPTH", "Exhausted", "ForcedWin", "Meter", "OutOfBudget", "ThreatOutlook", "ThreatSearch"]


@dataclass(frozen=True, slots=True)
class ThreatOutlook:
    """What a threat search found for one side: its forced win, if any, and whether it searched all it meant to."""

    win: ForcedWin | None
    finished: bool

    @property
    def hardness(self) -> tuple[int, int, bool]:
        """For the side defending against it: no win found at all is best, then one the search ran out looking
        for, then a longer win, then one that needs threes (harder to find than fours alone)."""
        if self.win is None:
            return (2 if self.finished else 1, 0, False)
        return (0, self.win.plies, self.win.kind == "threes")


class ThreatSearch:
    """Searches for ``side``'s forced wins in ``game``'s position, with ``side`` to move.

    One per question: its table (wins proved, failures with the bounds they were searched to) is
    valid only for one attacker and one root's side to move. The board answers the threat questions
    (``completions``, ``threats``, ``answers``, ``worth``), so the search itself knows no patterns.
    """

    def __init__(self, game: Gomoku, side: str, meter: Meter, narrow: bool = False):
        self.game, self.side, self.meter = game, side, meter
        # Position key -> (plies to the win or None, the move or hardest reply, threes, depth searched with).
        self.table: dict[int, tuple[int | None, int | None, int, int]] = {}
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
        replies: list[int] | None
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
        assert plies is not None, "asked for a proof only once the win is found"
        line: list[int] = []
        played = 0
        try:
            while True:
                mine, _ = game.completions(side)
                if mine:
                    line.append(mine[0])
                    break
                move = self.table[game.hash][1]
                assert move is not None, "each attacker position on a proved line holds its winning move"
                line.append(move)
                game.push(move)
                played += 1
                mine, _ = game.completions(side)
                entry = self.table.get(game.hash)
                if entry is not None and entry[1] is not None:
                    reply = entry[1]  # the reply that held out longest
                elif mine:
                    reply = mine[0]
                else:
                    answers = game.answers(side)
                    assert answers, "every attacker move on a proved line is a threat"
                    reply = answers[0]
                line.append(reply)
                game.push(reply)
                played += 1
        finally:
            for _ in range(played):
                game.undo()
        return ForcedWin(side, "threes" if threes else "fours", line[0], plies, tuple(line))
