import pytest

from webapp.forms import FormError, optional_choice, whole_number


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
