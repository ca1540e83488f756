"""What one seat can infer about the cards it cannot see, and deals drawn from that.

:func:`facts` reads a :class:`~spadeskit.core.views.View`: the cards still unseen, where they
may be (each other seat's hand, the blind, the draw pile, another seat's face-down
discards) and how many each place holds, the suits each seat has shown it lacks by
failing to follow, and the cards the seat knows the whereabouts of (those it passed to a
partner).  :func:`sample_deal` draws a complete deal consistent with those facts,
**uniformly** among all consistent deals: it counts the deals exactly (suit by suit,
by dynamic programming) and draws from the counts, instead of placing the constrained
cards first, which favours some deals (a card whose true chance is a third can land
in a seat nearly every time).

Where spades may not be led until broken, a player who led one before then held nothing
else.  Voids are read only where the rules refuse a renege: under table enforcement a player
may have failed to follow while holding the suit.  After a draw from the pile a seat
may hold a suit again: it then holds at most as many cards of it as it has drawn since.
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Sequence

import attrs

from spadeskit.core.cards import Card, cards_of
from spadeskit.core.errors import SpadesError
from spadeskit.core.events import CardsDiscarded, CardsDrawn, CardsPassed, TrickWon
from spadeskit.core.views import View
from spadeskit.engine.dealing import card_masks, shuffle_floats
from spadeskit.engine.rules import Rules

__all__ = ["DealSampler", "Facts", "SampledDeal", "count_deals", "facts", "sample_deal"]

_TRUMP = 3  # the effective suit of spades

HAND = "hand"
BLIND = "blind"
PILE = "pile"
DISCARDS = "discards"


@attrs.frozen
class Facts:
    """What a seat knows of the hidden cards (see :func:`facts`).

    ``places`` names every place a hidden card may be, as ``(kind, seat)``: ``("hand",
    s)``, ``("discards", s)``, ``("blind", None)``, ``("pile", None)``; ``sizes`` gives
    how many unseen cards each holds.  ``limits[(place, suit)]`` caps the cards of an
    (effective) suit a place can hold: 0 for a void.  ``known`` maps places to cards
    known to be there (not counted in ``sizes``).
    """

    seat: int
    unseen: tuple[int, ...]
    places: tuple[tuple[str, int | None], ...]
    sizes: tuple[int, ...]
    limits: dict[tuple[int, int], int] = attrs.field(eq=False)
    known: dict[int, tuple[int, ...]] = attrs.field(eq=False)
    suit_of: Sequence[int] = attrs.field(repr=False, eq=False)
    voids: dict[int, frozenset[int]] = attrs.field(eq=False)


@attrs.frozen
class SampledDeal:
    """A complete deal consistent with a seat's view: every hand (as card masks, the
    viewer's own as it is), the blind (mask), the pile (indices, top first) and each
    seat's face-down discards (masks)."""

    hands: tuple[int, ...]
    blind: int
    pile: tuple[int, ...]
    discards: tuple[int, ...]

    def cards(self, seat: int) -> tuple[Card, ...]:
        """Return the cards ``seat`` holds in this deal."""
        return cards_of(self.hands[seat])


