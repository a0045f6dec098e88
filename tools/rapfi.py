"""A client of the Rapfi gomoku engine, spoken to over the Gomocup (piskvork) protocol; standard library only.

Rapfi is a separate program and no part of this project: ``RAPFI`` names its binary, whose ``config.toml``
and model file sit in the binary's folder (its working directory). The client asks for one move at a time:
each call sends the whole position after clearing Rapfi's hash table, with 1 thread and a node limit, so a
call's answer depends on the position alone and is the same every time; or, given ``turn_ms``, a time limit
instead, whose answers depend on the machine and on how busy it is.

The protocol's coordinates are ``x,y`` = column, row. ``BOARD`` lists the stones as ``x,y,1`` for the side to
move and ``x,y,2`` for the other, here X and O alternately; ``INFO rule 0`` is free-style (five or more wins),
this game's 15×15 rule. Rapfi's ``MESSAGE Depth d-s | Eval e | ...`` lines give its value from the side to
move's view, ``+M7`` or ``-M7`` when it sees a win or a loss in 7 plies.

>>> board_lines("." * 112 + "X" + "O" + "." * 111)  # X at row 7, column 7; O beside it; X to move
['7,7,1', '8,7,2']
>>> value("+M7"), value("-35")
((29993, 7), (-35, None))
"""

from __future__ import annotations

import os
import queue
import random
import re
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

N = 15
MATE = 30_000
_MOVE = re.compile(r"^\s*(\d+)\s*,\s*(\d+)\s*$")
_DEPTH = re.compile(r"Depth (\d+)-\d+ \| Eval (\S+)")
_COORD = re.compile(r"^[A-Oa-o]\d{1,2}$")
CLEARED = "MESSAGE Transposition table cleared"


class RapfiError(RuntimeError):
    """Rapfi is missing, failed, answered nonsense, or did not answer in time."""


@dataclass
class Result:
    """Rapfi's answer for one position: its move and what it made of the position, from the mover's view."""

    move: int
    eval: int | None = None  # a mate is ±(30,000 − plies), as Rapfi counts it
    mate: int | None = None  # +n: the mover wins in n plies; −n: it loses in n
    depth: int | None = None
    pv: list[int] = field(default_factory=list)


def value(text: str) -> tuple[int | None, int | None]:
    """Rapfi's printed value as (eval, mate): a number, or a mate in so many plies for (+M) or against (−M)."""
    if text[:2] in ("+M", "-M"):
        sign = 1 if text[0] == "+" else -1
        plies = int(text[2:]) if text[2:].isdigit() else 500
        return sign * (MATE - plies), sign * plies
    try:
        return int(text), None
    except ValueError:
        return None, None


def board_lines(board: str) -> list[str]:
    """The ``BOARD`` command's stones: X and O alternately, each ``x,y,who`` (1 the side to move, 2 the other)."""
    if len(board) != N * N or set(board) - set("XO."):
        raise ValueError("A board is 225 characters X, O or '.'.")
    xs = [i for i, c in enumerate(board) if c == "X"]
    os_ = [i for i, c in enumerate(board) if c == "O"]
    if len(xs) - len(os_) not in (0, 1):
        raise ValueError(f"{len(xs)} X and {len(os_)} O stones cannot come from a game.")
    mover = "X" if len(xs) == len(os_) else "O"
    order = [(mark, cells[i]) for i in range(len(xs)) for mark, cells in (("X", xs), ("O", os_)) if i < len(cells)]
    return [f"{cell % N},{cell // N},{1 if mark == mover else 2}" for mark, cell in order]


def cell_of(coord: str) -> int:
    """A principal variation's square (``h8``: column h, row 8 counted from 1) as a cell.

    >>> cell_of("h8"), cell_of("a1")
    (112, 0)
    """
    return (int(coord[1:]) - 1) * N + ord(coord[0].lower()) - ord("a")


