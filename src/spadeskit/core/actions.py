"""The things a seat (or a referee) can do, as frozen values.

Actions are small immutable values compared by content: ``Play("AS") == Play(Card.of("AS"))``.
``GameState.legal_actions()`` hands back prebuilt instances, so bots can pick from them
without building anything.  Every action turns into JSON with :meth:`Action.to_json` and
back with :func:`action_from_json`; records are made of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

import attrs

from spadeskit.core.cards import Card, CardLike, parse_card, parse_cards
from spadeskit.core.errors import RecordError, SpadesError, shown
from spadeskit.core.playsets import PlaySets

__all__ = [
    "ACTION_TYPES",
    "PLAYS",
    "PLAY_SETS",
    "Accept",
    "Action",
    "Bid",
    "BlindNil",
    "CallRenege",
    "DeclareMisdeal",
    "Discard",
    "Exchange",
    "Nil",
    "Pass",
    "PickUp",
    "Play",
    "SeeCards",
    "TableTalk",
    "action_from_json",
    "action_type_problem",
    "is_nil",
    "label",
    "plays_of",
]


def _card_set(values: Iterable[CardLike] | str) -> tuple[Card, ...]:
    return tuple(sorted(set(parse_cards(values))))


MAX_COUNT = 999
"""The largest number an action carries (a bid, a trick number, a side)."""


def _count(value: int) -> int:
    if type(value) is not int or not 0 <= value <= MAX_COUNT:
        raise SpadesError(
            f"a bid, trick or side is a whole number from 0 to {MAX_COUNT}, not {shown(value, 20)}"
        )
    return value


def fields_json(value: Any, kind: str, skip: frozenset[str] = frozenset()) -> dict[str, Any]:
    """Return an attrs value's fields as JSON data under ``{"type": kind}``: cards as
    codes, tuples of cards as lists of codes, actions as their JSON."""
    data: dict[str, Any] = {"type": kind}
    for field in attrs.fields(type(value)):
        if field.name in skip:
            continue
        item = getattr(value, field.name)
        if isinstance(item, Card):
            item = item.code
        elif isinstance(item, Action):
            item = item.to_json()
        elif isinstance(item, tuple):
            item = [c.code for c in item]
        data[field.name] = item
    return data


@attrs.frozen
class Action:
    """Base class of every action; ``kind`` names it in records."""

    kind: ClassVar[str] = "action"

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-serialisable dict, e.g. ``{"type": "bid", "tricks": 4}``."""
        return fields_json(self, self.kind)


@attrs.frozen
class Bid(Action):
    """Bid a number of tricks (books).  Nil is its own action, :class:`Nil`."""

    kind: ClassVar[str] = "bid"
    tricks: int = attrs.field(converter=_count)

    def __str__(self) -> str:
        return f"bid {self.tricks}"


@attrs.frozen
class Nil(Action):
    """Bid nil: take no trick at all."""

    kind: ClassVar[str] = "nil"

    def __str__(self) -> str:
        return "nil"


@attrs.frozen
class BlindNil(Action):
    """Bid nil before looking at one's cards."""

    kind: ClassVar[str] = "blind-nil"

    def __str__(self) -> str:
        return "blind nil"


def is_nil(bid: Action | None) -> bool:
    """Return whether ``bid`` is a nil: the rules' :class:`Nil` or :class:`BlindNil`.  A
    ``Bid(0)`` is not: where a variant offers it (jjdd without its ``nil`` option) it is
    a contract bid, and the seat's books count toward its side's contract."""
    return isinstance(bid, (Nil, BlindNil))


@attrs.frozen
class SeeCards(Action):
    """Look at one's cards, giving up the chance to bid blind (``blind-nil`` house rule)."""

    kind: ClassVar[str] = "see-cards"

    def __str__(self) -> str:
        return "see cards"


@attrs.frozen
class Play(Action):
    """Play a card to the trick: ``Play("AS")``, ``Play("10♥")``, ``Play(card)``."""

    kind: ClassVar[str] = "play"
    card: Card = attrs.field(converter=parse_card)

    def __str__(self) -> str:
        return f"play {self.card}"


@attrs.frozen
class PickUp(Action):
    """Pick up the blind (three-handed games with a widow)."""

    kind: ClassVar[str] = "pick-up"

    def __str__(self) -> str:
        return "pick up"


