import pytest
from support import HX

from webapp.match import Table
from webapp.present import controls_state, game_view
from webapp.rendering import page_or_fragment, remembered_partial


@pytest.mark.parametrize(
    ("headers", "kind"),
    [({}, "page"), (HX, "fragment"), ({**HX, "HX-History-Restore-Request": "true"}, "page")],
)
def test_one_helper_chooses_the_fragment_for_htmx_only(app, headers, kind):
    context = {"code": 404, "title": "Not Found", "message": "Nothing here."}
    with app.test_request_context("/", headers=headers):
        response = page_or_fragment("error.html", "partials/problem.html", 404, **context)
    html = response.get_data(as_text=True)
    assert ("<html" in html) == (kind == "page")
    assert "Nothing here." in html
    assert response.status_code == 404
    assert "HX-Request" in response.headers["Vary"]


def test_a_pure_partial_is_drawn_once_per_context(app):
    with app.test_request_context("/"):
        first = remembered_partial("partials/board.html", grid=game_view(Table()).grid)
        again = remembered_partial("partials/board.html", grid=game_view(Table()).grid)
        other = remembered_partial("partials/board.html", grid=game_view(Table(moves=(4,))).grid)
        assert first is again  # the same drawing, not drawn again
        assert 'data-board="........."' in first
        assert 'data-board="....X...."' in other
        buttons = remembered_partial("partials/controls.html", controls=controls_state(Table(moves=(4, 0))))
        assert 'id="undo-button" class="button">' in buttons


def test_drawings_are_kept_per_app(app):
    from webapp import create_app

    other = create_app({"TESTING": True})
    assert app.extensions["drawings"] is not other.extensions["drawings"]
