"""Every tunable of the engine lives in a ``parameters.py``: a number written anywhere else in ``webapp/engine/`` is
either 0, 1, -1 or 2, or one of the structural uses listed here with why it is not a choice to tune."""

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "webapp" / "engine"
# Counts, signs and halves: what every loop and comparison writes.
PLAIN = {0, 1, -1, 2}
# (module, number): the reason it is structure, not a tunable.
STRUCTURAL: dict[tuple[str, float], str] = {
    ("answers.py", 10): "MATE = 10**9: a win's value, beyond any evaluation",
    ("answers.py", 9): "MATE = 10**9",
    ("answers.py", 10_000): "MATE_BOUND: wins within this many plies are still wins",
    ("big/alphabeta.py", 3): "a double to make wins in 3 plies",
    ("big/alphabeta.py", 4): "a double in the making with no answer wins in 4 plies",
    ("big/alphabeta.py", 5): "two open threes win in 5 plies",
    ("big/__init__.py", 3): "the checkout's root, three directories above the package",
    ("big/threats.py", 3): "a table entry's field index",
    ("big/threats.py", 4): "any reply but the block loses in 4 plies",
    ("big/board.py", 3): "a line entry's field index (its fours), and the third 16-bit count field",
    ("big/board.py", 4): "a cell-info field index (X's weight)",
    ("big/board.py", 5): "a cell-info field index (O's weight)",
    ("big/board.py", 6): "a cell-info field index (X's value)",
    ("big/board.py", 7): "a cell-info field index (O's value)",
    ("big/board.py", 10): "an ordering key's cell field: 10 bits",
    ("big/board.py", 16): "a count field's bits",
    ("big/board.py", 20): "an ordering key's weight field: 20 bits",
    ("big/board.py", 40): "an ordering key's offset above any change",
    ("big/board.py", 1023): "the cell field's mask (10 bits)",
    ("big/lines.py", 3): "a cell's 2-bit code mask; a shape for two ways",
    ("big/lines.py", 4): "four directions; four codes a cell; a shape for one way",
    ("big/lines.py", 5): "a pattern's index",
    ("big/lines.py", 6): "a pattern's index",
    ("big/lines.py", 7): "a pattern's index",
    ("big/lines.py", 9): "the nine line shapes",
    ("big/lines.py", 32): "X's and O's weights packed in one integer: the shift",
    ("big/lines.py", 64): "64-bit Zobrist keys",
    ("big/facts.py", 4): "four directions",
    ("big/facts.py", 5): "five in a row",
    ("big/evaluation.py", 1000): "SCALE: the engine's unit, thousandths of a logit",
    ("big/evaluation.py", 50.0): "the logistic's argument clamped where it is 0 or 1 in a float",
    ("big/evaluation.py", -50.0): "the logistic's argument clamped where it is 0 or 1 in a float",
    ("boards.py", 3): "the catalogue's sizes and lines",
    ("boards.py", 4): "the catalogue's sizes and lines",
    ("boards.py", 5): "the catalogue's sizes and lines",
    ("boards.py", 7): "the catalogue's sizes and lines",
    ("boards.py", 15): "the catalogue's sizes and lines",
    ("rules.py", 3): "tic-tac-toe's size and line, the defaults",
    ("levels.py", 100): "WIN: terminal values above any static one",
    ("levels.py", 8): "bits in a byte",
    ("levels.py", 32): "a packed state's integer width",
    ("levels.py", 64): "a packed state's integer width",
    ("search.py", 9): "digits a chance is rounded to, so that float noise ties",
    ("exact/bitboard.py", 8): "the square's eight symmetries",
    ("exact/book.py", 4): "the book's board: 5×5, four in a row",
    ("exact/book.py", 5): "the book's board: 5×5, four in a row",
    ("exact/book.py", 7): "the builder's --marks choices",
    ("exact/book.py", 8): "bytes in a key",
    ("exact/book.py", 9): "zlib's best compression",
    ("exact/book.py", 127): "a signed byte",
    ("exact/book.py", 255): "a byte's mask",
    ("exact/book.py", 256): "a signed byte",
    ("exact/negamax.py", 100): "WIN: the same scale as levels.WIN",
    ("exact/negamax.py", 10): "INF = 10**6",
    ("exact/negamax.py", 6): "INF = 10**6",
    ("exact/negamax.py", 128): "a bound's bias into a byte",
    ("exact/negamax.py", 255): "a byte's mask",
    ("exact/negamax.py", 8): "a packed entry's byte shift",
    ("exact/negamax.py", 16): "a packed entry's byte shift",
    ("exact/negamax.py", 3): "the fastest win takes 3 more marks",
    ("exact/negamax.py", 4): "the fastest loss takes 4 more marks",
    ("exact/negamax.py", 99): "a sentinel above any count",
}


def numbers(path: Path) -> list[tuple[float, int]]:
    """Each int or float written in ``path`` (a minus sign folded in), with its line; docstrings are strings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    negated = {
        id(node.operand)
        for node in ast.walk(tree)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            found.append((-node.value if id(node) in negated else node.value, node.lineno))
    return found


def test_every_tunable_lives_in_a_parameters_module():
    stray = [
        f"webapp/engine/{path.relative_to(ENGINE).as_posix()}:{line}: {value}"
        for path in sorted(ENGINE.rglob("*.py"))
        if path.name != "parameters.py"
        for value, line in numbers(path)
        if value not in PLAIN and (path.relative_to(ENGINE).as_posix(), value) not in STRUCTURAL
    ]
    assert not stray, "a number outside parameters.py: move it there with its reason, or list it here as structure"


def test_the_walk_sees_a_new_number(tmp_path: Path):
    module = tmp_path / "hard.py"
    module.write_text('"""Docs: 0.75 s."""\nLIMIT = -0.02\nx = y // 3\n', encoding="utf-8")
    assert [value for value, _ in numbers(module)] == [-0.02, 3]
