"""The game tree below a position, one level at a time, with what alpha-beta had to look at.

It works on every board of the catalogue. On a solved board (3×3, 4×4, 5×5) every value is exact.
On the others a value is shown only where ``analyze`` proved it, every other move is "unclear", and
the moves the top level's search prefers are marked as its preference, never as a proof. Each opened
node there also carries the search's view (how many moves ahead it looked, how many positions it
weighed) and each of its moves the search's figure, shown as an estimate.

A node is named by its path: the cells played from the root to reach it, so ``(4, 0)`` is
X in the centre and then O in the top-left corner. Every value is worked out by the solver
and told from the side that just moved; the tone (win, draw or loss) is always from the root's
side to move, so the colours on one page keep one point of view.

>>> tree = explore("XX.OO....")  # X X . / O O . / . . .
>>> {child.move: child.value.words for child in tree.root.children}
{2: 'X has won', 5: 'Draw with best play', 6: 'O wins next move', 7: 'O wins next move', 8: 'O wins next move'}
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from webapp import solver
from webapp.engine.boards import BY_KEY, Board, board_for, position
from webapp.engine.rules import IllegalMoveError, InvalidMoveError, Position, cell_name, other
from webapp.learn.numbers import tree_size
from webapp.learn.squares import spot
from webapp.solver import GAME, Counter, alphabeta, analyze, search_view

if TYPE_CHECKING:
    from webapp.solver import View

# Short enough for a card a few centimetres wide on a phone.
# Counting what plain minimax and alpha-beta visit is affordable up to this many empty squares (the
# whole of 3×3); beyond it the page says the tree is too big to count on request.
COUNT_EMPTIES = 9
# Each opened level costs one analysis: on a solved board a lookup or a short solve, on the others a
# search under a time limit. This bounds the work one request can ask for.
MOST_OPEN = {True: 9, False: 3}
# The sentence on what the search saw names this many preferred moves at most, and otherwise points to their cards.
MOST_NAMED = 3


class InvalidPathError(ValueError):
    """The path does not name a node of the tree: not cells, or not moves that can be played."""


@dataclass(frozen=True, slots=True)
class Value:
    """How the game ends under perfect play from a node, in words and in one tone."""

    winner: str | None  # "X", "O", or None for a draw (or when unclear)
    moves_left: int | None  # moves still to play from the node's board until the game ends (None: unclear)
    tone: str  # "win", "draw" or "loss" for the root's side to move: the colour; "unclear" if not proved

    @property
    def is_proved(self) -> bool:
        return self.tone != "unclear"

    @property
    def headline(self) -> str:
        if not self.is_proved:
            return "Unclear"
        if self.winner is None:
            return "Draw"
        return f"{self.winner} has won" if self.moves_left == 0 else f"{self.winner} wins"

    @property
    def detail(self) -> str:
        if not self.is_proved or self.moves_left is None:
            return "not proved"
        if self.moves_left == 0:
            return "board full" if self.winner is None else ""
        if self.winner is None:
            return "with best play"
        if self.moves_left == 1:
            return "next move"
        # Moves of both sides are counted; the winner's own share says how close the win is.
        return f"in {self.moves_left} moves, {(self.moves_left + 1) // 2} by {self.winner}"

    @property
    def words(self) -> str:
        if not self.detail:
            return self.headline
        return f"{self.headline}{', ' if self.moves_left == 0 else ' '}{self.detail}"


@dataclass(frozen=True, slots=True)
class SearchFigure:
    """The search's figure for one move, from the side that plays it: a judgement, never a proof."""

    side: str  # the side that plays the move, whose point of view the figure takes
    figure: int | None  # None: the search did not weigh this move
    exact: bool  # False: the search only learned that the move is no better than ``figure``

    @property
    def words(self) -> str:
        """The figure as the card shows it, such as "+120", "at most −40" or "a win"."""
        if self.figure is None:
            return "not weighed"
        if self.figure < -solver.MATE_BOUND:
            return "a loss"  # no better than a loss is a loss
        found = (
            "a win"
            if self.figure > solver.MATE_BOUND
            else f"{'−' if self.figure < 0 else '+' if self.figure else ''}{abs(self.figure):,}"
        )
        return found if self.exact else f"at most {found}"


