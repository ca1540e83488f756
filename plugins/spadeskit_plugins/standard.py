"""Standard partnership Spades.

Four players, partners across (N/S against E/W), 52 cards, spades always trump.  Each
player bids 0–13 (0 is nil); a side's contract is the sum of its non-nil bids.  Made:
+10 per contracted trick and +1 per overtrick (a bag); set: −10 per contracted trick.
Nil ±100 beside the partner's contract; a nil bidder's tricks count as bags, never
toward the contract.  Every 10 bags cost 100.  First to 500 wins; a side at −200 loses.
"""

from __future__ import annotations

from collections.abc import Sequence

from spadeskit.core.actions import Action
from spadeskit.core.cards import STANDARD_DECK
from spadeskit.core.seating import TableSpec
from spadeskit.plugin import (
    PluginInfo,
    hookimpl,
)

from ._common import (
    BAG_LIMIT,
    BAG_PENALTY,
    NIL_TRICKS,
    NIL_VALUE,
    STANDARD_RANGES,
    floor_option,
    nil_and_bids,
    partnership_table,
    target_option,
)
from ._spades import (  # noqa: F401  (shared hook implementations, registered with this module)
    spadeskit_auction_next,
    spadeskit_card_rank,
    spadeskit_match_end,
    spadeskit_next_dealer,
    spadeskit_play_filters,
    spadeskit_score_hand,
    spadeskit_trick_strength,
)

PLUGIN = PluginInfo(
    name="standard",
    kind="variant",
    summary="Partnership Spades: bid nil or 1-13, spades trump, bags, first to 500.",
    options=(
        target_option(500),
        floor_option("side"),
        NIL_VALUE,
        NIL_TRICKS,
        BAG_LIMIT,
        BAG_PENALTY,
    ),
)

# What the kit (spadeskit.testing) checks these rules against: see its oracles.
ORACLES = {"options": STANDARD_RANGES}

_BIDS = nil_and_bids(13)


@hookimpl
def spadeskit_table() -> TableSpec:
    return partnership_table(STANDARD_DECK)


@hookimpl
def spadeskit_auction_actions() -> Sequence[Action]:
    return _BIDS
