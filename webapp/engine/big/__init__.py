"""The big boards' engine (7×7 and 15×15, five in a row): its board, line patterns, evaluation, threat search,
alpha-beta, budget and the Hard level.

``levels`` answers the levels' questions (Easy, Medium, Hard, the analysis) and ``facts`` the pages' (threats,
forced wins, a review's facts). Hard (``hard``) plays one ``Move`` at a time: its steps and their shares of the
``budget``, the threat search (``threats``) and the ``alphabeta`` counting on one meter. The board (``board``)
keeps each line's patterns (``lines``) up to date, from which come the evaluation (``evaluation``, its weights
fitted by ``make tune``) and the move ordering. Tunables: ``parameters``. Nothing here is loaded for 3×3 to 5×5.
"""