@dataclass(frozen=True, slots=True)
class Node:
    """One position in the tree; ``children`` is None while the node is folded."""

    board: str
    path: tuple[int, ...]
    value: Value
    is_over: bool
    pruned: bool  # alpha-beta from the root never reached this node
    children: tuple[Node, ...] | None = None
    preferred: bool = False  # on a board that is not solved: among the moves the top level's search chooses
    unshown: int = 0  # on a board that is not solved: the unclear moves left out of ``children``
    search: View | None = None  # on a board that is not solved, once opened: what the search made of it
    estimate: SearchFigure | None = None  # on a board that is not solved: the search's figure for this move
    # On a board that is not solved: the moves proved to lose, left out of ``children`` (on 15×15 there can be
    # two hundred of them, a page of half a megabyte on a phone) unless the search prefers one or the path goes on.
    lost: int = 0

    @property
    def n(self) -> int:
        return board_for(self.board).n

    @property
    def move(self) -> int | None:
        """The cell played to reach this node (None at the root)."""
        return self.path[-1] if self.path else None

    @property
    def mover(self) -> str | None:
        """The side that played that move."""
        return None if self.move is None else self.board[self.move]

    @property
    def spot(self) -> str:
        """The move in a few words, such as "X top-left"."""
        if self.move is None:
            return ""
        return f"{self.mover} {spot(self.move, self.n)}"

    @property
    def label(self) -> str:
        """The move as a screen reader would say it."""
        return "" if self.move is None else f"{self.mover} in {cell_name(self.move, self.n).lower()}"

    @property
    def path_text(self) -> str:
        """The path as written in a URL, such as "4.0"."""
        return format_path(self.path)

    @property
    def description(self) -> str:
        """The marks on the board in words, for those who cannot see the drawing."""
        marks = [f"{mark} in {cell_name(cell, self.n).lower()}" for cell, mark in enumerate(self.board) if mark != "."]
        return f"The board has {'; '.join(marks)}." if marks else "The board is empty."

    @property
    def parent_text(self) -> str:
        """The parent's path as written in a URL."""
        return format_path(self.path[:-1])

    @property
    def winning_line(self) -> tuple[int, ...]:
        """The cells of the winning line, if the move into this node won."""
        return position(self.board).winning_line if self.is_over else ()

    @property
    def is_open(self) -> bool:
        return self.children is not None

    @property
    def search_words(self) -> str:
        """What the search made of this node, in a sentence for learners ("" if it was not searched)."""
        return search_words(self.board, self.search) if self.search else ""


@dataclass(frozen=True, slots=True)
class Counts:
    """The nodes each search visits from one root, the root included."""

    minimax: int
    alphabeta: int

    @property
    def ratio(self) -> float:
        """How many times fewer nodes alpha-beta visits."""
        return self.minimax / self.alphabeta


@dataclass(frozen=True, slots=True)
class Tree:
    """The root, opened along ``path``, and the cost of searching below it."""

    root: Node
    path: tuple[int, ...]
    to_move: str
    counts: Counts | None  # None when the tree below the root is too big to count on request
    board: Board

    @property
    def is_exact(self) -> bool:
        return self.board.is_solved()

    @property
    def path_text(self) -> str:
        return format_path(self.path)

    def node(self, path: tuple[int, ...]) -> Node:
        """The node at ``path``; InvalidPathError if it does not lie on an open branch."""
        node = self.root
        for cell in path:
            found = [child for child in node.children or () if child.move == cell]
            if not found:
                raise InvalidPathError(f"The path {format_path(path)} does not lie on an open branch of this tree.")
            node = found[0]
        return node


def format_path(path: tuple[int, ...]) -> str:
    """A path as text, cells separated by dots.

    >>> format_path((4, 0))
    '4.0'
    """
    return ".".join(str(cell) for cell in path)


def parse_path(text: str, board: Board | None = None) -> tuple[int, ...]:
    """Read a path written as cells separated by dots ("" is the root); raise InvalidPathError.

    >>> parse_path("4.0")
    (4, 0)
    >>> parse_path("15.3", BY_KEY["4x4"])
    (15, 3)
    """
    board = board or BY_KEY["3x3"]
    if text == "":
        return ()
    most = MOST_OPEN[board.is_solved()]
    parts = text.split(".", most)
    last = board.cells - 1
    if len(parts) > most or not all(part.isascii() and part.isdigit() and int(part) <= last for part in parts):
        raise InvalidPathError(
            f"The path {text[:40]!r} should be up to {most} squares 0 to {last} separated by dots, such as 4.0; "
            "to look deeper, explore the position further down."
        )
    return tuple(int(part) for part in parts)


