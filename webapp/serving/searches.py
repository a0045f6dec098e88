"""Costly requests answered in processes of their own: a bounded pool of spawned Python processes, each running the
whole app, to which a web worker hands a request and waits for its answer without holding its event loop.

A search is pure CPU work. Run inside a gevent worker it could only take turns with the worker's other requests at
its pauses, and 8 connections repeating answers from memory stretched a 0.5 s move to 10 s. In a process of its own
it gets its share of a core from the operating system, whatever the web worker is doing.

The one interface is ``SearchPool.run(call, gone) -> Answer``: a ``Call`` is a request as it arrived (the strings
of its WSGI environ, and its body), an ``Answer`` the app's whole response and the CPU seconds it took; ``gone``
says whether the client has left, and is asked every LOOK_EVERY seconds while the call runs: then the process is
told to stop, which it does at its search's next pause, and ``run`` raises Cancelled. A task queue over Redis (RQ,
Celery) could stand behind the same interface.

Each process is ``python -m webapp.serving.searches FACTORY``, talking over its stdin and stdout in frames (a length,
then a pickle); it is spawned, never forked, because a gevent worker's hub and locks do not survive a fork. It
exits when its parent goes: at the end of its stdin, and by the kernel's parent-death signal if the parent is
killed. Nothing here knows the game: FACTORY names a function that returns a WSGI app.
"""

from __future__ import annotations

import ctypes
import io
import os
import pickle
import select
import signal
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from contextlib import suppress
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any

# How often a call's waiter asks whether its client is still there: a gone client's search stops within this.
LOOK_EVERY = 0.05
# A loaded process told to stop has this long to say so before it is killed: it stops at its search's next pause
# (every few milliseconds), and no request may search for over a second of CPU, so only a stuck process is killed.
STOP_GRACE = 10.0
# The longest a new pool waits for its processes to load the app (a second or two of CPU) before it serves.
READY_SECONDS = 15.0
# The environ key under which the pool's process puts the callable that says whether its call was cancelled.
CANCELLED = "searches.cancelled"
# Larger bodies are not sent to the pool (a move's is under 100 bytes; the app refuses anything over 16 KB).
BODY_BYTES = 64 * 1024
ROOT = Path(__file__).resolve().parents[2]
_LENGTH = struct.Struct("!I")
PR_SET_PDEATHSIG = 1


@dataclass(frozen=True)
class Call:
    """A request as it arrived: its environ's string values and its body."""

    environ: dict[str, str]
    body: bytes


@dataclass(frozen=True)
class Answer:
    """The app's response to a Call, and the CPU seconds the process spent on it."""

    status: str
    headers: list[tuple[str, str]]
    body: bytes
    seconds: float


class Cancelled(Exception):
    """The call's client went away, and its process stopped the call."""


class Crashed(Exception):
    """The call's process died under it (it is replaced)."""


def call_of(environ: dict) -> Call | None:
    """The Call that runs this request again elsewhere, reading its body and putting it back; None if its body is
    too long or sent in chunks (the app holds those to its limit itself)."""
    length = environ.get("CONTENT_LENGTH") or "0"
    if not length.isdigit() or int(length) > BODY_BYTES or "HTTP_TRANSFER_ENCODING" in environ:
        return None
    body = b""
    if int(length):
        body = environ["wsgi.input"].read(int(length))
        environ["wsgi.input"] = io.BytesIO(body)
    strings = {key: value for key, value in environ.items() if isinstance(value, str)}
    return Call(strings, body)


# --- frames over a pipe -------------------------------------------------------------------------------------------


def _write(fd: int, message: object) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(_LENGTH.pack(len(data)) + data)
    while view:
        try:
            view = view[os.write(fd, view) :]
        except BlockingIOError:
            select.select([], [fd], [])


