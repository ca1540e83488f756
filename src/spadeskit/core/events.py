"""What happened in the hand in progress, as one seat may know it.

:attr:`View.events <spadeskit.core.views.View.events>` lists the hand's public events in
order, so an app can print "W plays K♥" or animate a trick without comparing successive
views.  Each event is a small frozen value with the seats involved and a ``text`` for
people (seat names as the table gives them, cards with suit symbols).

What a seat may not know never reaches an event: a sealed bid is an event without its
bid, cards drawn from the pile or passed between two other seats are a count, and a
discard shows its cards only to the seat that laid them aside.
"""

from __future__ import annotations

from typing import Any

import attrs

from spadeskit.core.actions import (
    Accept,
    Action,
    Bid,
    BlindNil,
    CallRenege,
    DeclareMisdeal,
    Nil,
    Pass,
    PickUp,
    SeeCards,
    TableTalk,
    fields_json,
)
from spadeskit.core.cards import CARD_OF, Card
from spadeskit.core.phase import REFEREE

__all__ = [
    "BIDS",
    "BidMade",
    "CardPlayed",
    "CardsDiscarded",
    "CardsDrawn",
    "CardsPassed",
    "Event",
    "OutOfTurn",
    "TrickWon",
    "bid_text",
    "card_played",
    "cards_text",
    "out_of_turn_text",
    "seat_label",
    "sealed",
    "trick_won",
]


@attrs.frozen
class Event:
    """Base class of the events of a hand; ``text`` is the event in words."""

    text: str = attrs.field(kw_only=True, eq=False)

    def __str__(self) -> str:
        return self.text

    def to_json(self) -> dict[str, Any]:
        """Return the event as JSON data: ``{"type": "card-played", "seat": 3, ...}``."""
        return fields_json(self, _KINDS[type(self)])


@attrs.frozen
class BidMade(Event):
    """A seat spoke in the auction: a bid, nil, blind nil, pick up or pass.

    ``bid`` is ``None`` when the seat may not see it yet (sealed bids).
    """

    seat: int
    bid: Action | None


@attrs.frozen
class CardPlayed(Event):
    """A seat played ``card`` to trick ``trick`` (numbered from 1)."""

    seat: int
    card: Card
    trick: int


@attrs.frozen
class TrickWon(Event):
    """Trick ``trick`` (numbered from 1) is over: ``winner`` took it with ``card``."""

    trick: int
    winner: int
    card: Card


@attrs.frozen
class CardsDrawn(Event):
    """A seat drew ``count`` cards from the pile; ``cards`` only for the seat that drew them."""

    seat: int
    count: int
    cards: tuple[Card, ...] | None


@attrs.frozen
class CardsPassed(Event):
    """``seat`` passed ``count`` cards to ``to``; ``cards`` only for those two seats."""

    seat: int
    to: int
    count: int
    cards: tuple[Card, ...] | None


@attrs.frozen
class CardsDiscarded(Event):
    """``seat`` laid ``count`` cards aside; ``cards`` only for that seat."""

    seat: int
    count: int
    cards: tuple[Card, ...] | None


@attrs.frozen
class OutOfTurn(Event):
    """An action taken out of turn: a renege call, a misdeal, a look at one's cards, a
    review's acceptance, or a referee's ruling (``seat`` is ``spadeskit.REFEREE``)."""

    seat: int
    action: Action


BIDS = (Bid, Nil, BlindNil, PickUp, Pass)
"""The action types told as a :class:`BidMade` (with their subclasses: a plugin's blind
bid is a bid)."""
_KINDS: dict[type, str] = {
    BidMade: "bid",
    CardPlayed: "card-played",
    TrickWon: "trick-won",
    CardsDrawn: "cards-drawn",
    CardsPassed: "cards-passed",
    CardsDiscarded: "cards-discarded",
    OutOfTurn: "out-of-turn",
}


def seat_label(names: tuple[str, ...], seat: int) -> str:
    return "the referee" if seat == REFEREE else names[seat]


def bid_text(who: str, bid: Action | None) -> str:
    if bid is None:
        return f"{who} bids (sealed)"
    if type(bid) is Bid:
        return f"{who} bids {bid.tricks}"
    if isinstance(bid, (Nil, BlindNil)):
        return f"{who} bids {bid}"
    if isinstance(bid, PickUp):
        return f"{who} picks up the blind"
    if isinstance(bid, Pass):
        return f"{who} passes"
    return f"{who} bids {bid}"


def out_of_turn_text(who: str, action: Action, side_names: tuple[str, ...]) -> str:
    if isinstance(action, SeeCards):
        return f"{who} looks at their cards"
    if isinstance(action, Accept):
        return f"{who} accepts the hand"
    if isinstance(action, DeclareMisdeal):
        return f"{who} declares a misdeal"
    if isinstance(action, CallRenege):
        return f"{who} calls a renege in trick {action.trick}"
    if isinstance(action, TableTalk):
        side = side_names[action.side] if action.side < len(side_names) else str(action.side)
        return f"{who} rules table talk by {side}"
    return f"{who}: {action}"


def cards_text(cards: tuple[Card, ...] | None, count: int) -> str:
    if cards is None:
        return "a card" if count == 1 else f"{count} cards"
    return " ".join(c.symbol for c in cards)


def card_played(names: tuple[str, ...], who: int, card: Card, trick: int) -> CardPlayed:
    return CardPlayed(who, card, trick, text=f"{names[who]} plays {card.symbol}")


def trick_won(
    names: tuple[str, ...], trick: int, winner: int, plays: tuple[tuple[int, int], ...]
) -> TrickWon:
    best = next(CARD_OF[c] for s, c in plays if s == winner)
    return TrickWon(
        trick, winner, best, text=f"{names[winner]} wins trick {trick} with {best.symbol}"
    )


def sealed(
    events: tuple[Event, ...], hidden: frozenset[int], names: tuple[str, ...]
) -> tuple[Event, ...]:
    """Return ``events`` with the bids of the ``hidden`` seats sealed."""
    if not hidden:
        return events
    return tuple(
        BidMade(e.seat, None, text=bid_text(names[e.seat], None))
        if isinstance(e, BidMade) and e.seat in hidden
        else e
        for e in events
    )
