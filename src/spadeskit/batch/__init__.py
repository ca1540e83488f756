"""Batched simulation: many independent hands at once, as numpy arrays (the ``fast``
extra: ``pip install 'spadeskit[fast]'``, or ``pip install -e '.[fast]'`` from a clone).

:meth:`Rules.simulate_batch <spadeskit.engine.rules.Rules.simulate_batch>` deals, bids, plays
and scores thousands of hands in lockstep: every hand of a chunk plays its ``k``-th card
at the same step, each seat's cards an unsigned 64-bit mask.  Nothing in it is a second
copy of a rule.  The engine is derived from the rules themselves when it is first asked
for:

* the deal from the table's deal plan, the trick winner from the rules' strength tables
  and the effective suits from their ranking;
* which cards a seat may play from the play filters' building blocks: each block's
  steps (:class:`spadeskit.engine.filters.Narrow`) are the text the step engine runs, compiled
  here to run on arrays;
* the auction by asking the rules: the seats that speak and what each may bid are read
  from the step engine on probe hands, and must not depend on the cards or on earlier
  bids, except that a seat's menu may depend on its own cards alone (``mirror``,
  ``whiz``), which the rules are then asked for hand by hand (a rule set where more
  depends on the deal, such as ``suicide`` or ``blind-nil``, is refused);
* each side's score by calling the rules' own scoring once for each side's bids and
  books (kept for the next call), after checking on probe hands that a side's score
  does not depend on the other sides.

A rule set the engine cannot derive is refused with :class:`BatchUnsupported`, naming
the part (and the plugin or filter) it cannot take; use :meth:`Rules.simulate
<spadeskit.engine.rules.Rules.simulate>` for it.  Hand ``i`` depends only on ``(seed, i)``
(its random numbers are row ``i % BLOCK`` of a generator seeded by ``(seed, i //
BLOCK)``), so chunks split across processes give the same hands.  A hand's deal and
choices are not those :meth:`~spadeskit.engine.rules.Rules.simulate` would make, but follow
the same distribution (the tests compare them), and every batched hand replays through
the step API to the same books and points (:meth:`BatchResult.actions`).

The engine is split by job: ``batch.auction`` (bids),
``batch.scoring`` (each side's score), ``batch.play`` (the
cards), on the shared fields and helpers of ``batch.common``;
``batch.engine`` derives one :class:`BatchEngine` a rule set.

This layer may import :mod:`spadeskit.core` and :mod:`spadeskit.engine` only; the
engine reaches it through :func:`spadeskit.engine.rules.register_batch_engine`, which the
``spadeskit`` package fills (see :doc:`/architecture`).
"""

from __future__ import annotations

from spadeskit.batch.common import BLOCK as BLOCK
from spadeskit.batch.common import CHUNK as CHUNK
from spadeskit.batch.common import POLICIES, BatchResult, BatchUnsupported
from spadeskit.batch.common import PROBES as PROBES
from spadeskit.batch.common import draws as draws
from spadeskit.batch.engine import BatchEngine, engine_for, playouts_for
from spadeskit.batch.engine import simulate_batch as simulate_batch

__all__ = [
    "POLICIES",
    "BatchEngine",
    "BatchResult",
    "BatchUnsupported",
    "engine_for",
    "playouts_for",
]
