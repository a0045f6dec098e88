"""The 5×5 book: the exact value of every position with at most six marks, solved ahead of time.

The first moves on 5×5 (four in a row) are the exact search's hardest: with two to six marks on the
board one position can take it seconds, too slow for a request. So every such position, whoever
played it and however, is solved once by ``python -m webapp.engine.exact.book`` (``make book``) and shipped
as ``book5x5.bin`` in this package: the ones with six marks by the exact search, the others from
their children (a position's value is the best of its moves', and no game ends before the seventh
mark). With the book, a position with five marks or fewer has every move's exact value at once, and
one with six has its own value, which tells the live search what it must find.

Only values are kept, never a move: a value is a fact about the position, so the file is the same
whatever the search's order or speed, and the build is reproducible.

The file: ``MAGIC``, then n, k, the most marks and the entry count (struct ``HEADER``), then
zlib-compressed the keys (each the least of the position's eight images, X's cells in the low half
and O's in the high half), sorted, as eight-byte little-endian integers laid out byte by byte (the
first byte of every key, then the second, …), and then one signed byte per key: the negamax value for
the side to move.
"""

from __future__ import annotations

import argparse
import struct
import sys
import time
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

from webapp.engine.exact.bitboard import bit_geometry, marks_of
from webapp.engine.exact.parameters import BUILD_TABLE_LIMIT, LOG_EVERY, MARKS, SAVE_EVERY
from webapp.engine.exact.search import ExactSearch
from webapp.engine.rules import EMPTY, O, X

N, K = 5, 4
PATH = Path(__file__).with_name("book5x5.bin")
MAGIC = b"TTTBOOK2"
HEADER = struct.Struct("<BBBI")
KEY_BYTES = 8


def key_of(board: str) -> tuple[int, int]:
    """(the board's symmetry-class key, the symmetry that takes the board to it)."""
    images = bit_geometry(N, K).images(*marks_of(board))
    key = min(images)
    return key, images.index(key)


def canonical_text(key: int) -> str:
    """The board whose X and O cells the key holds."""
    cells = N * N
    return "".join(X if key >> i & 1 else O if key >> (i + cells) & 1 else EMPTY for i in range(cells))


def layers(marks: int = MARKS) -> list[list[int]]:
    """The sorted keys of every position with 0, 1, … ``marks`` marks (X first, turn by turn)."""
    found = [[key_of(EMPTY * (N * N))[0]]]
    for count in range(1, marks + 1):
        mark = X if count % 2 else O
        keys = set()
        for key in found[-1]:
            board = canonical_text(key)
            for cell, ch in enumerate(board):
                if ch == EMPTY:
                    keys.add(key_of(board[:cell] + mark + board[cell + 1 :])[0])
        found.append(sorted(keys))
    return found


def children(board: str) -> Iterator[tuple[int, str]]:
    """(cell, the board after the side to move plays it) for each empty cell of ``board``."""
    mark = X if board.count(X) == board.count(O) else O
    for cell, ch in enumerate(board):
        if ch == EMPTY:
            yield cell, board[:cell] + mark + board[cell + 1 :]


def solver() -> Callable[[str], int]:
    """The exact value of a board, by one search whose table serves every board it is given."""
    return ExactSearch(N, K, table_limit=BUILD_TABLE_LIMIT).exact_value


def build(
    marks: int = MARKS,
    log: Callable[[str], None] | None = None,
    known: dict[int, int] | None = None,
    save: Callable[[dict[int, int]], None] | None = None,
) -> dict[int, int]:
    """Every position's value, key -> value: the last layer by the exact search, the rest from it.

    Values in ``known`` (an earlier build's, or a partial one's) are taken as they are: a value is the
    position's, whatever the build. ``save(values)`` is called after every SAVE_EVERY positions solved, so
    a long build can be taken up again where it stopped; ``log`` hears how far it has got.
    """
    values = dict(known or {})
    keys = layers(marks)
    solve = solver()
    start = time.process_time()
    solved = 0
    for done, key in enumerate(keys[-1], 1):
        if key not in values:
            values[key] = solve(canonical_text(key))
            solved += 1
            if save and solved % SAVE_EVERY == 0:
                save(values)
        if log and done % LOG_EVERY == 0:
            log(f"{done:,} of {len(keys[-1]):,} positions with {marks} marks, {time.process_time() - start:.0f} s")
    # No game is over before the seventh mark, so below the last layer a value is the best of the moves'.
    for layer in reversed(keys[:-1]):
        for key in layer:
            values[key] = max(-values[key_of(after)[0]] for _, after in children(canonical_text(key)))
    return {key: values[key] for layer in keys for key in layer}


