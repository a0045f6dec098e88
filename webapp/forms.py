"""Reading the fields of a request, with messages a person understands when they are wrong."""

from __future__ import annotations

from collections.abc import Callable, Mapping


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
