"""Two-handed Spades with a draw pile.

Each player is dealt 13 cards; the other 26 lie face down as a draw pile.  Both bid
0–26 (0 is nil, ±100) after the deal.  After each trick the winner draws the top card of
the pile, then the loser the next; a drawn card is seen only by the one who drew it.
All 52 cards are played: 26 tricks.  Standard scoring for each player, first to 500.
"""

from __future__ import annotations

from collections.abc import Sequence

from spadeskit.core.actions import Action
from spadeskit.core.cards import STANDARD_DECK
from spadeskit.core.seating import DealPlan, TableSpec
from spadeskit.plugin import (
    PluginInfo,
    hookimpl,
)

from ._common import (
    BAG_LIMIT,
    BAG_PENALTY,
    NIL_VALUE,
    SOLO_RANGES,
    floor_option,
    individual_table,
    nil_and_bids,
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
    name="two-handed",
    kind="variant",
    summary="Two-player Spades: 13 each and a 26-card draw pile, the trick winner draws first.",
    options=(
        target_option(500),
        floor_option("player"),
        NIL_VALUE,
        BAG_LIMIT,
        BAG_PENALTY,
    ),
)

# What the kit (spadeskit.testing) checks these rules against: see its oracles.
ORACLES = {
    "options": SOLO_RANGES,
    "defaults": {
        "target": 500,
        "floor": -200,
        "nil_value": 100,
        "bag_limit": 10,
        "bag_penalty": 100,
    },
}

# Worked examples the kit runs (spadeskit.testing.examples): the rules page, pinned.
EXAMPLES = (
    {
        "rule": "26 tricks a hand, standard scoring for each player",
        "bids": "7 6",
        "books": "14 12",
        "points": (77, 66),
        "lines": [
            "N bid 7, took 14: +70, 7 bags (+7)",
            "S bid 6, took 12: +60, 6 bags (+6)",
        ],
    },
)

SEATS = ("N", "S")
_BIDS = nil_and_bids(26)


@hookimpl
def spadeskit_table() -> TableSpec:
    # After each trick the winner draws the top card of the pile, then the loser the next.
    return individual_table(SEATS, STANDARD_DECK, DealPlan(hand_size=13, pile=26, draw=1))


@hookimpl
def spadeskit_auction_actions() -> Sequence[Action]:
    return _BIDS
