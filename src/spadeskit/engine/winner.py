"""The trick winner, written once.

Every path that decides a trick calls :func:`trick_won`: the step API
(:mod:`spadeskit.engine.tricks`), the playout loop (:mod:`spadeskit.engine.playouts`) and
:meth:`Rules.trick_winner <spadeskit.engine.loaded.LoadedRules.trick_winner>`.  Its fast
path is the strength table (a card's power given the suit led); a rule set with a
``spadeskit_trick_winner`` hook, in which who played a card matters, passes the hook
as ``decide``.  The batched engine derives its vector form from the same strength table
and refuses rule sets with the hook.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["Decide", "trick_won"]

Decide = Callable[[tuple[Any, ...], int, str], int]
"""``decide(trick, strongest, trump)``: the winning seat of a finished trick, given its
``(seat, card index)`` plays and the seat the strength table names (a rule set's
``spadeskit_trick_winner`` hook, checked; see
:meth:`~spadeskit.engine.loaded.LoadedRules.decide_winner`)."""


def trick_won(
    row: tuple[int, ...],
    trick: tuple[tuple[int, int], ...],
    decide: Decide | None = None,
    trump: str = "spades",
) -> tuple[int, int]:
    """Return the seat that wins ``trick`` and the mask of its cards: the trick winner,
    written once.

    ``trick`` is the ``(seat, card index)`` plays in order; ``row`` is each card's
    strength given the suit led (a row of :meth:`Rules.strength_table
    <spadeskit.engine.loaded.LoadedRules.strength_table>`).  The strongest card
    wins; of two equally strong cards, the one played first.  With ``decide`` (the rule
    set's seat-aware winner, under the hand's ``trump``), the seat it names wins
    instead.  The step API, the playout loop and :meth:`Rules.trick_winner
    <spadeskit.engine.loaded.LoadedRules.trick_winner>` all call this function.
    """
    winner, best, taken = -1, -1, 0
    for who, card in trick:
        taken |= 1 << card
        if row[card] > best:
            winner, best = who, row[card]
    if decide is not None:
        winner = decide(trick, winner, trump)
    return winner, taken
