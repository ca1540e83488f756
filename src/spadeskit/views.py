"""What one seat may see, and game records that replay.

A :class:`View` is built only from public facts (bids, played cards, scores, counts of
cards held) and the viewing seat's own cards.  Nothing else (other hands, the blind,
the draw pile, discards, secret breaches, the shuffle seed) is ever copied into it, so
its JSON form cannot leak either.  Plugins may hide more through the ``spadeskit_view``
hook.

A record (:func:`make_record`) is the opposite: everything needed to rebuild the game
exactly, with a digest of the final state so that a record that was altered is refused.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import attrs

from .actions import Action, action_from_json
from .cards import Card, card_at, cards_of
from .errors import RecordError, SpadesError
from .results import HandResult, Trick
from .state import GameState, Phase

if TYPE_CHECKING:
    from .rules import Rules

__all__ = ["RECORD_FORMAT", "RECORD_VERSION", "View", "make_record", "make_view", "replay"]

RECORD_FORMAT = "spadeskit-record"
RECORD_VERSION = 1


@attrs.frozen
class View:
    """The game as one seat sees it (``seat=None``: a spectator, who holds no cards)."""

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
    tricks: tuple[Trick, ...]
    books: tuple[int, ...]
    blind_size: int
    pile_size: int
    scores: tuple[int, ...]
    bags: tuple[int, ...]
    hand_results: tuple[HandResult, ...]
    legal_actions: tuple[Action, ...]
    is_over: bool
    winner: int | None

    def to_json(self) -> dict[str, Any]:
        """Return the view as JSON-serialisable data (for sending to a client)."""
        return {
            "seat": self.seat,
            "variant": self.variant,
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
                {"leader": t.leader, "winner": t.winner, "plays": [[s, card_at(c).code] for s, c in t.plays]}
                for t in self.tricks
            ],
            "books": list(self.books),
            "blind_size": self.blind_size,
            "pile_size": self.pile_size,
            "scores": list(self.scores),
            "bags": list(self.bags),
            "hand_results": [_result_json(r) for r in self.hand_results],
            "legal_actions": [a.to_json() for a in self.legal_actions],
            "is_over": self.is_over,
            "winner": self.winner,
        }


def _result_json(result: HandResult) -> dict[str, Any]:
    return {
        "number": result.number,
        "dealer": result.dealer,
        "void": result.void,
        "bids": [b.to_json() if b is not None else None for b in result.bids],
        "books": list(result.books),
        "lines": [{"side": ln.side, "points": ln.points, "bags": ln.bags, "text": ln.text} for ln in result.lines],
        "points": list(result.points),
        "scores": list(result.scores),
        "bags": list(result.bags),
    }


def make_view(game: GameState, seat: int | None) -> View:
    """Return what ``seat`` may see of ``game``."""
    rules = game.rules
    if seat is not None:
        rules._engine._check_seat(seat)
    hand = game.hand
    contract = hand.contract
    view = View(
        seat=seat,
        variant=rules.name,
        seat_names=rules.table.seat_names,
        side_names=rules.table.side_names,
        hand_number=hand.number,
        dealer=hand.dealer,
        phase=hand.phase,
        to_act=hand.to_act,
        cards=cards_of(hand.hands[seat]) if seat is not None else (),
        card_counts=tuple(m.bit_count() for m in hand.hands),
        bids=hand.bids,
        trump=contract.trump if contract else None,
        leader=hand.leader,
        trick=tuple((s, card_at(c)) for s, c in hand.trick),
        tricks=hand.tricks,
        books=hand.books,
        blind_size=hand.blind.bit_count(),
        pile_size=len(hand.pile),
        scores=game.match.scores,
        bags=game.match.bags,
        hand_results=game.match.results,
        legal_actions=game.legal_actions(seat) if seat is not None else (),
        is_over=game.is_over,
        winner=game.winner,
    )
    redacted = rules._call("spadeskit_view", view=view, game=game, seat=seat, options=rules.options)
    if redacted is None:
        return view
    if not isinstance(redacted, View):
        raise SpadesError(f"spadeskit_view of {rules.name!r} gave {redacted!r}, not a View")
    return redacted


def _digest(game: GameState) -> str:
    """Return a fingerprint of everything the game reached: any altered action shows."""
    hand = game.hand
    logs = game.match.logs + (hand.log,)
    facts = [list(game.match.scores), list(game.match.bags), hand.number, hand.phase.value,
             list(hand.hands), game.winner,
             [[seat, action.to_json()] for log in logs for seat, action in log]]
    return hashlib.sha256(json.dumps(facts, sort_keys=True).encode()).hexdigest()[:32]


def make_record(game: GameState) -> dict[str, Any]:
    """Return a JSON-serialisable record from which :func:`replay` rebuilds ``game``."""
    rules = game.rules
    logs = game.match.logs + (game.hand.log,)
    first_dealer = game.match.results[0].dealer if game.match.results else game.hand.dealer
    deal = None
    if game.first_deal is not None:
        deal = [[card_at(c).code for c in cards] for cards in game.first_deal]
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "variant": rules.variant,
        "house_rules": list(rules.house_rules),
        "options": dict(rules.options),
        "seed": game.seed,
        "dealer": first_dealer,
        "deal": deal,
        "actions": [[seat, action.to_json()] for log in logs for seat, action in log],
        "digest": _digest(game),
    }


def replay(record: Mapping[str, Any], rules: Rules | None = None) -> GameState:
    """Rebuild the game a record describes; raise :class:`RecordError` if it is bad.

    The record names its plugins, which are loaded by name; give ``rules`` to replay
    under rules built from plugin modules that are not installed (they must have the
    record's variant, house rules and options).

    >>> import spadeskit
    >>> game = spadeskit.load_rules("standard").new_game(seed=1)
    >>> game = game.apply(game.legal_actions()[0])
    >>> spadeskit.replay(game.to_record()) == game
    True
    """
    from .rules import load_rules

    if not isinstance(record, Mapping) or record.get("format") != RECORD_FORMAT:
        raise RecordError("not a spadeskit record (its 'format' is not 'spadeskit-record')")
    if record.get("version") != RECORD_VERSION:
        raise RecordError(f"record version {record.get('version')!r} is not supported (this is {RECORD_VERSION})")
    for key, kind in (("variant", str), ("house_rules", list), ("options", dict), ("seed", int),
                      ("dealer", int), ("actions", list), ("digest", str)):
        if not isinstance(record.get(key), kind):
            raise RecordError(f"record field {key!r} is missing or not a {kind.__name__}")
    try:
        if rules is None:
            rules = load_rules(record["variant"], record["house_rules"], record["options"])
        elif (rules.variant, list(rules.house_rules), dict(rules.options)) != (
                record["variant"], sorted(record["house_rules"]), record["options"]):
            raise RecordError(f"the record was played under other rules than {rules.name!r}")
        n = rules.table.players
        deal = record.get("deal")
        if deal is not None:
            if not isinstance(deal, list) or len(deal) != n + 2:
                raise RecordError(f"record field 'deal' must hold {n} hands, the blind and the pile")
            game = rules.new_game(record["seed"], deal=deal[:n], blind=deal[n], pile=deal[n + 1],
                                  dealer=record["dealer"])
        else:
            game = rules.new_game(record["seed"], dealer=record["dealer"])
    except RecordError:
        raise
    except SpadesError as exc:
        raise RecordError(f"record cannot start its game: {exc}") from exc
    for step, entry in enumerate(record["actions"], start=1):
        if not isinstance(entry, list) or len(entry) != 2:
            raise RecordError(f"record action {step} is not a [seat, action] pair: {entry!r}")
        seat, data = entry
        try:
            game = game.apply(action_from_json(data), seat)
        except RecordError:
            raise
        except SpadesError as exc:
            raise RecordError(f"record action {step} does not apply: {exc}") from exc
    if _digest(game) != record["digest"]:
        raise RecordError("the record was altered: replaying it does not reach the state it describes")
    return game
