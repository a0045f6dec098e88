"""The exact solver's tunables (4×4 and 5×5), each with its reason; the definitions stay with their code.

>>> MOVE_NODES, PAIRING_STEPS, MARKS
(100000, 30, 6)
"""

# How often (in nodes) a search reads its clock and lets other work run: a few milliseconds.
CHECK_EVERY = 256
# The steps one look for a pairing may take, each a node: thirty find as many as a thousand on the bench's positions.
PAIRING_STEPS = 30

# The nodes one question may spend: about 0.3 s of CPU, and nodes so that the answer is the same on any machine.
MOVE_NODES = 100_000
ANALYSIS_NODES = 100_000
OUTLOOK_NODES = 100_000
# The request's seconds, only a safety net under the nodes: inside its 0.8 s with room for the page.
SECONDS = 0.45
# What the other equally good moves and the tie-break may each take once the best is proved: a fifth of a move.
EXTRA_NODES = 20_000
# The search's table is begun again past this many positions: a few MB; 30,000 cost 15 % more nodes than 400,000.
TABLE_LIMIT = 50_000
# Complete answers remembered (LRU): a visitor's game and its hints, within a few MB.
CACHED_BOARDS = 256

# The 5×5 book holds every position with this many marks or fewer: with five every move's value is then a
# lookup, and with seven each is solved live within a request's budget.
MARKS = 6
# The book builder's table is emptied past this many positions: about 300 MB.
BUILD_TABLE_LIMIT = 3_000_000
# How often the builder saves what it has solved (positions), and says how far it has got (positions walked).
SAVE_EVERY = 500
LOG_EVERY = 1000
