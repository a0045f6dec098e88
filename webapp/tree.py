"""The game tree below a position, one level at a time, with what alpha-beta had to look at.

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

from webapp.engine.levels import GAME, analyze, outlook
from webapp.engine.rules import IllegalMoveError, InvalidMoveError, Position, cell_name, other, parse
from webapp.engine.search import Counter, alphabeta
from webapp.stats import tree_size

# Short enough for a card a few centimetres wide on a phone.
SPOTS = ("top left", "top", "top right", "left", "centre", "right", "bottom left", "bottom", "bottom right")


class InvalidPathError(ValueError):
    """The path does not name a node of the tree: not cells, or not moves that can be played."""


@dataclass(frozen=True, slots=True)
class Value:
    """How the game ends under perfect play from a node, in words and in one tone."""

    winner: str | None  # "X", "O", or None for a draw
    moves_left: int  # moves still to play from the node's board until the game ends
    tone: str  # "win", "draw" or "loss" for the root's side to move: the colour

    @property
    def headline(self) -> str:
        if self.winner is None:
            return "Draw"
        return f"{self.winner} has won" if self.moves_left == 0 else f"{self.winner} wins"

    @property
    def detail(self) -> str:
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
class Node:
    """One position in the tree; ``children`` is None while the node is folded."""

    board: str
    path: tuple[int, ...]
    value: Value
    is_over: bool
    pruned: bool  # alpha-beta from the root never reached this node
    children: tuple[Node, ...] | None = None

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
        """The move in a few words, such as "X top left"."""
        return "" if self.move is None else f"{self.mover} {SPOTS[self.move]}"

    @property
    def label(self) -> str:
        """The move as a screen reader would say it."""
        return "" if self.move is None else f"{self.mover} in {cell_name(self.move).lower()}"

    @property
    def path_text(self) -> str:
        """The path as written in a URL, such as "4.0"."""
        return format_path(self.path)

    @property
    def description(self) -> str:
        """The marks on the board in words, for those who cannot see the drawing."""
        marks = [f"{mark} in {cell_name(cell).lower()}" for cell, mark in enumerate(self.board) if mark != "."]
        return f"The board has {'; '.join(marks)}." if marks else "The board is empty."

    @property
    def parent_text(self) -> str:
        """The parent's path as written in a URL."""
        return format_path(self.path[:-1])

    @property
    def winning_line(self) -> tuple[int, ...]:
        """The cells of the winning line, if the move into this node won."""
        return parse(self.board).winning_line if self.is_over else ()

    @property
    def is_open(self) -> bool:
        return self.children is not None


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
    counts: Counts

    @property
    def path_text(self) -> str:
        return format_path(self.path)

    def node(self, path: tuple[int, ...]) -> Node:
        """The node at ``path``, which must lie on an open branch."""
        node = self.root
        for cell in path:
            node = next(child for child in node.children if child.move == cell)
        return node


def format_path(path: tuple[int, ...]) -> str:
    """A path as text, cells separated by dots.

    >>> format_path((4, 0))
    '4.0'
    """
    return ".".join(str(cell) for cell in path)


def parse_path(text: str) -> tuple[int, ...]:
    """Read a path written as cells separated by dots ("" is the root); raise InvalidPathError.

    >>> parse_path("4.0")
    (4, 0)
    """
    if text == "":
        return ()
    parts = text.split(".")
    if len(parts) > 9 or not all(len(part) == 1 and part in "012345678" for part in parts):
        raise InvalidPathError(f"The path {text[:40]!r} should be cells 0 to 8 separated by dots, such as 4.0.")
    return tuple(int(part) for part in parts)


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
    counter, visited = Counter(), set()
    alphabeta(GAME, parse(board), ordered=True, counter=counter, visited=visited)
    return counter.nodes, frozenset(visited)


def visited_paths(board: str) -> frozenset:
    """The paths of every node that alpha-beta, best-looking moves first, visits from ``board``."""
    return _search(board)[1]


def counts(board: str) -> Counts:
    """The nodes plain minimax and alpha-beta with move ordering visit from ``board``."""
    return Counts(tree_size(parse(board)), _search(board)[0])


def explore(board: str, path: tuple[int, ...] = ()) -> Tree:
    """The tree below ``board`` with the root and every node along ``path`` opened one level."""
    root = parse(board)
    follow(root, path)
    side = root.to_move
    visited = visited_paths(board)

    def tone(winner: str | None) -> str:
        return "draw" if winner is None else "win" if winner == side else "loss"

    def build(pos: Position, node_path: tuple[int, ...], value: Value) -> Node:
        children = None
        if node_path == path[: len(node_path)] and not pos.is_over():
            children = tuple(
                # analyze() counts the move into the child; the child's board shows the game after it.
                build(pos.play(cell), (*node_path, cell), _value(pos.to_move, result, plies - 1, tone))
                for cell, (result, plies) in analyze(pos.board).items()
            )
        return Node(pos.board, node_path, value, pos.is_over(), node_path not in visited, children)

    return Tree(build(root, (), _value(side, *outlook(root), tone)), path, side, counts(board))


def _value(side: str, result: str, plies: int, tone) -> Value:
    """The Value of a node where ``side`` gets ``result`` with ``plies`` left to play."""
    winner = None if result == "draw" else side if result == "win" else other(side)
    return Value(winner, plies, tone(winner))
