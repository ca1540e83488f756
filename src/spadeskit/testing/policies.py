"""Policies that play matches reaching what the rules are about.

Uniformly random play bids wildly, is set nearly every hand and ends a standard match
at the floor within two hands: it never makes a nil, rarely piles bags and never
reaches the target.  The kit's policies play like a weak but sensible table:

``random_policy``
    a uniformly random legal action.
``contract_policy``
    bids near the hand's strength (nil with a weak hand), then tries to take the tricks
    its side needs and to duck once they are in; a nil bidder ducks.
``bags_policy``
    bids the least it may and takes every trick it can, so bags pile up to the limit.
``nil_policy``
    bids blind nil or nil whenever it may, otherwise as ``contract_policy``.
``boston_policy``
    bids so its side contracts for every trick, then takes all it can.

A policy is ``policy(game, legal, rng) -> action``.  The kit's driver
(:func:`spadeskit.testing.play_match`) also asks, now and then, for an action out of
turn (a renege claim, a misdeal) or by the referee (a table-talk ruling).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from spadeskit.core.actions import Action, Bid, BlindNil, Nil, Play
from spadeskit.core.cards import Suit, card_at, iter_mask
from spadeskit.core.phase import Phase
from spadeskit.core.state import GameState

__all__ = [
    "Policy",
    "random_policy",
    "contract_policy",
    "bags_policy",
    "nil_policy",
    "boston_policy",
    "POLICIES",
]

Policy = Callable[[GameState, Sequence[Action], random.Random], Action]


def random_policy(game: GameState, legal: Sequence[Action], rng: random.Random) -> Action:
    """Return a uniformly random legal action."""
    return rng.choice(legal)


def _strength(card: int) -> int:
    """Return a card's order for the policies: spades (and jokers) above the rest."""
    c = card_at(card)
    return c.rank + (20 if c.suit in (Suit.SPADES, None) else 0)


def hand_strength(game: GameState, seat: int) -> int:
    """Return a rough count of the tricks ``seat``'s cards should take."""
    held = [card_at(c) for c in iter_mask(game.hands[seat])]
    spades = [c for c in held if c.suit in (Suit.SPADES, None)]
    tricks = sum(1 for c in held if c.rank >= 14 and c.suit not in (Suit.SPADES, None))
    tricks += sum(1 for c in spades if c.rank >= 12)
    tricks += max(0, len(spades) - 3)
    size = max(1, len(held))
    return max(0, round(tricks * game.rules.table.deal.hand_size / size))


def _bid(legal: Sequence[Action], want: int, rng: random.Random, nil: bool) -> Action | None:
    if nil:
        for action in legal:
            if isinstance(action, (BlindNil, Nil)):
                return action
    bids = [a for a in legal if isinstance(a, Bid)]
    if not bids:
        return None
    want += rng.choice((-1, 0, 0, 1))
    return min(bids, key=lambda b: (abs(b.tricks - want), rng.random()))


def _needs(game: GameState, seat: int) -> bool:
    """Return whether ``seat``'s side still needs tricks for its bid (not a nil bidder's)."""
    rules = game.rules
    side = rules.side_of[seat]
    seats = rules.table.sides[side]
    bid = sum(b.tricks for s in seats if isinstance(b := game.bids[s], Bid))
    return sum(game.hand.books[s] for s in seats) < bid


def _play(game: GameState, legal: Sequence[Action], rng: random.Random, greedy: bool) -> Action:
    plays = [a for a in legal if isinstance(a, Play)]
    if not plays:
        return rng.choice(legal)
    seat = game.to_act
    assert seat is not None
    bid = game.bids[seat]
    if isinstance(bid, (Nil, BlindNil)) or (isinstance(bid, Bid) and bid.tricks == 0):
        return min(plays, key=lambda p: _strength(p.card.index))
    if greedy or _needs(game, seat):
        return max(plays, key=lambda p: _strength(p.card.index))
    return min(plays, key=lambda p: _strength(p.card.index))


def contract_policy(game: GameState, legal: Sequence[Action], rng: random.Random) -> Action:
    """Bid near the hand's strength (nil when weak); take the tricks needed, then duck."""
    seat = game.to_act
    if game.hand.phase is Phase.AUCTION and seat is not None:
        strength = hand_strength(game, seat)
        chosen = _bid(legal, strength, rng, nil=strength == 0 and rng.random() < 0.7)
        if chosen is not None:
            return chosen
        if any(isinstance(a, BlindNil) for a in legal) and rng.random() < 0.1:
            return next(a for a in legal if isinstance(a, BlindNil))
        others = [a for a in legal if not isinstance(a, BlindNil)]
        return rng.choice(others or legal)
    return _play(game, legal, rng, greedy=False)


def bags_policy(game: GameState, legal: Sequence[Action], rng: random.Random) -> Action:
    """Bid the least allowed and take every trick possible, so bags pile up."""
    if game.hand.phase is Phase.AUCTION:
        bids = [a for a in legal if isinstance(a, Bid)]
        if bids:
            return min(bids, key=lambda b: b.tricks)
        others = [a for a in legal if not isinstance(a, BlindNil)]
        return rng.choice(others or legal)
    return _play(game, legal, rng, greedy=True)


def nil_policy(game: GameState, legal: Sequence[Action], rng: random.Random) -> Action:
    """Bid blind nil or nil whenever allowed (half the time), else as ``contract_policy``."""
    if game.hand.phase is Phase.AUCTION and rng.random() < 0.5:
        for action in legal:
            if isinstance(action, (BlindNil, Nil)):
                return action
    return contract_policy(game, legal, rng)


def boston_policy(game: GameState, legal: Sequence[Action], rng: random.Random) -> Action:
    """Bid so the side contracts for every trick (a Boston), then take all it can."""
    seat = game.to_act
    if game.hand.phase is Phase.AUCTION and seat is not None:
        rules = game.rules
        partner = [s for s in rules.table.sides[rules.side_of[seat]] if s != seat]
        said = game.bids[partner[0]] if partner else None
        tricks = len(rules.table.deck) // rules.table.players
        want = tricks - said.tricks if isinstance(said, Bid) else (tricks + 1) // 2
        bids = [a for a in legal if isinstance(a, Bid)]
        if bids:
            return min(bids, key=lambda b: abs(b.tricks - want))
        others = [a for a in legal if not isinstance(a, BlindNil)]
        return rng.choice(others or legal)
    return _play(game, legal, rng, greedy=True)


POLICIES: dict[str, Policy] = {
    "random": random_policy,
    "contract": contract_policy,
    "bags": bags_policy,
    "nil": nil_policy,
    "boston": boston_policy,
}
"""The kit's policies by name."""
