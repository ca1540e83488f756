"""``mirror``: every player bids exactly the number of spades they hold.

The auction offers each seat one bid: the count of its spades (any card the rules rank
as a spade counts, so jokers under the ``jokers`` house rule count too), or nil when it
holds none.  Scoring is standard's.  Conflicts with ``whiz``.
"""

from __future__ import annotations

from collections.abc import Sequence

from spadeskit import Bid, Nil
from spadeskit.core.actions import Action
from spadeskit.core.seating import TableSpec
from spadeskit.core.state import GameState
from spadeskit.plugin import PluginInfo, hookimpl

from .._common import DEAL

PLUGIN = PluginInfo(
    name="mirror",
    kind="house-rule",
    summary="Each player must bid exactly the number of spades they hold (none: nil).",
    fits=("standard",),
    conflicts=("whiz",),
)

# What the kit (spadeskit.testing) checks these rules against: see its oracles.
ORACLES = {"auction": "mirror"}

# Worked examples the kit runs (spadeskit.testing.examples): the rules page, pinned.
EXAMPLES = (
    {"rule": "each player bids exactly the spades they hold", "deal": DEAL, "legal": ["bid 3"]},
    {
        "rule": "on a score sheet the cards are unknown: any count from 1 to 13, or nil",
        "bids": "1 13 nil 1",
        "books": "1 12 0 0",
        "points": (110, -140),
    },
    {
        "rule": "on a score sheet, no count above 13",
        "bids": "14 1 1 1",
        "books": "4 3 3 3",
        "refused": True,
    },
)


def spades_held(game: GameState, seat: int) -> int:
    """Return how many cards ``seat`` holds that the rules rank as spades (trumps)."""
    return (game.hands[seat] & game.rules.ranking.suit_mask[3]).bit_count()


_NIL: tuple[Action, ...] = (Nil(),)
_BIDS: tuple[tuple[Action, ...], ...] = tuple((Bid(n),) for n in range(54))
PAPER_BIDS: tuple[tuple[Action, ...], ...] = tuple(
    _NIL + tuple(Bid(n) for n in range(1, size + 1)) for size in range(54)
)
"""By hand size: what a score sheet accepts under mirror or whiz, nil or a count 1 to the size."""


@hookimpl
def spadeskit_auction_actions(game: GameState, seat: int) -> Sequence[Action]:
    count = spades_held(game, seat)
    return _BIDS[count] if count else _NIL


@hookimpl
def spadeskit_paper_bids(table: TableSpec) -> Sequence[Action]:
    """On a score sheet the cards are unknown: any count from 1 to the hand's size, or nil."""
    return PAPER_BIDS[table.deal.hand_size]
