"""The app's random number generators: the worker's own, reseeded in every process forked from the one
that made it, and one for each request that changes a game, seeded by what the request asks."""

from __future__ import annotations

import hmac
import os
import random
import weakref

from flask import current_app, g, request
from itsdangerous.encoding import want_bytes


def generator(seed: int | None) -> random.Random:
    """A generator from ``seed``; without one, each forked child (a gunicorn worker) reseeds its own.

    With preload_app every worker is forked from the master, so without this they would all, and
    every worker restarted after a crash too, play the same "random" moves. A configured seed is
    kept as it is, so that tests can replay a game.
    """
    rng = random.Random(seed)
    if seed is None:
        # A weak reference: a process that makes many apps (the tests) does not keep them all alive.
        reference = weakref.ref(rng)
        os.register_at_fork(after_in_child=lambda: _reseed(reference))
    return rng


def _reseed(reference: weakref.ref) -> None:
    rng = reference()
    if rng is not None:
        rng.seed()  # from the operating system's randomness


def replayable(key: bytes, *parts: str) -> random.Random:
    """A generator seeded by a keyed hash of ``parts``: the same parts, the same moves.

    A request that changes a game is answered from a generator seeded by the game it came from and
    what it asks, so that the same request sent twice (a double click, a resent form) gets the same
    computer reply, and the page and the cookie the browser keeps agree, whichever answer comes last.
    The key keeps the seed, and so the computer's random choices, unknown to the visitor.

    >>> replayable(b"key", "a", "b").random() == replayable(b"key", "a", "b").random()
    True
    >>> replayable(b"key", "a", "b").random() == replayable(b"key", "ab").random()
    False
    """
    # Each part is sized, so no two lists of parts run together into the same text.
    text = "".join(f"{len(part)}:{part}" for part in parts)
    return random.Random(int.from_bytes(hmac.digest(key, text.encode(), "sha256")))


def for_request(table) -> random.Random:
    """The generator for a request that changes ``table``: seeded by the game and the form sent.

    Keyed by the app's secret key, or by RANDOM_SEED where one is configured (the tests), so that
    every worker and every instance sharing the key answers the same request the same way.
    """
    seed = current_app.config["RANDOM_SEED"]
    key = current_app.secret_key if seed is None else f"seed {seed}"
    assert key is not None, "settings.require_secret_key starts no app without a key"
    form = "&".join(f"{name}={value}" for name, value in sorted(request.form.items(multi=True)))
    return replayable(want_bytes(key), table.game_id, table.digest, request.path, form)


def replies() -> random.Random:
    """The generator for the computer's moves in this request: the game's own (see for_request), else the worker's."""
    return g.get("replies") or current_app.extensions["rng"]
