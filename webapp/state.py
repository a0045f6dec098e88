"""The one module that reads and writes ``flask.session``: a Table in a small, signed cookie.

The cookie holds one compact, versioned line of text, such as
``4|3x3|hvc|X|one-ply|minimax|one-ply|one-ply|40|0|0|0|0|0|…``: a string costs Flask's session
serializer far less than nested containers, on every request. Anything that does not read back as
a legal game (a tampered or truncated cookie, an unknown version, impossible moves, a payload of the
wrong shape) becomes a fresh game with a notice, never an error. The lines before this one (versions 3
and 2, both for 3×3 alone) are still read, so that nobody loses their score to an update.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from dataclasses import dataclass, replace
from functools import lru_cache

from flask import request, session
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import BadSignature, TimestampSigner, URLSafeTimedSerializer
from itsdangerous.encoding import base64_encode, want_bytes
from itsdangerous.signer import HMACAlgorithm

from webapp.engine.boards import BOARDS, BY_KEY, DEFAULT
from webapp.headers import vary_on
from webapp.match import SCORE_TALLIES, Score, Scores, Settings, Table, Tally, check_board, check_difficulty, tally_name

VERSION = "4"  # 3 was for 3×3 only; 2 had one score for every difficulty; 1 was a dictionary of fields
_WORD = r"([a-z-]{1,12})"
_COUNT = r"\|([0-9]{1,9})"
_MOVES = r"([0-8]{0,9})"
# A move is one character of this alphabet on boards of up to 64 cells, two on bigger ones, so that a
# whole 15×15 game (225 moves) takes 450 characters. On 3×3 the moves read as before: digits.
ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_"
_DIGIT = {c: i for i, c in enumerate(ALPHABET)}
_MOST_MOVES = max(b.cells for b in BOARDS) * 2
# The shape of the line, checked in one pass; whether the words and moves make sense is the
# Table's to say (Settings checks the words, replaying checks the moves). Every board has its score.
GAME_LINE = re.compile(
    rf"4\|([0-9x]{{3,5}})\|{_WORD}\|([XO])\|{_WORD}\|{_WORD}\|{_WORD}\|{_WORD}\|([0-9a-zA-Z_-]{{0,{_MOST_MOVES}}})"
    rf"\|([01])\|([01])" + _COUNT * (15 * len(BOARDS))
)
# Versions 3 and 2 were for 3×3 alone: they are read as 3×3 games, with their score on 3×3.
V3_GAME_LINE = re.compile(
    rf"3\|{_WORD}\|([XO])\|{_WORD}\|{_WORD}\|{_WORD}\|{_WORD}\|{_MOVES}\|([01])\|([01])" + _COUNT * 15
)
OLD_GAME_LINE = re.compile(rf"2\|{_WORD}\|([XO])\|{_WORD}\|{_WORD}\|{_WORD}\|{_MOVES}\|([01])\|([01])" + _COUNT * 9)
UNREADABLE = "Your saved game could not be read, so a new game has started."
OUTDATED = "The game has been updated since your last visit, so a new game has started."
# What the session may hold, and the type of each: anything else means the cookie is not ours.
FIELDS = {"game": str, "notice": str, "notice_is_error": bool}


class PlainJSON:
    """Session data as plain JSON: the game only ever stores text and flags, so none of Flask's
    tags for dates, bytes or markup are needed, and a cookie cannot smuggle one in."""

    def dumps(self, value) -> str:
        return json.dumps(value, separators=(",", ":"))

    def loads(self, text):
        return json.loads(text)


class _SHA1(HMACAlgorithm):
    """HMAC-SHA1, as Flask signs its cookies, in one call into C.

    Flask hands itsdangerous a Python function that returns hashlib.sha1, which sends every HMAC
    through the hmac module's pure-Python path.
    """

    def __init__(self):
        super().__init__(hashlib.sha1)

    def get_signature(self, key: bytes, value: bytes) -> bytes:
        return hmac.digest(key, value, "sha1")


class _Signer(TimestampSigner):
    """Flask's cookie signer, making the same signatures, with its key derived once per secret.

    itsdangerous derives the key (an HMAC of the salt) again for every signature, twice a request.
    """

    def derive_key(self, secret_key: str | bytes | None = None) -> bytes:
        secret = self.secret_keys[-1] if secret_key is None else want_bytes(secret_key)
        return _derived_key(secret, self.salt)


@lru_cache(maxsize=8)  # one per secret key the app is configured with, never a visitor's text
def _derived_key(secret: bytes, salt: bytes) -> bytes:
    # itsdangerous's "hmac" key derivation, which Flask's sessions use.
    return hmac.digest(secret, salt, "sha1")


class _CookieSerializer(URLSafeTimedSerializer):
    """itsdangerous's URL-safe timed serializer, compressing only a payload long enough to gain.

    It tries zlib on every payload, and setting up a compressor costs more than the rest of a
    session's work together (about 100,000 instructions, and fresh memory every time); a short
    line gains a few dozen bytes from it. Either form reads back, here and in Flask's own session.
    """

    def make_signer(self, salt=None):
        # itsdangerous makes a signer for every cookie it reads or writes; ours keep nothing between uses.
        if salt is not None and salt != self.salt:
            return super().make_signer(salt)
        if self._signer is None:
            self._signer = super().make_signer()
        return self._signer

    _signer = None

    def dump_payload(self, obj) -> bytes:
        text = want_bytes(self.serializer.dumps(obj))
        if len(text) > COMPRESS_FROM:
            return super().dump_payload(obj)
        return base64_encode(text)


# A cookie holds about 4 KB; payloads well inside that are sent as they are.
COMPRESS_FROM = 1024


class GameSessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session that also notices a cookie it had to throw away, and makes the
    cookie Secure whenever the request came over HTTPS (as the proxy in front of us reports).

    Its cookies are Flask's own, byte for byte; only the work of making and checking them is less.
    """

    serializer = PlainJSON()

    def __init__(self):
        # The signing serializer for each set of keys: Flask builds a new one twice a request.
        self._signers: dict[tuple, URLSafeTimedSerializer] = {}

    def get_signing_serializer(self, app):
        if not app.secret_key:
            return None
        keys = (*(app.config["SECRET_KEY_FALLBACKS"] or ()), app.secret_key)
        signer = self._signers.get(keys)
        if signer is None:
            if len(self._signers) > 4:  # the keys changed under a running app: only the latest matter
                self._signers.clear()
            signer = self._signers[keys] = _CookieSerializer(
                list(keys),
                salt=self.salt,
                serializer=self.serializer,
                signer=_Signer,
                signer_kwargs={"key_derivation": self.key_derivation, "algorithm": _SHA1()},
            )
        return signer

    def open_session(self, app, request):
        signer = self.get_signing_serializer(app)
        if signer is None:
            return None
        text = request.cookies.get(self.get_cookie_name(app))
        if not text:
            return self.session_class()
        try:
            data = signer.loads(text, max_age=int(app.permanent_session_lifetime.total_seconds()))
        except (BadSignature, ValueError, RecursionError):
            data = None  # forged, expired, or not JSON (a ValueError): not a cookie we wrote
        if not _is_ours(data):
            opened = self.session_class()
            opened.unreadable = True
            return opened
        return self.session_class(data)

    def save_session(self, app, session, response) -> None:
        """Flask's own, with its three rebuilds of the Vary header (a parse each) made one cheap edit."""
        # A cookie read, written or deleted makes the answer depend on the cookie (headers in Flask's order).
        if session.accessed:
            vary_on(response, "Cookie")
        if not session:
            if session.modified:
                response.delete_cookie(**self._cookie_options(app))
                vary_on(response, "Cookie")
            return
        if not self.should_set_cookie(app, session):
            return
        text = self.get_signing_serializer(app).dumps(dict(session))
        expires = self.get_expiration_time(app, session)
        response.set_cookie(value=text, expires=expires, **self._cookie_options(app))
        if not session.accessed:  # else it is there already
            vary_on(response, "Cookie")

    def _cookie_options(self, app) -> dict:
        return {
            "key": self.get_cookie_name(app),
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


def load() -> Loaded:
    """The visitor's table and any notice for them (shown once, then forgotten)."""
    if not session:
        return _fresh(UNREADABLE) if getattr(session, "unreadable", False) else Loaded(Table())
    notice = session.pop("notice", None)
    notice_is_error = session.pop("notice_is_error", False)
    game = session.get("game")
    if game is None:
        return _fresh(OUTDATED)
    try:
        table = _decode(game)
    except ValueError:
        return _fresh(UNREADABLE)
    if notice is None:
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
    fields += [_NO_GAMES_TEXT if score == _NO_GAMES else _score_text(score) for score in table.scores.boards]
    return {"game": "|".join(fields)}


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
    if (found := GAME_LINE.fullmatch(text)) is not None:
        board, mode, human, difficulty, x_level, o_level, counts_as, moves, paused, values, *counts = found.groups()
        scores = Scores(tuple(_score(counts[i : i + 15]) for i in range(0, len(counts), 15)))
        moves = decode_moves(moves, check_board(board))
    elif (found := V3_GAME_LINE.fullmatch(text)) is not None:
        mode, human, difficulty, x_level, o_level, counts_as, moves, paused, values, *counts = found.groups()
        board, scores = DEFAULT.key, Scores.on(DEFAULT.key, Score(*_tallies(counts)))
        moves = decode_moves(moves, board)
    elif (found := OLD_GAME_LINE.fullmatch(text)) is not None:
        mode, human, difficulty, x_level, o_level, moves, paused, values, *counts = found.groups()
        counts_as, board = difficulty, DEFAULT.key
        hvc, hvh, cvc = _tallies(counts)
        # Version 2 kept one score against the computer: it goes on as the current difficulty's.
        score = replace(Score(hvh=hvh, cvc=cvc), **{tally_name("hvc", check_difficulty(difficulty)): hvc})
        scores, moves = Scores.on(board, score), decode_moves(moves, board)
    else:
        raise ValueError("not a game's line")
    table = Table(
        settings=Settings(mode, human, difficulty, x_level, o_level, board),
        moves=moves,
        paused=paused == "1",
        show_values=values == "1",
        scores=scores,
        counts_as=counts_as,
    )
    table.position  # noqa: B018 -- replaying the moves raises if they are not a legal game
    return table


def _score(counts: list[str]) -> Score:
    """One board's score from its 15 counts, in the order of SCORE_TALLIES."""
    return _NO_GAMES if counts == _NO_GAMES_COUNTS else Score(*_tallies(counts))


def _tallies(counts: list[str]) -> list[Tally]:
    numbers = [int(count) for count in counts]
    return [Tally(*numbers[i : i + 3]) for i in range(0, len(numbers), 3)]
