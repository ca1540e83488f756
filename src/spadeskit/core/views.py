"""What one seat may see.

A :class:`View` is built only from public facts (bids, played cards, scores, counts of
cards held) and the viewing seat's own cards.  Nothing else (other hands, the blind,
the draw pile, discards, secret breaches, the shuffle seed) is ever copied into it, so
its JSON form cannot leak either.  Plugins may hide more through the ``spadeskit_view``
hook.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from spadeskit.core import _fast
from spadeskit.core.actions import Action, Discard, Exchange, Play, label
from spadeskit.core.cards import CARD_OF, Card
from spadeskit.core.errors import GameOver, IllegalAction, NotYourTurn, WrongPhase
from spadeskit.core.events import Event
from spadeskit.core.phase import Phase
from spadeskit.core.results import HandResult, Trick
from spadeskit.core.schemas import load_schema
from spadeskit.core.seating import show_points

__all__ = ["ShownTrick", "View", "hand_result_json", "shown_tricks", "view_schema"]


@attrs.frozen(weakref_slot=False)
class ShownTrick:
    """A finished trick as a view shows it: who led, the plays as ``(seat, Card)``
    (the same pairs as :attr:`View.trick`), who won it.

    States keep card indices (``Trick.plays`` holds ``(seat, index)``); views hold
    :class:`~spadeskit.core.cards.Card` values everywhere.
    """

    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int

    @property
    def cards(self) -> tuple[Card, ...]:
        """Return the cards in the order they were played."""
        return tuple(card for _, card in self.plays)


_make_shown = _fast.maker(ShownTrick)
# Finished tricks are shared by every later state of the hand, so each is converted
# once: by id, the trick kept alive beside its shown form (so an id is never reused
# while it is a key).  Cleared when it grows large.
_SHOWN: dict[int, tuple[Trick, ShownTrick]] = {}


def shown_tricks(tricks: tuple[Trick, ...]) -> tuple[ShownTrick, ...]:
    """Return finished tricks as a view shows them (each shown form built once)."""
    shown = []
    for t in tricks:
        hit = _SHOWN.get(id(t))
        if hit is None:
            if len(_SHOWN) >= 50_000:
                _SHOWN.clear()
            hit = _SHOWN[id(t)] = (
                t,
                _make_shown(
                    leader=t.leader,
                    plays=tuple([(s, CARD_OF[c]) for s, c in t.plays]),
                    winner=t.winner,
                ),
            )
        shown.append(hit[1])
    return tuple(shown)


@attrs.frozen(weakref_slot=False)
class View:
    """The game as one seat sees it (``seat=None``: a spectator, who holds no cards).

    ``variant``, ``house_rules`` and ``options`` name the rules it belongs to
    (``spadeskit.load_rules(view.variant, view.house_rules, view.options)`` loads them).

    Seats are numbered from 0 clockwise (``seat_names`` gives their letters); ``side``
    is the viewing seat's side (an index into ``side_names``), ``partner`` its partner
    where it has one.  ``hand_number`` counts from 0: show people ``hand_number + 1``.
    Cards are :class:`~spadeskit.core.cards.Card` values throughout: the trick in progress
    as ``(seat, Card)`` pairs and the finished tricks of the hand as
    :class:`ShownTrick`.  ``events`` lists what happened in the hand so far, as this
    seat may know it (see :mod:`spadeskit.core.events`).

    ``legal_actions`` is a tuple already computed for the seat (a view is a snapshot to
    send or show), where :meth:`GameState.legal_actions
    <spadeskit.core.state.GameState.legal_actions>` is a method because it takes the seat
    (``None``: the seat to act, or the referee); both give the same tuple for a seat.
    When the seat is to play a card, ``refused`` lists each card it holds that a rule of
    play refuses, as ``(card, code, reason)``: the rule's name (``"follow-suit"``,
    ``"break-spades"`` …) and why, so an app can say why a card is greyed out;
    :meth:`refusal` gives the error ``apply`` would raise for any action.

    ``chosen`` is the seat's own discard or exchange in a group of simultaneous steps,
    made and waiting for the rest of the group (``None`` otherwise); no other seat's view
    shows it, and its cards stay in ``cards`` until the whole group has chosen.

    ``hand_results`` holds every finished hand (shared with the state, not copied).
    :meth:`to_json` sends the last finished hand in full (``last_hand``) and, for the
    match so far, each hand's totals only (``score_history``), so a view's JSON grows by
    one short line a hand.
    """

    seat: int | None
    variant: str
    seat_names: tuple[str, ...]
    side_names: tuple[str, ...]
    hand_number: int
    dealer: int
    phase: Phase
    to_act: int | None
    cards: tuple[Card, ...]
    card_counts: tuple[int, ...]
    bids: tuple[Action | None, ...]
    trump: str | None
    leader: int
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[ShownTrick, ...]
    books: tuple[int, ...]
    blind_size: int
    pile_size: int
    scores: tuple[int, ...]
    bags: tuple[int, ...]
    hand_results: tuple[HandResult, ...]
    legal_actions: tuple[Action, ...]
    is_over: bool
    winner: int | None
    side: int | None
    partner: int | None
    events: tuple[Event, ...]
    score_unit: int = 1
    house_rules: tuple[str, ...] = ()
    options: Mapping[str, Any] = attrs.field(factory=dict)
    refused: tuple[tuple[Card, str, str], ...] = ()
    chosen: Action | None = None

    @property
    def rules_name(self) -> str:
        """Return the name of the rules this view belongs to: ``"standard + blind-nil"``."""
        return " + ".join((self.variant, *self.house_rules))

    def show_score(self, points: int) -> str:
        """Return stored points as people read them (``41`` is ``"4.1"`` in a game scored
        in tenths, where ``score_unit`` is 10)."""
        return show_points(points, self.score_unit)

    def refusal(self, action: Action) -> IllegalAction | None:
        """Return the error :meth:`GameState.apply <spadeskit.core.state.GameState.apply>`
        raises for ``action`` by this view's seat (the same class and reason code), or
        ``None`` if the seat may take it.

        It reads the view only: a client holding views, not states, refuses an action
        exactly as the engine would (:func:`spadeskit.parse_action` does).
        """
        seat = self.seat
        if action in self.legal_actions:
            return None
        who = self.seat_names[seat] if seat is not None else "a spectator"
        if self.is_over:
            return GameOver(f"{action} refused: the match is over", seat=seat, action=action)
        choosing = self.phase is Phase.EXCHANGE and any(
            isinstance(a, (Discard, Exchange)) for a in self.legal_actions
        )  # a seat of a group of simultaneous steps may choose before its turn
        if seat is None or (self.to_act != seat and not choosing):
            turn = "nobody's" if self.to_act is None else f"{self.seat_names[self.to_act]}'s"
            return NotYourTurn(
                f"{action} by {who} refused: it is {turn} turn", seat=seat, action=action
            )
        phase = self.phase
        if phase is Phase.AUCTION:
            if isinstance(action, Play):
                return WrongPhase(
                    f"{action} by {who} refused: the auction is not over; bid first",
                    seat=seat,
                    action=action,
                )
            return IllegalAction(
                f"{action} is not allowed now", code="bid-not-allowed", seat=seat, action=action
            )
        if phase is Phase.EXCHANGE and self.legal_actions:
            due = next(
                (a for a in self.legal_actions if isinstance(a, (Discard, Exchange))),
                self.legal_actions[0],
            )
            if type(action) is not type(due) or not isinstance(due, (Discard, Exchange)):
                return WrongPhase(
                    f"{action} by {who} refused: {who} must give cards first",
                    seat=seat,
                    action=action,
                )
            assert isinstance(action, (Discard, Exchange))
            missing = [c for c in action.cards if c not in self.cards]
            if missing:
                return IllegalAction(
                    f"{action} by {who} refused: {missing[0]} is not in their hand",
                    code="not-in-hand",
                    seat=seat,
                    action=action,
                )
            return IllegalAction(
                f"{action} by {who} refused: give exactly {len(due.cards)} cards",
                code="wrong-card-count",
                seat=seat,
                action=action,
            )
        if phase is not Phase.PLAY or not isinstance(action, Play):
            return WrongPhase(f"{action} by {who} refused now", seat=seat, action=action)
        if action.card not in self.cards:
            return IllegalAction(
                f"{who} does not hold {action.card.symbol}",
                code="not-in-hand",
                seat=seat,
                action=action,
            )
        for card, code, reason in self.refused:
            if card == action.card:
                return IllegalAction(
                    f"{who} cannot play {card.symbol}: {reason}",
                    code=code,
                    seat=seat,
                    action=action,
                )
        return IllegalAction(f"{action} is not allowed now", seat=seat, action=action)

    def to_json(self) -> dict[str, Any]:
        """Return the view as JSON-serialisable data (for sending to a client)."""
        return {
            "seat": self.seat,
            "variant": self.variant,
            "house_rules": list(self.house_rules),
            "options": dict(self.options),
            "seat_names": list(self.seat_names),
            "side_names": list(self.side_names),
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "phase": self.phase.value,
            "to_act": self.to_act,
            "cards": [c.code for c in self.cards],
            "card_counts": list(self.card_counts),
            "bids": [b.to_json() if b is not None else None for b in self.bids],
            "trump": self.trump,
            "leader": self.leader,
            "trick": [[s, c.code] for s, c in self.trick],
            "tricks": [
                {"leader": t.leader, "winner": t.winner, "plays": [[s, c.code] for s, c in t.plays]}
                for t in self.tricks
            ],
            "books": list(self.books),
            "blind_size": self.blind_size,
            "pile_size": self.pile_size,
            "scores": list(self.scores),
            "bags": list(self.bags),
            # The last finished hand in full; before it, one score line per hand, so the
            # JSON of a view grows by one short line a hand, not by every hand's sheet.
            "score_history": [list(r.scores) for r in self.hand_results],
            "last_hand": hand_result_json(self.hand_results[-1]) if self.hand_results else None,
            "legal_actions": [a.to_json() for a in self.legal_actions],
            # A text a person reads for each legal action, in the same order.
            "legal_labels": [label(a, self.side_names) for a in self.legal_actions],
            "is_over": self.is_over,
            "winner": self.winner,
            "side": self.side,
            "partner": self.partner,
            "events": [e.to_json() for e in self.events],
            "score_unit": self.score_unit,
            "scores_shown": [self.show_score(p) for p in self.scores],
            "refused": [
                {"card": card.code, "code": code, "reason": reason}
                for card, code, reason in self.refused
            ],
            "chosen": self.chosen.to_json() if self.chosen is not None else None,
        }


def view_schema() -> dict[str, Any]:
    """Return the JSON Schema (draft 2020-12) of :meth:`View.to_json`'s data.

    The file ships in the package as ``spadeskit/schemas/view.schema.json``, for a client
    in another language (a test checks real views of every variant against it).
    """
    return load_schema("view")


def hand_result_json(result: HandResult) -> dict[str, Any]:
    """Return a finished hand as JSON data (a view's ``last_hand``; the table service's
    ``hand-ended`` event)."""
    return {
        "number": result.number,
        "dealer": result.dealer,
        "void": result.void,
        "bids": [b.to_json() if b is not None else None for b in result.bids],
        "books": list(result.books),
        "lines": [
            {
                "side": ln.side,
                "points": ln.points,
                "bags": ln.bags,
                "text": ln.text,
                "kind": ln.kind,
            }
            for ln in result.lines
        ],
        "points": list(result.points),
        "scores": list(result.scores),
        "bags": list(result.bags),
    }
