"""The game engine: the rules, the game-agnostic search, the levels of play and the board catalogue.

Nothing here imports Flask; the web modules import the engine, never the other way round.
"""
