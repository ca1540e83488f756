"""The batched engine of one rule set, derived from it when first asked for (part of
:mod:`spadeskit.batch`, whose docs say how).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import numpy as np  # the package checked for it (spadeskit.batch.common)

from spadeskit.batch.common import (
    _VECTOR_READS,
    CHUNK,
    POLICIES,
    BatchResult,
    BatchUnsupported,
)
from spadeskit.batch.treeplay import BatchTreePlay
from spadeskit.core import codegen
from spadeskit.core.errors import SpadesError, shown
from spadeskit.core.seeding import check_range, check_seed
from spadeskit.core.state import MatchState
from spadeskit.engine.filters import READS

if TYPE_CHECKING:
    from spadeskit.engine.rules import Rules


class BatchEngine(BatchTreePlay):
    """The batched engine of one rule set, derived from it (see the module docs)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        engine = rules.engine
        shared, dealer = engine.shared, engine.dealer
        table = rules.table
        self.n = n = table.players
        plan = table.deal
        if table.copies:
            raise BatchUnsupported(
                f"the deck of {rules.name!r} holds a card twice (two decks), and batches "
                "keep a hand in one 64-bit mask, a bit a card"
            )
        if plan.pile or shared.draw:
            raise BatchUnsupported(f"{rules.name!r} deals a draw pile, which batches do not play")
        if plan.kitty_to is not None:
            raise BatchUnsupported(
                f"{rules.name!r} deals a kitty (the blind picked up at the deal, then a "
                "discard before the auction), which batches do not play"
            )
        for f in rules.filters:
            if not f.enforced:
                raise BatchUnsupported(
                    f"{rules.name!r} has the advisory play filter {f.name!r} (table "
                    "enforcement): only enforced building blocks are batched"
                )
            if f.block is None:
                raise BatchUnsupported(
                    f"the play filter {f.name!r} of {rules.name!r} is plain Python, not a "
                    "building block (spadeskit.engine.filters.building_block): it runs only "
                    "card by card"
                )
        for what, present in (
            ("an out-of-turn action during play", shared.play_offer is not None),
            ("an after-trick hook", shared.calls.after_trick is not None),
            ("a seat-aware trick winner", shared.calls.trick_winner is not None),
            ("a review before scoring", shared.calls.before_scoring is not None),
            ("a hook choosing the first leader", shared.calls.first_leader is not None),
        ):
            if present:
                raise BatchUnsupported(f"{rules.name!r} has {what}, which batches do not play")
        self.deck = np.array(dealer.deck, dtype=np.int64)
        self.deal_map = [np.array(p, dtype=np.int64) for p in dealer.deal_map[:n]]
        self.blind_map = np.array(dealer.deal_map[n], dtype=np.int64)
        self.tricks = plan.hand_size
        ranking = rules.ranking
        self.suit_of = np.array(list(ranking.suit_of) + [-1] * (64 - len(ranking.suit_of)))
        self.strength = np.array(list(ranking.strength) + [0] * (64 - len(ranking.strength)))
        self.suits = len(ranking.suit_mask)
        self.side_of = np.array(rules.side_of, dtype=np.int64)
        self._derive_auction()
        # Each trump mode's strength table, one above the other: the row of a trick is
        # its trump's first row plus its led suit (one trump mode: the led suit).
        rows = [row for trump in self.trumps for row in rules.strength_table(trump)]
        self.led_rows = len(rows) // len(self.trumps)
        self.trump_base = {t: k * self.led_rows for k, t in enumerate(self.trumps)}
        self.rows = np.zeros((len(rows), 64), dtype=np.int64)
        self.rows[:, : len(rows[0])] = rows
        # greedy_card's orders, by row: cheapness (power in the trick, then in its own
        # suit) and power, ties to the lower index; and the cards beating a power.
        first = (np.arange(len(rows)) // self.led_rows * self.led_rows)[:, None]
        own = self.rows[first + np.clip(self.suit_of, 0, None)[None, :], np.arange(64)[None, :]]
        cheap = (self.rows << 10) + own
        deck_cards = [int(c) for c in self.deck]
        self.orders = self._orders(
            lambda order, c: (
                (int(cheap[order // 2, c]), c)
                if order % 2 == 0
                else (int(self.rows[order // 2, c]), c)
            ),
            deck_cards,
        )
        strongest = int(self.rows.max())
        self.beats = np.zeros((len(rows), strongest + 2), dtype=np.uint64)
        for led in range(len(rows)):
            for level in range(-1, strongest + 1):
                mask = sum(1 << c for c in deck_cards if self.rows[led, c] > level)
                self.beats[led, level + 1] = mask
        self._filters = self._compile_filters()
        self.values = np.zeros(64, dtype=np.int64)
        if rules.card_points is not None:
            self.values[: len(rules.card_points)] = rules.card_points
        self.reads_top = any(
            "top" in codegen.placeholders(text)
            for f in rules.filters
            if f.block is not None
            for step in f.block.steps
            for text in (*step.when, step.keep)
        )
        self.match = MatchState.fresh(len(table.sides))
        self._tables: dict[Any, list[tuple[Any, Any]]] = {}
        if self.tree is not None:
            self._derive_hand_scoring()
            return
        for seats in table.sides:
            if (len(self.menu) * (self.tricks + 1)) ** len(seats) > 1 << 24:
                raise BatchUnsupported(f"the sides of {rules.name!r} are too large to batch")
        self._check_scoring()

    # -- derived from the rules -------------------------------------------------------------

    def _orders(
        self, key: Callable[[int, int], tuple[int, int]], deck: list[int]
    ) -> tuple[Any, Any, int]:
        """Return ``(prefix, cards, width)``: for each order ``o`` (led suit ``o // 2``;
        by cheapness when ``o`` is even, by power when odd), ``prefix[o * width + j]``
        the mask of its first ``j`` cards and ``cards[o * width + j]`` its ``j + 1``-th."""
        orders, width = 2 * self.rows.shape[0], len(deck) + 1
        prefix = np.zeros(orders * width, dtype=np.uint64)
        cards = np.zeros(orders * width, dtype=np.uint64)
        for order in range(orders):
            mask = 0
            for j, card in enumerate(sorted(deck, key=lambda c: key(order, c))):
                mask |= 1 << card
                prefix[order * width + j + 1] = mask
                cards[order * width + j] = card
        return prefix, cards, width

    def _compile_filters(self) -> Callable[..., Any]:
        """Compile the enforced filters' steps into one function on arrays of hands."""
        namespace: dict[str, Any] = {"_where": np.where}
        body = []
        for k, f in enumerate(self.rules.filters):
            assert f.block is not None
            for name, value in f.block.constants.items():
                if name.startswith("_"):
                    continue  # the reads' own helpers ($lead, $top) are arrays here
                if isinstance(value, (tuple, list)):
                    value = np.array(value, dtype=np.uint64)
                elif isinstance(value, bool) or not isinstance(value, int):
                    raise BatchUnsupported(
                        f"the building block {f.name!r} has the constant {name} = "
                        f"{shown(value, 30)}, which batches cannot hold"
                    )
                namespace[f"_c{k}_{name}"] = value
            text = f.block.vector_statements(_VECTOR_READS, "_where")
            names = {name: f"_c{k}_{name}" for name in f.block.constants}
            body.append(codegen.render(text, **names))
        source = (
            "def allowed_cards(\n"
            "    allowed, _b_leading, _b_following, _b_lead, _b_played, _b_done, _b_top\n"
            "):\n" + codegen.indent("".join(body), 1) + "    return allowed\n"
        )
        assert set(_VECTOR_READS) == set(READS)
        made: Callable[..., Any] = codegen.function(
            "allowed_cards", source, namespace, label=f"batched filters {self.rules.name}"
        )
        return made

    # -- playing -------------------------------------------------------------------------

    def simulate(
        self, hands: int, seed: int, policy: str, start: int, chunk: int = CHUNK
    ) -> Iterator[BatchResult]:
        """Yield the hands ``start`` … ``start + hands - 1`` in chunks of ``chunk``."""
        for first in range(start, start + hands, chunk):
            last = min(start + hands, first + chunk)
            yield self.play(np.arange(first, last, dtype=np.int64), seed, policy)


_ENGINES: dict[Rules, BatchEngine] = {}


def engine_for(rules: Rules) -> BatchEngine:
    """Return the batched engine of ``rules``, derived the first time (and kept)."""
    found = _ENGINES.get(rules)
    if found is None:
        found = _ENGINES[rules] = BatchEngine(rules)
    return found


def playouts_for(rules: Rules) -> BatchEngine:
    """Return the batched engine of ``rules`` for search playouts
    (:meth:`BatchEngine.play_out`), or raise :class:`BatchUnsupported` where its
    playouts are not batched: rule sets whose auction is a tree (three-suit-trump)
    simulate whole hands in batches, but search plays them card by card."""
    found = engine_for(rules)
    if found.tree is not None:
        raise BatchUnsupported(
            f"search playouts of {rules.name!r} are not batched: its auction is not each "
            "seat bidding a number once"
        )
    return found


def simulate_batch(
    rules: Rules,
    hands: int,
    seed: int = 0,
    policy: str = "random",
    *,
    start: int = 0,
    chunk: int = CHUNK,
) -> Iterator[BatchResult]:
    """See :meth:`Rules.simulate_batch <spadeskit.engine.rules.Rules.simulate_batch>`."""
    check_range(hands, start, 2**62)
    if type(chunk) is not int or not 1 <= chunk <= 1 << 20:
        raise SpadesError(f"chunk is a whole number from 1 to 2**20, not {shown(chunk, 40)}")
    check_seed(seed)
    if policy not in POLICIES:
        raise SpadesError(
            f"policy {shown(policy, 30)} is not one of {', '.join(POLICIES)}", code="bad-policy"
        )
    return engine_for(rules).simulate(hands, seed, policy, start, chunk)