class Rapfi:
    """One Rapfi process, started again after a crash or a hang; one call at a time."""

    def __init__(
        self,
        binary: str | None = None,
        nodes: int = 2000,
        memory_mb: int = 64,
        timeout: float | None = None,
        turn_ms: int = 0,
    ):
        found = binary or os.environ.get("RAPFI")
        if not found:
            raise RapfiError("Set RAPFI to the path of a Rapfi binary (with its config.toml beside it).")
        self.binary = Path(found).resolve()
        if not (self.binary.is_file() and os.access(self.binary, os.X_OK)):
            raise RapfiError(f"RAPFI names {self.binary}, which is not a program.")
        self.nodes, self.memory_mb = nodes, max(16, memory_mb)  # below 10 MB Rapfi refuses the memory limit
        # With a turn's milliseconds, the clock alone ends a search (Rapfi keeps 30 ms of them in reserve).
        self.turn_ms = max(0, turn_ms)
        self.timeout = timeout if timeout is not None else 30 + nodes / 20_000 + self.turn_ms / 1000
        self.proc: subprocess.Popen | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.restarts = 0

    # --- the process ----------------------------------------------------------------------------------------

    def _start(self) -> None:
        self._kill()
        self.proc = subprocess.Popen(
            [str(self.binary)],
            cwd=self.binary.parent,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
        )
        self.lines = lines = queue.Queue[str | None]()
        threading.Thread(target=_pump, args=(self.proc, lines), daemon=True).start()
        self._send("START 15")
        self._wait_for(lambda line: line == "OK", 30, "START")
        for info in ("rule 0", "THREAD_NUM 1", f"MAX_MEMORY {self.memory_mb << 20}", "PONDERING 0"):
            self._send(f"INFO {info}")
        self._send("INFO TIMEOUT_MATCH 0")
        if self.turn_ms:
            self._send(f"INFO TIMEOUT_TURN {self.turn_ms}")
            self._send("INFO MAX_NODE 0")  # no node limit: the clock alone ends a search
        else:
            self._send("INFO TIMEOUT_TURN 0")  # no time limit: the nodes alone end a search
            self._send(f"INFO MAX_NODE {self.nodes}")
        self._clear(30)

    def _kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(5)
            for pipe in (self.proc.stdin, self.proc.stdout):
                if pipe is not None:
                    pipe.close()
            self.proc = None

    def close(self) -> None:
        """Ask Rapfi to end, and end it if it does not."""
        if self.proc is not None and self.proc.poll() is None:
            try:
                self._send("END")
                self.proc.wait(3)
            except (RapfiError, subprocess.TimeoutExpired):
                pass
        self._kill()

    def __enter__(self) -> Rapfi:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _send(self, text: str) -> None:
        if self.proc is None or self.proc.stdin is None:
            raise RapfiError("Rapfi is not running.")
        try:
            self.proc.stdin.write(text + "\n")
            self.proc.stdin.flush()
        except (OSError, ValueError) as error:
            raise RapfiError(f"Rapfi's input is closed: {error}") from None

    def _read(self, deadline: float) -> str | None:
        """The next line, or None when the deadline passes first."""
        try:
            line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return None
        if line is None:
            raise RapfiError("Rapfi exited.")
        return line

    def _wait_for(self, wanted, seconds: float, what: str) -> tuple[str, list[str]]:
        """The first line ``wanted`` accepts and the lines before it; RapfiError if none comes within ``seconds``."""
        deadline, seen = time.monotonic() + seconds, list[str]()
        while (line := self._read(deadline)) is not None:
            if wanted(line):
                return line, seen
            if line.startswith("ERROR"):
                raise RapfiError(f"{what}: {line}")
            seen.append(line)
        raise RapfiError(f"No answer to {what} within {seconds:g} s.")

    def _clear(self, seconds: float) -> None:
        self._send("YXHASHCLEAR")
        self._wait_for(lambda line: line.startswith(CLEARED), seconds, "YXHASHCLEAR")

    def _settle(self) -> None:
        """Wait until Rapfi listens again: it prints its move before it stops thinking, and drops what comes between.

        A probe is sent until one is answered; one answered late only leaves a stray line that later reads skip.
        """
        time.sleep(0.002)
        for wait in (0.02, 0.05, 0.1, 0.2, *[0.5] * 20):
            try:
                self._clear(wait)
                return
            except RapfiError as error:
                if not str(error).startswith("No answer"):
                    raise
        raise RapfiError("Rapfi never listened again after its move.")

    # --- moves ----------------------------------------------------------------------------------------------

    def analyse(self, board: str) -> Result:
        """Rapfi's move and value for ``board`` (15×15, free-style), the side to move told by the stones' count."""
        stones = board_lines(board)
        for attempt in range(2):
            try:
                if self.proc is None or self.proc.poll() is not None:
                    self._start()
                return self._search(board, stones)
            except RapfiError:
                if attempt:
                    raise
                self.restarts += 1
                self._kill()
        raise AssertionError("unreachable")

    def move(self, board: str) -> int:
        """Rapfi's move for ``board``."""
        return self.analyse(board).move

    def _search(self, board: str, stones: list[str]) -> Result:
        self._clear(30)  # every search starts from an empty table: the same position, the same answer
        self._send("\n".join(["BOARD", *stones, "DONE"]))
        line, seen = self._wait_for(lambda text: _MOVE.match(text) is not None, self.timeout, "BOARD")
        self._settle()
        move = _MOVE.match(line)
        assert move is not None, "_wait_for returned a move's line"
        x, y = map(int, move.groups())
        cell = y * N + x
        if not (0 <= x < N and 0 <= y < N) or board[cell] != ".":
            raise RapfiError(f"Rapfi played {x},{y}, which is not an empty square.")
        result = Result(cell)
        for message in seen:
            found = _DEPTH.search(message)
            if found:
                result.depth = int(found.group(1))
                result.eval, result.mate = value(found.group(2))
                # An iteration's line ends with its principal variation; the summary's does not.
                tail = message.rsplit("|", 1)[-1].split()
                if tail and all(_COORD.match(token) for token in tail):
                    result.pv = [cell_of(token) for token in tail]
        return result


def _pump(proc: subprocess.Popen, lines: queue.Queue) -> None:
    """Rapfi's output, line by line, into ``lines``; None at its end."""
    assert proc.stdout is not None, "started with stdout=PIPE"
    for line in proc.stdout:
        lines.put(line.rstrip("\r\n"))
    lines.put(None)


class Player:
    """Rapfi as a player of this game's tools, ``play(board, rng) -> cell``; ``play.engine`` is its client."""

    def __init__(self, engine: Rapfi):
        self.engine = engine

    def __call__(self, board: str, rng: random.Random | None = None) -> int:
        return self.engine.move(board)


def player(nodes: int = 2000, binary: str | None = None, turn_ms: int = 0) -> Player:
    """Rapfi at ``nodes`` nodes a move, or with ``turn_ms`` at so many milliseconds a move, as a player of this
    game's tools."""
    return Player(Rapfi(binary, nodes, turn_ms=turn_ms))
