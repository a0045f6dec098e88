"""The one module that reads and writes ``flask.session``: a Table in a small, signed cookie.

The cookie holds a compact, versioned dictionary. Anything that does not read back as a legal
game (a tampered or truncated cookie, an older version, impossible moves) becomes a fresh game
with a notice, never an error.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import request, session
from flask.sessions import SecureCookieSessionInterface

from webapp.match import MODES, Score, Settings, Table, Tally

VERSION = 1
UNREADABLE = "Your saved game could not be read, so a new game has started."
OUTDATED = "The game has been updated since your last visit, so a new game has started."


class GameSessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session that also notices a cookie it had to throw away, and makes the
    cookie Secure whenever the request came over HTTPS (as the proxy in front of us reports)."""

    def open_session(self, app, request):
        opened = super().open_session(app, request)
        if opened is not None and not opened and request.cookies.get(self.get_cookie_name(app)):
            # A cookie came but did not verify: Flask starts an empty session without a word.
            opened.unreadable = True
        return opened

    def get_cookie_secure(self, app) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"] or request.is_secure)


@dataclass(frozen=True, slots=True)
class Loaded:
    """What the session held: the table, a one-off notice, and whether the game had to be reset."""

    table: Table
    notice: str | None = None
    reset: bool = False
    notice_is_error: bool = False


def load() -> Loaded:
    """The visitor's table and any notice for them (shown once, then forgotten)."""
    notice = session.pop("notice", None)
    notice_is_error = session.pop("notice_is_error", False) is True
    if getattr(session, "unreadable", False):
        return _fresh(UNREADABLE)
    if not session:
        return Loaded(Table())
    if session.get("v") != VERSION:
        return _fresh(OUTDATED)
    try:
        table = _decode(session)
    except (ValueError, TypeError, KeyError, AttributeError):
        return _fresh(UNREADABLE)
    if not isinstance(notice, str):
        return Loaded(table)
    return Loaded(table, notice, notice_is_error=notice_is_error)


def save(table: Table, notice: str | None = None, notice_is_error: bool = False) -> None:
    """Store ``table``, and a notice to show on the next page, in the session cookie."""
    session.clear()
    session.update(_encode(table))
    if notice:
        session["notice"] = notice
        if notice_is_error:
            session["notice_is_error"] = True


def _fresh(notice: str) -> Loaded:
    save(Table())
    return Loaded(Table(), notice, reset=True)


def _encode(table: Table) -> dict:
    s = table.settings
    return {
        "v": VERSION,
        "mode": s.mode,
        "human": s.human,
        "levels": [s.difficulty, s.x_level, s.o_level],
        "moves": "".join(str(m) for m in table.moves),
        "paused": int(table.paused),
        "values": int(table.show_values),
        "score": [[t.first, t.second, t.draws] for t in (getattr(table.score, m) for m in MODES)],
    }


def _decode(data) -> Table:
    difficulty, x_level, o_level = data["levels"]
    settings = Settings(data["mode"], data["human"], difficulty, x_level, o_level)
    moves = data["moves"]
    if not isinstance(moves, str) or (moves and not moves.isdigit()):
        raise ValueError("moves must be digits")
    tallies = {}
    for mode, counts in zip(MODES, data["score"], strict=True):
        if len(counts) != 3 or not all(type(n) is int and n >= 0 for n in counts):
            raise ValueError("a score is three counts")
        tallies[mode] = Tally(*counts)
    table = Table(
        settings=settings,
        moves=tuple(int(c) for c in moves),
        paused=_flag(data["paused"]),
        show_values=_flag(data["values"]),
        score=Score(**tallies),
    )
    table.position  # noqa: B018 -- replaying the moves raises if they are not a legal game
    return table


def _flag(value) -> bool:
    if value not in (0, 1) or type(value) is not int:
        raise ValueError("a flag is 0 or 1")
    return bool(value)
