"""Many deals consistent with one view at once (the ``fast`` extra: numpy): the
counts come from :meth:`DealSampler.draw_splits <spadeskit.bots.inference.DealSampler.draw_splits>`
one deal at a time, the cards are dealt by those counts for all deals together.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import numpy as np

from spadeskit.batch.common import BatchUnsupported

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from spadeskit.bots.inference import DealSampler

_HAND = 0


def draw_hands(
    sampler: DealSampler, rng: random.Random, generator: np.random.Generator, count: int
) -> NDArray[np.uint64]:
    """Return the hands of ``count`` deals drawn uniformly among those consistent with the
    sampler's view: a ``count`` x players array of card masks, the viewer's own as it is.

    Each deal's counts (how many cards of each group each place gets) are drawn from
    ``rng`` exactly as :meth:`~spadeskit.bots.inference.DealSampler.draw` draws them; each
    group's cards are then put in a uniformly random order by ``generator`` and dealt by
    those counts, so every deal is as likely as with ``draw`` (the tests compare them).
    Views whose unseen cards may also lie in a blind, a pile or face-down discards are
    refused with :class:`~spadeskit.batch.BatchUnsupported`.
    """
    places = sampler.places
    if any(kind != _HAND and size for (kind, _, _), size in zip(places, sampler.sizes)):
        raise BatchUnsupported(
            "deals drawn in batches hold hands only: this view has cards in a blind, a "
            "pile or face-down discards"
        )
    hands = np.zeros((count, sampler.players), dtype=np.uint64)
    hands[:, sampler.facts.seat] = sampler.own
    for kind, owner, known in places:
        if kind == _HAND:
            hands[:, owner] |= np.uint64(known)
    splits = np.array([sampler.draw_splits(rng) for _ in range(count)], dtype=np.int64)
    one = np.uint64(1)
    for g, cards in enumerate(sampler.groups):
        if not cards:
            continue
        order = generator.permuted(np.tile(np.array(cards, dtype=np.uint64), (count, 1)), axis=1)
        bits = one << order
        # The place of the j-th card in the order: how many places' counts end at or before j.
        ends = np.cumsum(splits[:, g, :], axis=1)
        place = (np.arange(len(cards))[None, :, None] >= ends[:, None, :]).sum(axis=2)
        for p, (kind, owner, _) in enumerate(places):
            if kind == _HAND:
                hands[:, owner] |= np.bitwise_or.reduce(
                    np.where(place == p, bits, np.uint64(0)), axis=1
                )
    return hands