def root_board(text: str | None) -> str:
    """The board a tree request names: a board's key (its empty board, such as "4x4") or the board itself.

    >>> root_board("4x4")
    '................'
    >>> root_board(None)
    '.........'
    """
    if text is None:
        return BY_KEY["3x3"].empty
    found = BY_KEY.get(text)
    return found.empty if found else text


def follow(pos: Position, path: tuple[int, ...]) -> Position:
    """The position after playing ``path`` from ``pos``; raise InvalidPathError if a move cannot be played."""
    for i, cell in enumerate(path, 1):
        try:
            pos = pos.play(cell)
        except (InvalidMoveError, IllegalMoveError) as error:
            raise InvalidPathError(f"Move {i} of the path cannot be played: {error}") from None
    return pos


@lru_cache(maxsize=256)
def _search(board: str) -> tuple[int, frozenset]:
    # No transposition table: with one, a position reached by two paths is searched once,
    # and the visited paths would no longer say which nodes the search had to look at.
    counter, visited = Counter(), set[tuple[int, ...]]()
    alphabeta(GAME, position(board), ordered=True, counter=counter, visited=visited)
    return counter.nodes, frozenset(visited)


def is_countable(board: str) -> bool:
    """Whether the whole tree below ``board`` is small enough to count and search on request."""
    return board.count(".") <= COUNT_EMPTIES


def visited_paths(board: str) -> frozenset:
    """The paths of every node that alpha-beta, best-looking moves first, visits from ``board``."""
    return _search(board)[1] if is_countable(board) else frozenset()


@lru_cache(maxsize=256)
def counts(board: str) -> Counts | None:
    """The nodes plain minimax and alpha-beta with move ordering visit from ``board``; None if too many."""
    if not is_countable(board):
        return None
    return Counts(tree_size(position(board)), _search(board)[0])


def search_words(board: str, view: View) -> str:
    """The search's view of ``board`` in plain words: how far ahead, how many positions, which moves.

    >>> search_words("." * 24 + "X" + "." * 24, solver.View((16,), 4, 1234, "search", ((16, -39), (18, -41))))
    'Hard looked 4 moves ahead (2 by O, 2 by X) and weighed 1,234 positions; it prefers row 3, column 3.'
    """
    side, n = position(board).to_move, board_for(board).n
    them = other(side)
    best = view.best
    cells = (
        " or ".join(spot(cell, n) for cell in best)
        if len(best) <= MOST_NAMED
        else f"the {len(best)} moves marked Hard’s choice"
    )
    weighed = f"{view.nodes:,} position{'' if view.nodes == 1 else 's'}"
    if view.reason == "win":
        return f"{side} wins at once at {cells}, so Hard needs no look-ahead here."
    if view.reason == "block":
        return f"{them} threatens to win at once, so Hard blocks at {cells}, with no look-ahead."
    if view.reason == "lost":
        return f"{them} has two ways to win at once, so every move loses; Hard blocks one, at {cells}."
    if view.reason == "fours":
        return (
            f"Hard found a forced win for {side} by fours, {view.depth} moves long: each four threatens to win at "
            f"once, so {them} must block it. It weighed {weighed}; it plays {cells}."
        )
    if view.reason == "only":
        if set(board) == {"."}:
            k = board_for(board).k
            return (
                f"On an empty board Hard opens in the {cells}, with no look-ahead: no square lies on more of the "
                f"lines where {k} in a row can be made, and it leaves the most room on every side."
            )
        return f"Only one move is worth weighing here, {cells}, so Hard plays it with no look-ahead."
    if view.reason == "unfinished":
        return (
            f"Hard ran out of time before it finished looking 1 move ahead ({weighed}); "
            "it picks among the moves that look strongest at a glance."
        )
    ahead = f"{view.depth} move{'' if view.depth == 1 else 's'} ahead"
    if view.depth > 1:
        ahead += f" ({(view.depth + 1) // 2} by {side}, {view.depth // 2} by {them})"
    return f"Hard looked {ahead} and weighed {weighed}; it prefers {cells}."


