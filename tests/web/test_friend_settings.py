"""The friend games' settings from the environment."""

import pytest

from webapp.serving.settings import ConfigError
from webapp.web.friend_settings import read_friend_settings


@pytest.mark.parametrize("name", ["FRIEND_WAITING_SECONDS", "FRIEND_WAITING_PER_CLIENT", "FRIEND_GAMES_PER_CLIENT"])
def test_the_per_client_friend_limits_are_read_and_checked(name):
    assert read_friend_settings({name: "7"})[name] == 7
    for bad in ("0", "-1", "many", "10000000"):
        with pytest.raises(ConfigError, match=f"{name} must be a whole number"):
            read_friend_settings({name: bad})


def test_the_friend_games_store_is_read_from_the_environment():
    found = read_friend_settings({"REDIS_URL": " redis://store:6379/0 ", "FRIEND_DATABASE": "/srv/friends.sqlite3"})
    assert found == {"REDIS_URL": "redis://store:6379/0", "FRIEND_DATABASE": "/srv/friends.sqlite3"}
    assert read_friend_settings({}) == {}
