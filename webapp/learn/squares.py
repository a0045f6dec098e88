"""Names of squares in words, one way everywhere: the move list, the status line, the hints, the review and the tree.

>>> spot(0), place(0), where(0), where(112, 15)
('top-left', 'the top-left corner', 'the top-left corner', 'the centre')
"""

from __future__ import annotations

from webapp.engine.rules import cell_name

# From this size on (7×7, 15×15) a square off the corners and the centre is named by its row and column alone:
# "the top edge" says little among thirteen squares, and the row says it already.
BIG = 7


def spot(cell: int, n: int = 3) -> str:
    """A square in a word or two, for the move list: "top-left", "top", "centre".

    >>> [spot(cell) for cell in (0, 1, 4, 8)]
    ['top-left', 'top', 'centre', 'bottom-right']
    >>> spot(1, 4), spot(4, 15)
    ('top edge, row 1, column 2', 'row 1, column 5')
    """
    row, col = divmod(cell, n)
    vertical = "top" if row == 0 else "bottom" if row == n - 1 else ""
    horizontal = "left" if col == 0 else "right" if col == n - 1 else ""
    if vertical and horizontal:
        return f"{vertical}-{horizontal}"
    if n % 2 and row == col == n // 2:
        return "centre"
    if (vertical or horizontal) and n < BIG:
        # On a bigger board an edge has several squares, so say which one.
        return (vertical or horizontal) if n == 3 else f"{vertical or horizontal} edge, {cell_name(cell, n).lower()}"
    return cell_name(cell, n).lower()


def place(cell: int, n: int = 3) -> str:
    """A square as a sentence names it: "the top-left corner", "the top edge", "the centre".

    >>> [place(cell) for cell in (0, 1, 4)]
    ['the top-left corner', 'the top edge', 'the centre']
    """
    row, col = divmod(cell, n)
    name = spot(cell, n)
    if row in (0, n - 1) and col in (0, n - 1):
        return f"the {name} corner"
    if (row in (0, n - 1) or col in (0, n - 1)) and n < BIG:
        return f"the {name} edge" if n == 3 else f"the {name}"
    return "the centre" if name == "centre" else name


def capitalised(text: str) -> str:
    """``text`` with its first letter made a capital, as a sentence begins.

    >>> capitalised("the centre")
    'The centre'
    """
    return text[:1].upper() + text[1:]


def places(cells: tuple[int, ...], n: int = 3) -> str:
    """Several squares in a few words: "any corner", or their places joined by "or".

    >>> places((0, 2, 6, 8))
    'any corner'
    >>> places((1, 4))
    'the top edge or the centre'
    """
    corners = {0, n - 1, n * (n - 1), n * n - 1}
    edges = {cell for cell in range(n * n) if cell // n in (0, n - 1) or cell % n in (0, n - 1)} - corners
    if set(cells) == corners:
        return "any corner"
    if set(cells) == edges:
        return "any edge"
    names = [place(cell, n) for cell in cells]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def where(cell: int, n: int = 3) -> str:
    """A square as the status line and the hint name it: by its place on 3×3, at a corner and in the
    centre, else by its row and column, shorter than "the bottom edge, row 15, column 14", to fit a phone.

    >>> where(4), where(0, 15), where(223, 15)
    ('the centre', 'the top-left corner', 'row 15, column 14')
    """
    row, col = divmod(cell, n)
    if n == 3 or (row in (0, n - 1) and col in (0, n - 1)) or (n % 2 and row == col == n // 2):
        return place(cell, n)
    return cell_name(cell, n).lower()
