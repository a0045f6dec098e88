"""The 5×5 opening book: Impossible's first moves, solved ahead of time by the exact search.

The first moves on 5×5 (four in a row) take the exact search from a minute (the empty board) down
to seconds, too slow for a request, so they are solved once by ``python -m webapp.engine.book``
(``make book``) and shipped as ``book5x5.bin`` in this package. The book holds every position
Impossible can face with fewer than ``depth`` moves played, whichever side it plays and whatever
its opponent does, up to rotation and reflection: for each, the moves Impossible picks among and
each move's exact value (or "not proved" where the builder's budget for that move ran out).

The file: ``MAGIC``, then n, k, depth and the entry count (one byte each but the count, two),
then the entries zlib-compressed, sorted by key. An entry is the position's key (the least of its
eight images, X's cells in the low half and O's in the high half; 7 bytes), the candidates as a
cell mask (4 bytes) and one signed byte per cell: the move's negamax value, OCCUPIED or UNPROVED;
all in the frame of the key.
"""

from __future__ import annotations

import argparse
import struct
import sys
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from webapp.engine.bitboard import bit_geometry, marks_of
from webapp.engine.exact import ExactSearch
from webapp.engine.rules import EMPTY, O, X

N, K = 5, 4
PATH = Path(__file__).with_name("book5x5.bin")
MAGIC = b"TTTBOOK1"
DEPTH = 6  # past six moves every position tried is solved live within the budget (docs/benchmarks.md)
OCCUPIED, UNPROVED = -128, 127
KEY_BYTES = 7
# What the builder may spend, in nodes: on the moves beyond the first best one (the tie-break), and
# on the exact value of each move for the analysis.
EXTRA_NODES = 50_000
VALUE_NODES = 100_000
# The builder's table is emptied past this many positions, so it fits in memory (about 300 MB).
BUILD_TABLE_LIMIT = 2_000_000


@dataclass(frozen=True, slots=True)
class Entry:
    """What the book knows of one position, in that position's own frame."""

    candidates: tuple[int, ...]
    values: dict[int, int | None]


def key_of(board: str) -> tuple[int, int]:
    """(the board's symmetry-class key, the symmetry that takes the board to it)."""
    images = bit_geometry(N, K).images(*marks_of(board))
    key = min(images)
    return key, images.index(key)


def canonical_text(key: int) -> str:
    """The board whose X and O cells the key holds."""
    cells = N * N
    return "".join(X if key >> i & 1 else O if key >> (i + cells) & 1 else EMPTY for i in range(cells))


def solve_entry(board: str) -> tuple[int, bytes]:
    """The book's record of ``board``: its candidates as a mask and each cell's value byte."""
    search = ExactSearch(N, K, table_limit=BUILD_TABLE_LIMIT)
    candidates = search.best_moves(board, extra_nodes=EXTRA_NODES)
    search.max_nodes = VALUE_NODES
    values = search.move_values(board)
    mask = sum(1 << c for c in candidates)
    row = bytes(
        (OCCUPIED if board[c] != EMPTY else UNPROVED if values[c] is None else values[c]) & 0xFF for c in range(N * N)
    )
    return mask, row


def positions(depth: int, moves_of) -> Iterator[str]:
    """Every canonical board Impossible can be to move in with fewer than ``depth`` moves played,
    playing X or O, where ``moves_of(board)`` gives its candidates there (any reply for the other side)."""
    seen: set[tuple[int, str]] = set()

    def walk(board: str, us: str, ply: int) -> Iterator[str]:
        if ply >= depth or _finished(board):
            return
        key, _ = key_of(board)
        if (key, us) in seen:
            return
        seen.add((key, us))
        board = canonical_text(key)
        mark = X if ply % 2 == 0 else O
        if mark == us:
            yield board
            replies = moves_of(board)
        else:
            replies = [c for c, ch in enumerate(board) if ch == EMPTY]
        for cell in replies:
            yield from walk(board[:cell] + mark + board[cell + 1 :], us, ply + 1)

    empty = EMPTY * (N * N)
    for us in (X, O):
        yield from walk(empty, us, 0)


def _finished(board: str) -> bool:
    from webapp.engine.boards import position

    return position(board).is_over()


