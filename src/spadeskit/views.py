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

from . import _fast
from .actions import Action, label
from .cards import ALL_CARDS, Card, cards_of
from .compiler import answered_by
from .errors import PluginError, shown
from .events import Event, hand_events, sealed
from .results import HandResult, Trick
from .schemas import load_schema
from .state import GameState, Phase
from .table import show_points

__all__ = ["ShownTrick", "View", "hand_result_json", "make_view", "view_schema"]


@attrs.frozen(weakref_slot=False)
class ShownTrick:
    """A finished trick as a view shows it: who led, the plays as ``(seat, Card)``
    (the same pairs as :attr:`View.trick`), who won it.

    States keep card indices (``Trick.plays`` holds ``(seat, index)``); views hold
    :class:`~spadeskit.cards.Card` values everywhere.
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


def _shown_tricks(tricks: tuple[Trick, ...]) -> tuple[ShownTrick, ...]:
    shown = []
    for t in tricks:
        hit = _SHOWN.get(id(t))
        if hit is None:
            if len(_SHOWN) >= 50_000:
                _SHOWN.clear()
            hit = _SHOWN[id(t)] = (
                t,
                _make_shown(t.leader, tuple([(s, ALL_CARDS[c]) for s, c in t.plays]), t.winner),
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
    Cards are :class:`~spadeskit.cards.Card` values throughout: the trick in progress
    as ``(seat, Card)`` pairs and the finished tricks of the hand as
    :class:`ShownTrick`.  ``events`` lists what happened in the hand so far, as this
    seat may know it (see :mod:`spadeskit.events`).

    ``legal_actions`` is a tuple already computed for the seat (a view is a snapshot to
    send or show), where :meth:`GameState.legal_actions
    <spadeskit.state.GameState.legal_actions>` is a method because it takes the seat
    (``None``: the seat to act, or the referee); both give the same tuple for a seat.

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

    @property
    def rules_name(self) -> str:
        """Return the name of the rules this view belongs to: ``"standard + blind-nil"``."""
        return " + ".join((self.variant, *self.house_rules))

    def show_score(self, points: int) -> str:
        """Return stored points as people read them (``41`` is ``"4.1"`` in a game scored
        in tenths, where ``score_unit`` is 10)."""
        return show_points(points, self.score_unit)

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
            {"side": ln.side, "points": ln.points, "bags": ln.bags, "text": ln.text}
            for ln in result.lines
        ],
        "points": list(result.points),
        "scores": list(result.scores),
        "bags": list(result.bags),
    }


_make = _fast.maker(View)


def make_view(game: GameState, seat: int | None, events: bool = True) -> View:
    """Return what ``seat`` may see of ``game`` (the seat is checked by the caller).

    ``events=False`` leaves the hand's events out (``()``): for bots inside a playout
    that read the rest of the view only, where rebuilding the events is a quarter of
    the time a decision takes."""
    rules = game.rules
    table = rules.table
    contract = game.contract
    match = game.match
    hands = game.hands
    side = partner = None
    if seat is not None:
        side = table.side_of[seat]
        mates = [s for s in table.sides[side] if s != seat]
        partner = mates[0] if len(mates) == 1 else None
    view: View = _make(
        seat,
        rules.variant,
        table.seat_names,
        table.side_names,
        game.number,
        game.dealer,
        game.phase,
        game.to_act,
        cards_of(hands[seat]) if seat is not None else (),
        tuple([m.bit_count() for m in hands]),
        game.bids,
        contract.trump if contract else None,
        game.leader,
        tuple([(s, ALL_CARDS[c]) for s, c in game.trick]),
        _shown_tricks(game.tricks),
        game.books,
        game.blind.bit_count(),
        len(game.pile),
        match.scores,
        match.bags,
        match.results,
        game.legal_actions(seat) if seat is not None else (),
        match.end is not None,
        match.end.winner if match.end is not None else None,
        side,
        partner,
        hand_events(game, seat) if events else (),
        table.score_unit,
        rules.house_rules,
        rules.options,
    )
    hook = rules.calls.view
    if hook is None:
        return view
    redacted = hook(view, game, seat)
    if redacted is None:
        return view
    if not isinstance(redacted, View):
        raise PluginError(
            f"spadeskit_view answered {shown(redacted, 60)}, not a View "
            f"({answered_by(hook, None)}, in {rules.name!r})"
        )
    # A bid the hook hid is hidden in the events too.
    hidden = frozenset(
        s for s, bid in enumerate(game.bids) if bid is not None and redacted.bids[s] is None
    )
    if hidden and redacted.events is view.events:
        redacted = attrs.evolve(redacted, events=sealed(view.events, hidden, table.seat_names))
    return redacted
