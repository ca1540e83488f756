"""What happened in the hand in progress, as one seat may know it.

:attr:`View.events <spadeskit.views.View.events>` lists the hand's public events in
order, so an app can print "W plays K♥" or animate a trick without comparing successive
views.  Each event is a small frozen value with the seats involved and a ``text`` for
people (seat names as the table gives them, cards with suit symbols).

What a seat may not know never reaches an event: a sealed bid is an event without its
bid, cards drawn from the pile or passed between two other seats are a count, and a
discard shows its cards only to the seat that laid them aside.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from .actions import (
    Accept,
    Action,
    Bid,
    BlindNil,
    CallRenege,
    DeclareMisdeal,
    Discard,
    Exchange,
    Nil,
    Pass,
    PickUp,
    Play,
    SeeCards,
    TableTalk,
    fields_json,
)
from .cards import ALL_CARDS, Card
from .state import REFEREE

if TYPE_CHECKING:
    from .results import HandResult
    from .state import GameState

__all__ = [
    "BidMade",
    "CardPlayed",
    "CardsDiscarded",
    "CardsDrawn",
    "CardsPassed",
    "Event",
    "OutOfTurn",
    "TrickWon",
    "final_events",
    "hand_events",
    "last_trick",
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


_BIDS = frozenset({Bid, Nil, BlindNil, PickUp, Pass})
_KINDS: dict[type, str] = {
    BidMade: "bid",
    CardPlayed: "card-played",
    TrickWon: "trick-won",
    CardsDrawn: "cards-drawn",
    CardsPassed: "cards-passed",
    CardsDiscarded: "cards-discarded",
    OutOfTurn: "out-of-turn",
}


def _name(names: tuple[str, ...], seat: int) -> str:
    return "the referee" if seat == REFEREE else names[seat]


def _bid_text(who: str, bid: Action | None) -> str:
    if bid is None:
        return f"{who} bids (sealed)"
    if isinstance(bid, Bid):
        return f"{who} bids {bid.tricks}"
    if isinstance(bid, (Nil, BlindNil)):
        return f"{who} bids {bid}"
    if isinstance(bid, PickUp):
        return f"{who} picks up the blind"
    if isinstance(bid, Pass):
        return f"{who} passes"
    return f"{who}: {bid}"


def _out_of_turn_text(who: str, action: Action, side_names: tuple[str, ...]) -> str:
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


def _cards_text(cards: tuple[Card, ...] | None, count: int) -> str:
    if cards is None:
        return "a card" if count == 1 else f"{count} cards"
    return " ".join(c.symbol for c in cards)


# Events per (log node, seat): a log is a linked list whose earlier links every later
# state shares, so each state's events are its parent's plus those of one action.  The
# node is kept alive beside its events (so an id is never reused while it is a key).
_Progress = tuple[tuple[Event, ...], int, int, int]  # events, cards played, drawn, steps taken
_CACHE: dict[tuple[int, int | None], tuple[Any, _Progress]] = {}
_START: _Progress = ((), 0, 0, 0)


def hand_events(game: GameState, seat: int | None) -> tuple[Event, ...]:
    """Return the events of the hand in progress as ``seat`` may know them (``None``: a
    spectator), bids shown as they stand in the state (the view hides sealed ones)."""
    pending = []
    node = game._log
    progress = _START
    while node is not None:
        hit = _CACHE.get((id(node), seat))
        if hit is not None and hit[0] is node:
            progress = hit[1]
            break
        pending.append(node)
        node = node[0]
    if len(_CACHE) > 20_000:
        _CACHE.clear()
    for node in reversed(pending):
        progress = _advance(game, seat, progress, node[1])
        _CACHE[(id(node), seat)] = (node, progress)
    return progress[0]


def _advance(
    game: GameState, seat: int | None, progress: _Progress, entry: tuple[int | None, Action]
) -> _Progress:
    """Return ``progress`` after one logged action (the hand's tricks, contract and pile
    tell what followed it)."""
    events, plays, drawn, taken_steps = progress
    table = game.rules.table
    names = table.seat_names
    n = table.players
    who, action = entry
    kind = type(action)
    new: list[Event] = []
    steps = game.contract.steps if game.contract is not None else ()
    if kind is Play and who is not None:
        assert isinstance(action, Play)
        number = plays // n + 1
        new.append(_card_played(names, who, action.card, number))
        plays += 1
        tricks = game.tricks
        if plays % n == 0 and plays // n <= len(tricks):
            done = tricks[plays // n - 1]
            new.append(_trick_won(names, number, done.winner, done.plays))
            draw = table.deal.draw
            pile = game._dealt[2] if draw else ()
            for step in range(n):
                got = tuple(ALL_CARDS[c] for c in pile[drawn : drawn + draw])
                if not got:
                    break
                drawn += len(got)
                taker = (done.winner + step) % n
                shown = got if taker == seat else None
                new.append(
                    CardsDrawn(
                        taker,
                        len(got),
                        shown,
                        text=f"{names[taker]} draws {_cards_text(shown, len(got))}",
                    )
                )
    elif (kind is Discard or kind is Exchange) and who is not None and taken_steps < len(steps):
        assert isinstance(action, (Discard, Exchange))
        count = len(action.cards)
        to = steps[taken_steps].to
        taken_steps += 1
        if kind is Discard or to is None:
            cards = action.cards if who == seat else None
            new.append(
                CardsDiscarded(
                    who, count, cards, text=f"{names[who]} discards {_cards_text(cards, count)}"
                )
            )
        else:
            cards = action.cards if seat in (who, to) else None
            new.append(
                CardsPassed(
                    who,
                    to,
                    count,
                    cards,
                    text=f"{names[who]} passes {_cards_text(cards, count)} to {names[to]}",
                )
            )
    elif kind in _BIDS and who is not None:
        new.append(BidMade(who, action, text=_bid_text(names[who], action)))
    else:
        seat_of = REFEREE if who is None else who
        new.append(
            OutOfTurn(
                seat_of,
                action,
                text=_out_of_turn_text(_name(names, seat_of), action, table.side_names),
            )
        )
    return events + tuple(new), plays, drawn, taken_steps


def final_events(
    before: GameState, who: int, action: Action, result: HandResult, seat: int | None
) -> tuple[Event, ...]:
    """Return the events of the action that ended a hand, as ``seat`` may know them.

    No view shows them: once a hand ends, the next view is the next hand's.  ``before``
    is the state the action was applied to and ``result`` the hand it finished; a last
    card gives its ``CardPlayed`` and the last trick's ``TrickWon``.
    """
    names = before.rules.table.seat_names
    if isinstance(action, Play) and result.last_trick_winner is not None:
        number = len(before.tricks) + 1
        return (
            _card_played(names, who, action.card, number),
            _trick_won(
                names, number, result.last_trick_winner, last_trick(before, who, action, result)
            ),
        )
    done = hand_events(before, seat)
    progress = _advance(before, seat, (done, 0, 0, 0), (who, action))
    return progress[0][len(done) :]


def last_trick(
    before: GameState, who: int, action: Action, result: HandResult
) -> tuple[tuple[int, int], ...]:
    """Return the last trick of the hand ``action`` ended, as ``(seat, card index)``
    plays: completed by that card, or the hand's last finished trick when the hand
    ended otherwise (a review's acceptance); ``()`` for a hand with no trick (a misdeal).
    """
    if isinstance(action, Play) and result.last_trick_winner is not None:
        return (*before.trick, (who, action.card.index))
    return before.tricks[-1].plays if before.tricks else ()


def _card_played(names: tuple[str, ...], who: int, card: Card, trick: int) -> CardPlayed:
    return CardPlayed(who, card, trick, text=f"{names[who]} plays {card.symbol}")


def _trick_won(
    names: tuple[str, ...], trick: int, winner: int, plays: tuple[tuple[int, int], ...]
) -> TrickWon:
    best = next(ALL_CARDS[c] for s, c in plays if s == winner)
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
        BidMade(e.seat, None, text=_bid_text(names[e.seat], None))
        if isinstance(e, BidMade) and e.seat in hidden
        else e
        for e in events
    )