def facts(view: View, rules: Rules) -> Facts:
    """Return what ``view``'s seat knows about the cards it cannot see."""
    seat = view.seat
    if seat is None:
        raise SpadesError("a spectator holds no cards and infers nothing: give a seat's view")
    if rules.table.copies:
        raise SpadesError(
            f"the deck of {rules.name!r} holds a card twice (two decks); the inference "
            "places one of each card"
        )
    n = rules.table.players
    suit_of = rules.ranking.suit_of
    deck = [c.index for c in rules.table.deck]
    seen = {c.index for c in view.cards}
    for trick in view.tricks:
        seen.update(c.index for _, c in trick.plays)
    seen.update(c.index for _, c in view.trick)
    discard_counts = [0] * n
    known: dict[int, list[int]] = {}
    places: list[tuple[str, int | None]] = [(HAND, s) for s in range(n) if s != seat]
    for event in view.events:
        if isinstance(event, CardsDiscarded):
            if event.cards is not None:
                seen.update(c.index for c in event.cards)  # the viewer's own: out of play
            else:
                discard_counts[event.seat] += event.count
        elif isinstance(event, CardsPassed) and event.cards is not None and event.seat == seat:
            known.setdefault(event.to, []).extend(c.index for c in event.cards)
    played = {c.index for t in view.tricks for _, c in t.plays} | {c.index for _, c in view.trick}
    sizes: list[int] = [view.card_counts[s] for s in range(n) if s != seat]
    place_of_seat = {s: i for i, (_, s) in enumerate(places)}
    known_at: dict[int, tuple[int, ...]] = {}
    for to, cards in known.items():
        still = tuple(c for c in cards if c not in played and c not in seen and to != seat)
        if still and to in place_of_seat:
            index = place_of_seat[to]
            known_at[index] = still
            sizes[index] -= len(still)
            seen.update(still)
    for s in range(n):
        if discard_counts[s] and s != seat:
            places.append((DISCARDS, s))
            sizes.append(discard_counts[s])
    if view.blind_size:
        places.append((BLIND, None))
        sizes.append(view.blind_size)
    if view.pile_size:
        places.append((PILE, None))
        sizes.append(view.pile_size)
    unseen = tuple(i for i in deck if i not in seen)
    if sum(sizes) != len(unseen):
        raise SpadesError(
            f"the view does not add up: {len(unseen)} unseen cards for {sum(sizes)} places "
            f"({rules.name!r} may hide cards in a way the inference does not know)"
        )
    voids = _voids(view, rules, seat)
    limits: dict[tuple[int, int], int] = {}
    for index, (kind, owner) in enumerate(places):
        if kind == HAND and owner is not None:
            for suit, cap in voids.get(owner, {}).items():
                limits[(index, suit)] = cap
    return Facts(
        seat,
        unseen,
        tuple(places),
        tuple(sizes),
        limits,
        known_at,
        suit_of,
        {s: frozenset(k for k, cap in v.items() if cap == 0) for s, v in voids.items()},
    )


def _voids(view: View, rules: Rules, seat: int) -> dict[int, dict[int, int]]:
    """Return, per other seat, the suits it showed void in and how many cards of each it
    may hold now: 0, or as many as it has drawn from the pile since."""
    if any(not f.enforced for f in rules.filters):
        return {}  # reneges are possible: failing to follow proves nothing
    suit_of = rules.ranking.suit_of
    tricks = [t.plays for t in view.tricks] + ([view.trick] if view.trick else [])
    drawn_after: list[dict[int, int]] = [{} for _ in tricks]  # per trick: draws right after it
    finished = 0
    for event in view.events:
        if isinstance(event, TrickWon):
            finished = event.trick
        elif isinstance(event, CardsDrawn) and 0 < finished <= len(tricks):
            after = drawn_after[finished - 1]
            after[event.seat] = after.get(event.seat, 0) + event.count
    latest: dict[int, dict[int, int]] = {}  # seat -> suit -> the last trick it showed void in
    # Where spades may not be led until broken, leading one before then shows a hand of
    # nothing but spades.
    unbroken = any(f.enforced and f.name == "break-spades" for f in rules.filters)
    other_suits = {suit_of[c.index] for c in rules.table.deck} - {_TRUMP}
    broken = False
    for k, plays in enumerate(tricks):
        led = suit_of[plays[0][1].index]
        leader = plays[0][0]
        if unbroken and led == _TRUMP and not broken and leader != seat:
            for suit in other_suits:
                latest.setdefault(leader, {})[suit] = k
        for s, c in plays[1:]:
            if s != seat and suit_of[c.index] != led:
                latest.setdefault(s, {})[led] = k
        broken = broken or any(suit_of[c.index] == _TRUMP for _, c in plays)
    return {
        s: {
            suit: sum(drawn_after[j].get(s, 0) for j in range(k, len(tricks)))
            for suit, k in suits.items()
        }
        for s, suits in latest.items()
    }


