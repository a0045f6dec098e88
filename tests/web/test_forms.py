import pytest
from flask import Request
from hypothesis import given
from hypothesis import strategies as st
from werkzeug.exceptions import ClientDisconnected
from werkzeug.test import EnvironBuilder

from webapp.web.forms import SHORT_FORM, URLENCODED, FormError, GameRequest, optional_choice, whole_number


@pytest.mark.parametrize(("text", "value"), [("0", 0), ("8", 8), (" 4 ", 4)])
def test_whole_numbers_in_range(text, value):
    assert whole_number({"cell": text}, "cell", 0, 8, "wrong") == value


@pytest.mark.parametrize("text", ["", "9", "-1", "4.0", "four", "٤", "1e1", None])
def test_anything_else_gets_the_message(text):
    form = {} if text is None else {"cell": text}
    with pytest.raises(FormError, match=r"^wrong$"):
        whole_number(form, "cell", 0, 8, "wrong")


def test_optional_choices():
    assert optional_choice({}, "mode", str.upper) is None
    assert optional_choice({"mode": "hvc"}, "mode", str.upper) == "HVC"


@pytest.mark.parametrize("text", ["0" * 5000, "9" * 5000, "0" * 4999 + "4", "04"])
def test_a_number_longer_than_any_in_range_gets_the_same_message(text):
    with pytest.raises(FormError, match=r"^wrong$"):
        whole_number({"cell": text}, "cell", 0, 8, "wrong")


def read(request_class, body: bytes, content_type: str = URLENCODED, cookie: str | None = None, length=None):
    """What ``request_class`` reads from this body and Cookie header: form, files and cookies, or the error."""
    environ = EnvironBuilder(method="POST", data=body, content_type=content_type).get_environ()
    if cookie is not None:
        environ["HTTP_COOKIE"] = cookie
    if length is not None:
        environ["CONTENT_LENGTH"] = str(length)
    request = request_class(environ)
    try:
        return sorted(request.form.items(multi=True)), dict(request.files), sorted(request.cookies.items(multi=True))
    except Exception as error:
        return type(error)


FORM_TEXT = st.text(alphabet="ab=&;+%2fF0é \x00", max_size=30)
# Mostly one plain name=value (the quick path), sometimes with what takes Werkzeug's.
COOKIE_TEXT = st.text(alphabet='sS_-.0=;"\\ ,', max_size=20)


@given(
    body=st.one_of(FORM_TEXT.map(str.encode), st.binary(max_size=30)),
    cookie=st.one_of(st.none(), st.text(max_size=30), COOKIE_TEXT),
)
def test_the_short_form_and_a_lone_cookie_read_as_werkzeug_reads_them(body, cookie):
    assert read(GameRequest, body, cookie=cookie) == read(Request, body, cookie=cookie)


@pytest.mark.parametrize(
    ("body", "cookie"),
    [
        (b"game=5295cb51dd3b&cell=4", "session=eyJnYW1lIjoiNHwzeDN8.awWXOw.1MOJPagrlFhEO070m_IhQtFz-2U"),
        (b"cell=%ff&cell=%E2%82%AC+x&empty=&=v&novalue", 'session="quoted\\054"'),
        (b"a=1;b=2", "session=one; theme=dark"),
        (b"cell=\xff", "session=a=b"),
        (b"x" * (SHORT_FORM + 1), ""),
    ],
)
def test_what_the_game_sends_and_what_it_never_does(body, cookie):
    assert read(GameRequest, body, cookie=cookie) == read(Request, body, cookie=cookie)


@pytest.mark.parametrize(
    "content_type", [f"{URLENCODED}; charset=utf-8", "multipart/form-data; boundary=x", "text/plain"]
)
def test_other_kinds_of_body_are_werkzeugs_to_read(content_type):
    body = b"--x\r\nContent-Disposition: form-data; name=cell\r\n\r\n4\r\n--x--\r\n"
    assert read(GameRequest, body, content_type) == read(Request, body, content_type)


def test_a_body_shorter_than_it_said_is_a_client_that_left():
    assert read(GameRequest, b"cell=4", length=20) is ClientDisconnected
    assert read(Request, b"cell=4", length=20) is ClientDisconnected


def test_the_game_s_own_form_and_cookie_never_reach_werkzeug_s_readers(monkeypatch):
    def werkzeug_read(*args, **kwargs):
        raise AssertionError("read by Werkzeug")

    monkeypatch.setattr(Request, "make_form_data_parser", werkzeug_read)
    monkeypatch.setattr("werkzeug.sansio.request.parse_cookie", werkzeug_read)
    body, cookie = b"game=5295cb51dd3b&cell=4", "session=eyJnYW1lIjoiNHwzeDN8.awWXOw.1MOJPagrlFhEO070m_IhQtFz-2U"
    assert read(GameRequest, body, cookie=cookie) == (
        [("cell", "4"), ("game", "5295cb51dd3b")],
        {},
        [("session", cookie.removeprefix("session="))],
    )
    assert read(Request, body, cookie=cookie) is AssertionError
