"""Game records: a versioned, JSON-serialisable account of everything a game did.

A record names the rules (variant, house rules, options), the seed, the first dealer,
an explicit first deal if there was one, and every action in order with the seat that
took it, plus a digest of the state it reaches.  :func:`spadeskit.replay` rebuilds the
game from it, re-checking every action.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from .cards import card_at

if TYPE_CHECKING:
    from .state import GameState

__all__ = ["RECORD_FORMAT", "RECORD_VERSION", "digest", "make_record"]

RECORD_FORMAT = "spadeskit-record"
RECORD_VERSION = 1


def digest(game: GameState) -> str:
    """Return a fingerprint of everything the game reached: any altered action shows."""
    logs = game.match.logs + (game.log,)
    facts = [list(game.match.scores), list(game.match.bags), game.number, game.phase.value,
             list(game.hands), game.winner,
             [[seat, action.to_json()] for log in logs for seat, action in log]]
    return hashlib.sha256(json.dumps(facts, sort_keys=True).encode()).hexdigest()[:32]


def make_record(game: GameState) -> dict[str, Any]:
    """Return a JSON-serialisable record from which :func:`spadeskit.replay` rebuilds ``game``."""
    rules = game.rules
    logs = game.match.logs + (game.log,)
    first_dealer = game.match.results[0].dealer if game.match.results else game.dealer
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
        "digest": digest(game),
    }
