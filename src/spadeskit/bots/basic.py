"""Bots that play through the public API only: they see a :class:`~spadeskit.core.views.View`.

They exist for demos, simulations and tests; they are not strong players.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from spadeskit.core.actions import Action, Bid, Nil, Play, SeeCards
from spadeskit.core.cards import Card
from spadeskit.core.errors import SpadesError, shown
from spadeskit.core.views import View
from spadeskit.engine.loop import greedy_follow
from spadeskit.engine.rules import Rules

__all__ = ["Bot", "RandomBot", "SimpleBot", "check_reset", "check_view", "greedy_card"]


def check_view(bot: object, view: object) -> View:
    """Return ``view`` if it is a seat's :class:`View`; raise a ``SpadesError`` naming
    the bot otherwise (a bot chooses from what its seat sees, never from a state)."""
    if not isinstance(view, View):
        raise SpadesError(
            f"{type(bot).__name__}.choose takes a seat's view (game.view(seat)), not "
            f"{shown(view, 40)}",
            code="not-a-view",
        )
    return view


def check_reset(bot: object, seat: object, rules: object, rng: object) -> Rules:
    """Return ``rules`` once ``reset(seat, rules, rng)``'s arguments are checked: loaded
    rules, one of their seats and a :class:`random.Random`."""
    name = type(bot).__name__
    if not isinstance(rules, Rules):
        raise SpadesError(
            f"{name} plays under loaded rules (spadeskit.load_rules), not {shown(rules, 40)}"
        )
    players = rules.table.players
    if type(seat) is not int or not 0 <= seat < players:
        raise SpadesError(
            f"{name} sits at a seat of {rules.name!r}, 0 to {players - 1}, not {shown(seat, 20)}"
        )
    if not isinstance(rng, random.Random):
        raise SpadesError(f"{name} draws from a random.Random, not {shown(rng, 40)}")
    return rules


class Bot(Protocol):
    """Anything that picks an action from what its seat sees.

    A bot may also have ``reset(seat, rules, rng)``: :mod:`spadeskit.arena` calls it
    before each match with the seat, the rules and a :class:`random.Random` of its own.
    """

    def choose(self, view: View) -> Action:
        """Return one of ``view.legal_actions``."""


class RandomBot:
    """Pick uniformly among the legal actions (seeded for reproducible simulations)."""

    def __init__(self, seed: int | None = None) -> None:
        if seed is not None and type(seed) is not int:
            raise SpadesError(f"a seed is a whole number or None, not {shown(seed, 20)}")
        self._rng = random.Random(seed)

    def reset(self, seat: int, rules: Rules, rng: random.Random) -> None:
        """Draw from ``rng`` from now on."""
        check_reset(self, seat, rules, rng)
        self._rng = rng

    def choose(self, view: View) -> Action:
        """Return a random legal action."""
        legal = check_view(self, view).legal_actions
        if not legal:
            raise SpadesError("this seat has nothing to choose now", code="nothing-to-do")
        return self._rng.choice(legal)


class SimpleBot:
    """Bid its high cards and long trumps; win tricks cheaply, duck when it cannot win."""

    def __init__(self, rules: Rules | None = None) -> None:
        if rules is not None:
            self.reset(0, rules, random.Random(0))

    def reset(self, seat: int, rules: Rules, rng: random.Random) -> None:
        """Play under ``rules`` (the seat and the generator are not needed)."""
        self.rules = check_reset(self, seat, rules, rng)
        self.ranking = rules.ranking

    def _power(self, card: Card, led: int, trump: str) -> int:
        return self.rules.strength_table(trump)[led][card.index]

    def choose(self, view: View) -> Action:
        """Return a sensible legal action for the seat the view belongs to."""
        legal = check_view(self, view).legal_actions
        if not hasattr(self, "rules"):
            raise SpadesError("call reset(seat, rules, rng) before choose (the arena does)")
        if SeeCards() in legal:
            return SeeCards()
        plays = [a for a in legal if isinstance(a, Play)]
        if plays:
            return self._play(view, plays)
        bids = [a for a in legal if isinstance(a, (Bid, Nil))]
        if bids:
            return self._bid(view, bids)
        return legal[0]

    def _bid(self, view: View, bids: Sequence[Action]) -> Action:
        suit_of, strength = self.ranking.suit_of, self.ranking.strength
        top = max(strength[c.index] for c in view.cards)
        trumps = [c for c in view.cards if suit_of[c.index] == 3]
        estimate = sum(
            1
            for c in view.cards
            if strength[c.index] >= top - 1 or (suit_of[c.index] != 3 and strength[c.index] >= 13)
        )
        estimate += max(0, len(trumps) - 3)
        if view.pile_size:
            # Cards still to be drawn will take tricks too: scale to the whole hand.
            held = len(view.cards)
            estimate = round(estimate * (held + view.pile_size / len(view.seat_names)) / held)
        numeric = [b for b in bids if isinstance(b, Bid)]
        if estimate == 0 and Nil() in bids:
            return Nil()
        if not numeric:
            return bids[0]
        return min(numeric, key=lambda b: (abs(b.tricks - estimate), b.tricks))

    def _play(self, view: View, plays: list[Play]) -> Action:
        trump = view.trump or "spades"
        suit_of = self.ranking.suit_of
        if not view.trick:
            return max(
                plays,
                key=lambda p: (suit_of[p.card.index] != 3, self.ranking.strength[p.card.index]),
            )
        led = suit_of[view.trick[0][1].index]
        powers = [(self._power(c, led, trump), s) for s, c in view.trick]
        best, winner = max(powers)
        side_of = self.rules.side_of
        partner_winning = (
            view.seat is not None and side_of[winner] == side_of[view.seat] and winner != view.seat
        )
        ranked = sorted(plays, key=lambda p: self._power(p.card, led, trump))
        if not partner_winning:
            for play in ranked:
                if self._power(play.card, led, trump) > best:
                    return play
        return min(
            plays,
            key=lambda p: (self._power(p.card, led, trump), self.ranking.strength[p.card.index]),
        )


def greedy_card(
    trick: Sequence[Sequence[int]],
    allowed: int,
    seat: int,
    rows: Sequence[Sequence[int]],
    suit_of: Sequence[int],
    side_of: Sequence[int],
) -> int:
    """Return the mask of the card a greedy player follows ``trick`` with, from the
    ``allowed`` mask: :func:`spadeskit.engine.loop.greedy_follow` (the cheapest card
    that takes the trick, unless the seat's side is already winning it or none can;
    else the cheapest card), on any sequences.

    ``trick`` holds the ``(seat, card index)`` plays so far; ``rows`` is the rules'
    :meth:`~spadeskit.engine.loaded.LoadedRules.strength_table` for the hand's trump;
    ``suit_of`` and ``side_of`` are ``rules.ranking.suit_of`` and ``rules.side_of``.
    ``greedy_follow`` takes them as the tuples the rules give (the compiled core
    indexes tuples natively); pass it itself as the ``follower`` of
    ``Engine.random_play_score`` and the compiled loop follows inline."""
    return greedy_follow(
        tuple((who, index) for who, index in trick),
        allowed,
        seat,
        tuple(map(tuple, rows)),
        tuple(suit_of),
        tuple(side_of),
    )