@attrs.frozen
class Pass(Action):
    """Refuse the blind, or pass in an auction."""

    kind: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return "pass"


@attrs.frozen
class Discard(Action):
    """Lay cards aside face down (they count for the one who discards them)."""

    kind: ClassVar[str] = "discard"
    cards: tuple[Card, ...] = attrs.field(converter=_card_set)

    def __str__(self) -> str:
        return "discard " + " ".join(c.code for c in self.cards)


@attrs.frozen
class Exchange(Action):
    """Pass cards to another seat (the blind-nil exchange between partners)."""

    kind: ClassVar[str] = "exchange"
    cards: tuple[Card, ...] = attrs.field(converter=_card_set)

    def __str__(self) -> str:
        return "pass " + " ".join(c.code for c in self.cards)


@attrs.frozen
class CallRenege(Action):
    """Accuse the other side of a renege in the named trick (numbered from 1)."""

    kind: ClassVar[str] = "call-renege"
    trick: int = attrs.field(converter=_count)

    def __str__(self) -> str:
        return f"call a renege in trick {self.trick}"


@attrs.frozen
class TableTalk(Action):
    """A referee's ruling that a side talked across the board."""

    kind: ClassVar[str] = "table-talk"
    side: int = attrs.field(converter=_count)

    def __str__(self) -> str:
        return f"table talk by side {self.side}"


@attrs.frozen
class DeclareMisdeal(Action):
    """Declare a misdeal: a seat does not hold the right number of cards."""

    kind: ClassVar[str] = "misdeal"

    def __str__(self) -> str:
        return "declare a misdeal"


@attrs.frozen
class Accept(Action):
    """Accept the hand as played (the review step before scoring)."""

    kind: ClassVar[str] = "accept"

    def __str__(self) -> str:
        return "accept"


PLAYS: tuple[Play, ...] = tuple(Play(i) for i in range(54))
"""The one ``Play`` value of each card index, shared by every rules object."""

PLAY_SETS = PlaySets(PLAYS)
"""The legal-play tuples of card masks, built from :data:`PLAYS` (compiled on the
native core); :func:`plays_of` asks it, and so does the engine directly."""


def plays_of(mask: int) -> tuple[Action, ...]:
    """Return the ``Play`` of every card in ``mask``, by index (shared values).

    Built from per-suit chunks kept in a bounded cache (at most 2**13 per suit); a
    mask of one suit, as when following, is one look-up.

    >>> plays_of(Play("AS").card.bit | Play("2C").card.bit)
    (Play(card=Card.of('2C')), Play(card=Card.of('AS')))
    """
    return PLAY_SETS.of(mask)


def label(action: Action, side_names: Sequence[str] = ()) -> str:
    """Return a short text a person reads for ``action``, cards with suit symbols:
    ``"bid 4"``, ``"nil"``, ``"play 10♠"``, ``"pass A♠ K♠"``, ``"discard 7♣ 9♠"``
    (``side_names`` names the side in a table-talk ruling).

    >>> [label(a) for a in (Bid(4), Nil(), Play("10S"))]
    ['bid 4', 'nil', 'play 10♠']
    """
    if isinstance(action, Play):
        return f"play {action.card.symbol}"
    if isinstance(action, (Discard, Exchange)):
        verb = "discard" if isinstance(action, Discard) else "pass"
        return f"{verb} {' '.join(c.symbol for c in action.cards)}"
    if isinstance(action, TableTalk) and 0 <= action.side < len(side_names):
        return f"table talk by {side_names[action.side]}"
    return str(action)


ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (
        Bid,
        Nil,
        BlindNil,
        SeeCards,
        Play,
        PickUp,
        Pass,
        Discard,
        Exchange,
        CallRenege,
        TableTalk,
        DeclareMisdeal,
        Accept,
    )
}


ACTION_KIND = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
"""How an action type is named in records: lower-case words joined by hyphens."""

_FIELD_TYPES: tuple[object, ...] = (int, bool, str, Card, tuple[Card, ...])
_TEXT_LIMIT = 100
"""The longest text an action's ``str`` field holds in a record."""


