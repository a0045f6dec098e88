"""Configuration from the environment, as a PaaS provides it."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

from flask import Flask


class ConfigError(SystemExit):
    """A setting the app cannot start without. Uncaught, it prints its one-line message and exits."""


def from_environment(environ: Mapping[str, str] = os.environ) -> dict:
    """The settings found in the environment: SECRET_KEY and PORT."""
    config = {}
    if environ.get("SECRET_KEY"):
        config["SECRET_KEY"] = environ["SECRET_KEY"]
    port = environ.get("PORT", "5000")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ConfigError(f"PORT must be a port number from 1 to 65535, not {port!r}.")
    config["PORT"] = int(port)
    return config


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
    # Test keys sign nothing that matters; anywhere else a short key can be guessed offline.
    if len(key) < MIN_SECRET_KEY_LENGTH and not app.testing:
        raise ConfigError(
            f"SECRET_KEY is {len(key)} characters long; it needs at least {MIN_SECRET_KEY_LENGTH}, "
            f"or signed cookies can be forged. Generate one with: {KEY_RECIPE}"
        )


def run_by_flask_cli() -> bool:
    """Whether the `flask` command (as in `make run`) runs the app, rather than gunicorn.

    FLASK_DEBUG=1 alone must not be enough: set on a production server by mistake, it would sign
    everyone's cookies with a key that is published in this file.
    """
    return os.environ.get("FLASK_RUN_FROM_CLI") == "true" and "gunicorn" not in sys.modules
