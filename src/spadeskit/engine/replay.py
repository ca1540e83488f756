"""Rebuild a game from its record, re-checking every action.

Records are made by :meth:`GameState.to_record <spadeskit.core.state.GameState.to_record>`
(see :mod:`spadeskit.core.records`).
"""

from __future__ import annotations

import json
import secrets
import warnings
from collections.abc import Iterator, Mapping
from typing import Any

import attrs

from spadeskit.core.actions import ACTION_KIND, ACTION_TYPES, MAX_COUNT, Action
from spadeskit.core.cards import ALL_CARDS
from spadeskit.core.errors import RecordError, SpadesError, shown
from spadeskit.core.records import RECORD_FORMAT, RECORD_VERSION, digest, verify
from spadeskit.core.seeding import SEED_BITS
from spadeskit.core.state import Deal, Dealing, GameState
from spadeskit.engine.loader import load_rules
from spadeskit.engine.rules import Rules
from spadeskit.engine.scoresheet import SCORE_SHEET_FORMAT, ScoreSheet

__all__ = [
    "ReplayStep",
    "UnverifiedRecordWarning",
    "check_record_shape",
    "iter_replay",
    "load_score_sheet",
    "replay",
    "replay_steps",
]


class UnverifiedRecordWarning(UserWarning):
    """A signed record was replayed without a key, so its signature was not checked.

    Turn it into an error where every record must be checked:
    ``warnings.simplefilter("error", spadeskit.engine.replay.UnverifiedRecordWarning)``.
    """


@attrs.frozen
class ReplayStep:
    """One step of a record: ``number`` actions taken so far (0 is the start), the one
    just taken (``seat`` and ``action``; ``None`` at the start) and the state after it."""

    number: int
    seat: int | None
    action: Action | None
    state: GameState


def replay(
    record: Mapping[str, Any],
    rules: Rules | None = None,
    *,
    key: bytes | str | None = None,
    upto: int | None = None,
) -> GameState:
    """Rebuild the game a record describes; raise :class:`RecordError` if it is bad.

    The record names its plugins, which are loaded by name; give ``rules`` to replay
    under rules built from plugin modules that are not installed (they must have the
    record's variant, house rules and options).  With ``key``, the record must carry a
    signature made with that key (``game.to_record(key=...)``), checked before anything
    else; every action is re-checked in any case.  With ``upto=n``, return the state
    after the record's first ``n`` actions (0: the start); the whole record is still
    replayed and checked first, so a tampered tail is refused too.

    >>> import spadeskit
    >>> game = spadeskit.load_rules("standard").new_game(seed=1)
    >>> game = game.apply(game.legal_actions()[0])
    >>> spadeskit.replay(game.to_record()) == game
    True
    >>> start = spadeskit.load_rules("standard").new_game(seed=1)
    >>> spadeskit.replay(game.to_record(), upto=0) == start
    True
    """
    if upto is not None:
        actions = record.get("actions") if isinstance(record, Mapping) else None
        total = len(actions) if isinstance(actions, list) else 0
        if type(upto) is not int or not 0 <= upto <= total:
            raise RecordError(
                f"upto is a number of actions from 0 to {total} (the record's length), "
                f"not {shown(upto, 20)}"
            )
    # Only the last state (and the one asked for) is kept: memory stays proportional to
    # the record, however long it is.
    last = chosen = None
    for step in replay_steps(record, rules, key):
        last = step.state
        if step.number == upto:
            chosen = last
    assert last is not None
    return last if upto is None else chosen  # type: ignore[return-value]


