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
    DEAL,
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
ORACLES = {
    "options": STANDARD_RANGES,
    "defaults": {
        "target": 500,
        "floor": -200,
        "nil_value": 100,
        "nil_tricks": "bags",
        "bag_limit": 10,
        "bag_penalty": 100,
    },
}

# Worked examples the kit runs (spadeskit.testing.examples): the rules page, pinned.
_BIDS_DONE = ["bid 3", "bid 3", "bid 3", "bid 3"]
EXAMPLES = (
    {
        "rule": "made: +10 a contracted trick, +1 a bag (337 with 7 bags -> 389)",
        "bids": "3 1 2 1",
        "books": "4 1 3 5",
        "scores": (337, 0),
        "bags": (7, 0),
        "after": (389, 24),
        "bags_after": (9, 4),
        "lines": [
            "N/S bid 5, took 7: +50, 2 bags (+2)",
            "E/W bid 2, took 6: +20, 4 bags (+4)",
        ],
    },
    {
        "rule": "the bag counter reaching 10 costs 100 (337 with 7 bags -> 290)",
        "bids": "3 1 2 1",
        "books": "5 1 3 4",
        "scores": (337, 0),
        "bags": (7, 0),
        "after": (290, 23),
        "bags_after": (0, 3),
        "lines": [
            "N/S bid 5, took 8: +50, 3 bags (+3)",
            "N/S reached 10 bags: -100",
            "E/W bid 2, took 5: +20, 3 bags (+3)",
        ],
    },
    {
        "rule": "a failed nil's trick is a bag, +1 beside a made contract (-59)",
        "bids": "nil 4 4 4",
        "books": "1 4 4 4",
        "points": (-59, 80),
        "lines": [
            "N/S bid 4, took 4: +40",
            "N nil, took 1: -100, 1 bag (+1)",
            "E/W bid 8, took 8: +80",
        ],
    },
    {
        "rule": "set: -10 a contracted trick; a made nil +100 beside it (+91 / +50)",
        "bids": "4 5 5 nil",
        "books": "5 3 5 0",
        "points": (91, 50),
        "lines": [
            "N/S bid 9, took 10: +90, 1 bag (+1)",
            "E/W bid 5, took 3: set, -50",
            "W nil, took 0: +100",
        ],
    },
    {
        "rule": "reaching 20 bags at once costs 200 and the counter drops by 20",
        "bids": "1 1 1 1",
        "books": "7 0 6 0",
        "bags": (9, 0),
        "points": (-169, -20),
        "bags_after": (0, 0),
        "lines": [
            "N/S bid 2, took 13: +20, 11 bags (+11)",
            "N/S reached 20 bags: -200",
            "E/W bid 2, took 0: set, -20",
        ],
    },
    {
        "rule": "nil_tricks none: a nil bidder's tricks are neither bags nor contract",
        "options": {"nil_tricks": "none"},
        "bids": "nil 3 nil 3",
        "books": "1 5 1 6",
        "points": (-200, 65),
        "bags_after": (0, 5),
    },
    {
        "rule": "spades may not be led until broken",
        "deal": DEAL,
        "actions": _BIDS_DONE,
        "legal": "AH KH AC KC QC AD KD QD JD 10D",
        "perft": (2, 32),
    },
    {
        "rule": "follow the led suit if able",
        "deal": DEAL,
        "actions": [*_BIDS_DONE, "play AH"],
        "legal": "QH JH 10H",
    },
    {
        "rule": "a player void in the led suit may play any card, and a spade wins",
        "deal": DEAL,
        "actions": [
            *_BIDS_DONE,
            *("play AD", "play 6D", "play 4D", "play 2D"),
            *("play KD", "play 7D", "play 5D", "play 3D"),
            *("play QD", "play 8D"),
        ],
        "legal": "9S 8S 7S 9H 8H 7H 6H 9C 8C 7C 6C",
    },
    {
        "rule": "the highest spade takes the trick",
        "deal": DEAL,
        "actions": [
            *_BIDS_DONE,
            *("play AD", "play 6D", "play 4D", "play 2D"),
            *("play KD", "play 7D", "play 5D", "play 3D"),
            *("play QD", "play 8D", "play 7S", "play 4C"),
        ],
        "winner": "S",
    },
    {
        "rule": "an exact tie at the target plays another hand; then the higher score wins",
        "options": {"target": 121},
        "hands": [["3 3 3 3", "4 3 3 3"], ["3 3 3 3", "3 4 3 3"]],
        "winner": None,
    },
    {
        "rule": "a side at or below -200 loses",
        "hands": [["7 1 7 1", "3 3 3 4"], ["7 1 7 1", "3 3 3 4"]],
        "winner": "E/W",
    },
    {
        "rule": "a side at exactly -200 loses",
        "hands": [["10 1 10 1", "3 3 3 4"]],
        "winner": "E/W",
    },
    {
        "rule": "a side above -200 plays on",
        "hands": [["10 1 10 1", "3 3 3 4"]],
        "options": {"floor": -210},
        "winner": None,
    },
)

_BIDS = nil_and_bids(13)


@hookimpl
def spadeskit_table() -> TableSpec:
    return partnership_table(STANDARD_DECK)


@hookimpl
def spadeskit_auction_actions() -> Sequence[Action]:
    return _BIDS
