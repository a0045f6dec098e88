"""The one module that reads and writes ``flask.session``: a Table in two small, signed cookies.

The session cookie holds the game as one compact, versioned line of text, such as
``6|3x3|hvc|X|one-ply|minimax|one-ply|one-ply|40|0|0|0|4f1c0a9b2e77|3``: a string costs Flask's session
serializer far less than nested containers, on every request. The score lives in a cookie of its own
(``2|<latest game counted>|<floor>|<number:id of the last games counted>|0|0|0|…``), written only by a
request that counts a result or resets a score.

Why two: the browser keeps whichever cookie arrives last, and two requests in flight (two tabs, a
double click) each answer from the cookies they were sent with. A winning move and a Move-values
toggle, or a New game, sent together once lost the win whenever the other answer came last. Now only a
result or a reset writes the score (a new game's number comes from the game's cookie and the score as read),
so the win stays counted; and since the score remembers which games it counted (match.Scores),
the same game finished again (retried after an Undo, in the other tab, or from a game cookie sent back
later) does not count twice.

Anything that does not read back as a legal game (a tampered or truncated cookie, an unknown version,
impossible moves, a payload of the wrong shape) becomes a fresh game with a notice, never an error.
The signing is Flask's own (itsdangerous), with its signers made once (see GameSessionInterface).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import cast

from flask import current_app, request, session
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from itsdangerous import BadSignature, Serializer, TimestampSigner, URLSafeTimedSerializer
from itsdangerous.encoding import base64_encode, want_bytes
from werkzeug.http import dump_cookie

from webapp.engine.boards import BOARDS, BY_KEY
from webapp.match import (
    GAME_ID_LENGTH,
    LEDGER,
    SCORE_TALLIES,
    Score,
    Scores,
    Settings,
    Table,
    Tally,
    check_board,
    new_game_id,
)
from webapp.serving.headers import vary_on

# A cookie of another version is from before an update: its game starts again, its score is kept.
VERSION = "6"
SCORE_VERSION = "2"
_WORD = r"([a-z-]{1,12})"
_COUNT = r"\|([0-9]{1,9})"
# A move is one character of this alphabet on boards of up to 64 cells, two on bigger ones, so that a
# whole 15×15 game (225 moves) takes 450 characters. On 3×3 the moves read as before: digits.
ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_"
_DIGIT = {c: i for i, c in enumerate(ALPHABET)}
_MOST_MOVES = max(b.cells for b in BOARDS) * 2
_GAME_ID = rf"([0-9a-f]{{{GAME_ID_LENGTH}}})"
_NUMBER = r"(0|[1-9][0-9]{0,8})"
# The shape of the line, checked in one pass; whether the words and moves make sense is the
# Table's to say (Settings checks the words, replaying checks the moves).
_GAME_FIELDS = (
    rf"\|([0-9x]{{3,5}})\|{_WORD}\|([XO])\|{_WORD}\|{_WORD}\|{_WORD}\|{_WORD}\|([0-9a-zA-Z_-]{{0,{_MOST_MOVES}}})"
    rf"\|([01])\|([01])"
)
# The fields, then whether it is practice, its id and its number.
GAME_LINE = re.compile(rf"6{_GAME_FIELDS}\|([01])\|{_GAME_ID}\|{_NUMBER}")
OTHER_VERSION = re.compile(rf"(?!{VERSION}\|)[0-9]{{1,3}}\|[0-9a-zA-Z|_-]*")
# The score's line: the latest game's number, the floor, the number and id of the last games counted, then every
# board's 15 counts.
_COUNTED = rf"(?:0|[1-9][0-9]{{0,8}}):[0-9a-f]{{{GAME_ID_LENGTH}}}"
SCORE_LINE = re.compile(
    rf"2\|{_NUMBER}\|{_NUMBER}\|((?:{_COUNTED},){{0,{LEDGER - 1}}}{_COUNTED}|)" + _COUNT * (15 * len(BOARDS))
)
UNREADABLE = "Your saved game could not be read, so a new game has started."
UNREADABLE_SCORE = "Your saved score could not be read, so it starts again from nothing."
OUTDATED = "The game has been updated since your last visit, so a new game has started."
# What the session may hold, and the type of each: anything else means the cookie is not ours.
FIELDS = {"game": str, "notice": str, "notice_is_error": bool}


class PlainJSON:
    """Session data as plain JSON: the game only ever stores text and flags, so none of Flask's
    tags for dates, bytes or markup are needed, and a cookie cannot smuggle one in."""

    # One encoder, made once: json.dumps makes one anew whenever it is given options.
    _encode = json.JSONEncoder(separators=(",", ":")).encode

    def dumps(self, value) -> str:
        return self._encode(value)

    def loads(self, text):
        return json.loads(text)


PLAIN_JSON = PlainJSON()


class KeptKeySigner(TimestampSigner):
    """itsdangerous's timestamp signer, deriving each key from the secret once rather than on every signature."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.derived: dict[bytes, bytes] = {}

    def derive_key(self, secret_key: str | bytes | None = None) -> bytes:
        key = self.secret_keys[-1] if secret_key is None else want_bytes(secret_key)
        derived = self.derived.get(key)
        if derived is None:
            derived = self.derived[key] = super().derive_key(key)
        return derived


