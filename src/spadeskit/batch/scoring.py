"""The batched scoring, derived from the rules (part of :mod:`spadeskit.batch`).

Each side's score comes from the rules' own scoring of that side's bids and books,
kept in tables for the next call, after a check on probe hands that a side's score
depends on nothing else.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np  # the package checked for it (spadeskit.batch.common)

from spadeskit.batch.auction import BatchAuction
from spadeskit.batch.common import (
    PROBES,
    BatchUnsupported,
)
from spadeskit.batch.tree import leaf_bids
from spadeskit.core.results import HandScore, HandSummary
from spadeskit.core.state import MatchState

if TYPE_CHECKING:
    pass


def _bags_taken(score: HandScore, side: int) -> int:
    """Return the bags ``side``'s score lines took this hand (a penalty's negative
    bags, which take the counter down, left out)."""
    return sum(line.bags for line in score.lines if line.side == side and line.bags > 0)


class BatchScoring(BatchAuction):
    """Each side's score, by the rules' own scoring of the side's bids and books, kept
    in tables and checked on probe hands to depend on that side alone."""

    def _side_key(self, side: int, choice: Any, books: Any) -> Any:
        """Encode each hand's bids (menu entries) and books of ``side``'s seats as one int."""
        key = np.zeros(len(choice), dtype=np.int64)
        m = len(self.menu)
        for seat in self.rules.table.sides[side]:
            key = (key * m + choice[:, seat]) * (self.tricks + 1) + books[:, seat]
        return key

    def _score_side(
        self,
        side: int,
        choice: Sequence[int],
        books: Sequence[int],
        filler: int,
    ) -> tuple[int, int, int]:
        """Score one side by the rules' own scoring in a new match: its seats' bids and
        books as given, the other seats' taken from ``filler`` (the side's score must
        not depend on them).  Return its points, its bag counter after the hand and the
        bags its lines took."""
        n, table = self.n, self.rules.table
        mine = set(table.sides[side])
        rng = random.Random(filler)
        bids = [self.menu[choice[s]] if s in mine else rng.choice(self.menu) for s in range(n)]
        left = self.tricks - sum(books[s] for s in mine)
        others = [s for s in range(n) if s not in mine]
        took = [books[s] if s in mine else 0 for s in range(n)]
        for _ in range(left):
            took[rng.choice(others)] += 1
        summary = HandSummary(
            tuple(bids), tuple(took), won=self._no_cards, trump=self.trump, declarer=None
        )
        score = self.rules.engine.scoring.score(summary, self.match)
        return score.points[side], score.bags[side], _bags_taken(score, side)

    def _no_cards(self) -> Any:
        raise BatchUnsupported(
            f"the scoring of {self.rules.name!r} reads the cards won, which batches do not keep"
        )

    def _check_scoring(self) -> None:
        """Check on probe hands that each side's score depends on its own seats alone."""
        if len(self.rules.table.sides) == 1:
            return
        rng = random.Random(1)
        for probe in range(PROBES):
            choice = [rng.randrange(len(self.menu)) for _ in range(self.n)]
            books = [0] * self.n
            for _ in range(self.tricks):
                books[rng.randrange(self.n)] += 1
            for side in range(len(self.rules.table.sides)):
                first = self._score_side(side, choice, books, probe)
                if self._score_side(side, choice, books, probe + 1000) != first:
                    raise BatchUnsupported(
                        f"the scoring of {self.rules.name!r} scores a side by the other "
                        "sides' bids or books, which batches do not derive"
                    )

    def _score(self, choice: Any, books: Any, match: MatchState) -> tuple[Any, Any, Any]:
        """Each side's points, bag counter after the hand and bags taken, from the
        rules' own scoring under ``match``: each side's table (one entry per bids and
        books of its seats) is filled the first time an entry is needed, then read.
        One scoring of a hand fills every side's entry it lacks: a side's score depends
        on its own seats alone (checked on probe hands, :meth:`_check_scoring`)."""
        sides = len(self.rules.table.sides)
        out = np.empty((3, len(choice), sides), dtype=np.int64)
        tables = self._tables.get((match.scores, match.bags))
        if tables is None:
            if len(self._tables) > 64:
                self._tables.clear()
            tables = self._tables[(match.scores, match.bags)] = self._new_tables()
        keys = [self._side_key(side, choice, books) for side in range(sides)]
        missing = np.zeros(len(choice), dtype=bool)
        for side in range(sides):
            missing |= ~tables[side][0][keys[side]]
        for row in np.flatnonzero(missing).tolist():
            lacking = [s for s in range(sides) if not tables[s][0][keys[s][row]]]
            if not lacking:
                continue  # an earlier row of this call filled them
            score = self._score_row(choice[row].tolist(), books[row].tolist(), match)
            for side in lacking:
                known, values = tables[side]
                key = keys[side][row]
                values[key] = score.points[side], score.bags[side], _bags_taken(score, side)
                known[key] = True
        for side in range(sides):
            out[:, :, side] = tables[side][1][keys[side]].T
        return out[0], out[1], out[2]

    def _score_row(
        self, choice: Sequence[int], books: Sequence[int], match: MatchState
    ) -> HandScore:
        """Score one hand (menu entries and books by seat) by the rules under ``match``."""
        bids = tuple(self.menu[k] for k in choice)
        summary = HandSummary(
            bids, tuple(books), won=self._no_cards, trump=self.trump, declarer=None
        )
        return self.rules.engine.scoring.score(summary, match)

    # -- rule sets whose auction is a tree (three-suit-trump): hand by hand ------------------

    def _derive_hand_scoring(self) -> None:
        """Prepare scoring hand by hand: each distinct (dealer, auction, books, card
        points) the rules' own scoring is asked once, then kept.  Checked on probe hands
        first, so that scoring that reads more (the cards themselves) is refused now."""
        values = self.rules.card_points
        if values is not None and min(values) < 0:
            raise BatchUnsupported(
                f"{self.rules.name!r} has cards worth negative points, which batches do not count"
            )
        self.most_points = 0 if values is None else sum(values[int(c)] for c in self.deck)
        assert self.tree is not None
        radix = [self.n, len(self.tree.leaves)]
        radix += [self.tricks + 1] * self.n + [self.most_points + 1] * self.n
        if math.prod(radix) >= 1 << 62:
            raise BatchUnsupported(f"the hands of {self.rules.name!r} are too large to batch")
        self.radix = radix
        self._hand_scores: dict[int, tuple[Any, ...]] = {}
        rng = random.Random(1)
        for probe in range(PROBES):
            books = [0] * self.n
            for _ in range(self.tricks):
                books[rng.randrange(self.n)] += 1
            key = [probe % self.n, rng.randrange(len(self.tree.leaves)), *books]
            key += [rng.randrange(self.most_points + 1) for _ in range(self.n)]
            self._score_key(key)

    def _score_key(self, key: Sequence[int]) -> tuple[Any, ...]:
        """Score one hand from its key: dealer, leaf, books by seat, card points by seat."""
        assert self.tree is not None
        n = self.n
        dealer, leaf = key[0], self.tree.leaves[key[1]]
        summary = HandSummary(
            leaf_bids(leaf, n, dealer),
            tuple(key[2 : 2 + n]),
            won=self._no_cards,
            trump=leaf.trump,
            declarer=None if leaf.declarer is None else (dealer + leaf.declarer) % n,
            points=None if self.rules.card_points is None else tuple(key[2 + n :]),
        )
        score = self.rules.engine.scoring.score(summary, self.match)
        sides = range(len(self.rules.table.sides))
        return score.points, score.bags, tuple(_bags_taken(score, s) for s in sides)

    def _score_hands(self, dealer: Any, leaf: Any, books: Any, points: Any) -> tuple[Any, Any, Any]:
        """Each side's points, bag counter after the hand and bags taken, hand by hand
        (see :meth:`_derive_hand_scoring`)."""
        columns = [dealer, leaf] + [books[:, s] for s in range(self.n)]
        columns += [points[:, s] for s in range(self.n)]
        keys = np.zeros(len(dealer), dtype=np.int64)
        for column, base in zip(columns, self.radix, strict=True):
            keys = keys * base + column
        unique, inverse = np.unique(keys, return_inverse=True)
        found = self._hand_scores
        if len(found) > 1 << 20:
            found.clear()
        rows = []
        for key in unique.tolist():
            row = found.get(key)
            if row is None:
                digits = []
                rest = key
                for base in reversed(self.radix):
                    rest, digit = divmod(rest, base)
                    digits.append(digit)
                row = found[key] = self._score_key(digits[::-1])
            rows.append(row)
        table = np.array(rows, dtype=np.int64)  # (unique, 3, sides)
        out = table[inverse.reshape(-1)]
        return out[:, 0], out[:, 1], out[:, 2]

    def _new_tables(self) -> list[tuple[Any, Any]]:
        """Empty score tables, one per side (see :meth:`_score`)."""
        tables = []
        for seats in self.rules.table.sides:
            size = (len(self.menu) * (self.tricks + 1)) ** len(seats)
            tables.append((np.zeros(size, dtype=bool), np.zeros((size, 3), dtype=np.int64)))
        return tables
