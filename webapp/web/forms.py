"""Reading the fields of a request, with messages a person understands when they are wrong."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Mapping
from urllib.parse import parse_qsl

from flask import Request
from werkzeug.datastructures import ImmutableMultiDict
from werkzeug.exceptions import ClientDisconnected
from werkzeug.utils import cached_property


class FormError(ValueError):
    """A field is missing or holds something the game cannot use."""


def whole_number(form: Mapping[str, str], name: str, low: int, high: int, wrong: str) -> int:
    """The field ``name`` as a whole number from ``low`` to ``high``; ``wrong`` is the message if not."""
    text = form.get(name, "").strip()
    # Checked by length before int() reads it: thousands of digits would make Python itself refuse,
    # in its own words. No form of ours pads a number, so a longer one is as wrong as any other.
    if not text.isascii() or not text.isdigit() or len(text) > len(str(high)) or not low <= int(text) <= high:
        raise FormError(wrong)
    return int(text)


def optional_choice(form: Mapping[str, str], name: str, check: Callable[[str], str]) -> str | None:
    """The field ``name`` if it was sent, checked by ``check`` (which raises a ValueError); else None."""
    value = form.get(name)
    return None if value is None else check(value)


# What the game's forms send, with or without htmx: a urlencoded body of a few dozen bytes (a setup
# form's question, the longest, is a few hundred). Anything else is left to Werkzeug.
URLENCODED = "application/x-www-form-urlencoded"
SHORT_FORM = 4096
# A Cookie header holding one cookie, whose value needs no unquoting: what a visitor's browser sends us.
ONE_PLAIN_COOKIE = re.compile(r"([A-Za-z0-9_-]+)=([A-Za-z0-9_.-]*)")


class GameRequest(Request):
    """Flask's request, reading a short form and a lone session cookie directly, as Werkzeug would read them.

    Werkzeug's general readers (a parser object, a limited stream, the limits looked up through the
    app) cost a tenth of a move for a body of a few dozen bytes. The same items come out: anything
    unusual (another content type, a long body, quoted or several cookies) takes Werkzeug's path.
    """

    def _load_form_data(self) -> None:
        length = self.environ.get("CONTENT_LENGTH", "")
        if (
            "form" in self.__dict__
            or self.shallow
            or self.environ.get("CONTENT_TYPE") != URLENCODED
            or not (length.isascii() and length.isdigit() and int(length) <= SHORT_FORM)
            or getattr(self, "_cached_data", None) is not None
        ):
            return super()._load_form_data()
        body = _read_exactly(self.environ["wsgi.input"], int(length))
        try:
            # % escapes that are not UTF-8 are kept as %XX text, by Werkzeug's own error handler.
            items = parse_qsl(body.decode(), keep_blank_values=True, errors="werkzeug.url_quote")
        except ValueError:
            items = []  # a body that is not UTF-8: Werkzeug's parser reads it as an empty form
        self.__dict__.update(
            stream=io.BytesIO(), form=self.parameter_storage_class(items), files=self.parameter_storage_class()
        )

    @cached_property
    def cookies(self) -> ImmutableMultiDict[str, str]:
        if (found := ONE_PLAIN_COOKIE.fullmatch(self.environ.get("HTTP_COOKIE", ""))) is not None:
            name, value = found.groups()
            return ImmutableMultiDict([(name, value)])
        return super().cookies


def _read_exactly(stream, length: int) -> bytes:
    """``length`` bytes of ``stream``; a client that sends less has gone, as Werkzeug's stream would say."""
    body = b""
    while len(body) < length:
        block = stream.read(length - len(body))
        if not block:
            raise ClientDisconnected()
        body += block
    return body
