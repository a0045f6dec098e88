"""Positions and helpers the engine's tests share: big boards, budgets and checks, and small boards' samples."""

import random

from support import stones

from webapp.engine.big import evaluation
from webapp.engine.big.board import Gomoku
from webapp.engine.big.budget import Budget, Meter
from webapp.engine.big.lines import (
    DIRECTIONS,
    DOUBLE_W,
    FIVE,
    FIVE_W,
    FOUR,
    FOUR_W,
    OPEN_FOUR,
    OPEN_THREE,
    OPEN_TWO,
    SHIFT,
    THREE,
    THREE_W,
    TWO,
    WEIGHTS,
    _shape,
    window_of,
)
from webapp.engine.big.threats import ThreatSearch
from webapp.engine.boards import position
from webapp.engine.rules import EMPTY, Position, parse

# --- the big boards: 7×7 and 15×15, five in a row ------------------------------------------------


# Node budgets keep every result here independent of the machine's speed.
QUICK = Budget(nodes=3000)


def grid(n: int, *rows: str) -> str:
    """A board of n×n cells from its top rows, each padded with empty cells; the rest is empty."""
    return "".join(row.ljust(n, EMPTY) for row in rows).ljust(n * n, EMPTY)


# X to move on 15×15 after the centre and O's reply beside it: a quiet position, searched for real.
QUIET_15 = grid(15, "", "", "", "", "", "", "", ".......X", ".......O")


def shape(board: str) -> tuple[int, int]:
    """The (n, k) of a big board, from its length: 7×7 or 15×15, five in a row."""
    return (7, 5) if len(board) == 49 else (15, 5)


def game_of(board: str) -> Gomoku:
    """The Gomoku board of a big board's text."""
    return Gomoku.from_text(board, *shape(board))


def find(game: Gomoku, side: str):
    """A strong threat search, for the checks: three threes, many nodes."""
    return ThreatSearch(game, side, Meter(nodes=300_000)).vct(3)


# X to move in each, with a line of its own to complete and one of O's to block.
IMMEDIATE_WINS = [
    (grid(7, ".XXXX..", "OOOO..."), {0, 5}),
    (grid(15, "", "", "....X", "....X", "....X", "....X", "", "OOOO"), {19, 94}),
    (grid(15, "", "......X", ".......X", "", ".........X", "..........X", "OOOO"), {53}),
]

# X to move: the four at (7, 7) forces O to (7, 8), then (6, 7) or (10, 7) is an open four: five plies.
VCF = grid(
    15, "O.............O", "", "", "", "", "", "", "...OXXX", ".......X", ".......X", "", "", "", "", "O...........O"
)

# The four corners of 15×15, where O's stones stay out of the way of X's threats.
CORNERS = [(0, 0), (0, 14), (14, 0), (14, 14)]

# X to move on 15×15. (7, 8) makes a four on row 7 (closed by O at (7, 4)) and an open three in column 8:
# O must block the four at (7, 9), and X makes an open four in column 8.
FOUR_THREE = stones(15, x=[(7, 5), (7, 6), (7, 7), (5, 8), (6, 8)], o=[(7, 4), *CORNERS])

# X to move on 15×15. (7, 8) makes two open threes, on row 7 and in column 8: O can block only one.
DOUBLE_THREE = stones(15, x=[(7, 6), (7, 7), (5, 8), (6, 8)], o=CORNERS)


