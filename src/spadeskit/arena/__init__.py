"""Play at scale: bots at a table, fair evaluations, and summaries of many hands.

It owns whole matches between bots and their duplicate evaluation with statistics
(:mod:`~spadeskit.arena.evaluation`, on :mod:`~spadeskit.arena.matchplay`), every bot
against every other (:mod:`~spadeskit.arena.strength`, the strength table), single
hands on duplicate deals (:mod:`~spadeskit.arena.handeval`), exact intervals and tests
(:mod:`~spadeskit.arena.intervals`) and ``spadeskit simulate``
(:mod:`~spadeskit.arena.simulating`, the ``fast`` extra).  It may import
:mod:`spadeskit.core`, :mod:`spadeskit.engine`, :mod:`spadeskit.batch` and
:mod:`spadeskit.bots`.
"""

from spadeskit.arena.evaluation import *  # noqa: F403  (the arena's names, as 0.2.0 had them)
from spadeskit.arena.evaluation import __all__ as _names
from spadeskit.arena.evaluation import write_json as write_json
from spadeskit.arena.strength import Gauntlet as Gauntlet
from spadeskit.arena.strength import gauntlet as gauntlet

__all__ = [*_names, "Gauntlet", "gauntlet", "write_json"]