def iter_replay(
    record: Mapping[str, Any], rules: Rules | None = None, *, key: bytes | str | None = None
) -> Iterator[ReplayStep]:
    """Return an iterator over the steps of a record: the start, then the state after
    each action, as :class:`ReplayStep` values (for an app that steps through a game).

    The record is replayed and checked as by :func:`replay` before the first step is
    given, so a bad record raises :class:`RecordError` here, not half-way through.

    >>> import spadeskit
    >>> game = spadeskit.load_rules("standard").new_game(seed=1)
    >>> game = game.apply(spadeskit.Bid(3))
    >>> steps = spadeskit.iter_replay(game.to_record())
    >>> [(step.number, step.seat, str(step.action)) for step in steps]
    [(0, None, 'None'), (1, 0, 'bid 3')]
    """
    for _ in replay_steps(record, rules, key):  # the whole record is checked first
        pass
    return replay_steps(record, rules, key)


def replay_steps(
    record: Mapping[str, Any],
    rules: Rules | None,
    key: bytes | str | None,
    check_digest: bool = True,
) -> Iterator[ReplayStep]:
    """Yield every step of a record, each action re-checked; raise :class:`RecordError`.

    :func:`replay` and :func:`iter_replay` are built on it.  Steps are made as they are
    asked for, so a caller that keeps only the last uses memory proportional to the
    record; the digest is compared after the last step.  ``check_digest=False`` skips
    only the final comparison with the record's digest, for an adapter that has just
    appended to a record itself (the OpenSpiel game adds each dealt card); every action
    is still checked.
    """
    if not isinstance(record, Mapping) or not _is(record.get("format"), RECORD_FORMAT):
        raise RecordError("not a spadeskit record (its 'format' is not 'spadeskit-record')")
    if key is not None:
        verify(record, key)
    elif "mac" in record:
        warnings.warn(
            "this record is signed but was replayed without a key, so its signature was "
            "not checked: pass key=... to replay a record from someone you do not trust",
            UnverifiedRecordWarning,
            stacklevel=3,
        )
    if not (_is(record.get("version"), 1) or _is(record.get("version"), RECORD_VERSION)):
        raise RecordError(
            f"record version {shown(record.get('version'), 20)} is not supported (this is "
            f"{RECORD_VERSION})"
        )
    check_record_shape(record)  # fields, types, cards and patterns: below, the rules
    seed = record["seed"]
    if seed is not None and seed.bit_length() > SEED_BITS:
        raise RecordError(
            f"record field 'seed' must be a whole number of at most {SEED_BITS} bits, or null "
            "for a game dealt from a secret"
        )
    try:
        if rules is None:
            rules = load_rules(record["variant"], record["house_rules"], record["options"])
        elif (rules.variant, sorted(rules.house_rules), dict(rules.options)) != (
            record["variant"],
            sorted(record["house_rules"]),
            record["options"],
        ):
            raise RecordError(f"the record was played under other rules than {rules.name!r}")
        engine = rules.engine
        if seed is None:
            deals = record["deals"]
            explicit = tuple(_deal(engine, d, number) for number, d in enumerate(deals, start=1))
            dealing = Dealing(None, secrets.token_bytes(32), explicit)
        else:
            deal = record.get("deal")
            dealing = Dealing(seed, None, () if deal is None else (_deal(engine, deal, 1),))
        game = engine.dealer.start(dealing, engine.shared.check_seat(record["dealer"], "dealer"))
    except RecordError:
        raise
    except SpadesError as exc:
        raise RecordError(f"record cannot start its game: {exc}") from exc
    yield ReplayStep(0, None, None, game)
    for number, (seat, data) in enumerate(record["actions"], start=1):
        try:
            action = rules.action_from_json(data)
            game = game.apply(action, seat)
        except RecordError:
            raise
        except SpadesError as exc:
            raise RecordError(f"record action {number} does not apply: {exc}") from exc
        yield ReplayStep(number, seat, action, game)
    if check_digest and digest(game, record["version"]) != record["digest"]:
        raise RecordError(
            "the record was altered: replaying it does not reach the state it describes"
        )


_RECORD_FIELDS = frozenset(
    ("format", "version", "variant", "house_rules", "options", "seed", "dealer", "deal")
    + ("deals", "actions", "digest", "mac")
)
_REQUIRED = ("variant", "house_rules", "options", "seed", "dealer", "actions", "digest")
_HEX = frozenset("0123456789abcdef")
_CARD_CODES = frozenset(card.code for card in ALL_CARDS)


