import pytest

from webapp import create_app


@pytest.fixture
def app():
    return create_app({"TESTING": True, "SECRET_KEY": "test", "RANDOM_SEED": 7})


@pytest.fixture
def client(app):
    return app.test_client()
