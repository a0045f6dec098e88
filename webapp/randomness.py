"""The app's random number generator, reseeded in every process forked from the one that made it."""

from __future__ import annotations

import os
import random
import weakref


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