def search_figure(view: View | None, side: str, move: int, proved: bool) -> SearchFigure | None:
    """The search's figure for ``move`` played by ``side``; None where the search weighed no move at all,
    or not this one and its value is proved (a page of proved losses need not say each was not weighed)."""
    if view is None or not view.scores:
        return None
    figure = view.score(move)
    if figure is None and proved:
        return None
    return SearchFigure(side, figure, figure is not None and figure == view.top)


# On a board that is not solved, the proved results shown beside the search's choices: a proved loss is
# only counted, unless the search prefers it (every move loses) or the path goes through it.
SHOWN = frozenset({"win", "draw"})


def explore(board: str, path: tuple[int, ...] = (), *, open_last: bool = True) -> Tree:
    """The tree below ``board`` with the root and every node along ``path`` opened one level; the last
    one left closed unless ``open_last`` (folding a branch shows its move, closed, among its siblings)."""
    root = position(board)
    size = board_for(board)
    if len(path) > MOST_OPEN[size.is_solved()]:
        raise InvalidPathError(f"On {size.name} the tree opens at most {MOST_OPEN[size.is_solved()]} moves deep.")
    follow(root, path)
    side = root.to_move
    visited = visited_paths(board)

    def tone(winner: str | None, proved: bool = True) -> str:
        if not proved:
            return "unclear"
        return "draw" if winner is None else "win" if winner == side else "loss"

    def build(pos: Position, node_path: tuple[int, ...], value: Value, preferred=False, guess=None) -> Node:
        children, unshown, lost, view = None, 0, 0, None
        opens = open_last or len(node_path) < len(path)
        if node_path == path[: len(node_path)] and opens and not pos.is_over():
            values = analyze(pos.board)
            # On a board that is not solved, the search's choice is its preference, shown as such, with
            # what it saw. One search per opened node, the very one the top level plays from (remembered).
            view = search_view(pos.board)
            chosen = view.best if view else ()
            followed = path[len(node_path) :][:1]
            kept = [cell for cell in values if size.is_solved() or cell in chosen or (cell,) == followed]
            shown = kept + [cell for cell, (result, _) in values.items() if cell not in kept and result in SHOWN]
            lost = sum(1 for cell, (result, _) in values.items() if cell not in shown and result == "loss")
            unshown = len(values) - len(shown) - lost
            children = tuple(
                # analyze() counts the move into the child; the child's board shows the game after it.
                build(
                    pos.play(cell),
                    (*node_path, cell),
                    _child_value(pos.to_move, values[cell], tone),
                    cell in chosen,
                    search_figure(view, pos.to_move, cell, values[cell][0] != "unclear"),
                )
                for cell in sorted(shown, key=lambda cell: (cell not in chosen, cell))
            )
        pruned = bool(visited) and node_path not in visited
        return Node(pos.board, node_path, value, pos.is_over(), pruned, children, preferred, unshown, view, guess, lost)

    opened = path if open_last else path[:-1]
    return Tree(build(root, (), root_value(root, tone)), opened, side, counts(board), size)


def root_value(root: Position, tone) -> Value:
    """The root's value: its result if the game is over, else the best of its moves as far as that is proved."""
    side = root.to_move
    outcome = root.outcome()
    if outcome is not None:
        return Value(outcome.winner, 0, tone(outcome.winner))
    values = analyze(root.board)
    proved = [(result, plies) for result, plies in values.values() if result != "unclear" and plies is not None]
    wins = [plies for result, plies in proved if result == "win"]
    if wins:
        return _value(side, "win", min(wins), tone)
    if proved and len(proved) == len(values):
        result = "draw" if any(result == "draw" for result, _ in proved) else "loss"
        plies = max(p for r, p in proved if r == result) if result == "loss" else root.board.count(".")
        return _value(side, result, plies, tone)
    return _value(side, "unclear", None, tone)


def _child_value(side: str, found: tuple[str, int | None], tone) -> Value:
    """The Value of the node that a move leads to: ``analyze`` counts the move itself, the node does not."""
    result, plies = found
    return _value(side, result, None if plies is None else plies - 1, tone)


def _value(side: str, result: str, plies: int | None, tone) -> Value:
    """The Value of a node where ``side`` gets ``result`` with ``plies`` left to play."""
    if result == "unclear":
        return Value(None, None, tone(None, proved=False))
    winner = None if result == "draw" else side if result == "win" else other(side)
    return Value(winner, plies, tone(winner))
