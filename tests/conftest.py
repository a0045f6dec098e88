import os

import pytest
from hypothesis import settings

from webapp import create_app

# Few examples in `make test`, so that CI stays quick; `make fuzz` runs the same properties with many more.
settings.register_profile("ci", max_examples=40, deadline=None)
settings.register_profile("fuzz", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def app():
    return create_app({"TESTING": True, "SECRET_KEY": "test", "RANDOM_SEED": 7})


@pytest.fixture
def client(app):
    return app.test_client()