def random_positions(n: int, seed: int, count: int):
    """Positions from games of plausible moves (random among the best-looking few), none finished."""
    rng = random.Random(seed)
    for _ in range(count):
        g = Gomoku(n, 5)
        for _ in range(rng.randrange(1, min(n * n // 2, 40))):
            if g.wins():
                break
            # The threat weights' ordering (``ranked``), not the fitted one: the positions stay those the tests were
            # written with whatever the fit.
            g.play(rng.choice(g.ranked(list(g.candidates), g.mover, limit=6) if g.candidates else [g.lay.centre]))
        yield parse(g.text, n, 5)


# O to move on 7×7 after X took the centre and O and X one move each: a quiet position, searched for real.
QUIET_7 = grid(7, "", "", "...O", "...X", "....X")

# 7×7 middlegames: quiet, with threes about, and with fours to make and to answer.
MIDDLEGAMES = [
    grid(7, "", "", "..X", "..OX", "...O", "", ""),
    grid(7, "", ".O", "..XX", "..XO", "...O", "", ""),
    grid(7, "", "..O", ".XXX.", "..O", "..O", "", ""),
    grid(7, "O", ".X", "..X", "..OX", "O....", "", ""),
]

# The big boards, (n, k): the Gomoku board and its layout are checked on both.
BIG = [(7, 5), (15, 5)]


def random_game(n: int, k: int, rng: random.Random, stones: int) -> Gomoku:
    """A game of ``stones`` random moves near the stones already played, stopped before anyone wins."""
    g = Gomoku(n, k)
    for _ in range(stones):
        if g.wins() or g.full():
            break
        g.play(rng.choice(g.ranked(list(g.candidates), g.mover)) if g.candidates else g.lay.centre)
    return g


def reference_window(text: str, n: int, k: int, cell: int, d: int) -> str:
    """The 2k-1 cells of the line through ``cell`` along direction ``d``, read off the board text ('#' off it)."""
    r0, c0 = divmod(cell, n)
    dr, dc = DIRECTIONS[d]
    out = []
    for s in range(-(k - 1), k):
        r, c = r0 + dr * s, c0 + dc * s
        out.append(text[r * n + c] if 0 <= r < n and 0 <= c < n else "#")
    return "".join(out)


def reference_shape(window: str, mark: str, k: int) -> int:
    """The shape a stone of ``mark`` at the window's centre makes, with the other side and the edge blocking."""
    them = "O" if mark == "X" else "X"
    seen = window.replace(them, "#").replace(mark, "X").replace("#", "O")
    return _shape(seen[: k - 1] + "X" + seen[k:], k)


def reference_pattern(window: str, mark: str, k: int) -> str | None:
    """The line pattern a stone of ``mark`` at the window's centre makes, by its name in evaluation.FEATURES."""
    shape = reference_shape(window, mark, k)
    if shape == OPEN_THREE:
        after = window[: k - 1] + mark + window[k:]
        ways = [
            i
            for i, c in enumerate(after)
            if c == EMPTY and reference_shape(after[:i] + mark + after[i + 1 :], mark, k) == OPEN_FOUR
        ]
        return "open_three" if len(ways) == 2 else "split_three"
    names = {FIVE: "five", OPEN_FOUR: "open_four", FOUR: "four", THREE: "three", OPEN_TWO: "open_two", TWO: "two"}
    return names.get(shape)


def reference_evaluation(g: Gomoku) -> int:
    """The fitted evaluation for the side to move, every feature counted from the board's text."""
    n, k, text = g.n, g.k, g.text
    counts = {side: dict.fromkeys(evaluation.FEATURES, 0) for side in "XO"}
    for cell in range(n * n):
        if text[cell] != EMPTY:
            continue
        for side in "XO":
            shapes = [reference_shape(reference_window(text, n, k, cell, d), side, k) for d in range(4)]
            for d in range(4):
                found = reference_pattern(reference_window(text, n, k, cell, d), side, k)
                if found:
                    counts[side][found] += 1
            fours, threes = sum(s in (FOUR, OPEN_FOUR) for s in shapes), shapes.count(OPEN_THREE)
            if OPEN_FOUR not in shapes and FIVE not in shapes:
                counts[side]["four_three"] += fours == 1 and threes >= 1
                counts[side]["three_three"] += fours == 0 and threes >= 2
    them = "O" if g.mover == "X" else "X"
    fitted = evaluation.FITTED
    return fitted.constant + sum(
        fitted.mover[i] * counts[g.mover][name] + fitted.other[i] * counts[them][name]
        for i, name in enumerate(evaluation.FEATURES)
    )


def check_against_a_full_scan(g: Gomoku) -> None:
    """Every window, weight and threat sum as a scan of the board text from scratch finds them."""
    n, k, text = g.n, g.k, g.text
    total = 0
    for cell in range(n * n):
        cell_sum = threat_sum = 0
        for d in range(4):
            window = reference_window(text, n, k, cell, d)
            assert window_of(g.window(cell, d), k) == window[: k - 1] + text[cell] + window[k:]
            if text[cell] == EMPTY:
                x, o = (WEIGHTS[reference_shape(window, mark, k)] for mark in "XO")
                cell_sum += x | o << SHIFT
                threat_sum += (x if x >= THREE_W else 0) | (o if o >= THREE_W else 0) << SHIFT
                assert (g.shape(cell, d, "X"), g.shape(cell, d, "O")) == tuple(
                    reference_shape(window, mark, k) for mark in "XO"
                )
        if text[cell] == EMPTY:
            assert g.weights(cell) == cell_sum
        assert g.threat[cell] == threat_sum, (text, cell)
        total += cell_sum
    assert g.total == total
    assert g.evaluate() == reference_evaluation(g)
    stones = [c for c in range(n * n) if text[c] != EMPTY]
    near = {c for c in range(n * n) if any(max(abs(c // n - t // n), abs(c % n - t % n)) <= 2 for t in stones)}
    assert g.candidates == {c for c in near if text[c] == EMPTY}
    assert g.occupied == set(stones)
    hot = {c for c in range(n * n) if text[c] == EMPTY and max(g.worth(c, "X"), g.worth(c, "O")) >= THREE_W}
    assert g.hot == hot and hot <= g.candidates
    fours = {c for c in hot if max(g.worth(c, "X"), g.worth(c, "O")) >= FOUR_W}
    assert g.fours == fours == {c for c in range(n * n) if g.four_lines[c]}
    fives = {c for c in fours if max(g.worth(c, "X"), g.worth(c, "O")) >= FIVE_W}
    assert g.fives == fives == {c for c in range(n * n) if g.five_lines[c]}
    # The threat weights alone cross every threshold the threat scans read where the weights in full do.
    for c in hot:
        for mark in "XO":
            for bar in (THREE_W, FOUR_W, DOUBLE_W, FIVE_W):
                assert (g.threat_worth(c, mark) >= bar) == (g.worth(c, mark) >= bar), (text, c, mark, bar)


# --- 4×4 and 5×5, four in a row: the plain negamax the exact engine is held against --------------


def random_position(rng: random.Random, empty: str, plies: int) -> Position | None:
    """A position after ``plies`` random moves from ``empty``, or None if the game ended on the way."""
    pos = position(empty)
    for _ in range(plies):
        pos = pos.play(rng.choice(pos.legal_moves()))
        if pos.is_over():
            return None
    return pos


def sample(seed: int, empty: str, plies: range, count: int) -> list[Position]:
    """``count`` unfinished positions of random games from ``empty``, each of a length drawn from ``plies``."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        pos = random_position(rng, empty, rng.choice(plies))
        if pos is not None:
            found.append(pos)
    return found


# X to move: ten moves hold the draw; the tie-break keeps 3 and 9 (exact/test_search.py's test of the narrowing).
TEN_DRAWS = ".....OXXO.O.X..."