class _Frames:
    """Frames read from a pipe as they come, without ever blocking on a partial one."""

    def __init__(self, fd: int):
        self.fd, self.buffer = fd, bytearray()

    def next(self) -> Any:
        """The next whole frame already read, else None."""
        if len(self.buffer) < _LENGTH.size:
            return None
        (length,) = _LENGTH.unpack_from(self.buffer)
        if len(self.buffer) < _LENGTH.size + length:
            return None
        data = bytes(self.buffer[_LENGTH.size : _LENGTH.size + length])
        del self.buffer[: _LENGTH.size + length]
        return pickle.loads(data)  # our own child's, or our own parent's, frames

    def read(self, timeout: float | None) -> Any:
        """The next frame, waiting up to ``timeout`` seconds (for ever if None); None if none came. EOFError when
        the other end has closed the pipe."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while (found := self.next()) is None:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not select.select([self.fd], [], [], left)[0]:
                return None
            try:
                chunk = os.read(self.fd, 65536)
            except BlockingIOError:
                continue
            if not chunk:
                raise EOFError
            self.buffer += chunk
        return found


# --- the parent's side --------------------------------------------------------------------------------------------


class _Process:
    """One spawned process of the pool, and the frames it sends back."""

    def __init__(self, factory: str, env: dict[str, str] | None):
        self.popen = subprocess.Popen(
            [sys.executable, "-m", "webapp.serving.searches", factory],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=ROOT,
            env=env,
            bufsize=0,
        )
        assert self.popen.stdin is not None and self.popen.stdout is not None
        self.to_child, self.frames = self.popen.stdin.fileno(), _Frames(self.popen.stdout.fileno())
        self.loaded = False  # its first frame, once it has loaded the app, says so

    def call(self, call: Call, gone: Callable[[], bool]) -> Answer:
        """Run ``call`` and return its answer; Cancelled if ``gone`` said yes first, Crashed if the process died."""
        told_at = None
        try:
            _write(self.to_child, ("call", call))
            while True:
                reply = self.frames.read(LOOK_EVERY)
                if reply == ("ready",):
                    self.loaded = True
                elif reply is not None:
                    kind, *rest = reply
                    if kind == "cancelled":
                        raise Cancelled()
                    return Answer(*rest)
                if told_at is None and gone():
                    _write(self.to_child, ("cancel",))
                    told_at = time.monotonic()
                elif told_at is not None and not self.loaded:
                    told_at = time.monotonic()  # still loading the app: the grace starts once it has
                elif told_at is not None and time.monotonic() - told_at > STOP_GRACE:
                    self.stop()
                    raise Cancelled()
        except (EOFError, BrokenPipeError) as error:
            raise Crashed(f"search process {self.popen.pid} exited with {self.popen.poll()}") from error

    def ready(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the process to have loaded the app; whether it has."""
        if self.loaded:
            return True
        try:
            self.loaded = self.frames.read(timeout) is not None
        except EOFError:
            return False
        return self.loaded

    def alive(self) -> bool:
        return self.popen.poll() is None

    def stop(self, wait: float = 2.0) -> None:
        """End the process: its stdin closed first (it exits by itself), then killed if it has not."""
        for pipe in (self.popen.stdin, self.popen.stdout):
            if pipe is not None:
                pipe.close()
        try:
            self.popen.wait(wait)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            self.popen.wait()


