"""Configuration from the environment, as a PaaS provides it."""

from __future__ import annotations

import os
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


def require_secret_key(app: Flask) -> None:
    """Outside debug and testing, refuse to start without a SECRET_KEY to sign cookies with."""
    if app.config.get("SECRET_KEY"):
        return
    if app.debug or app.testing:
        app.config["SECRET_KEY"] = "development only, not secret"
        return
    raise ConfigError(
        "SECRET_KEY is not set: the game keeps its state in a signed cookie and cannot sign it. "
        "Set SECRET_KEY to a long random string, e.g. from: python -c 'import secrets; print(secrets.token_hex(32))'"
    )
