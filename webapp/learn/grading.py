"""A move's grade: what it keeps for its mover with best play, against the best on offer.

>>> grade(Outlook("draw", 5), Outlook("win", 3)), outlook_words(Outlook("loss", 2))
('mistake', 'a loss in 2 moves')
"""

from __future__ import annotations

from dataclasses import dataclass

# "inaccuracy" only by estimate, on the big boards (big_review.py): a smaller loss than a mistake's.
GRADES = ("best", "good", "inaccuracy", "mistake", "blunder", "unclear")
RESULT_RANK = {"loss": 0, "draw": 1, "win": 2}
GRADE_WORDS = {
    "best": "a best move",
    "good": "a good move",
    "inaccuracy": "an inaccuracy",
    "mistake": "a mistake",
    "blunder": "a blunder",
    "unclear": "not graded",
}


@dataclass(frozen=True, slots=True)
class Outlook:
    """How the game ends for one side under perfect play: the result and the plies to the end.

    The result is "unclear" (and plies None) where nothing was proved.
    """

    result: str  # "win", "draw", "loss" or "unclear"
    plies: int | None

    @property
    def words(self) -> str:
        return self.result if self.result in ("draw", "unclear") else f"{self.result} in {self.plies}"

    @property
    def is_proved(self) -> bool:
        return self.result != "unclear"


UNCLEAR = Outlook("unclear", None)


@dataclass(frozen=True, slots=True)
class GradedMove:
    """One move of a game, judged from the mover's side against the best move on offer."""

    number: int  # 1 for the first move
    cell: int
    mover: str
    value: Outlook  # what the move keeps for the mover with perfect play after it
    best: Outlook  # what the best move would have kept
    grade: str  # one of GRADES
    best_cells: tuple[int, ...]  # the moves proved to keep ``best``, or on a big board the better moves found
    why: str = ""  # on a big board, what was proved about it, or "estimate": one of big_review.WHY ("" on 3×3 to 5×5)
    # On a big board, the mover's chance of winning by Hard's estimate (big_review.py): after the move Hard would
    # have played (the first of ``best_cells``), and after the move played. None where not estimated.
    before: float | None = None
    after: float | None = None
    turned: bool = False  # on a big board, a mistake that changed the game (see big_review.turned)

    @property
    def is_error(self) -> bool:
        return self.grade in ("mistake", "blunder")

    @property
    def is_estimate(self) -> bool:
        """Whether the grade is Hard's judgement rather than a proof."""
        return self.why == "estimate"


def rank(outlook: Outlook) -> tuple[int, int]:
    """Order proved outlooks from the mover's side: a better result, then a faster win or a slower loss."""
    assert outlook.plies is not None, "only a proved outlook has a length"
    speed = -outlook.plies if outlook.result == "win" else outlook.plies
    return RESULT_RANK[outlook.result], speed


def grade(value: Outlook, best: Outlook) -> str:
    """The grade of a move that keeps ``value`` where ``best`` was on offer; "unclear" unless both are proved.

    >>> grade(Outlook("draw", 5), Outlook("win", 3))
    'mistake'
    >>> grade(UNCLEAR, Outlook("win", 1))
    'unclear'
    """
    if not (value.is_proved and best.is_proved):
        return "unclear"
    drop = RESULT_RANK[best.result] - RESULT_RANK[value.result]
    if drop == 0:
        return "best" if value == best else "good"
    return "mistake" if drop == 1 else "blunder"


def best_of(values: dict[int, Outlook]) -> Outlook:
    """The best outlook on offer, as far as it is proved: a proved win is the best there is, whatever
    else is unclear; otherwise the best is only known when every move's value is.

    >>> best_of({0: Outlook("win", 3), 1: UNCLEAR})
    Outlook(result='win', plies=3)
    >>> best_of({0: Outlook("draw", 5), 1: UNCLEAR})
    Outlook(result='unclear', plies=None)
    """
    proved = [value for value in values.values() if value.is_proved]
    if proved and (len(proved) == len(values) or any(value.result == "win" for value in proved)):
        # Only a win in 1 beats a proved win in 3, and a win in 1 is always proved.
        return max(proved, key=rank)
    return UNCLEAR


def outlook_words(outlook: Outlook) -> str:
    """An outlook as a phrase: "a win in 3 moves", "a draw", "a loss in 2 moves", "an unclear game"."""
    if outlook.result == "draw":
        return "a draw"
    if not outlook.is_proved:
        return "an unclear game"
    return f"a {outlook.result} in {outlook.plies} move{'s' if outlook.plies != 1 else ''}"
