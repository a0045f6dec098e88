"""Scaling out on real parts: three copies of the Procfile server, one key, behind Debian's HAProxy.

The machinery is scripts/scale_out.py's, the same that `make scale` measures with (docs/deploy.md); here
only the essential properties, quickly: a game moves between the instances carrying nothing but its
cookie, goes on when an instance dies in the middle of it, and a rolling restart fails no request.
"""

from __future__ import annotations

import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest
from support import load_script

ROOT = Path(__file__).resolve().parent.parent
# Between two moves of a checked player: steady play that leaves the two cores to the restarts and the tests.
PAUSE = 0.05


scale_out = load_script("scale_out")


@pytest.fixture(scope="module")
def fleet():
    """Three instances (one worker each) sharing a key, behind HAProxy; installed by the repo's script if missing."""
    subprocess.run([str(ROOT / "scripts" / "ensure-haproxy")], check=True)
    with scale_out.Fleet(count=3, workers=1) as started:
        yield started


@pytest.fixture
def all_up(fleet):
    """Every instance running, answering, and UP for the proxy before the test (which may stop one)."""
    for instance in fleet.instances:
        if not instance.is_running():
            instance.start()
    for instance in fleet.instances:
        # Its own /healthz, not only the proxy's view: a copy started a moment ago may still be UP there
        # from before, while its master is still loading the app (a SIGTERM then is not yet handled).
        instance.wait_until_healthy()
    fleet.proxy.wait_for({instance.name: "UP" for instance in fleet.instances})
    return fleet


def test_one_game_is_played_on_all_three_instances_carrying_only_its_cookie(all_up):
    player = scale_out.Player(all_up.port)
    for _ in range(6):
        player.move()  # each answer checked: the last board, this move, and one reply
    assert set(player.served_by) == {"web1", "web2", "web3"}
    player.check_score()


def test_games_go_on_when_an_instance_dies_in_the_middle_of_them(all_up):
    players = [scale_out.Player(all_up.port) for _ in range(3)]
    for player in players:
        player.move()
    victim = all_up.instances[0]
    # A crash between moves: master and workers at once, and all gone (so its port refuses connections)
    # before the players go on. A crash with requests under way is measured by `make scale`
    # (docs/deploy.md): the proxy retries what the dead copy dropped, but a request that reaches its
    # listening socket in the instant the socket dies can get a 502, which no proxy can retry.
    victim.stop(signal.SIGKILL)
    served_before = [len(player.served_by) for player in players]
    for _ in range(4):
        for player in players:
            # Straight away, before the health checks notice: what goes to the dead copy the proxy sends on.
            player.move()
    for player, start in zip(players, served_before, strict=True):
        player.check_score()  # the board is the last answer's, and every finished game is counted once
        assert set(player.served_by[start:]) <= {"web2", "web3"}
    all_up.proxy.wait_for({victim.name: "DOWN"}, timeout=10)


def test_a_rolling_restart_under_play_fails_no_request(all_up):
    stop = threading.Event()
    records, threads = scale_out.play_continuously(all_up.port, players=3, stop=stop, seed=7, pause=PAUSE)
    try:
        before = {name: row["requests"] for name, row in scale_out.counters(all_up).items()}
        for instance in all_up.instances:
            step = all_up.restart(instance)  # SIGTERM, the exit, DOWN for the proxy, started again, UP
            assert step["exit_code"] == 0
            time.sleep(0.5)  # a moment of play on the new copy before the next one goes
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
    assert not scale_out.failures(records), scale_out.failures(records)
    assert all(record["moves"] > 0 and "score" in record for record in records), records
    served = {name: row["requests"] - before[name] for name, row in scale_out.counters(all_up).items()}
    assert all(count > 0 for count in served.values()), served  # every instance, old or new, took its share
