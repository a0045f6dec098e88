"""The opponents Hard is measured against on the big boards (``python -m tools.strength``).

- ``threatspace``: the ThreatSpace player of the ``gomoku`` 0.1.0 package (an Allis-style threat-space
  search over threes and fours, then a heuristic), 15×15 only. Installed by the ``strength`` extra.
- ``attacker``: our own attacker. It completes a line or blocks one, plays a forced win by continuous
  fours or by fours and threes whenever its threat search (more nodes and threes than Hard's) finds
  one, and otherwise plays greedily: the move after which the static evaluation is best, one of the
  best few at random in its first moves, so that its openings vary.
- ``mcts``: OpenSpiel's MCTS bot on its ``mnk`` game, random rollouts; by default the C++ bot of
  ``pyspiel`` (``--mcts python`` for the Python one, several times slower).

A player is given the board text and a generator, and names its move. Each is built per game with its
own seed, so that the games differ.
"""

from __future__ import annotations

import contextlib
import io
import random
import sys
from collections.abc import Callable

from webapp.engine import big
from webapp.engine.boards import Board
from webapp.engine.gomoku import Gomoku
from webapp.engine.rules import O, X
from webapp.engine.vct import Meter, OutOfBudget, ThreatSearch

Player = Callable[[str, random.Random], int]

# The attacker's threat search: more than Hard gives its own (hard.OWN_NODES, hard.THREES).
ATTACKER_NODES = 40_000
ATTACKER_THREES = 4
# In its first moves the attacker picks among its best few, so that no two games open alike.
OPENING_STONES = 8
OPENING_SPREAD = 3


def stones_of(board: str) -> list[int]:
    """The cells of ``board``'s stones, X's and O's alternately: an order that replays to the same position."""
    xs = [i for i, c in enumerate(board) if c == X]
    os_ = [i for i, c in enumerate(board) if c == O]
    return [xs[i // 2] if i % 2 == 0 else os_[i // 2] for i in range(len(xs) + len(os_))]


def attacker(nodes: int = ATTACKER_NODES, threes: int = ATTACKER_THREES) -> Player:
    """Our own attacker: threat search for forced wins, else greedy."""

    def play(board: str, rng: random.Random) -> int:
        game = Gomoku.for_board(board)
        me = game.mover
        mine, theirs = game.completions(me)
        if mine:
            return mine[0]
        if theirs:
            return theirs[0]
        try:
            win = ThreatSearch(game, me, Meter(nodes=nodes)).vct(threes)
        except OutOfBudget:
            win = None
        if win is not None:
            return win.first
        return greedy(game, rng)

    return play


def greedy(game: Gomoku, rng: random.Random) -> int:
    """The move after which the static evaluation is best for the side to move (one of the best few early on)."""
    scored = []
    for move in game.moves():
        game.play(move)
        # The opponent is to move now: its immediate win is the worst we could leave it.
        scored.append((-(big.THREAT if game.wins() else game.evaluate()), move))
        game.undo()
    scored.sort(reverse=True)
    if game.stones < OPENING_STONES:
        return rng.choice(scored[:OPENING_SPREAD])[1]
    top = scored[0][0]
    return rng.choice([move for score, move in scored if score == top])


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
        stand_in.SocketIO = stand_in.emit = stand_in.join_room = None
        sys.modules["flask_socketio"] = stand_in


def mcts(spec: Board, simulations: int, seed: int, engine: str = "cpp") -> Player:
    """OpenSpiel's MCTS bot with random rollouts (UCT constant 2, solving on) on its own ``mnk`` game."""
    import pyspiel  # the strength extra only

    game = pyspiel.load_game("mnk", {"m": spec.n, "n": spec.n, "k": spec.k})
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
