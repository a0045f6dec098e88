import pytest

from webapp import create_app
from webapp.settings import ConfigError, from_environment


def test_production_refuses_to_start_without_a_secret_key():
    with pytest.raises(ConfigError) as refused:
        create_app({"TESTING": False})
    message = str(refused.value)
    assert message.startswith("SECRET_KEY is not set")
    assert "\n" not in message
    assert isinstance(refused.value, SystemExit)


def test_debug_and_testing_run_without_one():
    assert create_app({"TESTING": True}).config["SECRET_KEY"]
    assert create_app({"DEBUG": True}).config["SECRET_KEY"]


def test_configuration_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "from-the-environment")
    monkeypatch.setenv("PORT", "8123")
    app = create_app()
    assert app.config["SECRET_KEY"] == "from-the-environment"
    assert app.config["PORT"] == 8123
    assert not app.testing


@pytest.mark.parametrize("port", ["http", "0", "70000", "-1"])
def test_a_bad_port_is_named(port):
    with pytest.raises(ConfigError, match="PORT must be a port number"):
        from_environment({"PORT": port})


def test_defaults():
    assert from_environment({}) == {"PORT": 5000}