class SearchPool:
    """At most ``processes`` calls at once, each in a process of its own (see the module's docstring).

    The processes start with ``start`` (or on first use); one that dies is replaced by a new one at once.
    """

    def __init__(self, processes: int, factory: str, env: dict[str, str] | None = None):
        self.processes, self.factory, self.env = processes, factory, env
        self.idle: list[_Process] = []
        self.started: list[_Process] = []
        self.lock = threading.Lock()
        self.slots = threading.BoundedSemaphore(processes)
        self.closed = False

    def start(self, wait: float = READY_SECONDS) -> None:
        """Spawn every process now and wait (up to ``wait`` seconds) until each has loaded the app, so that the
        first calls do not wait for that."""
        with self.lock:
            while len(self.started) < self.processes:
                self._spawn()
            spawned = list(self.started)
        deadline = time.monotonic() + wait
        for process in spawned:
            process.ready(max(0.0, deadline - time.monotonic()))

    def _spawn(self) -> None:
        process = _Process(self.factory, self.env)
        self.started.append(process)
        self.idle.append(process)

    def run(self, call: Call, gone: Callable[[], bool] = lambda: False) -> Answer:
        """The app's answer to ``call``, run in one of the pool's processes (waiting for a free one)."""
        with self.slots:
            with self.lock:
                if self.closed:
                    raise Crashed("the pool is closed")
                for dead in [process for process in self.idle if not process.alive()]:
                    self.idle.remove(dead)  # died while idle: replaced before anyone is answered from it
                    self.started.remove(dead)
                    dead.stop(wait=0)
                if not self.idle:
                    self._spawn()
                process = self.idle.pop()
            healthy = False
            try:
                answer = process.call(call, gone)
                healthy = True
                return answer
            except Cancelled:
                healthy = process.alive()
                raise
            finally:
                with self.lock:
                    if healthy and not self.closed:
                        self.idle.append(process)
                    else:
                        self.started.remove(process)
                        if not self.closed:
                            self._spawn()  # a replacement, loading the app while nobody waits for it
                if not healthy:
                    process.stop(wait=0.5)

    def pids(self) -> list[int]:
        """The process ids of the pool's processes."""
        with self.lock:
            return [process.popen.pid for process in self.started]

    def close(self) -> None:
        """Stop every process; a call under way ends as Crashed."""
        with self.lock:
            self.closed = True
            processes, self.started, self.idle = self.started, [], []
        for process in processes:
            process.stop()


# --- the child's side ---------------------------------------------------------------------------------------------


def _die_with_parent() -> None:
    """Ask the kernel to end this process when its parent dies, however the parent dies (Linux only)."""
    with suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def answer_call(app: Callable, call: Call, cancelled: Callable[[], bool]) -> tuple[str, list[tuple[str, str]], bytes]:
    """Run ``app`` on ``call`` in this process: its status, headers and body."""
    environ: dict[str, object] = dict(call.environ)
    environ.update(
        {
            "wsgi.input": io.BytesIO(call.body),
            "wsgi.errors": sys.stderr,
            "wsgi.version": (1, 0),
            "wsgi.url_scheme": call.environ.get("wsgi.url_scheme", "http"),
            "wsgi.multithread": False,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
            CANCELLED: cancelled,
        }
    )
    started: list = []

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: object = None) -> Callable:
        started[:] = [status, list(headers)]
        return lambda data: None

    result: Iterable[bytes] = app(environ, start_response)
    try:
        body = b"".join(result)
    finally:
        if hasattr(result, "close"):
            result.close()
    return started[0], started[1], body


def serve(factory: str) -> None:
    """The pool process's loop: build the app, then answer calls from stdin on stdout until stdin ends."""
    _die_with_parent()
    answers = os.dup(1)
    os.dup2(2, 1)  # whatever the app prints goes to stderr, never into a frame
    module, _, name = factory.partition(":")
    app = getattr(import_module(module), name)()
    frames = _Frames(0)
    try:
        _write(answers, ("ready",))
        _answer_calls(app, frames, answers)
    except BrokenPipeError:
        pass  # the parent has gone: so do we, quietly


def _answer_calls(app: Callable, frames: _Frames, answers: int) -> None:
    """Answer each call read from ``frames`` on ``answers`` until stdin ends."""
    told = [False]

    def cancelled() -> bool:
        # Asked at the search's pauses: a frame waiting now can only be a cancel (or the pipe's end).
        if not told[0]:
            try:
                if frames.read(0) is not None:
                    told[0] = True
            except EOFError:
                os._exit(0)
        return told[0]

    while True:
        try:
            message = frames.read(None)
        except EOFError:
            return
        if message[0] != "call":
            continue  # a cancel that came after its call had ended
        told[0] = False
        began = time.process_time()
        try:
            status, headers, body = answer_call(app, message[1], cancelled)
        except Exception as error:  # a bug in one request must not end the process
            print(f"search process: {error!r}", file=sys.stderr)
            status, headers, body = "500 INTERNAL SERVER ERROR", [("Content-Type", "text/plain")], b"Server error"
        if told[0]:
            _write(answers, ("cancelled",))
        else:
            _write(answers, ("answer", status, headers, body, time.process_time() - began))


if __name__ == "__main__":
    serve(sys.argv[1])
