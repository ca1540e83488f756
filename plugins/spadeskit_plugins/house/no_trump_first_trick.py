"""``no-trump-first-trick``: no spade may be played to the first trick unless the player
holds nothing else.

The library's ``first_trick_ban`` building block, after follow-suit: if a spade was led
(the leader held only spades) the followers still follow suit, since follow-suit runs
first and this filter never empties the set of allowed cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from spadeskit.core.cards import Suit
from spadeskit.plugin import PlayFilter, PluginInfo, Ranking, first_trick_ban, hookimpl

PLUGIN = PluginInfo(
    name="no-trump-first-trick",
    kind="house-rule",
    summary="No spade may be played to the first trick unless the player holds nothing else.",
    fits=("standard", "cutthroat", "two-handed"),
    conflicts=("spades-anytime",),
)

# What the kit (spadeskit.testing) checks these rules against: see its oracles.
ORACLES = {"first_trick": "no-spades"}

# Worked examples the kit runs (spadeskit.testing.examples): the rules page, pinned.
EXAMPLES = (
    {
        "rule": "no spade on the first trick unless the player holds nothing else",
        "deal": (
            "AS 2S 3S AH KH AC KC QC AD KD QD JD 10D",
            "KS QS JS 10S QH JH 10H JC 10C 9D 8D 7D 6D",
            "9S 8S 7S 9H 8H 7H 6H 5H 4H 3H 2H 5D 4D",
            "6S 5S 4S 9C 8C 7C 6C 5C 4C 3C 2C 3D 2D",
        ),
        "actions": ["bid 3", "bid 3", "bid 3", "bid 3", "play AH", "play QH", "play 9H"],
        "legal": "9C 8C 7C 6C 5C 4C 3C 2C 3D 2D",
    },
)


@hookimpl
def spadeskit_play_filters(ranking: Ranking) -> Sequence[PlayFilter]:
    return (first_trick_ban(ranking, Suit.SPADES, name="no-trump-first-trick", order=30),)
