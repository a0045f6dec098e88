"""The game engine: the rules, the board catalogue, the pace of searches, the game-agnostic search and the levels.

Its public vocabulary is ``rules`` (the immutable ``Position`` and its errors) and ``boards`` (the catalogue),
with ``pacing`` (a request's clock): the pages use them as python-chess's users use ``chess.Board``. What
searches is reached through ``webapp.solver``: the 3×3 solver here (``search``, ``levels``), the exact solver of
4×4 and 5×5 (``exact``) and the big boards' engine (``big``), each loaded when a board first needs it.

Nothing here imports Flask; the web modules import the engine, never the other way round.
"""
