"""Hands whose auction is a tree (part of :mod:`spadeskit.batch`): three-suit-trump's
pick-up-or-pass, with its blind, the bidder's discards, a trump mode that depends on
the auction, and card points.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np  # the package checked for it (spadeskit.batch.common)

from spadeskit.batch.common import BatchResult, kth_bit
from spadeskit.batch.play import BatchPlay

if TYPE_CHECKING:
    from numpy.typing import NDArray


class BatchTreePlay(BatchPlay):
    """Hands whose auction is an :class:`~spadeskit.batch.tree.AuctionTree`: each hand
    walks the tree, the blind goes where its leaf says, the discards owed are drawn at
    random, and each side's score comes hand by hand from the rules' own scoring."""

    def play(self, numbers: NDArray[np.int64], seed: int, policy: str) -> BatchResult:
        tree = self.tree
        if tree is None:
            return super().play(numbers, seed, policy)
        n, size = self.n, len(numbers)
        rows = np.arange(size)
        leaves = tree.leaves
        owed = max(sum(count for _, count in leaf.discards) for leaf in leaves)
        dealer, held, blind, choices, draws_ = self.deal(numbers, seed, tree.depth + owed)
        deals = held.copy()
        leaf = tree.walk(choices[:, : tree.depth])

        def by_leaf(values: list[int]) -> NDArray[np.int64]:
            table: NDArray[np.int64] = np.array(values, dtype=np.int64)[leaf]
            return table

        declarer = by_leaf([-1 if x.declarer is None else x.declarer for x in leaves])
        declarer = np.where(declarer >= 0, (dealer + declarer) % n, -1)
        taker = np.flatnonzero(
            by_leaf([x.blind_to == "declarer" for x in leaves]) & (declarer >= 0)
        )
        held[taker, declarer[taker]] |= blind[taker]
        points = np.zeros((size, n), dtype=np.int64)
        steps = max(len(x.discards) for x in leaves)
        discards = np.zeros((size, steps), dtype=np.uint64)
        column = tree.depth
        for j in range(steps):
            who = by_leaf([x.discards[j][0] if j < len(x.discards) else 0 for x in leaves])
            count = by_leaf([x.discards[j][1] if j < len(x.discards) else 0 for x in leaves])
            seat = (dealer + who) % n
            for k in range(int(count.max(initial=0))):
                # One card at a time, uniformly among those left: every set of ``count``
                # cards is as likely as the step API's uniform choice of a discard.
                hand = held[rows, seat]
                bit = np.where(count > k, kth_bit(hand, choices[:, column]), np.uint64(0))
                held[rows, seat] = hand ^ bit
                discards[:, j] |= bit
                column += 1
            points[rows, seat] += self._points_of(discards[:, j])
        played = np.zeros(size, dtype=np.uint64)
        books = np.zeros((size, n), dtype=np.int64)
        plays = np.zeros((size, self.tricks * n), dtype=np.int8)
        seats = np.zeros((size, self.tricks * n), dtype=np.int8)
        leader = (dealer + by_leaf([x.leader for x in leaves])) % n
        tbase = by_leaf([self.trump_base[x.trump] for x in leaves])
        last = self._play_cards(
            held,
            played,
            books,
            leader,
            0,
            [],
            draws_,
            policy == "greedy",
            plays,
            seats,
            tbase,
            points,
        )
        to_last = by_leaf([x.blind_to == "last-trick" for x in leaves]).astype(bool)
        points[rows, last] += np.where(to_last, self._points_of(blind), 0)
        side_points, bags, _ = self._score_hands(dealer, leaf, books, points)
        none = np.zeros((size, n), dtype=np.int64)
        return BatchResult(
            self.rules,
            seed,
            numbers,
            dealer,
            deals,
            none - 1,
            none,
            none.astype(bool),
            books,
            side_points,
            bags,
            plays,
            seats,
            (),
            (),
            leaf=leaf,
            leaves=leaves,
            declarer=declarer,
            discards=discards,
            card_points=points if self.rules.card_points is not None else None,
        )

    def _points_of(self, masks: NDArray[np.uint64]) -> NDArray[np.int64]:
        """Return the card points of each mask."""
        total = np.zeros(len(masks), dtype=np.int64)
        for card in np.flatnonzero(self.values).tolist():
            total += ((masks >> np.uint64(card)) & np.uint64(1)).astype(np.int64) * int(
                self.values[card]
            )
        return total
