"""Tic-tac-toe in the browser, and a clear demonstration of game-tree search."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def create_app(test_config=None):
    """Create and configure the Flask app; with no argument, configuration comes from the environment."""
    # Imported here so that the engine and its command line load without Flask.
    from werkzeug.middleware.proxy_fix import ProxyFix

    from webapp.serving import compression, costs, security, settings
    from webapp.web import (
        api,
        assets,
        budgets,
        errors,
        forms,
        friend,
        friend_actions,
        friend_settings,
        friend_store,
        game,
        learn,
        randomness,
        rendering,
        review,
        state,
    )
    from webapp.web.app import GameFlask

    app = GameFlask(
        __name__,
        template_folder=ROOT / "templates",
        static_folder=ROOT / "static",
        instance_path=str(ROOT / "instance"),
    )
    app.config.from_mapping(
        friend_settings.FRIEND_DEFAULTS,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=False,  # the cookie is still Secure whenever the request was HTTPS
        MAX_CONTENT_LENGTH=security.BODY_BYTES,
        RANDOM_SEED=None,
        PORT=5000,
        PROXY_COUNT=settings.DEFAULT_PROXY_COUNT,
    )
    if test_config is None:
        app.config.update(settings.from_environment() | friend_settings.read_friend_settings())
    else:
        app.config.update(test_config)
    settings.require_secret_key(app)

    app.request_class = forms.GameRequest
    app.session_interface = state.GameSessionInterface()
    app.extensions["rng"] = randomness.generator(app.config["RANDOM_SEED"])
    assets.init_app(app)
    security.init_app(app)
    if proxies := app.config["PROXY_COUNT"]:
        # Outermost, so the checks see what it forwards: the proxies' own headers say who the client is, the host
        # it asked for and whether it came over HTTPS; nobody else's are read.
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]  # Flask documents wrapping its WSGI app so
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies
        )
    errors.init_app(app)
    costs.init_app(app, budgets.search_at_pace)
    friend_store.init_app(app)
    rendering.init_app(app)
    compression.init_app(app)
    for area in (game, friend, friend_actions, learn, review, api):
        app.register_blueprint(area.bp)
    return app
