"""Dealing: new games, explicit deals checked, shuffles from a seed or a secret, and
each hand dealt when it starts."""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from array import array
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

from spadeskit.core.cards import CardLike, misplaced, parse_cards, place_copies
from spadeskit.core.errors import (
    DealError,
    shown,
)
from spadeskit.core.seating import FrozenMap
from spadeskit.core.seeding import check_seed
from spadeskit.core.state import (
    Builder,
    Dealing,
    GameState,
    MatchState,
    Phase,
    copy_to_builder,
    freeze,
)
from spadeskit.engine.auction import Auction
from spadeskit.engine.base import Shared

# Phase members bound once (enum lookups cost about 0.1 µs each on the hot path), and
# Final, as every module global the hot path reads: the native core then reads them as
# constants instead of looking them up in the module dict.
_AUCTION: Final = Phase.AUCTION
_EXCHANGE: Final = Phase.EXCHANGE

_EMPTY: Final = FrozenMap()


class Dealer:
    """Starting games and dealing hands (see :mod:`spadeskit.engine.base`)."""

    def __init__(self, shared: Shared, auction: Auction) -> None:
        self.shared = shared
        self.auction = auction
        self.deck = tuple(c.index for c in shared.table.deck)
        """The deck's cards by index; a card held twice is listed twice, its copies
        placed after each shuffle (:func:`~spadeskit.core.cards.place_copies`)."""
        self.deal_map = self._deal_map()
        self.kitty_to: int | None = shared.table.deal.kitty_to

    # ----------------------------------------------------------------------------------
    # Starting games and hands
    # ----------------------------------------------------------------------------------

    def _deal_map(self) -> tuple[tuple[int, ...], ...]:
        """Return the shuffled-deck positions dealt to each seat left of the dealer in
        turn (first the dealer's left), then the blind's, then the pile's."""
        plan = self.shared.table.deal
        seats: list[list[int]] = [[] for _ in range(self.shared.n)]
        pos = 0
        for packet in plan.rounds():
            for seat in seats:
                seat.extend(range(pos, pos + packet))
                pos += packet
        blind = tuple(range(pos, pos + plan.blind))
        return tuple(tuple(p) for p in seats) + (
            blind,
            tuple(range(pos + plan.blind, len(self.deck))),
        )

    def new_game(
        self,
        seed: Any,  # untrusted: see EngineBase
        deal: Sequence[Iterable[CardLike] | str] | None,
        dealer: Any,
        blind: Iterable[CardLike] | str,
        pile: Iterable[CardLike] | str,
    ) -> GameState:
        if seed is not None:
            check_seed(seed)
        if dealer is None:
            dealer = self.shared.n - 1
        self.shared.check_seat(dealer, "dealer")
        explicit = (self.check_deal(deal, blind, pile),) if deal is not None else ()
        return self.start(
            Dealing(seed, secrets.token_bytes(32) if seed is None else None, explicit), dealer
        )

    def start(self, dealing: Dealing, dealer: int) -> GameState:
        """Return a new match dealt as ``dealing`` says, ``dealer`` dealing the first hand."""
        return self._hand(dealing, MatchState.fresh(len(self.shared.table.sides)), 0, dealer)

    def check_deal(
        self,
        deal: Sequence[Iterable[CardLike] | str],
        blind: Iterable[CardLike] | str,
        pile: Iterable[CardLike] | str,
    ) -> tuple[tuple[int, ...], ...]:
        plan, n, name = self.shared.table.deal, self.shared.n, self.shared.rules.name
        if isinstance(deal, Sequence) and not isinstance(deal, (str, bytes)) and len(deal) == n + 2:
            # A record's deal: the hands, then the blind and the pile.
            if (blind and list(parse_cards(blind)) != list(parse_cards(deal[-2]))) or (
                pile and list(parse_cards(pile)) != list(parse_cards(deal[-1]))
            ):
                raise DealError(
                    "the deal already lists the blind and the pile: do not give them again"
                )
            deal, blind, pile = deal[:n], deal[-2], deal[-1]
        if isinstance(deal, (str, bytes)) or not isinstance(deal, Sequence) or len(deal) != n:
            raise DealError(
                f"a deal for {name!r} is {n} hands, one per seat (optionally "
                f"followed by the blind and the pile, as a record holds it), not {shown(deal, 40)}"
            )
        # A card listed twice is its two copies (or, where the deck holds it once, one
        # too many: misplaced() says so).
        placed = place_copies(
            [tuple(c.index for c in parse_cards(h)) for h in (*deal, blind, pile)]
        )
        hands, extra = placed[:n], placed[n:]
        deck = set(self.shared.table.indices)
        if plan.blind and not extra[0] and not plan.pile:
            dealt = {c for h in hands for c in h}
            extra[0] = tuple(sorted(deck - dealt))
        groups = [(self.shared.seat_name(s), h) for s, h in enumerate(hands)] + [
            ("the blind", extra[0]),
            ("the pile", extra[1]),
        ]
        problem = misplaced(groups, deck, "dealt", "to")
        if problem:
            raise DealError(
                f"{problem} of {self.shared.rules.name!r}" if problem.endswith("deck") else problem
            )
        misdeal = self.shared.calls.misdeal_allowed
        allowed = misdeal() if misdeal is not None else None
        if allowed is not None and type(allowed) is not bool:
            raise self.shared._bad(
                "spadeskit_misdeal_allowed", misdeal, allowed, "not True, False or None"
            )
        if not allowed:
            for seat, h in enumerate(hands):
                if len(h) != plan.hand_size:
                    raise DealError(
                        f"{self.shared.seat_name(seat)} is dealt {len(h)} cards; a hand is "
                        f"{plan.hand_size}"
                    )
        elif {c for h in hands for c in h} != deck - set(extra[0]) - set(extra[1]):
            raise DealError(
                f"the deal must use every card of the deck of {self.shared.rules.name!r}"
            )
        for name, cards, size in (("blind", extra[0], plan.blind), ("pile", extra[1], plan.pile)):
            if len(cards) != size:
                raise DealError(f"the {name} has {len(cards)} cards; it must have {size}")
        return tuple(hands) + tuple(extra)

    def _shuffle(
        self, rng: random.Random, dealer: int
    ) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
        """Return the hand masks (by seat), the blind mask and the pile of a deal drawn
        from ``rng``: the deck sorted by 64-bit random keys (all drawn in one call)."""
        deck = self.deck
        size = len(deck)
        keys = array("Q", rng.getrandbits(64 * size).to_bytes(8 * size, "little"))
        order = [deck[i] for i in sorted(range(size), key=keys.__getitem__)]
        n = self.shared.n
        if self.shared.copies:
            return self._placed(order, dealer)
        masks = [0] * n
        deal_map = self.deal_map
        for step in range(n):
            mask = 0
            for pos in deal_map[step]:
                mask |= 1 << order[pos]
            masks[(dealer + 1 + step) % n] = mask
        blind = 0
        for pos in deal_map[n]:
            blind |= 1 << order[pos]
        return tuple(masks), blind, tuple(order[pos] for pos in deal_map[n + 1])

    def _placed(
        self, order: list[int], dealer: int
    ) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
        """Return :meth:`_shuffle`'s deal of a deck that holds a card twice: the shuffled
        cards (``order``) dealt, then each copy placed as an explicit deal of the same
        cards would place it, seat by seat from seat 0, then the blind and the pile."""
        n = self.shared.n
        groups: list[list[int]] = [[] for _ in range(n + 2)]
        for step in range(n + 2):
            owner = (dealer + 1 + step) % n if step < n else step
            groups[owner] = [order[pos] for pos in self.deal_map[step]]
        placed = place_copies(groups)
        masks = card_masks(placed[: n + 1])
        return tuple(masks[:n]), masks[n], placed[n + 1]

    @staticmethod
    def _hand_rng(game: GameState) -> random.Random:
        """Return the generator that shuffles the hand in progress.

        Seeded: from the string ``(seed, hand)``, hashed (SHA-512) into the generator's
        seed, so different pairs never share a deal.  Unseeded: from an HMAC of the hand
        number under the game's secret, which no state, view or record shows.
        """
        dealing = game._dealing
        if dealing.seed is not None:
            return random.Random(f"spadeskit deal {dealing.seed} {game.number}")
        assert dealing.secret is not None
        return random.Random(
            hmac.new(dealing.secret, f"hand {game.number}".encode(), hashlib.sha256).digest()
        )

    def _hand(
        self,
        dealing: Dealing,
        match: MatchState,
        number: int,
        dealer: int,
        rng: random.Random | None = None,
    ) -> GameState:
        """Return hand ``number`` of a match, dealt and its auction begun.

        The deal is the game's explicit one for this hand if it has one, else shuffled by
        ``rng`` or by the game's own generator for this hand.  The state is filled before
        anything sees it; the auction's hooks are asked about a frozen copy.
        """
        n = self.shared.n
        o: Any = object.__new__(Builder)
        o.rules, o._dealing, o.match = self.shared.rules, dealing, match
        o.number, o.dealer = number, dealer
        o.auction, o.bids, o.trick, o.tricks = (), (None,) * n, (), ()
        o.books = o.won = (0,) * n
        o.played, o.breaches, o.transfers, o.extra = 0, (), (), _EMPTY
        o._log = o._legal = None
        explicit = dealing.explicit
        deal = explicit[number] if number < len(explicit) else None
        if deal is None:
            hands, blind, pile = self._shuffle(rng or self._hand_rng(o), dealer)
        else:
            masks = card_masks(deal[: n + 1])
            hands, blind, pile = tuple(masks[:n]), masks[n], tuple(deal[n + 1])
        o.hands, o.blind, o.pile, o._dealt = hands, blind, pile, (hands, blind, pile)
        o.phase, o.to_act, o.contract, o.steps = _AUCTION, None, None, ()
        o.leader = (dealer + 1) % n
        if self.kitty_to is not None:
            # A kitty: its seat picks the blind up now and discards before the auction.
            seat = (dealer + self.kitty_to) % n
            o.hands = hands[:seat] + (hands[seat] | blind,) + hands[seat + 1 :]
            o.blind, o.phase, o.to_act = 0, _EXCHANGE, seat
            o.steps = self.shared.table.deal.deal_steps(dealer, n)
            return freeze(o)
        for name, value in self.auction._auction_step(freeze(copy_to_builder(o))).items():
            setattr(o, name, value)
        return freeze(o)


def card_masks(groups: Sequence[Sequence[int]]) -> list[int]:
    """Return each group of card indices (copies placed) as a mask (compiled with the
    engine: search turns thousands of drawn deals a decision into masks with it)."""
    masks = []
    for cards in groups:
        mask = 0
        for c in cards:
            mask |= 1 << c
        masks.append(mask)
    return masks


def shuffle_floats(cards: list[int], fraction: Callable[[], float]) -> None:
    """Shuffle ``cards`` in place from ``fraction``'s floats in [0, 1) (Fisher–Yates;
    each order equally likely to within the floats' 2**-53 grain).  Search draws
    thousands of deals a decision with it (:class:`spadeskit.bots.inference.DealSampler`):
    compiled with the engine, it is several times faster than
    :meth:`random.Random.shuffle`, whose integer draws are Python code."""
    for i in range(len(cards) - 1, 0, -1):
        j = int(fraction() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]
