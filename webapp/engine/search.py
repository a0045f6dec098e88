"""Game-tree search for any two-player, zero-sum game with perfect information.

The search knows nothing about tic-tac-toe. Like Hughes's ``gametree``, ``static``,
``prune`` and ``maximize``, it is built only from the small interface ``Game`` below,
and every value is a negamax value: seen from the side to move.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Generic, NamedTuple, Protocol, TypeVar

S = TypeVar("S")  # a state of the game
M = TypeVar("M")  # a move

INF = math.inf


class Game(Protocol[S, M]):
    """What the search needs to know about a game, and nothing more."""

    def moves(self, state: S) -> Sequence[M]:
        """The legal moves; empty once the game is over."""

    def play(self, state: S, move: M) -> S:
        """The state after ``move``."""

    def terminal_value(self, state: S) -> int | None:
        """The value of a finished game for the side to move, or None while it goes on."""

    def static_value(self, state: S) -> int:
        """A heuristic value for the side to move, looking no further ahead."""

    def key(self, state: S) -> Hashable:
        """Equal for states that have equal values (for example, symmetric ones)."""


class Counter:
    """Counts the nodes (states) a search visits."""

    __slots__ = ("nodes",)

    def __init__(self, nodes: int = 0) -> None:
        self.nodes = nodes

    def __repr__(self) -> str:
        return f"Counter(nodes={self.nodes})"


class Bounds(NamedTuple):
    """What a transposition table knows of a state's value: lower <= value <= upper."""

    lower: float = -INF
    upper: float = INF

    def is_exact(self) -> bool:
        return self.lower == self.upper

    def narrowed(self, value: float, alpha: float, beta: float) -> Bounds:
        """These bounds, tightened by a fail-soft search of window (alpha, beta) that returned value."""
        if value <= alpha:
            return Bounds(self.lower, min(self.upper, value))
        if value >= beta:
            return Bounds(max(self.lower, value), self.upper)
        return Bounds(value, value)


UNKNOWN = Bounds()


def leaf_value(game: Game[S, M], state: S) -> int:
    """The value of a state when we look no deeper: terminal if finished, else static."""
    value = game.terminal_value(state)
    return game.static_value(state) if value is None else value


def minimax(game: Game[S, M], state: S, counter: Counter | None = None) -> int:
    """Plain negamax over the whole tree, with no pruning: the reference everything else must match."""
    if counter is not None:
        counter.nodes += 1
    value = game.terminal_value(state)
    if value is not None:
        return value
    return max(-minimax(game, game.play(state, m), counter) for m in game.moves(state))


def children(game: Game[S, M], state: S, *, ordered: bool = False) -> list[tuple[M, S]]:
    """The (move, next state) pairs, best-looking first if ``ordered`` (Hughes's ``highfirst``)."""
    pairs = [(m, game.play(state, m)) for m in game.moves(state)]
    if ordered:
        # The child's leaf value is from the opponent's side, so low values go first.
        pairs.sort(key=lambda pair: leaf_value(game, pair[1]))
    return pairs


def alphabeta(
    game: Game[S, M],
    state: S,
    alpha: float = -INF,
    beta: float = INF,
    *,
    ordered: bool = False,
    table: dict[Hashable, Bounds] | None = None,
    counter: Counter | None = None,
    visited: set[tuple[M, ...]] | None = None,
) -> float:
    """Negamax with alpha-beta pruning, optionally with move ordering and a transposition table.

    The result is exact when it lies strictly inside (alpha, beta), and otherwise a bound
    on the true value (fail-soft). ``visited`` collects the move paths of the states visited.
    """
    # The options are fixed for a whole search, so the recursion closes over them
    # instead of passing them down at every node.
    terminal_value, key_of = game.terminal_value, game.key

    def search(state: S, alpha: float, beta: float, path: tuple[M, ...]) -> float:
        if counter is not None:
            counter.nodes += 1
        if visited is not None:
            visited.add(path)
        terminal = terminal_value(state)
        if terminal is not None:
            return terminal
        known = UNKNOWN
        if table is not None:
            key = key_of(state)
            known = table.get(key, UNKNOWN)
            # Keeping both bounds (as MTD(f) does) means no search result is thrown away.
            if known.lower >= beta or known.lower == known.upper:
                return known.lower
            if known.upper <= alpha:
                return known.upper
            alpha, beta = max(alpha, known.lower), min(beta, known.upper)
        start_alpha, best = alpha, -INF
        for move, child in children(game, state, ordered=ordered):
            value = -search(child, -beta, -alpha, (*path, move) if visited is not None else path)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        if table is not None:
            table[key] = known.narrowed(best, start_alpha, beta)
        return best

    return search(state, alpha, beta, ())