def _is(value: object, expected: str | int) -> bool:
    """Return whether ``value`` is ``expected`` and of its exact type (an object that
    claims to equal anything does not pass)."""
    return type(value) is type(expected) and value == expected


def check_record_shape(record: Mapping[str, Any]) -> None:
    """Raise :class:`RecordError` unless ``record`` has the shape the shipped JSON Schema
    (``spadeskit/schemas/record.schema.json``) describes: the same fields, types, card
    texts and patterns, checked without a schema library.  A test holds the two equal.
    """
    unknown = sorted(str(k) for k in record if k not in _RECORD_FIELDS)
    if unknown:
        raise RecordError(f"record has fields a record never has: {shown(unknown, 60)}")
    for field in _REQUIRED:
        if field not in record:
            raise RecordError(f"record field {field!r} is missing")
    _require(
        record,
        "record",
        ("variant", str),
        ("house_rules", list),
        ("options", dict),
        ("dealer", int),
        ("actions", list),
        ("digest", str),
    )
    if not all(isinstance(name, str) for name in record["house_rules"]):
        raise RecordError("record field 'house_rules' must list plugin names (strings)")
    if record["dealer"] < 0:
        raise RecordError("record field 'dealer' must be a seat number (0 or more)")
    seed = record["seed"]
    if seed is not None and type(seed) is not int:
        raise RecordError("record field 'seed' must be a whole number or null")
    if record.get("version") == 1 and seed is None:
        raise RecordError("a version 1 record always has a seed")
    if seed is None and not isinstance(record.get("deals"), list):
        raise RecordError("a record of a game dealt from a secret must list its 'deals'")
    for field, pattern in (("digest", 32), ("mac", 64)):
        value = record.get(field, "0" * pattern)
        if not (isinstance(value, str) and len(value) == pattern and set(value) <= _HEX):
            raise RecordError(f"record field {field!r} must be {pattern} lower-case hex digits")
    if record.get("deal") is not None:
        _check_deal_shape(record["deal"], "the record's deal")
    deals = record.get("deals")
    if deals is not None:
        if not isinstance(deals, list):
            raise RecordError("record field 'deals' must be a list of deals, or null")
        for number, deal in enumerate(deals, start=1):
            _check_deal_shape(deal, f"the record's deal of hand {number}")
    for number, entry in enumerate(record["actions"], start=1):
        if not isinstance(entry, list) or len(entry) != 2:
            raise RecordError(
                f"record action {number} is not a [seat, action] pair: {shown(entry)}"
            )
        seat, data = entry
        if type(seat) is not int or seat < -1:
            raise RecordError(
                f"record action {number}: the seat is a number (-1 for the referee), "
                f"not {shown(seat, 20)}"
            )
        if not isinstance(data, dict):
            raise RecordError(f"record action {number} is not an action: {shown(data)}")
        for name, value in data.items():
            if name in ("tricks", "trick", "side") and not (
                type(value) is int and 0 <= value <= 999
            ):
                raise RecordError(f"record action {number}: {name} must be 0 to 999")
            if name == "card":
                _check_card_text(value, f"record action {number}")
            if name == "cards":
                _check_cards_shape(value, f"record action {number}")
        kind = data.get("type")
        if not isinstance(kind, str) or kind not in ACTION_TYPES:
            _check_plugin_action_shape(data, f"record action {number}")


_KNOWN_FIELDS = frozenset(("type", "tricks", "trick", "side", "card", "cards"))