def build(depth: int = DEPTH, log=None, known: dict | None = None, save=None) -> dict[int, tuple[int, bytes]]:
    """Solve every position of a book of ``depth`` moves; key -> (candidates mask, value bytes).

    Entries in ``known`` (an earlier book's) are taken as they are: an entry does not depend on the depth.
    ``save(entries)`` is called after each entry solved, so a long build can be taken up again.
    """
    known = known or {}
    entries: dict[int, tuple[int, bytes]] = {}

    def moves_of(board: str) -> list[int]:
        key, _ = key_of(board)
        if key in known:
            entries[key] = known[key]
        elif key not in entries:
            start = time.process_time()
            entries[key] = solve_entry(board)
            if log:
                log(f"{len(entries):5} {board} {time.process_time() - start:7.1f} s")
            if save:
                save(entries)
        mask = entries[key][0]
        return [c for c in range(N * N) if mask >> c & 1]

    for _ in positions(depth, moves_of):
        pass
    return entries


def encode(entries: dict[int, tuple[int, bytes]], depth: int) -> bytes:
    """The book file's bytes for ``entries``."""
    body = b"".join(
        key.to_bytes(KEY_BYTES, "little") + struct.pack("<I", mask) + row
        for key, (mask, row) in sorted(entries.items())
    )
    return MAGIC + struct.pack("<BBBH", N, K, depth, len(entries)) + zlib.compress(body, 9)


def decode(data: bytes) -> tuple[int, dict[int, tuple[int, bytes]]]:
    """(depth, entries) from a book file's bytes."""
    if not data.startswith(MAGIC):
        raise ValueError("not a book file")
    n, k, depth, count = struct.unpack_from("<BBBH", data, len(MAGIC))
    if (n, k) != (N, K):
        raise ValueError(f"a book for {n}×{n}, k={k}, not {N}×{N}, k={K}")
    body = zlib.decompress(data[len(MAGIC) + 5 :])
    size = KEY_BYTES + 4 + N * N
    entries = {}
    for at in range(0, count * size, size):
        key = int.from_bytes(body[at : at + KEY_BYTES], "little")
        (mask,) = struct.unpack_from("<I", body, at + KEY_BYTES)
        entries[key] = (mask, body[at + KEY_BYTES + 4 : at + size])
    return depth, entries


@cache
def load() -> tuple[int, dict[int, tuple[int, bytes]]]:
    """The shipped book, read once per process; (0, {}) if the file is missing."""
    if not PATH.exists():
        return 0, {}
    return decode(PATH.read_bytes())


def lookup(board: str) -> Entry | None:
    """What the book says of ``board`` (a valid, unfinished 5×5 board), or None if it is not in the book."""
    if len(board) != N * N:
        return None
    key, symmetry = key_of(board)
    found = load()[1].get(key)
    if found is None:
        return None
    mask, row = found
    # The entry is in the key's frame: cell j there is cell inverse[symmetry][j] here.
    here = bit_geometry(N, K).inverse[symmetry]
    values: dict[int, int | None] = {}
    for j, byte in enumerate(row):
        value = byte - 256 if byte > 127 else byte
        if value != OCCUPIED:
            values[here[j]] = None if value == UNPROVED else value
    candidates = tuple(sorted(here[j] for j in range(N * N) if mask >> j & 1))
    return Entry(candidates, dict(sorted(values.items())))


def main(argv: list[str] | None = None) -> int:
    """Build the book and write it to the package (``make book``)."""
    parser = argparse.ArgumentParser(prog="python -m webapp.engine.book", description=main.__doc__)
    parser.add_argument("--depth", type=int, default=DEPTH, help="positions with fewer moves played than this")
    parser.add_argument("--out", type=Path, default=PATH)
    parser.add_argument("--fresh", action="store_true", help="solve every entry again, not only the new ones")
    args = parser.parse_args(argv)
    start = time.process_time()
    # Entries solved so far are kept beside the book, so an interrupted build goes on where it stopped.
    partial = args.out.with_suffix(".partial")
    known = {}
    if not args.fresh:
        for path in (args.out, partial):
            if path.exists():
                known |= decode(path.read_bytes())[1]
    entries = build(
        args.depth,
        log=lambda line: print(line, file=sys.stderr, flush=True),
        known=known,
        save=lambda so_far: partial.write_bytes(encode(known | so_far, 0)),
    )
    data = encode(entries, args.depth)
    args.out.write_bytes(data)
    partial.unlink(missing_ok=True)
    print(f"{len(entries)} positions, {len(data):,} bytes, {time.process_time() - start:.0f} s of CPU: {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