def encode(values: dict[int, int], marks: int) -> bytes:
    """The book file's bytes for ``values``."""
    keys = sorted(values)
    packed = array("Q", keys)
    if sys.byteorder == "big":
        packed.byteswap()
    raw = packed.tobytes()
    # Byte j of every key together, then byte j + 1: sorted keys share their high bytes, so this packs well.
    columns = b"".join(raw[j::KEY_BYTES] for j in range(KEY_BYTES))
    body = columns + bytes(values[key] & 0xFF for key in keys)
    return MAGIC + HEADER.pack(N, K, marks, len(keys)) + zlib.compress(body, 9)


class Book:
    """The decoded book: sorted keys, and each key's value, held compactly (about 9 bytes a position)."""

    def __init__(self, marks: int, keys: array[int], values: bytes) -> None:
        self.marks, self.keys, self.values = marks, keys, values

    def __len__(self) -> int:
        return len(self.keys)

    def get(self, key: int) -> int | None:
        """The value stored for ``key``, or None."""
        at = bisect_left(self.keys, key)
        if at == len(self.keys) or self.keys[at] != key:
            return None
        return _signed(self.values[at])

    def items(self) -> Iterator[tuple[int, int]]:
        for key, value in zip(self.keys, self.values, strict=True):
            yield key, _signed(value)


def _signed(value: int) -> int:
    """A stored byte as the signed value it holds."""
    return value - 256 if value > 127 else value


def decode(data: bytes) -> Book:
    """The book in a book file's bytes."""
    if not data.startswith(MAGIC):
        raise ValueError("not a book file")
    n, k, marks, count = HEADER.unpack_from(data, len(MAGIC))
    if (n, k) != (N, K):
        raise ValueError(f"a book for {n}×{n}, k={k}, not {N}×{N}, k={K}")
    body = zlib.decompress(data[len(MAGIC) + HEADER.size :])
    if len(body) != (KEY_BYTES + 1) * count:
        raise ValueError("a damaged book file")
    raw = bytearray(KEY_BYTES * count)
    for j in range(KEY_BYTES):
        raw[j::KEY_BYTES] = body[j * count : (j + 1) * count]
    keys = array("Q")
    keys.frombytes(bytes(raw))
    if sys.byteorder == "big":
        keys.byteswap()
    return Book(marks, keys, body[KEY_BYTES * count :])


@cache
def load() -> Book:
    """The shipped book, read once per process; an empty one if the file is missing."""
    if not PATH.exists():
        return Book(0, array("Q"), b"")
    return decode(PATH.read_bytes())


def value(board: str) -> int | None:
    """The exact value of ``board`` (a valid, unfinished board) for the side to move, if the book holds it.

    >>> value("." * 25)  # the empty 5×5 board is a draw
    0
    """
    if len(board) != N * N or board.count(EMPTY) < N * N - MARKS:
        return None
    return load().get(key_of(board)[0])


def main(argv: list[str] | None = None) -> int:
    """Build the book and write it to the package (``make book``)."""
    parser = argparse.ArgumentParser(prog="python -m webapp.engine.exact.book", description=main.__doc__)
    # Up to six: no game is over before the seventh mark, which the values below the last layer rely on.
    parser.add_argument(
        "--marks", type=int, default=MARKS, choices=range(1, 7), help="every position with at most this many marks"
    )
    parser.add_argument("--out", type=Path, default=PATH)
    parser.add_argument("--fresh", action="store_true", help="solve every position again, not only the new ones")
    args = parser.parse_args(argv)
    start = time.process_time()
    # Values solved so far are kept beside the book, so an interrupted build goes on where it stopped.
    partial = args.out.with_suffix(".partial")
    known: dict[int, int] = {}
    if not args.fresh:
        for path in (args.out, partial):
            if path.exists():
                try:
                    known |= dict(decode(path.read_bytes()).items())
                except ValueError as error:
                    print(f"not reusing {path}: {error}", file=sys.stderr)
    values = build(
        args.marks,
        log=lambda line: print(line, file=sys.stderr, flush=True),
        known=known,
        save=lambda so_far: partial.write_bytes(encode(so_far, 0)),
    )
    data = encode(values, args.marks)
    args.out.write_bytes(data)
    partial.unlink(missing_ok=True)
    print(f"{len(values):,} positions, {len(data):,} bytes, {time.process_time() - start:.0f} s of CPU: {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
