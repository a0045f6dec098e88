"""The friend games' settings from the environment: their store and their limits."""

from __future__ import annotations

import os
from collections.abc import Mapping

from webapp.serving.settings import ConfigError


def read_friend_settings(environ: Mapping[str, str] = os.environ) -> dict:
    """The friend games' settings found in the environment: their store (REDIS_URL, else the SQLite file
    FRIEND_DATABASE) and limits (FRIEND_EXPIRY_SECONDS, FRIEND_GAMES_MOST, FRIEND_CREATIONS_PER_MINUTE,
    FRIEND_WAITING_SECONDS, FRIEND_WAITING_PER_CLIENT, FRIEND_GAMES_PER_CLIENT, FRIEND_STREAMS_PER_CLIENT,
    FRIEND_STREAMS_PER_GAME, FRIEND_STREAMS_PER_WORKER)."""
    config: dict[str, object] = {}
    if environ.get("REDIS_URL"):
        config["REDIS_URL"] = environ["REDIS_URL"].strip()
    if environ.get("FRIEND_DATABASE"):
        config["FRIEND_DATABASE"] = environ["FRIEND_DATABASE"].strip()
    for name, most in FRIEND_LIMITS.items():
        if environ.get(name):
            config[name] = whole_number_setting(environ, name, most)
    return config


# The friend games' limits and their largest values: a game lives a day without a move, the store holds 10,000
# live games (a few MB), and a client creates at most 5 games a minute.
FRIEND_DEFAULTS = {
    "FRIEND_EXPIRY_SECONDS": 86_400,
    "FRIEND_GAMES_MOST": 10_000,
    "FRIEND_CREATIONS_PER_MINUTE": 5,
    # A game nobody has joined lives an hour; one client (an IPv4 address, an IPv6 /64) may have 10 such games and
    # 40 live games in all, so that filling the store takes 250 clients.
    "FRIEND_WAITING_SECONDS": 3_600,
    "FRIEND_WAITING_PER_CLIENT": 10,
    "FRIEND_GAMES_PER_CLIENT": 40,
    # Live streams one worker holds (webapp.web.relay): a person's tabs and a household's pages fit the first; the
    # third keeps a worker's streams under 100 MB.
    "FRIEND_STREAMS_PER_CLIENT": 20,
    "FRIEND_STREAMS_PER_GAME": 2000,
    "FRIEND_STREAMS_PER_WORKER": 3000,
}
FRIEND_LIMITS = {
    "FRIEND_EXPIRY_SECONDS": 30 * 86_400,
    "FRIEND_GAMES_MOST": 10_000_000,
    "FRIEND_CREATIONS_PER_MINUTE": 1000,
    "FRIEND_WAITING_SECONDS": 86_400,
    "FRIEND_WAITING_PER_CLIENT": 10_000,
    "FRIEND_GAMES_PER_CLIENT": 100_000,
    # Open live streams in each worker: per client, per game, and all together (webapp.web.relay).
    "FRIEND_STREAMS_PER_CLIENT": 10_000,
    "FRIEND_STREAMS_PER_GAME": 100_000,
    "FRIEND_STREAMS_PER_WORKER": 100_000,
}


def whole_number_setting(environ: Mapping[str, str], name: str, most: int) -> int:
    """A setting that is a whole number from 1 to ``most``.

    >>> whole_number_setting({"FRIEND_GAMES_MOST": "500"}, "FRIEND_GAMES_MOST", 1000)
    500
    """
    text = environ[name].strip()
    if not (text.isdigit() and 1 <= int(text) <= most):
        raise ConfigError(f"{name} must be a whole number from 1 to {most:,}, not {text!r}.")
    return int(text)
