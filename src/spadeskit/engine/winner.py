"""The trick winner, written once.

Every path that decides a trick calls :func:`trick_won`: the step API
(:mod:`spadeskit.engine.tricks`), the playout loop (:mod:`spadeskit.engine.playouts`) and
:meth:`Rules.trick_winner <spadeskit.engine.loaded.LoadedRules.trick_winner>`; the
batched engine derives its vector form from the same strength table.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["trick_won"]


def trick_won(row: Sequence[int], trick: tuple[tuple[int, int], ...]) -> tuple[int, int]:
    """Return the seat that wins ``trick`` and the mask of its cards: the trick winner,
    written once.

    ``trick`` is the ``(seat, card index)`` plays in order; ``row`` is each card's
    strength given the suit led (a row of :meth:`Rules.strength_table
    <spadeskit.engine.loaded.LoadedRules.strength_table>`).  The strongest card
    wins; of two equally strong cards, the one played first.  The step API, the playout
    loop and :meth:`Rules.trick_winner <spadeskit.engine.loaded.LoadedRules.trick_winner>`
    all call this function.
    """
    winner, best, taken = -1, -1, 0
    for who, card in trick:
        taken |= 1 << card
        if row[card] > best:
            winner, best = who, row[card]
    return winner, taken
