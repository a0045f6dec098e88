"""The serving settings from the environment, as a PaaS provides them (the friend games' own are in
webapp.web.friend_settings)."""

from __future__ import annotations

import math
import os
import re
import sys
from collections import Counter
from collections.abc import Mapping

from flask import Flask


class ConfigError(SystemExit):
    """A setting the app cannot start without. Uncaught, it prints its one-line message and exits."""


def from_environment(environ: Mapping[str, str] = os.environ) -> dict:
    """The serving settings found in the environment: SECRET_KEY (and SECRET_KEY_FALLBACKS, the keys it replaced),
    PORT, SITE_URL and PROXY_COUNT."""
    config: dict[str, object] = {"PROXY_COUNT": proxy_count(environ)}
    if environ.get("SECRET_KEY"):
        config["SECRET_KEY"] = environ["SECRET_KEY"]
    if environ.get("SECRET_KEY_FALLBACKS"):
        config["SECRET_KEY_FALLBACKS"] = key_fallbacks(environ["SECRET_KEY_FALLBACKS"])
    port = environ.get("PORT", "5000")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ConfigError(f"PORT must be a port number from 1 to 65535, not {port!r}.")
    config["PORT"] = int(port)
    if environ.get("SITE_URL"):
        config["SITE_URL"] = site_url(environ["SITE_URL"])
    return config


def key_fallbacks(text: str) -> list[str]:
    """The old keys a rotation keeps reading with (Flask's SECRET_KEY_FALLBACKS): comma-separated, blanks ignored.

    >>> key_fallbacks(" old-key-1, ,old-key-2 ")
    ['old-key-1', 'old-key-2']
    """
    return [key.strip() for key in text.split(",") if key.strip()]


# A PaaS router is one proxy, and it appends the address it saw to X-Forwarded-For.
DEFAULT_PROXY_COUNT = 1
MOST_PROXIES = 5


def proxy_count(environ: Mapping[str, str] = os.environ) -> int:
    """How many proxies stand in front of the server (PROXY_COUNT): their forwarded headers are believed, no more.

    >>> proxy_count({}), proxy_count({"PROXY_COUNT": "0"})
    (1, 0)
    """
    text = environ.get("PROXY_COUNT", str(DEFAULT_PROXY_COUNT)).strip()
    if not (text.isdigit() and int(text) <= MOST_PROXIES):
        raise ConfigError(
            f"PROXY_COUNT must be the number of proxies in front of the server, 0 to {MOST_PROXIES}, not {text!r}: "
            "1 behind a platform's router, 0 when clients connect to the server itself."
        )
    return int(text)


SITE_URL = re.compile(r"https?://[a-z0-9.-]+(:[0-9]{1,5})?")


def site_url(text: str) -> str:
    """The site's public address, as share links begin: a scheme and a host, with no path.

    >>> site_url("https://TicTacToe.example.com/")
    'https://tictactoe.example.com'
    """
    url = text.strip().lower().removesuffix("/")
    if not SITE_URL.fullmatch(url):
        raise ConfigError(f"SITE_URL must be the site's address, such as https://tictactoe.example.com, not {text!r}.")
    return url


MIN_SECRET_KEY_LENGTH = 32
KEY_RECIPE = 'python -c "import secrets; print(secrets.token_urlsafe(32))"'
DEVELOPMENT_KEY = "development only, not secret"


def require_secret_key(app: Flask) -> None:
    """Refuse to start without a SECRET_KEY of at least 32 characters to sign cookies with.

    Tests, and `flask run` in debug (which `make run` is), may go without one and get a fixed key.
    """
    key = app.config.get("SECRET_KEY")
    if not key and (app.testing or (app.debug and run_by_flask_cli())):
        app.config["SECRET_KEY"] = DEVELOPMENT_KEY
        return
    if not key:
        raise ConfigError(
            "SECRET_KEY is not set: the game keeps its state in a signed cookie and cannot sign it. "
            f"Set SECRET_KEY to a long random string, e.g. from: {KEY_RECIPE}"
        )
    # Test keys sign nothing that matters; anywhere else a short or patterned key can be guessed offline.
    if app.testing:
        return
    if len(key) < MIN_SECRET_KEY_LENGTH:
        raise ConfigError(
            f"SECRET_KEY is {len(key)} characters long; it needs at least {MIN_SECRET_KEY_LENGTH}, "
            f"or signed cookies can be forged. Generate one with: {KEY_RECIPE}"
        )
    if key_bits(key) < MIN_SECRET_KEY_BITS or is_periodic(key) or key.strip() != key or key == DEVELOPMENT_KEY:
        raise ConfigError(
            "SECRET_KEY looks easy to guess (too few different characters, a repeated pattern or blanks), "
            f"so signed cookies could be forged. Generate a random one with: {KEY_RECIPE}"
        )


# What the key's own characters show of its randomness, at the least: 32 random hex digits (16 bytes,
# secrets.token_hex(16)) show about 115 bits (90 at worst in 300,000 tries), the recipe's 43 characters
# about 210, "password" four times 88 (refused as a repeat), 32 blanks none.
MIN_SECRET_KEY_BITS = 80


def key_bits(key: str) -> float:
    """The key's length times the entropy of its characters' frequencies: a ceiling on a patterned
    key's strength, not a measure of a random one's.

    >>> key_bits(" " * 32), round(key_bits("ab" * 16))
    (0.0, 32)
    """
    counts = Counter(key).values()
    return sum(count * math.log2(len(key) / count) for count in counts)


def run_by_flask_cli() -> bool:
    """Whether the `flask` command (as in `make run`) runs the app, rather than gunicorn.

    FLASK_DEBUG=1 alone must not be enough: set on a production server by mistake, it would sign
    everyone's cookies with a key that is published in this file.
    """
    # gunicorn's arbiter, not just any gunicorn module: the worker class (webapp.serving.worker) may be imported
    # elsewhere, by a test or a tool, without a server.
    return os.environ.get("FLASK_RUN_FROM_CLI") == "true" and "gunicorn.arbiter" not in sys.modules


def is_periodic(key: str) -> bool:
    """Whether the key is a shorter piece repeated (the last repeat may be cut short).

    >>> is_periodic("password" * 4), is_periodic("abcabca"), is_periodic("abcabd")
    (True, True, False)
    """
    return any(key == (key[:p] * (len(key) // p + 1))[: len(key)] for p in range(1, len(key) // 2 + 1))