def best_move(
    game: Game[S, M],
    state: S,
    *,
    prune: bool = True,
    ordered: bool = False,
    table: dict[Hashable, Bounds] | None = None,
    counter: Counter | None = None,
) -> tuple[M | None, float]:
    """(a best move, its value) at the root, by plain minimax or by alpha-beta and its helpers."""
    if counter is not None:
        counter.nodes += 1
    chosen: M | None = None
    alpha = -INF
    for move, child in children(game, state, ordered=ordered):
        value: float
        if prune:
            # The child only has to tell us whether it beats the best so far.
            value = -alphabeta(game, child, -INF, -alpha, ordered=ordered, table=table, counter=counter)
        else:
            value = -minimax(game, child, counter)
        if value > alpha:
            chosen, alpha = move, value
    return chosen, alpha


def lookahead_scores(game: Game[S, M], state: S) -> dict[M, int]:
    """Each move's value for the mover, judged one ply ahead by the static evaluation alone."""
    return {m: -leaf_value(game, game.play(state, m)) for m in game.moves(state)}


class Solver(Generic[S, M]):
    """Perfect play for one game, remembering the exact value of every position it has solved.

    Values are keyed on ``game.key``, so each symmetry class is solved once. The state expanded for
    a class is kept with its children and their values: the tie-break in best_moves, whose figures
    are the same for every member of a class, walks those instead of playing any child again.
    """

    def __init__(self, game: Game[S, M]) -> None:
        self.game = game
        self.table: dict[Hashable, int] = {}
        # key -> (the state expanded for that class, {move: child}, {move: value for the mover}).
        self._expanded: dict[Hashable, tuple[S, dict[M, S], dict[M, int]]] = {}
        self._move_values: dict[S, dict[M, int]] = {}
        # The tie-break's expected scores, by class: with us to move, and with the random opponent to move.
        self._chances_us: dict[Hashable, float] = {}
        self._chances_them: dict[Hashable, float] = {}

    def value(self, state: S) -> int:
        """The exact negamax value of ``state`` under perfect play.

        Plain negamax over the classes, each solved once, rather than alpha-beta: best_moves needs
        the exact value of nearly every position anyway, and the bounds a window search leaves
        behind only had to be searched again (the first call from tic-tac-toe's empty board took
        about twice as long that way).
        """
        terminal = self.game.terminal_value(state)
        if terminal is not None:
            return terminal
        key = self.game.key(state)
        known = self.table.get(key)
        if known is not None:
            return known
        return self._expand(state, key)[0]

    def _expand(self, state: S, key: Hashable) -> tuple[int, dict[M, S], dict[M, int]]:
        """Solve the class ``key`` from its member ``state``; return (value, children, move values)."""
        play, value = self.game.play, self.value
        children = {m: play(state, m) for m in self.game.moves(state)}
        values = {m: -value(child) for m, child in children.items()}
        best = self.table[key] = max(values.values())
        self._expanded[key] = (state, children, values)
        return best, children, values

    def _class(self, state: S, key: Hashable) -> tuple[int, dict[M, S], dict[M, int]]:
        """(value, children, move values) of the state expanded for the class ``key`` of ``state``."""
        expanded = self._expanded.get(key)
        if expanded is None:
            return self._expand(state, key)
        _, children, values = expanded
        return self.table[key], children, values

    def move_values(self, state: S) -> dict[M, int]:
        """The exact value, for the side to move, of each legal move."""
        # Keyed on the state itself, not its symmetry class: the moves of symmetric states differ.
        found = self._move_values.get(state)
        if found is None:
            expanded = self._expanded.get(self.game.key(state))
            if expanded is not None and expanded[0] == state:
                found = expanded[2]
            else:
                found = {m: -self.value(self.game.play(state, m)) for m in self.game.moves(state)}
            self._move_values[state] = found
        return found

    def best_moves(self, state: S) -> list[M]:
        """The moves that keep the best value and, among those, give a fallible opponent the most
        rope: the highest expected score against an opponent who moves uniformly at random."""
        values = self.move_values(state)
        top = max(values.values())
        optimal = [m for m, v in values.items() if v == top]
        if len(optimal) == 1:
            return optimal
        chances = {m: self._chance_after(self.game.play(state, m)) for m in optimal}
        # Rounding keeps moves whose chances differ only by float noise together.
        best = max(round(c, 9) for c in chances.values())
        return [m for m in optimal if round(chances[m], 9) == best]

    def _chance_to_move(self, state: S) -> float:
        """Expected score (win 1, draw 0, loss -1) with us to move, playing best_moves, against random."""
        value = self.game.terminal_value(state)
        if value is not None:
            return float((value > 0) - (value < 0))
        key = self.game.key(state)
        chance = self._chances_us.get(key)
        if chance is None:
            top, children, values = self._class(state, key)
            chance = max(self._chance_after(children[m]) for m, v in values.items() if v == top)
            self._chances_us[key] = chance
        return chance

    def _chance_after(self, state: S) -> float:
        """Expected score for us once we have moved and the random opponent is to move."""
        value = self.game.terminal_value(state)
        if value is not None:
            return -float((value > 0) - (value < 0))
        key = self.game.key(state)
        chance = self._chances_them.get(key)
        if chance is None:
            _, children, _ = self._class(state, key)
            chance = sum(self._chance_to_move(child) for child in children.values()) / len(children)
            self._chances_them[key] = chance
        return chance
