"""Game records: a versioned, JSON-serialisable account of everything a game did.

A record names the rules (variant, house rules, options), the seed, the first dealer,
an explicit first deal if there was one, and every action in order with the seat that
took it, plus a digest of the state it reaches.  :func:`spadeskit.replay` rebuilds the
game from it, re-checking every action.

The digest detects a record that was changed by mistake, but anyone can recompute it.
An app that takes records back from players it does not trust signs them with its own
secret key: ``game.to_record(key=...)`` adds ``"mac"``, an HMAC-SHA256 of the record,
and ``spadeskit.replay(record, key=...)`` refuses any record whose MAC does not verify
with that key (:func:`sign`, :func:`verify`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from spadeskit.core.cards import card_at, cards_of
from spadeskit.core.errors import RecordError
from spadeskit.core.schemas import load_schema

if TYPE_CHECKING:
    from spadeskit.core.state import GameState

__all__ = [
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "digest",
    "make_record",
    "record_schema",
    "sign",
    "verify",
]

RECORD_FORMAT = "spadeskit-record"
RECORD_VERSION = 2
"""Version 2 allows ``"seed": null`` with ``"deals"`` (a game dealt from a secret)."""


def record_schema() -> dict[str, Any]:
    """Return the JSON Schema (draft 2020-12) of records, versions 1 and 2.

    The file ships in the package as ``spadeskit/schemas/record.schema.json``, for
    validating records in other languages or before they reach :func:`spadeskit.replay`
    (which checks far more: every action against the rules, and the digest).
    """
    return load_schema("record")


def digest(game: GameState, version: int = RECORD_VERSION) -> str:
    """Return a fingerprint of everything the game reached: any altered action shows.

    A hand dealt from a secret in which nobody has acted yet counts as not dealt.
    ``version`` 1 gives the layout of version-1 records.
    """
    return _digest(game, _actions(game), version, game._deal_is_known())


def _actions(game: GameState) -> list[list[Any]]:
    """Return every action of the game so far as ``[seat, action JSON]``, in order."""
    return [
        [seat, action.to_json()] for log in game.match.logs + (game.log,) for seat, action in log
    ]


def _digest(game: GameState, actions: list[list[Any]], version: int, known: bool) -> str:
    if version == 1:
        facts = [
            list(game.match.scores),
            list(game.match.bags),
            game.number,
            game.phase.value,
            list(game.hands),
            game.winner,
            actions,
        ]
    else:
        hand = [game.phase.value, list(game.hands)] if known else "not dealt"
        facts = [
            list(game.match.scores),
            list(game.match.bags),
            game.number,
            hand,
            game.winner,
            actions,
        ]
    return hashlib.sha256(json.dumps(facts, sort_keys=True).encode()).hexdigest()[:32]


Key = bytes | str
"""A signing key: bytes, or a string (encoded as UTF-8).  Keep it on the server."""


def _key_bytes(key: object) -> bytes:
    if isinstance(key, str):
        try:
            key = key.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise RecordError("a signing key string must be valid Unicode text") from exc
    if not isinstance(key, bytes) or len(key) < 16:
        raise RecordError("a signing key is bytes or a string of at least 16 bytes")
    return key


def _mac(record: Mapping[str, Any], key: bytes) -> str:
    body = {k: v for k, v in record.items() if k != "mac"}
    try:
        text = json.dumps(
            body, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False
        )
    except (TypeError, ValueError, RecursionError) as exc:
        raise RecordError(
            f"the record is not plain JSON data, so it cannot be signed or checked: "
            f"{type(exc).__name__}"
        ) from exc
    return hmac.new(key, text.encode("ascii"), hashlib.sha256).hexdigest()


def sign(record: Mapping[str, Any], key: Key) -> dict[str, Any]:
    """Return ``record`` with ``"mac"``: an HMAC-SHA256 of its canonical JSON under ``key``."""
    signed = {k: v for k, v in record.items() if k != "mac"}
    signed["mac"] = _mac(signed, _key_bytes(key))
    return signed


def verify(record: Mapping[str, Any], key: Key) -> None:
    """Raise :class:`~spadeskit.core.errors.RecordError` unless ``record`` carries a MAC made
    with ``key`` over exactly its content."""
    given = record.get("mac")
    if not isinstance(given, str):
        raise RecordError("the record is not signed (no 'mac'), but a signed record was required")
    if not given.isascii():
        raise RecordError("the record's signature does not verify: its 'mac' is not hex digits")
    if not hmac.compare_digest(given, _mac(record, _key_bytes(key))):
        raise RecordError(
            "the record's signature does not verify: it was altered, or signed with another key"
        )


def _codes(deal: Any) -> list[list[str]]:
    return [[card_at(c).code for c in cards] for cards in deal]


def _dealt_codes(dealt: Any) -> list[list[str]]:
    hands, blind, pile = dealt
    return [[c.code for c in cards_of(m)] for m in hands] + [
        [c.code for c in cards_of(blind)],
        [card_at(c).code for c in pile],
    ]


def make_record(
    game: GameState, key: Key | None = None, *, current_deal: bool = False
) -> dict[str, Any]:
    """Return a JSON-serialisable record from which :func:`spadeskit.replay` rebuilds
    ``game``; signed with ``key`` if one is given (see :func:`sign`).  ``current_deal``
    keeps in the deal of a secret-dealt hand nobody has acted in yet (see
    :meth:`GameState.to_record <spadeskit.core.state.GameState.to_record>`)."""
    known = current_deal or game._deal_is_known()
    rules = game.rules
    actions = _actions(game)
    first_dealer = game.match.results[0].dealer if game.match.results else game.dealer
    deal = deals = None
    if game.seed is not None and game.first_deal is not None:
        deal = _codes(game.first_deal)
    if game.seed is None:  # the deals of the hands dealt so far; never the secret
        dealt = game.match.deals
        if game.number == len(dealt) and known:  # the hand in progress
            dealt += (game._dealt,)
        deals = [_dealt_codes(d) for d in dealt]
    record = {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "variant": rules.variant,
        "house_rules": list(rules.house_rules),
        "options": dict(rules.options),
        "seed": game.seed,
        "dealer": first_dealer,
        "deal": deal,
        "deals": deals,
        "actions": actions,
        "digest": _digest(game, actions, RECORD_VERSION, known),
    }
    return record if key is None else sign(record, key)
