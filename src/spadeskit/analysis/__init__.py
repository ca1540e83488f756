"""Double-dummy analysis: best play with every hand known, hand reviews and par.

It owns the solver (:func:`~spadeskit.analysis.solver.solve`,
:func:`~spadeskit.analysis.solver.side_tricks`: the tricks a side or a seat
takes with best play, and what each legal card is worth), its search
(:mod:`~spadeskit.analysis.search`), the one adapter through which it reads the rules
(:mod:`~spadeskit.analysis.position`: legal plays from the rule set's filters, the trick
winner from its strength tables), and what apps build on it: the review of a played
hand card by card and the par of a deal (:mod:`~spadeskit.analysis.review`).  It may
import :mod:`spadeskit.core` and :mod:`spadeskit.engine`; the bots import it, so that a
search bot can solve the deals it draws.
"""

from spadeskit.analysis.position import AnalysisUnsupported
from spadeskit.analysis.review import Par, Review, ReviewedPlay, goal_of, par, review
from spadeskit.analysis.solver import Goal, Solution, side_tricks, solve

__all__ = [
    "AnalysisUnsupported",
    "Goal",
    "Par",
    "Review",
    "ReviewedPlay",
    "Solution",
    "goal_of",
    "par",
    "review",
    "side_tricks",
    "solve",
]