def _check_plugin_action_shape(data: Mapping[str, Any], where: str) -> None:
    """Check an action of a type no built-in action has, as the schema's
    ``plugin_action`` does: a type name, and fields a record can write."""
    kind = data.get("type")
    if not (isinstance(kind, str) and len(kind) <= 40 and ACTION_KIND.fullmatch(kind)):
        raise RecordError(
            f"{where}: {shown(kind, 40)} is no action type (lower-case words joined by hyphens)"
        )
    for name, value in data.items():
        if name in _KNOWN_FIELDS:
            continue
        if type(value) is int:
            ok = 0 <= value <= MAX_COUNT
        elif isinstance(value, list):
            _check_cards_shape(value, where)
            ok = True
        else:
            ok = type(value) is bool or (type(value) is str and len(value) <= 100)
        if not ok:
            raise RecordError(
                f"{where}: field {shown(name, 30)} holds {shown(value, 30)}, which no action "
                "writes (a number from 0 to 999, true or false, a short text or a list of cards)"
            )


def _check_card_text(value: object, where: str) -> None:
    if not (isinstance(value, str) and value in _CARD_CODES):
        raise RecordError(
            f"{where}: {shown(value, 20)} is not a card as records write them "
            "('10S', 'QH', 'BJ', 'LJ')"
        )


def _check_cards_shape(value: object, where: str) -> None:
    if not isinstance(value, list):
        raise RecordError(f"{where}: cards must be a list of card texts")
    for card in value:
        _check_card_text(card, where)


def _check_deal_shape(deal: object, where: str) -> None:
    if not isinstance(deal, list) or len(deal) < 4:
        raise RecordError(f"{where} must be lists of cards: each seat's, the blind and the pile")
    for cards in deal:
        _check_cards_shape(cards, where)


def _require(data: Mapping[str, Any], what: str, *fields: tuple[str, type]) -> None:
    """Raise a :class:`RecordError` unless each field is present with its type."""
    for field, kind in fields:
        value = data.get(field)
        if not isinstance(value, kind) or (kind is int and type(value) is not int):
            raise RecordError(f"{what} field {field!r} is missing or not a {kind.__name__}")


def _deal(engine: Any, deal: list[list[str]], number: int) -> Deal:
    """Return a record's deal (lists of card texts, shape already checked) for this
    table: its hands, the blind and the pile."""
    n = engine.shared.n
    if len(deal) != n + 2:
        raise RecordError(
            f"the record's deal of hand {number} must hold {n} hands, the blind and the pile"
        )
    checked: Deal = engine.dealer.check_deal(deal[:n], deal[n], deal[n + 1])
    return checked


def load_score_sheet(data: Mapping[str, Any] | str, rules: Rules | None = None) -> ScoreSheet:
    """Rebuild a :class:`~spadeskit.engine.scoresheet.ScoreSheet` from its JSON (the data
    :meth:`~spadeskit.engine.scoresheet.ScoreSheet.to_json` returns, or that data as JSON text),
    scoring every hand again; raise :class:`RecordError` if it is bad.

    The rules are loaded by the names the sheet gives, or given as ``rules``.

    >>> import spadeskit
    >>> sheet = spadeskit.load_rules("standard").score_sheet()
    >>> sheet = sheet.add_hand(bids=[4, 3, 3, 3], books=[4, 3, 3, 3])
    >>> spadeskit.load_score_sheet(sheet.to_json()) == sheet
    True
    """
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except (ValueError, RecursionError) as exc:
            raise RecordError(f"a score sheet's text must be JSON: {exc}") from exc
    if not isinstance(data, Mapping):
        raise RecordError(
            "load_score_sheet takes a score sheet's JSON data (a dict, as to_json() gives "
            f"it) or its JSON text, not {shown(data, 30)}"
        )
    if not _is(data.get("format"), SCORE_SHEET_FORMAT):
        raise RecordError(
            f"not a spadeskit score sheet (its 'format' is not {SCORE_SHEET_FORMAT!r})"
        )
    _require(data, "score sheet", ("variant", str), ("house_rules", list), ("options", dict))
    if rules is None:
        try:
            rules = load_rules(data["variant"], data["house_rules"], data["options"])
        except SpadesError as exc:
            raise RecordError(f"the score sheet's rules cannot be loaded: {exc}") from exc
    return ScoreSheet.from_json(dict(data), rules)
