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


@hookimpl
def spadeskit_play_filters(ranking: Ranking) -> Sequence[PlayFilter]:
    return (first_trick_ban(ranking, Suit.SPADES, name="no-trump-first-trick", order=30),)