def action_type_problem(cls: object) -> str | None:
    """Return why ``cls`` cannot be a plugin's action type, or ``None`` when it can.

    A plugin's action type is a frozen attrs subclass of :class:`Action` with its own
    ``kind`` (lower-case words joined by hyphens, not one of :data:`ACTION_TYPES`)
    whose fields are ``int``, ``bool``, ``str``, ``Card`` or ``tuple[Card, ...]``, the
    values a record writes.

    >>> action_type_problem(Bid) is not None  # a built-in kind is taken
    True
    """
    if not (isinstance(cls, type) and issubclass(cls, Action) and "__attrs_attrs__" in vars(cls)):
        return (
            f"{shown(cls, 40)} is not an attrs subclass of spadeskit's Action (decorate it "
            "with @attrs.frozen)"
        )
    kind = cls.__dict__.get("kind")
    if not isinstance(kind, str) or not ACTION_KIND.fullmatch(kind) or len(kind) > 40:
        return (
            f"{cls.__name__} needs its own class attribute kind: the name records give it, "
            "lower-case words joined by hyphens (kind: ClassVar[str] = 'blind-bid')"
        )
    if kind in ACTION_TYPES:
        return f"{cls.__name__}'s kind {kind!r} is a built-in action's; choose another"
    try:
        attrs.resolve_types(cls)
    except Exception as exc:  # an annotation naming what its module does not import
        return f"the fields of {cls.__name__} cannot be read: {exc}"
    for field in attrs.fields(cls):
        if field.type not in _FIELD_TYPES:
            return (
                f"field {field.name!r} of {cls.__name__} is {field.type!r}; an action's "
                "fields are int, bool, str, Card or tuple[Card, ...] (what a record writes)"
            )
    return None


def action_from_json(data: Any, types: Mapping[str, type[Action]] = ACTION_TYPES) -> Action:
    """Return the action a :meth:`Action.to_json` dict describes.

    ``types`` maps each known ``"type"`` to its class: the built-in actions by default;
    a rule set's, with its plugins' action types, is :attr:`Rules.action_types
    <spadeskit.engine.loaded.LoadedRules.action_types>` (:meth:`Rules.action_from_json
    <spadeskit.engine.rules.Rules.action_from_json>` reads with it).

    >>> action_from_json({"type": "play", "card": "10S"})
    Play(card=Card.of('10S'))
    """
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise RecordError(f"not an action: {shown(data)}")
    cls = types.get(data["type"])
    if cls is None:
        raise RecordError(f"unknown action type {shown(data['type'])}; known: {sorted(types)}")
    args = {k: v for k, v in data.items() if k != "type"}
    fields = attrs.fields(cls)
    names = {f.name for f in fields}
    if set(args) != names:
        raise RecordError(f"action {shown(data)} needs exactly the fields {sorted(names)}")
    if "cards" in args and not isinstance(args["cards"], list):
        raise RecordError(f"action {shown(data)}: its cards are a list (['AS', 'KS'])")
    if cls.kind not in ACTION_TYPES:
        args = _plugin_fields(data, fields, args)
    try:
        action = cls(**args)
    except (SpadesError, TypeError, ValueError) as exc:
        raise RecordError(f"bad action {shown(data)}: {exc}") from exc
    if "cards" in args and len(getattr(action, "cards", ())) != len(args["cards"]):
        raise RecordError(f"action {shown(data)}: a card is named twice")
    return action


def _plugin_fields(data: Any, fields: Any, args: dict[str, Any]) -> dict[str, Any]:
    """Return the arguments of a plugin action read from JSON, each checked against its
    field's type (cards read from their codes)."""
    read: dict[str, Any] = {}
    for field in fields:
        value = args[field.name]
        kind = field.type
        if kind is int:
            ok = type(value) is int and 0 <= value <= MAX_COUNT
        elif kind is bool:
            ok = type(value) is bool
        elif kind is str:
            ok = type(value) is str and len(value) <= _TEXT_LIMIT
        elif kind is Card:
            ok = isinstance(value, str)
        else:
            ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
        if not ok:
            raise RecordError(
                f"action {shown(data)}: field {field.name!r} is not a record's "
                f"{getattr(kind, '__name__', 'list of cards')}"
            )
        try:
            if kind is Card:
                value = parse_card(value)
            elif kind not in (int, bool, str):
                value = tuple(parse_card(v) for v in value)
        except SpadesError as exc:
            raise RecordError(f"bad action {shown(data)}: {exc}") from exc
        read[field.name] = value
    return read
