"""What a player keeps count of, read afresh from a view: the sparring partners' memory.

The sparring partners (:mod:`~spadeskit.bots.pointcount` and
:mod:`~spadeskit.bots.suretricks`) play from published strategy, not from the heuristic
bot's code; what they share is only the bookkeeping every careful player does at the
table, which this module does for them from the seat's
:class:`~spadeskit.core.views.View`:

* :class:`Table`: the rules as a player reads them (suits, strengths, sides, trick
  count), made once a match by ``reset``;
* :class:`Count`: the hand so far, made once a decision: the cards played and still
  out, the suits each seat has shown itself void in, the trick in progress (who is
  winning it, who is still to play), and each side's contract and books;
* the play every guide agrees on, which both partners build on, is
  :class:`~spadeskit.bots.sparring.CountingPlayer`.

Effective suits are the rules' (in jjdd the jokers and the 2♦ are spades); suit 3 is
the trump suit wherever one exists.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from spadeskit.bots.basic import check_reset
from spadeskit.core.actions import (
    Accept,
    Action,
    Bid,
    BlindNil,
    CallRenege,
    Discard,
    Exchange,
    Pass,
    Play,
    SeeCards,
    is_nil,
)
from spadeskit.core.cards import Card
from spadeskit.core.views import View
from spadeskit.engine.rules import Rules

__all__ = ["TRUMP", "Count", "Table", "closest_bid", "routine_choice"]

TRUMP = 3
"""The effective suit index of the trump suit (spades, with jjdd's jokers and deuces)."""


class Table:
    """The rules as a player reads them: suits, strengths, sides and the hand's size."""

    def __init__(self, seat: int, rules: Rules, rng: random.Random, who: object) -> None:
        self.rules = check_reset(who, seat, rules, rng)
        self.seat = seat
        ranking = rules.ranking
        self.suit_of = ranking.suit_of
        self.strength = ranking.strength
        self.deck = tuple(c.index for c in rules.table.deck)
        self.n = rules.table.players
        self.tricks = (len(self.deck) - rules.table.deal.blind) // self.n
        self.side_of = rules.side_of
        self.sides = rules.table.sides
        options = rules.options
        limit = options.get("bag_limit")
        self.bag_limit = (
            limit if isinstance(limit, int) and "no-bags" not in rules.house_rules else None
        )
        self.sandbags = options.get("sandbag_penalty") is True
        target = options.get("target")
        self.target = target if isinstance(target, int) else None
        # Per effective suit, the deck's cards from strongest to weakest.
        by_suit: dict[int, list[int]] = {}
        for index in self.deck:
            by_suit.setdefault(self.suit_of[index], []).append(index)
        self.ladder = {s: sorted(c, key=lambda i: -self.strength[i]) for s, c in by_suit.items()}

    @property
    def overtricks_cost(self) -> bool:
        """Whether tricks over a contract cost something (bags or jjdd's sandbags)."""
        return self.bag_limit is not None or self.sandbags

    def rank_in_suit(self, index: int) -> int:
        """Return 0 for the strongest card of its effective suit, 1 for the next …"""
        return self.ladder[self.suit_of[index]].index(index)

    def rank_from_bottom(self, index: int) -> int:
        """Return 0 for the weakest card of its effective suit, 1 for the next …"""
        ladder = self.ladder[self.suit_of[index]]
        return len(ladder) - 1 - ladder.index(index)

    def small(self, indices: Sequence[int], below: int = 6) -> int:
        """Return how many of the card indices are among the ``below`` weakest of their
        suit (with the default, 2 to 7 of a suit of thirteen)."""
        return sum(1 for i in indices if self.rank_from_bottom(i) < below)

    def sides_duckable(self, held: dict[int, list[int]]) -> bool:
        """Return whether every side suit of a hand (:meth:`suits`) can be ducked in a
        nil: no ace or king without three small cards beside it, no queen without two,
        never two of them in one suit."""
        for suit, indices in held.items():
            if suit == TRUMP:
                continue
            high = [i for i in indices if self.rank_in_suit(i) <= 2]
            if len(high) > 1 or (
                high and self.small(indices) < 3 - self.rank_in_suit(high[0]) // 2
            ):
                return False
        return True

    def partners(self, seat: int) -> list[int]:
        """Return the seats on ``seat``'s side other than itself."""
        return [s for s in self.sides[self.side_of[seat]] if s != seat]

    def opponents(self, seat: int) -> list[int]:
        """Return the seats not on ``seat``'s side."""
        side = self.side_of[seat]
        return [s for s in range(self.n) if self.side_of[s] != side]

    def suits(self, cards: Sequence[Card]) -> dict[int, list[int]]:
        """Return a hand's card indices by effective suit, strongest first."""
        held: dict[int, list[int]] = {s: [] for s in self.ladder}
        for card in cards:
            held.setdefault(self.suit_of[card.index], []).append(card.index)
        for indices in held.values():
            indices.sort(key=lambda i: -self.strength[i])
        return held


class Count:
    """The hand so far, as the seat of ``view`` has seen it."""

    def __init__(self, table: Table, view: View) -> None:
        seat = view.seat
        assert seat is not None, "a spectator has nothing to choose"
        self.table = table
        self.view = view
        self.seat = seat
        suit_of = table.suit_of
        self.mine = {c.index for c in view.cards}
        played: set[int] = set()
        self.voids: dict[int, set[int]] = {s: set() for s in range(table.n)}
        tricks = [t.plays for t in view.tricks] + ([view.trick] if view.trick else [])
        for plays in tricks:
            led = suit_of[plays[0][1].index]
            for who, card in plays:
                played.add(card.index)
                if suit_of[card.index] != led:
                    self.voids[who].add(led)
        self.played = played
        self.unseen = [i for i in table.deck if i not in played and i not in self.mine]
        self.partners = table.partners(seat)
        self.opponents = table.opponents(seat)
        self.trump = view.trump or "spades"
        self.power = table.rules.strength_table(self.trump)
        self.left = len(view.cards)  # tricks still to play, this one included
        if view.trick:
            self.led: int | None = suit_of[view.trick[0][1].index]
            row = self.power[self.led]
            self.best, self.winner = max((row[c.index], s) for s, c in view.trick)
            first = view.trick[0][0]
            self.after = [(first + k) % table.n for k in range(len(view.trick) + 1, table.n)]
        else:
            self.led, self.best, self.winner = None, -1, -1
            self.after = [(seat + k) % table.n for k in range(1, table.n)]

    # -- cards -----------------------------------------------------------------------

    def suit(self, play: Play | int) -> int:
        """Return the effective suit of a play or card index."""
        index = play if isinstance(play, int) else play.card.index
        return self.table.suit_of[index]

    def higher_out(self, index: int) -> int:
        """Return how many cards of the card's suit, stronger than it, are still out."""
        suit_of, strength = self.table.suit_of, self.table.strength
        suit, own = suit_of[index], strength[index]
        return sum(1 for u in self.unseen if suit_of[u] == suit and strength[u] > own)

    def is_master(self, index: int) -> bool:
        """Return whether no card still out beats this one in its own suit."""
        return self.higher_out(index) == 0

    def out_in_suit(self, suit: int) -> int:
        """Return how many cards of ``suit`` are still out (held by others or unseen)."""
        return sum(1 for u in self.unseen if self.table.suit_of[u] == suit)

    def held_in_suit(self, suit: int) -> int:
        """Return how many cards of ``suit`` this seat holds."""
        return sum(1 for i in self.mine if self.table.suit_of[i] == suit)

    def beats(self, play: Play) -> bool:
        """Return whether ``play`` would win the trick as it stands now."""
        return self.led is not None and self.power[self.led][play.card.index] > self.best

    def trick_power(self, play: Play) -> int:
        """Return the card's power in this trick (for a lead: in its own suit)."""
        led = self.led if self.led is not None else self.suit(play)
        return self.power[led][play.card.index]

    def sure_to_hold(self, play: Play) -> bool:
        """Return whether ``play`` wins the trick against every seat still to play: no card
        out beats it in the led suit, and no opponent after it can or may ruff."""
        led = self.led if self.led is not None else self.suit(play)
        row = self.power[led]
        power = row[play.card.index]
        later = [s for s in self.after if s not in self.partners]
        if not later:
            return True
        for u in self.unseen:
            if row[u] > power:
                if self.table.suit_of[u] == led:
                    return False
                # Only a ruff beats it: possible when a later opponent is void, or the
                # suit has too few cards out to go round.
                if any(led in self.voids[o] for o in later) or self.out_in_suit(led) < len(later):
                    return False
        return True

    # -- contracts -------------------------------------------------------------------

    def bid_of(self, seat: int) -> int:
        """Return the tricks ``seat`` bid (0 for a nil, no bid yet or a non-trick bid)."""
        bid = self.view.bids[seat]
        return bid.tricks if isinstance(bid, Bid) else 0

    def nil_alive(self, seat: int) -> bool:
        """Return whether ``seat`` bid nil and has taken no trick yet."""
        return is_nil(self.view.bids[seat]) and self.view.books[seat] == 0

    def need(self, seat: int) -> int:
        """Return the tricks ``seat``'s side still needs for its contract (nils apart)."""
        seats = self.table.sides[self.table.side_of[seat]]
        contract = sum(self.bid_of(s) for s in seats)
        took = sum(self.view.books[s] for s in seats if not is_nil(self.view.bids[s]))
        return contract - took

    def safe_masters(self, plays: Sequence[Play]) -> list[Play]:
        """Return the side-suit masters among ``plays`` that no opponent has shown a void
        in (no ruff known to wait for them)."""
        return [
            p
            for p in plays
            if self.suit(p) != TRUMP
            and self.is_master(p.card.index)
            and not any(self.suit(p) in self.voids[o] for o in self.opponents)
        ]

    def partner_winning(self) -> bool:
        """Return whether a partner is winning the trick in progress."""
        return self.winner in self.partners

    # -- choosing among cards --------------------------------------------------------

    def _cost(self, play: Play) -> tuple[int, bool, int]:
        index = play.card.index
        return (self.trick_power(play), self.suit(play) == TRUMP, self.table.strength[index])

    def lowest(self, plays: Sequence[Play]) -> Play:
        """Return the cheapest card: least power in this trick, a side card before a
        trump, the lowest of its suit."""
        return min(plays, key=self._cost)

    def highest(self, plays: Sequence[Play]) -> Play:
        """Return the card with the most power in this trick."""
        return max(plays, key=self._cost)

    def winners(self, plays: Sequence[Play]) -> list[Play]:
        """Return the plays that would win the trick as it stands, cheapest first."""
        return sorted((p for p in plays if self.beats(p)), key=self._cost)

    def highest_loser(self, plays: Sequence[Play]) -> Play | None:
        """Return the strongest card that still loses the trick, or ``None``."""
        losing = [p for p in plays if not self.beats(p)]
        return max(losing, key=self._cost) if losing else None


def closest_bid(bids: Sequence[Action], tricks: int) -> Action:
    """Return the legal :class:`Bid` nearest ``tricks`` (the lower of two as near), or the
    first bid offered when none counts tricks."""
    numeric = [b for b in bids if isinstance(b, Bid)]
    if not numeric:
        return bids[0]
    return min(numeric, key=lambda b: (abs(b.tricks - tricks), b.tricks))


def routine_choice(table: Table, view: View, legal: Sequence[Action]) -> Action:
    """Return the plain choice for a decision that is neither a bid nor a card: look at
    the cards rather than bid blind, leave the blind, accept the hand as played, lay
    aside (or pass) the weakest cards (a blind nil bidder passes its strongest), and
    never accuse anyone."""
    if SeeCards() in legal:
        return SeeCards()
    if Pass() in legal:
        return Pass()
    if Accept() in legal:
        return Accept()
    giving = [a for a in legal if isinstance(a, (Discard, Exchange))]
    if giving:
        kind, count = type(giving[0]), len(giving[0].cards)
        seat = view.seat
        strongest_first = (
            kind is Exchange and seat is not None and isinstance(view.bids[seat], BlindNil)
        )

        def power(card: Card) -> tuple[bool, int]:
            return (table.suit_of[card.index] == TRUMP, table.strength[card.index])

        chosen = sorted(view.cards, key=power, reverse=strongest_first)[:count]
        action = kind(chosen)
        return action if action in legal else giving[0]
    quiet = [a for a in legal if not isinstance(a, CallRenege)]
    return quiet[0] if quiet else legal[0]
