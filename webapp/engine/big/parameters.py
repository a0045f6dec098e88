"""The big-board engine's tunables (7×7 and 15×15), each with its reason; the definitions stay with their code.

Hard's budget is here whole: the move's seconds and nodes, each step's share, the widths and the threat
searches' sizes. The evaluation's weights are not: they are fitted (``weights.json``, ``make tune``).

>>> SECONDS, FIRST_NODES, ROOT_WIDTH
(0.75, 24000, 24)
"""

# --- the move's budget (``budget.DEFAULT_BUDGET``) ---------------------------------------------------------

# The whole move, CPU seconds: inside a request's 0.8 s, so that a page plays what the strength matches measure.
SECONDS = 0.75
# X's whole move in nodes: the same move on every machine fast enough, where shares of the clock would differ.
FIRST_NODES = 24_000
# As O, each step runs until this fraction of the move's seconds, so that none starves the others; checks get the rest.
OWN_FRACTION, THEIR_FRACTION, DEFENCE_FRACTION, REBUT_FRACTION, SEARCH_FRACTION = 0.12, 0.25, 0.55, 0.7, 0.8
# As O, an iteration starts only within this fraction of the seconds: each costs a few times the last.
START_FRACTION = 0.12
# The deepest iteration any search may start: beyond any depth a move's nodes reach, so the budget decides.
MAX_DEPTH = 64
# As O in the opening, an iteration starts while the alpha-beta has used fewer nodes than these, so that the
# machine's speed does not choose the opening moves: below 12 stones 6,000, below 6 stones 4,000.
OPENING_STONES, OPENING_NODES = 12, 6_000
EARLY_STONES, EARLY_NODES = 6, 4_000
# How often (in nodes) the meter reads the clock and lets other work run: a few milliseconds.
CHECK = 256

# --- the steps of a move (``hard.py``) ---------------------------------------------------------------------

# Each side's threat search at the root: a forced win within a few fours and threes, in about a tenth of the move.
OWN_NODES = 6_000
THEIR_NODES = 6_000
# The opponent's threat search after one move, in the analysis: 20 moves' worth within the analysis's time.
CHECK_NODES = 2_000
# The checks after a candidate, in rounds rising in nodes (or in a fraction of a smaller node budget), so that
# a cheap answer comes first.
ROUNDS = ((250, 0.01), (1_200, 0.03), (5_000, 0.06))
# A threat search's narrow pass (long chains of dependent threats) goes first with this fraction of its share
# (its divisor): cheap wins first, the broad pass keeping the rest.
NARROW_DIVISOR = 3
# Under a budget of nodes, keeping the initiative's look and each rebuttal search get these fractions of it, at most.
PRESS_FRACTION, REBUT_FRACTION_OF_NODES = 0.02, 0.01
# Moves checked against the opponent's threat search before the move, at most: the best-ranked few.
SAFETY_CHECKS = 8
# Of several defences, so many are each played and the opponent given the others; our replies tried there, the
# nodes for each, and the pressure above the least that drops a defence: a quiet second threat, seen in time.
REBUT_MOVES, REBUT_TRIES, REBUT_NODES, REBUT_MARGIN = 4, 10, 400, 0.15
# Keeping the initiative: of the safe moves this close to the best (this many at most), the first after which a
# short search finds us a forced win if we moved again. Close: within a quarter of what an open three of ours is
# worth to the fitted evaluation (two open-four cells and two four cells: about 2 logits), in its thousandths.
PRESS_CANDIDATES, PRESS_MARGIN, PRESS_NODES = 5, 500, 600

# --- the alpha-beta (``alphabeta.py``) ---------------------------------------------------------------------

# Quiet moves searched at the root, one ply below it, two, three, and deeper, best first by the fitted evaluation:
# many at the root, where a move is chosen, and fewer deeper, where the threats are met by rule (``moves.py``), so
# that the alpha-beta reaches deeper within the same nodes.
WIDTHS = (24, 12, 9, 7, 5)
ROOT_WIDTH = WIDTHS[0]
# The table, the orderings and the short wins found, each cleared past this: bounds a worker's memory.
TABLE_LIMIT = 200_000
# The short threat searches inside the alpha-beta, in nodes: at the horizon ours, at the nodes before it both.
LEAF_NODES, INNER_NODES = 24, 40
# Fours in those short searches: a VCF of a handful of moves.
LEAF_DEPTH = 4
# Late-move reductions: a quiet move from this index on, with at least this depth left, is searched a ply
# shallower first, and at full depth only if it beats alpha.
LMR_DEPTH, LMR_MOVES = 3, 3
# A forced reply costs no depth until this ply, so that a long forcing line cannot run the search forever.
FORCED_PLIES = 40

# --- the threat search (``threats.py``) --------------------------------------------------------------------

# Threes a root forced win may use: each more multiplies the search's cost.
THREES = 3
# Attacker moves a sequence may have: longer than any forced win a share of nodes finds.
DEPTH = 20
# The attacker's open threes tried, at the first move and past it (on the lines of its earlier stones): 2.6 times
# fewer nodes than every three, more wins found within 20,000 nodes.
THREES_AT_ROOT, THREES_TRIED = 5, 3

# --- the board (``board.py``, ``lines.py``) ----------------------------------------------------------------

# Each line shape's weight in the move ordering, weakest first (dead, one, two, open two, three, open three, four,
# open four, five): each more than four of the shape below, so a cell's sum over its four directions tells its
# strongest shape (a test holds it).
WEIGHTS = (0, 1, 4, 12, 14, 60, 300, 3000, 40000)

# A move's priority in the ordering: its weight for the mover counts this many times its weight for the other,
# so that making a four goes before blocking a three.
PRIORITY = 2
# What each line's contents make is remembered up to this many entries (about 700 bytes each), then emptied.
LINE_CACHE_LIMIT = 30_000

# --- the pages' questions (``facts.py``, ``levels.py``) -----------------------------------------------------

# A side's forced win for a page: small, so that a page can afford it on every move.
FACTS_NODES, FACTS_SECONDS = 20_000, 0.25
# Each search of a review's move gets this many nodes, so that what is found depends on the position alone;
# and the moves tried instead of one that let a forced win through, to say which would have been better.
REVIEW_SEARCH_NODES, REVIEW_TRIED = 600, 3
# The analysis looks for the opponent's answers until this fraction of its seconds.
ANALYSIS_FRACTION = 0.8
# What Medium sees when the opponent could win at once after its move: worse than any quiet position's evaluation.
MEDIUM_THREAT = 10**8
# Answers remembered (LRU) per worker: a visitor's game and its hints, the pages' facts, Hard's views, the analyses.
FACTS_CACHE, VIEW_CACHE, ANALYSIS_CACHE = 32, 64, 16
# Hard's judgement of a position for the review (``levels.estimate``): its alpha-beta to this depth within these
# nodes. Two plies judged the winners of the dev half's games as well as three or four (log loss 0.581 against
# 0.645 and 0.624), for a third of the time.
ESTIMATE_DEPTH, ESTIMATE_NODES = 2, 3_000
