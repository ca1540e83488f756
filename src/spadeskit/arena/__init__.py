"""Play at scale: bots at a table, fair evaluations, and summaries of many hands.

It owns whole matches between bots and their duplicate evaluation with statistics
(:mod:`~spadeskit.arena.evaluation`, on :mod:`~spadeskit.arena.matchplay`), single
hands on duplicate deals (:mod:`~spadeskit.arena.handeval`), exact intervals and tests
(:mod:`~spadeskit.arena.intervals`) and ``spadeskit simulate``
(:mod:`~spadeskit.arena.simulating`, the ``fast`` extra).  It may import
:mod:`spadeskit.core`, :mod:`spadeskit.engine`, :mod:`spadeskit.batch` and
:mod:`spadeskit.bots`.
"""

from spadeskit.arena.evaluation import (
    BOTS,
    Evaluation,
    HandEvaluation,
    HandOutcome,
    MatchOutcome,
    RayExecutor,
    bot_class,
    clopper_pearson,
    cpu_per_decision,
    draw_progress,
    evaluate,
    evaluate_hands,
    make_bot,
    match_context,
    play_match,
    seatings,
    sign_test,
    write_json,
)

__all__ = [
    "BOTS",
    "Evaluation",
    "HandEvaluation",
    "HandOutcome",
    "MatchOutcome",
    "RayExecutor",
    "bot_class",
    "clopper_pearson",
    "cpu_per_decision",
    "draw_progress",
    "evaluate",
    "evaluate_hands",
    "make_bot",
    "match_context",
    "play_match",
    "seatings",
    "sign_test",
    "write_json",
]
