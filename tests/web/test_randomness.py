import json
import os

import pytest

from webapp import create_app

DRAWS = 8


def draws_here_and_in_a_forked_child(rng) -> tuple[list[float], list[float]]:
    """The next DRAWS numbers of ``rng`` in this process and in a child forked from it now."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: like a gunicorn worker forked from the master
        try:
            os.write(write, json.dumps([rng.random() for _ in range(DRAWS)]).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        child = json.load(pipe)
    os.waitpid(pid, 0)
    return [rng.random() for _ in range(DRAWS)], child


def test_a_forked_worker_does_not_replay_the_masters_random_moves():
    rng = create_app({"TESTING": True}).extensions["rng"]
    here, child = draws_here_and_in_a_forked_child(rng)
    assert here != child
    here_again, other_child = draws_here_and_in_a_forked_child(rng)
    assert other_child not in (child, here_again)


@pytest.mark.parametrize("seed", [7, 2026])
def test_a_configured_seed_is_kept_in_every_process(seed):
    rng = create_app({"TESTING": True, "RANDOM_SEED": seed}).extensions["rng"]
    here, child = draws_here_and_in_a_forked_child(rng)
    assert here == child
