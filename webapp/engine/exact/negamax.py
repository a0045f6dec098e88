"""The exact search's inner loop: negamax over bit boards, a packed transposition table, the pairing cut
and the budget's checks. ``webapp.engine.exact.search`` asks the questions; this module answers them fast."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import add

from webapp.engine import pacing
from webapp.engine.exact.bitboard import Adds, BitGeometry
from webapp.engine.exact.parameters import CHECK_EVERY, PAIRING_STEPS

# The same scale as webapp.engine.levels.WIN (a test holds them equal).
WIN = 100
INF = 10**6
# The table's entries packed in one small integer: the lower bound, the upper bound (each offset by BIAS
# into a byte, the outer codes standing for no bound) and the best cell plus one (0 for none).
BIAS = 128
NO_LOW, NO_HIGH = 0, 255


class AllowanceSpent(Exception):
    """A search was stopped at its budget (nodes or seconds) before it proved a value."""


def unpack(entry: int) -> tuple[int, int, int]:
    """(lower bound, upper bound, best cell or -1) from a packed table entry.

    >>> unpack(pack(-INF, 3, 7))
    (-1000000, 3, 7)
    """
    low, high, cell = entry >> 16, entry >> 8 & 0xFF, (entry & 0xFF) - 1
    return (-INF if low == NO_LOW else low - BIAS), (INF if high == NO_HIGH else high - BIAS), cell


def pack(low: int, high: int, cell: int) -> int:
    """One table entry as a small integer (see unpack)."""
    low_code = NO_LOW if low <= -BIAS else low + BIAS
    high_code = NO_HIGH if high >= BIAS - 1 else high + BIAS
    return low_code << 16 | high_code << 8 | cell + 1


class Allowance:
    """What one search object may spend: nodes, and seconds of its pace's clock (read every CHECK_EVERY nodes,
    where it also lets other work run)."""

    __slots__ = ("check", "max_nodes", "node_stop", "nodes", "pace", "stop_time")

    def __init__(self, max_nodes: int | None, seconds: float | None):
        self.nodes = 0
        self.max_nodes = max_nodes
        self.pace = pacing.current()
        self.pace.begin()  # before the first node: the pace may refuse the search here
        self.stop_time = self.pace.stop_by(seconds, self.pace.clock())
        self.arm()

    def arm(self, stop: int | None = None) -> None:
        """Let the work in hand run to ``stop`` nodes in all (or to the lifetime budget's end, if sooner)."""
        ends = [INF**2]
        if self.max_nodes is not None:
            ends.append(self.max_nodes)
        if stop is not None:
            ends.append(stop)
        self.node_stop = min(ends)
        # The count at which the search next calls checkpoint: one past the budget's end, or the next pause.
        self.check = min(self.node_stop + 1, self.nodes + CHECK_EVERY)

    def checkpoint(self) -> None:
        """Past the node budget, or the clock's, stop; otherwise let other work run and go on."""
        if self.nodes > self.node_stop:
            raise AllowanceSpent
        self.pace.pause()
        if self.stop_time is not None and self.pace.clock() >= self.stop_time:
            raise AllowanceSpent
        self.check = min(self.node_stop + 1, self.nodes + CHECK_EVERY)


def has_pairing(
    lines: list[int], free: int, steps: int = PAIRING_STEPS, *, move_first: bool = False
) -> tuple[bool, int]:
    """(whether each of ``lines`` can be given two of the ``free`` cells, no cell given twice; the steps
    taken). A line holding both cells of a pair counts as given it. Past ``steps`` the answer is no.

    With ``move_first`` the side pairing is to move: it may first take one free cell, which then serves
    every line through it, and pair off the rest.

    >>> has_pairing([0b1111, 0b11110000], 0b11111111)  # two rows of four: a pair in each
    (True, 2)
    >>> has_pairing([0b1111, 0b11110000], 0b110001)[0]  # the first line has one free cell
    False
    >>> has_pairing([0b1111, 0b11110000], 0b110001, move_first=True)  # unless the move takes it
    (True, 2)
    >>> has_pairing([], 0)  # no line to block
    (True, 0)
    """
    taken = 0

    def pair_up(needing: list[int], free: int, move: bool) -> bool:
        nonlocal taken
        taken += 1
        if taken > steps:
            raise AllowanceSpent
        # The line with the fewest free cells left: the fewest ways to give it a pair (or the move).
        fewest, least = 0, 99
        for line in needing:
            cells = line & free
            count = cells.bit_count()
            if count < 2 and not move:
                return False
            if count < least:
                fewest, least = cells, count
        singles = []
        while fewest:
            low = fewest & -fewest
            singles.append(low)
            fewest ^= low
        if move:
            for cell in singles:
                rest = [line for line in needing if not line & cell]
                if not rest or pair_up(rest, free ^ cell, False):
                    return True
        for i, a in enumerate(singles):
            for b in singles[i + 1 :]:
                pair = a | b
                rest = [line for line in needing if line & pair != pair]
                if not rest or pair_up(rest, free ^ pair, move):
                    return True
        return False

    if not lines:
        return True, 0  # nothing to block
    try:
        return pair_up(lines, free, move_first), taken
    except AllowanceSpent:
        return False, steps


# The search's signature: me, them, the keys under each symmetry, the bits each cell adds for each side, the empty
# cells, alpha, beta and the live lines.
Search = Callable[[int, int, tuple[int, ...], Adds, Adds, int, int, int, Sequence[int]], int]


def make_search(g: BitGeometry, table: dict[int, int], budget: Allowance, table_limit: int) -> Search:
    """The recursive search over ``g``, closed over its table and its budget."""
    order, inverse, perms, full = g.order, g.inverse, g.perms, g.full
    get = table.get
    # Lines one mark short of a threat: their cells, ours then theirs, are tried first where that pays.
    pre = g.k - 2
    threat_order = g.threat_order

    def pairs(live: list[int], other: int, free: int, move_first: bool) -> bool:
        """Whether ``other``'s opponent can pair off every live line that ``other`` has no mark on."""
        found, steps = has_pairing([line for line in live if not line & other], free, move_first=move_first)
        budget.nodes += steps
        return found

    def store(key: int, keys: tuple[int, ...], low: int, high: int, cell: int) -> None:
        if len(table) >= table_limit:
            table.clear()
        table[key] = pack(low, high, perms[keys.index(key)][cell] if cell >= 0 else -1)

    def search(
        me: int,
        them: int,
        keys: tuple[int, ...],
        adds_me: Adds,
        adds_them: Adds,
        empties: int,
        alpha: int,
        beta: int,
        lines: Sequence[int],
    ) -> int:
        budget.nodes += 1
        if budget.nodes >= budget.check:
            budget.checkpoint()
        # The scan: our immediate win ends it here; the opponent's threats, the open lines and the
        # cells they cover are gathered for what follows, with how many lines each side can still make.
        threat = cover = hot = warm = 0
        ours = theirs_open = 0
        live = []
        for line in lines:
            mine = me & line
            theirs = them & line
            if mine:
                if theirs:
                    continue  # dead: holds both marks
                rest = line ^ mine
                if not rest & (rest - 1):
                    return WIN + empties - 1
                if mine.bit_count() == pre:
                    hot |= rest
                ours += 1
            elif theirs:
                rest = line ^ theirs
                if not rest & (rest - 1):
                    threat |= rest
                elif theirs.bit_count() == pre:
                    warm |= rest
                theirs_open += 1
            else:
                ours += 1
                theirs_open += 1
            live.append(line)
            cover |= line
        if not live:
            return 0  # nobody can make a line any more
        if threat & (threat - 1):
            return -(WIN + empties - 2)  # two threats: one is blocked, the other wins
        # Bounds from the distance to the end: no win before our next move, no loss before theirs.
        upper = WIN + empties - 3 if empties >= 3 else 0
        lower = -(WIN + empties - 4) if empties >= 4 else 0
        if upper <= alpha:
            return upper
        if lower >= beta:
            return lower
        if beta > upper:
            beta = upper
        if alpha < lower:
            alpha = lower
        key = min(keys)
        entry = get(key)
        first = -1
        if entry is not None:
            low, high, stored = unpack(entry)
            if low >= beta:
                return low
            if high <= alpha or low == high:
                return high
            if low > alpha:
                alpha = low
            if high < beta:
                beta = high
            if stored >= 0:
                first = inverse[keys.index(key)][stored]
        else:
            low, high = -INF, INF
        empty = full ^ (me | them)
        if not threat:
            # A pairing needs two free cells for each line it blocks: there must be as many free cells as
            # lines, at least (a pair can serve two lines of one row). With no threat to answer, either
            # side's pairing settles a window on its side of 0 at once; ours may begin with our move.
            if alpha >= 0 and ours <= empties and pairs(live, them, empty, False):
                store(key, keys, low, 0, first)
                return 0  # we cannot win: the opponent pairs off every line we could make
            if beta <= 0 and theirs_open <= empties and pairs(live, me, empty, True):
                store(key, keys, 0, high, first)
                return 0  # we cannot lose: we pair off every line the opponent could make
            cover &= empty
            if threat_order:
                # Where a move would make a threat of ours, then where it would stop one of theirs.
                hot &= empty
                warm &= empty & ~hot
                moves = [c for c in order if hot >> c & 1]
                if warm:
                    moves += [c for c in order if warm >> c & 1]
                rest = cover & ~(hot | warm)
                moves += [c for c in order if rest >> c & 1]
            else:
                moves = [c for c in order if cover >> c & 1]
            dead = empty ^ cover
            if dead:
                moves.append((dead & -dead).bit_length() - 1)
            if first >= 0 and first in moves:
                moves.remove(first)
                moves.insert(0, first)
        else:
            moves = [threat.bit_length() - 1]
        start_alpha = alpha
        best, best_cell = -INF, moves[0]
        left = empties - 1
        for cell in moves:
            value = -search(
                them,
                me | (1 << cell),
                tuple(map(add, keys, adds_me[cell])),
                adds_them,
                adds_me,
                left,
                -beta,
                -alpha,
                live,
            )
            if value > best:
                best, best_cell = value, cell
                if value > alpha:
                    alpha = value
                    if value >= beta:
                        break
        if best <= start_alpha:
            high = min(high, best)
        elif best >= beta:
            low = max(low, best)
        else:
            low = high = best
        store(key, keys, low, high, best_cell)
        return best

    return search