# A payload shorter than this is not compressed: zlib gains a few bytes on a game's line and cost more than the HMAC.
COMPRESS_FROM = 1024


class CookieSerializer(URLSafeTimedSerializer):
    """itsdangerous's URL-safe timed serializer, with KeptKeySigner, leaving short payloads uncompressed (its
    reader takes both)."""

    default_signer = KeptKeySigner

    def make_signer(self, salt: str | bytes | None = None) -> KeptKeySigner:
        """The signer for ``salt``, made once (itsdangerous makes one for every signature)."""
        signers = self.__dict__.setdefault("signers", {})
        signer = signers.get(salt)
        if signer is None:
            signer = signers[salt] = super().make_signer(salt)
        return signer

    def dump_payload(self, obj) -> bytes:
        text = Serializer.dump_payload(self, obj)
        return base64_encode(text) if len(text) < COMPRESS_FROM else super().dump_payload(obj)


@lru_cache(maxsize=16)
def _serializer(keys: tuple[str, ...], salt: str, key_derivation: str, digest_method) -> CookieSerializer:
    """One serializer for each key and salt, made once: itsdangerous builds its signers anew for each."""
    return CookieSerializer(
        list(keys),
        salt=salt,
        serializer=PLAIN_JSON,
        signer_kwargs={"key_derivation": key_derivation, "digest_method": digest_method},
    )


@lru_cache(maxsize=16)
def _cookie_attributes(name: str, **attributes) -> str:
    """What Werkzeug writes after a cookie's value, for cookies that last as long as the browser's session."""
    return dump_cookie(name, "", **attributes).removeprefix(f"{name}=")


class GameSession(SecureCookieSession):
    """Flask's cookie session, with what the game reads beside its data."""

    unreadable = False  # signed with our key but not the game's: a new game starts, with a notice
    score_line: str | bool | None = None  # the score's cookie as it came (False: not ours), to write it only on change
    score_to_write: str | None = None  # the score's line this request changed it to


class GameSessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session that also notices a cookie it had to throw away, and makes the
    cookie Secure whenever the request came over HTTPS (as the proxy in front of us reports).

    Its cookies are Flask's own, signed the same way, and a second one holds the score. The signers are made
    once, and a cookie's attributes are written once for every cookie: building them on every answer was most
    of a move's cost beyond a trivial app's (docs/serving.md).
    """

    # Flask types it as its tagged serializer; itsdangerous only calls dumps and loads.
    serializer = PLAIN_JSON  # type: ignore[assignment]
    session_class = GameSession
    # Flask's own digest, handed over as OpenSSL's constructor: Python's hmac then signs in C, not in Python.
    digest_method = staticmethod(hashlib.sha1)

    # The score's cookie: signed with the same keys under a salt of its own, so neither cookie passes for the other.
    score_salt = "score"

    def get_signing_serializer(self, app, salt: str | None = None):
        """Flask's serializer, under ``salt`` if given (the score's), else the session's."""
        if not app.secret_key:
            return None
        keys = (*(app.config["SECRET_KEY_FALLBACKS"] or ()), app.secret_key)  # the current key last
        return _serializer(keys, salt or self.salt, self.key_derivation, self.digest_method)

    def score_cookie_name(self, app) -> str:
        return f"{self.get_cookie_name(app)}_score"

    def open_session(self, app, request):
        signer = self.get_signing_serializer(app)
        if signer is None:
            return None
        opened = self._open_game(app, request, signer)
        # The score's line as it came (None without one; False if it is not ours), to write it only if it changes.
        opened.score_line = self._open_score(app, request)
        opened.score_to_write = None
        return opened

    def _open_game(self, app, request, signer):
        text = request.cookies.get(self.get_cookie_name(app))
        if not text:
            return self.session_class()
        data = self._verified(app, signer, text)
        if not _is_ours(data):
            opened = self.session_class()
            opened.unreadable = True
            return opened
        return self.session_class(data)

    def _open_score(self, app, request) -> str | bool | None:
        text = request.cookies.get(self.score_cookie_name(app))
        if not text:
            return None
        line = self._verified(app, self.get_signing_serializer(app, self.score_salt), text)
        return line if isinstance(line, str) else False

    @staticmethod
    def _verified(app, signer, text: str):
        try:
            return signer.loads(text, max_age=int(app.permanent_session_lifetime.total_seconds()))
        except (BadSignature, ValueError, RecursionError):
            return None  # forged, expired, or not JSON (a ValueError): not a cookie we wrote

    def save_session(self, app, session, response) -> None:
        """Flask's own for the game's cookie, and the score's cookie when the request changed the score."""
        line = getattr(session, "score_to_write", None)
        if line is not None and line != session.score_line:
            signed = self.get_signing_serializer(app, self.score_salt).dumps(line)
            self._set_cookie(app, session, response, self.score_cookie_name(app), signed)
        name = self.get_cookie_name(app)
        if session.accessed:
            vary_on(response, "Cookie")
        if not session:
            if session.modified:
                response.delete_cookie(name, **self._attributes(app))
                vary_on(response, "Cookie")
            return
        if self.should_set_cookie(app, session):
            self._set_cookie(app, session, response, name, self.get_signing_serializer(app).dumps(dict(session)))

    def _set_cookie(self, app, session, response, name: str, value: str) -> None:
        expires = self.get_expiration_time(app, session)
        if expires is None:
            response.headers.add("Set-Cookie", f"{name}={value}{_cookie_attributes(name, **self._attributes(app))}")
        else:
            response.set_cookie(name, value, expires=expires, **self._attributes(app))
        vary_on(response, "Cookie")

    def _attributes(self, app) -> dict:
        return {
            "domain": self.get_cookie_domain(app),
            "path": self.get_cookie_path(app),
            "secure": self.get_cookie_secure(app),
            "partitioned": self.get_cookie_partitioned(app),
            "samesite": self.get_cookie_samesite(app),
            "httponly": self.get_cookie_httponly(app),
        }

    def get_cookie_secure(self, app) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"] or request.is_secure)


def _is_ours(data) -> bool:
    """Whether a verified cookie's payload has the shape this module writes."""
    return isinstance(data, dict) and all(type(data[name]) is FIELDS.get(name) for name in data)


@dataclass(frozen=True, slots=True)
class Loaded:
    """What the session held: the table, a one-off notice, and whether the game had to be reset."""

    table: Table
    notice: str | None = None
    reset: bool = False
    notice_is_error: bool = False


def load_table() -> Loaded:
    """The visitor's table and any notice for them (shown once, then forgotten).

    A first visit gets a game with an id of its own at once, saved with the page, so that the page's
    forms and the cookie they come back with name the same game.
    """
    scores, score_notice = _load_scores()
    if not session:
        if getattr(session, "unreadable", False):
            return _fresh(UNREADABLE, scores)
        table = _new_table(scores)
        save(table)
        return Loaded(table, score_notice, notice_is_error=score_notice is not None)
    notice = session.pop("notice", None)
    notice_is_error = session.pop("notice_is_error", False)
    game = session.get("game")
    if game is None or OTHER_VERSION.fullmatch(game):
        return _fresh(OUTDATED, scores)
    try:
        table = replace(_decode(game), scores=scores)
    except ValueError:
        return _fresh(UNREADABLE, scores)
    notice = notice or score_notice
    if notice is None:
        return Loaded(table)
    return Loaded(table, notice, notice_is_error=notice_is_error or notice == score_notice)


def save(table: Table, notice: str | None = None, notice_is_error: bool = False) -> None:
    """Store ``table``, and a notice to show on the next page, in the session's cookies.

    The score's cookie is only sent again when the score changed (see the module's docstring).
    """
    session.clear()
    session.update(_encode(table))
    if getattr(session, "score_line", None) is not None or table.scores != Scores():
        cast(GameSession, session).score_to_write = _encode_scores(table.scores)
    if notice:
        session["notice"] = notice
        if notice_is_error:
            session["notice_is_error"] = True


def _new_table(scores: Scores) -> Table:
    # The worker's own generator, reseeded from the system in each worker (webapp.web.randomness).
    return Table(scores=scores, game_id=new_game_id(current_app.extensions["rng"]), number=scores.next_number())


def _fresh(notice: str, scores: Scores) -> Loaded:
    table = _new_table(scores)
    save(table)
    return Loaded(table, notice, reset=True)


