"""The one module that reads and writes ``flask.session``: a Table in a small, signed cookie.

The cookie holds one compact, versioned line of text, such as
``2|hvc|X|one-ply|minimax|one-ply|40|0|0|0|0|0|0|0|0|0|0|0``: a string costs Flask's session
serializer far less than nested containers, on every request. Anything that does not read back as
a legal game (a tampered or truncated cookie, an older version, impossible moves) becomes a fresh
game with a notice, never an error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from flask import request, session
from flask.sessions import SecureCookieSessionInterface

from webapp.match import MODES, Score, Settings, Table, Tally

VERSION = "2"  # 1 was a dictionary of fields
_WORD = r"([a-z-]{1,12})"
# The shape of the line, checked in one pass; whether the words and moves make sense is the
# Table's to say (Settings checks the words, replaying checks the moves).
GAME_LINE = re.compile(
    rf"{VERSION}\|{_WORD}\|([XO])\|{_WORD}\|{_WORD}\|{_WORD}\|([0-8]{{0,9}})\|([01])\|([01])" + r"\|([0-9]{1,9})" * 9
)
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
    game = session.get("game")
    if not isinstance(game, str) or game.partition("|")[0] != VERSION:
        return _fresh(OUTDATED if game is None or isinstance(game, str) else UNREADABLE)
    try:
        table = _decode(game)
    except ValueError:
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
    counts = [n for t in (getattr(table.score, m) for m in MODES) for n in (t.first, t.second, t.draws)]
    fields = [VERSION, s.mode, s.human, s.difficulty, s.x_level, s.o_level, "".join(map(str, table.moves))]
    fields += [str(int(table.paused)), str(int(table.show_values)), *map(str, counts)]
    return {"game": "|".join(fields)}


def _decode(text: str) -> Table:
    """The table in a cookie's line of text; raises ValueError for anything that is not a legal game."""
    found = GAME_LINE.fullmatch(text)
    if found is None:
        raise ValueError("not a game's line")
    mode, human, difficulty, x_level, o_level, moves, paused, values, *counts = found.groups()
    numbers = [int(count) for count in counts]
    table = Table(
        settings=Settings(mode, human, difficulty, x_level, o_level),
        moves=tuple(int(c) for c in moves),
        paused=paused == "1",
        show_values=values == "1",
        score=Score(*(Tally(*numbers[i : i + 3]) for i in range(0, 9, 3))),
    )
    table.position  # noqa: B018 -- replaying the moves raises if they are not a legal game
    return table
