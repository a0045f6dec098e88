"""The 3×3 levels' tunables (``levels.py``), each with its reason; the big boards' are in ``big/parameters.py`` and
the exact solver's in ``exact/parameters.py``.

>>> THREAT, OPEN_LINE
(60, 4)
"""

# What one-ply sees when the side to move can win at once: worse than any quiet position (at most 8 open lines at
# OPEN_LINE each, with placement) and better than a finished loss (levels.WIN and more).
THREAT = 60
# One line still open to the side to move, against one open to the opponent: worth more than any placement.
OPEN_LINE = 4
