import secrets

import pytest

from webapp import create_app
from webapp.serving.settings import DEVELOPMENT_KEY, ConfigError, from_environment

LONG_ENOUGH = "Zq3-8vKx_Lr2mW9pTfYb7cHd4nGs6jAe"  # 32 characters, as random as a generated key


def test_production_refuses_to_start_without_a_secret_key():
    with pytest.raises(ConfigError) as refused:
        create_app({"TESTING": False})
    message = str(refused.value)
    assert message.startswith("SECRET_KEY is not set")
    assert "\n" not in message
    assert isinstance(refused.value, SystemExit)


@pytest.mark.parametrize("key", ["short", "x" * 31])
def test_production_refuses_a_short_secret_key_in_one_line(key):
    with pytest.raises(ConfigError) as refused:
        create_app({"SECRET_KEY": key})
    message = str(refused.value)
    assert message.startswith(f"SECRET_KEY is {len(key)} characters long; it needs at least 32")
    assert 'python -c "import secrets; print(secrets.token_urlsafe(32))"' in message
    assert "\n" not in message


def test_a_key_of_32_characters_is_enough():
    assert create_app({"SECRET_KEY": LONG_ENOUGH}).config["SECRET_KEY"] == LONG_ENOUGH


@pytest.mark.parametrize(
    "key",
    [
        " " * 32,  # long enough, and blank
        "k" * 40,
        "password" * 4,  # a word repeated
        "0123456789" * 4,
        "ab" * 30,
        f" {LONG_ENOUGH} ",  # pasted with blanks around it
        DEVELOPMENT_KEY + " " * 10,
    ],
)
def test_a_key_that_is_long_but_easy_to_guess_is_refused(key):
    with pytest.raises(ConfigError, match="SECRET_KEY looks easy to guess"):
        create_app({"SECRET_KEY": key})


@pytest.mark.parametrize("make", [lambda: secrets.token_urlsafe(32), lambda: secrets.token_hex(16), secrets.token_hex])
def test_generated_keys_are_accepted(make):
    for _ in range(50):
        key = make()
        assert create_app({"SECRET_KEY": key}).config["SECRET_KEY"] == key


def test_the_site_url_is_read_and_checked():
    assert from_environment({"SITE_URL": "https://Game.example/"})["SITE_URL"] == "https://game.example"
    assert "SITE_URL" not in from_environment({})
    for bad in ("game.example", "ftp://game.example", "https://game.example/path", "https://a b"):
        with pytest.raises(ConfigError, match="SITE_URL must be the site's address"):
            from_environment({"SITE_URL": bad})


def test_testing_runs_without_one():
    assert create_app({"TESTING": True}).config["SECRET_KEY"] == DEVELOPMENT_KEY


def test_debug_alone_does_not_get_the_development_key(monkeypatch):
    # FLASK_DEBUG=1 left on a production server must not sign cookies with a published key.
    monkeypatch.delenv("FLASK_RUN_FROM_CLI", raising=False)
    with pytest.raises(ConfigError, match="SECRET_KEY is not set"):
        create_app({"DEBUG": True})


def test_flask_run_in_debug_gets_the_development_key(monkeypatch):
    monkeypatch.setenv("FLASK_RUN_FROM_CLI", "true")  # what the `flask` command sets
    assert create_app({"DEBUG": True}).config["SECRET_KEY"] == DEVELOPMENT_KEY
    with pytest.raises(ConfigError, match="SECRET_KEY is not set"):
        create_app({"DEBUG": False})


def test_configuration_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("SECRET_KEY", LONG_ENOUGH)
    monkeypatch.setenv("PORT", "8123")
    app = create_app()
    assert app.config["SECRET_KEY"] == LONG_ENOUGH
    assert app.config["PORT"] == 8123
    assert not app.testing


@pytest.mark.parametrize("port", ["http", "0", "70000", "-1"])
def test_a_bad_port_is_named(port):
    with pytest.raises(ConfigError, match="PORT must be a port number"):
        from_environment({"PORT": port})


def test_defaults():
    assert from_environment({}) == {"PORT": 5000, "PROXY_COUNT": 1}


@pytest.mark.parametrize("count", ["0", "1", "2", " 3 "])
def test_the_proxies_in_front_are_counted(count):
    assert from_environment({"PROXY_COUNT": count})["PROXY_COUNT"] == int(count)


@pytest.mark.parametrize("count", ["-1", "6", "one", "1.5", ""])
def test_a_proxy_count_that_is_no_small_number_is_refused_with_its_reason(count):
    with pytest.raises(ConfigError, match="PROXY_COUNT must be the number of proxies"):
        from_environment({"PROXY_COUNT": count})


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        ("old-key", ["old-key"]),
        (" older , old ", ["older", "old"]),
        (",, old,", ["old"]),
    ],
)
def test_old_keys_come_from_secret_key_fallbacks_comma_separated(text, keys):
    assert from_environment({"SECRET_KEY_FALLBACKS": text})["SECRET_KEY_FALLBACKS"] == keys


def test_a_server_started_with_fallbacks_gives_them_to_flask(monkeypatch):
    monkeypatch.setenv("SECRET_KEY", LONG_ENOUGH)
    monkeypatch.setenv("SECRET_KEY_FALLBACKS", "the key before, the one before that")
    assert create_app().config["SECRET_KEY_FALLBACKS"] == ["the key before", "the one before that"]