class _Counter:
    """Counts consistent deals suit by suit and draws one uniformly (exact integers)."""

    def __init__(self, f: Facts) -> None:
        self.f = f
        by_suit: dict[int, list[int]] = {}
        for i in f.unseen:
            by_suit.setdefault(f.suit_of[i], []).append(i)
        self.suits = sorted(by_suit)
        self.cards = [by_suit[s] for s in self.suits]
        self.caps = [
            [f.limits.get((p, suit), len(self.cards[k])) for p in range(len(f.places))]
            for k, suit in enumerate(self.suits)
        ]
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self.split_memo: dict[tuple[int, tuple[int, ...]], list[tuple[tuple[int, ...], int]]] = {}
        self.table_memo: dict[
            tuple[int, tuple[int, ...]],
            tuple[list[int], list[tuple[tuple[int, ...], tuple[int, ...]]]],
        ] = {}

    def splits(self, k: int, room: tuple[int, ...]) -> list[tuple[tuple[int, ...], int]]:
        """Return each way to spread suit ``k`` over the places, with its multinomial
        (computed once per suit and room left, then reused by every draw)."""
        cached = self.split_memo.get((k, room))
        if cached is None:
            cached = self.split_memo[(k, room)] = self._splits(k, room)
        return cached

    def _splits(self, k: int, room: tuple[int, ...]) -> list[tuple[tuple[int, ...], int]]:
        m = len(self.cards[k])
        caps = [min(c, r) for c, r in zip(self.caps[k], room)]
        found: list[tuple[tuple[int, ...], int]] = []

        def spread(place: int, left: int, chosen: list[int], ways: int) -> None:
            if place == len(caps) - 1:
                if left <= caps[place]:
                    found.append((tuple(chosen + [left]), ways))
                return
            for take in range(min(left, caps[place]) + 1):
                spread(place + 1, left - take, chosen + [take], ways * math.comb(left, take))

        spread(0, m, [], 1)
        return found

    def count(self, k: int, room: tuple[int, ...]) -> int:
        if k == len(self.suits):
            return 1 if not any(room) else 0
        key = (k, room)
        cached = self.memo.get(key)
        if cached is None:
            cached = 0
            for split, ways in self.splits(k, room):
                cached += ways * self.count(k + 1, tuple(r - t for r, t in zip(room, split)))
            self.memo[key] = cached
        return cached

    def table(
        self, k: int, room: tuple[int, ...]
    ) -> tuple[list[int], list[tuple[tuple[int, ...], tuple[int, ...]]]]:
        """Return, for suit ``k`` and the room left, the running totals of the deals each
        split leads to and the splits with the room they leave (built once, then reused)."""
        key = (k, room)
        cached = self.table_memo.get(key)
        if cached is None:
            running: list[int] = []
            moves: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
            total = 0
            for split, ways in self.splits(k, room):
                rest = tuple(r - t for r, t in zip(room, split))
                weight = ways * self.count(k + 1, rest)
                if weight:
                    total += weight
                    running.append(total)
                    moves.append((split, rest))
            cached = self.table_memo[key] = (running, moves)
        return cached

    def _check(self) -> None:
        if self.count(0, self.f.sizes) == 0:
            raise SpadesError("no deal is consistent with what this seat has seen")

    def _split(
        self, k: int, room: tuple[int, ...], rng: random.Random
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Draw how many cards of suit ``k`` each place gets, weighted by the deals each
        choice leads to; return it and the room it leaves."""
        running, moves = self.table(k, room)
        return moves[bisect.bisect_right(running, rng.randrange(running[-1]))]

    def draw_splits(self, rng: random.Random) -> list[tuple[int, ...]]:
        """Return, suit by suit, how many cards each place gets in one uniformly drawn
        consistent deal (the cards themselves are then any of the suit's, uniformly)."""
        self._check()
        room = self.f.sizes
        splits = []
        for k in range(len(self.suits)):
            split, room = self._split(k, room, rng)
            splits.append(split)
        return splits

    def draw(self, rng: random.Random) -> list[list[int]]:
        """Return the unseen cards of each place in one uniformly drawn consistent deal."""
        self._check()
        room = self.f.sizes
        placed: list[list[int]] = [[] for _ in room]
        fraction = rng.random
        for k in range(len(self.suits)):
            split, room = self._split(k, room, rng)
            cards = list(self.cards[k])
            shuffle_floats(cards, fraction)
            start = 0
            for p, take in enumerate(split):
                if take:
                    placed[p] += cards[start : start + take]
                    start += take
        return placed


def count_deals(f: Facts) -> int:
    """Return how many deals are consistent with ``f`` (hands as sets; the pile's order
    counted too)."""
    pile = next((size for (kind, _), size in zip(f.places, f.sizes) if kind == PILE), 0)
    return _Counter(f).count(0, f.sizes) * math.factorial(pile)


class DealSampler:
    """Draws deals consistent with one view, uniformly (see :func:`sample_deal`).

    Build it once per view (the counting is done then, and the tables it draws from fill
    as they are needed); each :meth:`draw` then costs tens of microseconds, which is what
    a search bot drawing thousands of deals a decision needs.
    """

    def __init__(self, view: View, rules: Rules | None = None, known: Facts | None = None) -> None:
        if rules is None:
            from spadeskit.engine.loader import load_rules

            rules = load_rules(view.variant, view.house_rules, view.options)
        f = self.facts = known or facts(view, rules)
        self.players = rules.table.players
        own = 0
        for c in view.cards:
            own |= c.bit
        self.own = own
        self.unseen = list(f.unseen)
        self.counter = _Counter(f) if f.limits else None
        self.sizes = f.sizes
        kinds = {HAND: 0, DISCARDS: 1, BLIND: 2, PILE: 3}
        self.places: list[tuple[int, int, int]] = []
        """Each place the unseen cards go to: its kind (0 a hand, 1 face-down discards,
        2 the blind, 3 the pile), its seat (-1 for none), and the mask of the cards
        already known to be there."""
        for p, (kind, owner) in enumerate(f.places):
            mask = 0
            for index in f.known.get(p, ()):
                mask |= 1 << index
            self.places.append((kinds[kind], owner if owner is not None else -1, mask))

    @property
    def groups(self) -> tuple[tuple[int, ...], ...]:
        """The unseen cards (indices) in the groups :meth:`draw_splits` counts: one a suit
        where what the view shows constrains the deal, else all in one group."""
        if self.counter is None:
            return (tuple(self.unseen),)
        return tuple(tuple(cards) for cards in self.counter.cards)

    def draw_splits(self, rng: random.Random) -> tuple[tuple[int, ...], ...]:
        """Return how many cards of each of :attr:`groups` go to each place (see
        :attr:`places`) in one uniformly drawn consistent deal.

        Dealing each group's cards in a uniformly random order by these counts completes
        a uniformly drawn deal, as :meth:`draw` does; a batched sampler deals many at
        once (:func:`spadeskit.bots.deals.draw_hands`).
        """
        if self.counter is None:
            return (tuple(self.sizes),)
        return tuple(self.counter.draw_splits(rng))

    def draw(self, rng: random.Random) -> SampledDeal:
        """Return one consistent deal drawn uniformly, from ``rng``."""
        fraction = rng.random
        if self.counter is None:
            # No constraint: a plain shuffle dealt out by counts is uniform.
            cards = self.unseen[:]
            shuffle_floats(cards, fraction)
            placed: list[list[int]] = []
            start = 0
            for size in self.sizes:
                placed.append(cards[start : start + size])
                start += size
        else:
            placed = self.counter.draw(rng)
        hands = [0] * self.players
        discards = [0] * self.players
        blind = 0
        pile: list[int] = []
        hands[self.facts.seat] = self.own
        for (kind, owner, known), cards, mask in zip(self.places, placed, card_masks(placed)):
            mask |= known
            if kind == 0:
                hands[owner] = mask
            elif kind == 1:
                discards[owner] = mask
            elif kind == 2:
                blind = mask
            else:
                pile = cards
                shuffle_floats(pile, fraction)
        return SampledDeal(tuple(hands), blind, tuple(pile), tuple(discards))


_SAMPLERS: dict[int, tuple[Facts, View, DealSampler]] = {}


def sample_deal(
    view: View, rng: random.Random, rules: Rules | None = None, *, known: Facts | None = None
) -> SampledDeal:
    """Draw a complete deal consistent with ``view``, uniformly among all such deals
    (to within the 2**-53 grain of the floats that shuffle the cards).

    ``rules`` default to the view's variant loaded with no house rules or options: pass
    the game's rules when it has any.  Give ``known`` (from :func:`facts`) to draw many
    deals for one view without reading it again, or use a :class:`DealSampler`.
    """
    if known is None:
        return DealSampler(view, rules).draw(rng)
    hit = _SAMPLERS.get(id(known))
    if hit is None or hit[0] is not known or hit[1] is not view:
        if len(_SAMPLERS) > 64:
            _SAMPLERS.clear()
        hit = _SAMPLERS[id(known)] = (known, view, DealSampler(view, rules, known))
    return hit[2].draw(rng)
