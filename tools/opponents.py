"""The opponents Hard is measured against on the big boards (``python -m tools.strength``).

- ``rapfi``, ``rapfi-strong`` and ``rapfi-timed``: Rapfi, a Gomocup engine, 15×15 only, at a node limit (2,000
  and 10,000 a move by default) or a time limit (100 ms a move by default, so it depends on the machine); played
  only when ``RAPFI`` names its binary (``tools/rapfi.py``).
- ``threatspace``: the ThreatSpace player of the ``gomoku`` 0.1.0 package (an Allis-style threat-space
  search over threes and fours, then a heuristic), 15×15 only. Installed by the ``strength`` extra.
- ``mcts``: OpenSpiel's MCTS bot on its ``mnk`` game, random rollouts; by default the C++ bot of
  ``pyspiel`` (``engine="python"`` for the Python one, several times slower).
- ``medium`` and ``easy``: this game's own levels.

A player is given the board text and a generator, and names its move. Each is built per game with its
own seed, so that the games differ.
"""

from __future__ import annotations

import contextlib
import io
import random
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from webapp.engine import levels
from webapp.engine.boards import Board
from webapp.engine.rules import O, X

if TYPE_CHECKING:
    from tools.rapfi import Player as RapfiPlayer

Player = Callable[[str, random.Random], int]


def stones_of(board: str) -> list[int]:
    """The cells of ``board``'s stones, X's and O's alternately: an order that replays to the same position."""
    xs = [i for i, c in enumerate(board) if c == X]
    os_ = [i for i, c in enumerate(board) if c == O]
    return [xs[i // 2] if i % 2 == 0 else os_[i // 2] for i in range(len(xs) + len(os_))]


def level(name: str) -> Player:
    """One of this game's levels (``random``, ``one-ply`` or ``minimax``), its ties broken by the game's generator."""

    def play(board: str, rng: random.Random) -> int:
        return levels.choose_move(board, name, rng)

    return play


def rapfi(nodes: int = 2000, turn_ms: int = 0) -> RapfiPlayer:
    """Rapfi at ``nodes`` nodes a move, or at ``turn_ms`` milliseconds a move when given (15×15 only);
    RapfiError if ``RAPFI`` names no binary."""
    from tools import rapfi as client

    return client.player(nodes, turn_ms=turn_ms)


def threatspace(seed: int) -> Player:
    """The ``gomoku`` 0.1.0 package's ThreatSpace player (15×15 only), its random choices seeded by ``seed``."""
    _stand_in_for_the_socket_player()
    from gomoku.board import Board as TSBoard  # the strength extra only
    from gomoku.player import threat_space
    from gomoku.threat import threat_search

    threat_space.VERBOSE = 0
    player = threat_space.ThreatSpace()
    state = random.Random(seed)

    def play(board: str, rng: random.Random) -> int:
        if len(board) != 225:
            raise ValueError("The ThreatSpace player plays 15×15 only.")
        order = stones_of(board)
        ts = TSBoard()
        ts.moves(p1=order[0::2], p2=order[1::2])
        ts.turns = len(order)
        # It draws on the random module; its own seeded state, so that a game replays from its seed.
        saved = random.getstate()
        random.setstate(state.getstate())
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                move = player.make_move(ts)
        finally:
            state.setstate(random.getstate())
            random.setstate(saved)
            # Its caches of threats are keyed by position and never emptied: a match would fill the memory.
            for cache in (
                threat_search.cached_threes,
                threat_search.cached_fours,
                threat_search.cached_fives,
                threat_search.cached_straight_fours,
            ):
                cache.clear()
        return move if isinstance(move, int) else move[0] * 15 + move[1]

    return play


def _stand_in_for_the_socket_player() -> None:
    """``gomoku.player`` imports flask_socketio for its human-over-a-socket player, which is never used
    here: if that package is missing, a stand-in lets the import through."""
    try:
        import flask_socketio  # noqa: F401
    except ImportError:
        stand_in = type(sys)("flask_socketio")
        for name in ("SocketIO", "emit", "join_room"):
            setattr(stand_in, name, None)
        sys.modules["flask_socketio"] = stand_in


def mcts(spec: Board, simulations: int, seed: int, engine: str = "cpp") -> Player:
    """OpenSpiel's MCTS bot with random rollouts (UCT constant 2, solving on) on its own ``mnk`` game."""
    import pyspiel  # the strength extra only

    game = pyspiel.load_game("mnk", {"m": spec.n, "n": spec.n, "k": spec.k})
    seed %= 2**31  # OpenSpiel's C++ takes a signed 32-bit seed
    if engine == "cpp":
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        bot = pyspiel.MCTSBot(game, evaluator, 2.0, simulations, 1000, True, seed, False)
    else:
        import numpy as np
        from open_spiel.python.algorithms import mcts as py_mcts

        state_rng = np.random.RandomState(seed)
        bot = py_mcts.MCTSBot(
            game,
            uct_c=2,
            max_simulations=simulations,
            evaluator=py_mcts.RandomRolloutEvaluator(1, state_rng),
            random_state=state_rng,
            solve=True,
        )

    def play(board: str, rng: random.Random) -> int:
        # Stones replayed alternately give the same position, whatever the real order of the game was.
        state = game.new_initial_state()
        for cell in stones_of(board):
            state.apply_action(cell)
        return int(bot.step(state))

    return play
