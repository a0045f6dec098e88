"""The exact solver of 4×4 and 5×5 (four in a row): Impossible, proved under a budget of nodes.

``perfect`` answers the levels' questions (a move, every move's value, the outlook) from the 5×5 ``book`` where
it knows and the exact ``search`` past it; the search's inner loop is ``negamax`` over ``bitboard``'s boards.
Its tunables are in ``parameters``. Nothing here is loaded for 3×3.
"""
