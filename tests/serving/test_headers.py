import pytest
from flask import Response

from webapp.serving.headers import vary_on


@pytest.mark.parametrize(
    ("before", "name", "after"),
    [
        (None, "HX-Request", "HX-Request"),
        ("HX-Request", "Accept-Encoding", "HX-Request, Accept-Encoding"),
        ("HX-Request, Accept-Encoding", "accept-encoding", "HX-Request, Accept-Encoding"),
        ("Cookie,HX-Request", "HX-Request", "Cookie,HX-Request"),
        ("Accept-Encoding-Extra", "Accept-Encoding", "Accept-Encoding-Extra, Accept-Encoding"),
    ],
)
def test_vary_on_adds_a_name_once(before, name, after):
    response = Response()
    if before is not None:
        response.headers["Vary"] = before
    vary_on(response, name)
    assert response.headers.get_all("Vary") == [after]
    assert {n.strip().lower() for n in after.split(",")} == set(response.vary.as_set(preserve_casing=False))
