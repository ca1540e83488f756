"""``whiz``: every player bids either the number of spades they hold or nil.

Nothing else is offered (a player with no spades may only bid nil).  With ``blind-nil``,
blind nil is still offered before the cards are seen.  Scoring is standard's.
Conflicts with ``mirror``.
"""

from __future__ import annotations

from collections.abc import Sequence

from spadeskit import Bid, Nil
from spadeskit.core.actions import Action
from spadeskit.core.seating import TableSpec
from spadeskit.core.state import GameState
from spadeskit.plugin import PluginInfo, hookimpl

from .._common import DEAL
from .mirror import PAPER_BIDS, spades_held

PLUGIN = PluginInfo(
    name="whiz",
    kind="house-rule",
    summary="Each player bids the number of spades they hold, or nil.",
    fits=("standard",),
    conflicts=("mirror",),
)

# What the kit (spadeskit.testing) checks these rules against: see its oracles.
ORACLES = {"auction": "whiz"}

# Worked examples the kit runs (spadeskit.testing.examples): the rules page, pinned.
EXAMPLES = (
    {
        "rule": "each player bids the spades they hold or nil",
        "deal": DEAL,
        "legal": ["nil", "bid 3"],
    },
    {
        "rule": "on a score sheet the cards are unknown: any count from 1 to 13, or nil",
        "bids": "1 13 nil 1",
        "books": "1 12 0 0",
        "points": (110, -140),
    },
)

_NIL: tuple[Action, ...] = (Nil(),)
_CHOICES: tuple[tuple[Action, ...], ...] = tuple((Nil(), Bid(n)) for n in range(54))


@hookimpl
def spadeskit_auction_actions(game: GameState, seat: int) -> Sequence[Action]:
    count = spades_held(game, seat)
    return _CHOICES[count] if count else _NIL


@hookimpl
def spadeskit_paper_bids(table: TableSpec) -> Sequence[Action]:
    """On a score sheet the cards are unknown: nil or any count from 1 to the hand's size."""
    return PAPER_BIDS[table.deal.hand_size]