def _load_scores() -> tuple[Scores, str | None]:
    """The score's cookie read back (or as this request has saved it), and a notice if it could not be read."""
    line = getattr(session, "score_to_write", None) or getattr(session, "score_line", None)
    if line is None:
        return Scores(), None
    try:
        if line is False:
            raise ValueError("not a cookie we wrote")
        return _decode_scores(line), None
    except ValueError:
        return Scores(), UNREADABLE_SCORE


def _width(board: str) -> int:
    return 1 if BY_KEY[board].cells <= len(ALPHABET) else 2


def encode_moves(moves: tuple[int, ...], board: str) -> str:
    """The moves as the cookie writes them: one character each, or two on boards of more than 64 cells.

    >>> encode_moves((4, 0, 8), "3x3"), encode_moves((48, 10), "7x7"), encode_moves((224, 0), "15x15")
    ('408', 'Ma', '3w00')
    """
    if _width(board) == 1:
        return "".join(ALPHABET[m] for m in moves)
    return "".join(ALPHABET[m // len(ALPHABET)] + ALPHABET[m % len(ALPHABET)] for m in moves)


def decode_moves(text: str, board: str) -> tuple[int, ...]:
    """The moves written by encode_moves(); a ValueError if the text cannot be theirs."""
    width = _width(board)
    if len(text) % width:
        raise ValueError("a move is cut in half")
    if width == 1:
        return tuple(_DIGIT[c] for c in text)
    return tuple(_DIGIT[text[i]] * len(ALPHABET) + _DIGIT[text[i + 1]] for i in range(0, len(text), 2))


def _encode(table: Table) -> dict:
    s = table.settings
    fields = [VERSION, s.board, s.mode, s.human, s.difficulty, s.x_level, s.o_level, table.counts_as]
    fields += [encode_moves(table.moves, s.board), str(int(table.paused)), str(int(table.show_values))]
    fields += [str(int(table.practice)), table.game_id, str(table.number)]
    return {"game": "|".join(fields)}


def _encode_scores(scores: Scores) -> str:
    fields = [SCORE_VERSION, str(scores.latest), str(scores.floor), ",".join(f"{n}:{i}" for n, i in scores.counted)]
    fields += [_NO_GAMES_TEXT if score == _NO_GAMES else _score_text(score) for score in scores.boards]
    return "|".join(fields)


@lru_cache(maxsize=256)
def _decode_scores(line: str) -> Scores:
    """The scores in the score cookie's line; raises ValueError for anything else."""
    found = SCORE_LINE.fullmatch(line)
    if found is None:
        raise ValueError("not a score's line")
    latest, floor, counted, *counts = found.groups()
    boards = tuple(_score(counts[i : i + 15]) for i in range(0, len(counts), 15))
    games = tuple((int(n), game_id) for n, game_id in (entry.split(":") for entry in counted.split(",") if entry))
    return Scores(boards, games, int(latest), int(floor))


def _score_text(score: Score) -> str:
    return "|".join(
        str(n) for name in SCORE_TALLIES for t in [getattr(score, name)] for n in (t.first, t.second, t.draws)
    )


# Most boards' scores in most cookies are all nought: read and written as one shared value, not 15 counts.
_NO_GAMES = Score()
_NO_GAMES_TEXT = _score_text(_NO_GAMES)
_NO_GAMES_COUNTS = _NO_GAMES_TEXT.split("|")


def _decode(text: str) -> Table:
    """The table in a cookie's line of text; raises ValueError for anything that is not a legal game."""
    found = GAME_LINE.fullmatch(text)
    if found is None:
        raise ValueError("not a game's line")
    board, mode, human, difficulty, x_level, o_level, counts_as, moves, paused, values, practice, game_id, number = (
        found.groups()
    )
    table = Table(
        settings=Settings(mode, human, difficulty, x_level, o_level, board),
        moves=decode_moves(moves, check_board(board)),
        paused=paused == "1",
        show_values=values == "1",
        counts_as=counts_as,
        game_id=game_id,
        number=int(number),
        practice=practice == "1",
    )
    table.position  # noqa: B018 -- replaying the moves raises if they are not a legal game
    return table


def _score(counts: list[str]) -> Score:
    """One board's score from its 15 counts, in the order of SCORE_TALLIES."""
    return _NO_GAMES if counts == _NO_GAMES_COUNTS else Score(*_tallies(counts))


def _tallies(counts: list[str]) -> list[Tally]:
    numbers = [int(count) for count in counts]
    return [Tally(*numbers[i : i + 3]) for i in range(0, len(numbers), 3)]
