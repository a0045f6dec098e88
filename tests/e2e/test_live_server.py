"""The browser tests' own server: what it must do for the tests to say anything."""

import gc
import warnings

from live import closing
from werkzeug.test import EnvironBuilder

from webapp import create_app


def test_a_static_file_is_closed_when_its_visitor_hangs_up_mid_answer():
    app = create_app({"TESTING": True, "SECRET_KEY": "e2e"})
    with app.test_request_context():
        path = app.jinja_env.globals["asset"]("htmx-2.0.11.min.js")
    environ = EnvironBuilder(path=path).get_environ()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        answer = iter(closing(app)(environ, lambda status, headers, exc_info=None: None))
        assert next(answer)  # the file's first bytes are on their way...
        del answer  # ...when the browser hangs up, and Werkzeug drops the answer without closing it
        gc.collect()
    assert not [w.message for w in caught if issubclass(w.category, ResourceWarning)]
