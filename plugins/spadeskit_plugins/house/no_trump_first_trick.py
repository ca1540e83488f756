"""``no-trump-first-trick``: no spade may be played to the first trick unless the player
holds nothing else.

A play filter after follow-suit: if a spade was led (the leader held only spades) the
followers still follow suit, since follow-suit runs first and this filter never empties
the set of allowed cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from spadeskit.cards import Suit
from spadeskit.plugin import PlayFilter, PluginInfo, Ranking, hookimpl
from spadeskit.state import HandState

PLUGIN = PluginInfo(
    name="no-trump-first-trick",
    kind="house-rule",
    summary="No spade may be played to the first trick unless the player holds nothing else.",
    fits=("standard", "cutthroat", "two-handed"),
    conflicts=("spades-anytime",),
)


@hookimpl
def spadeskit_play_filters(ranking: Ranking) -> Sequence[PlayFilter]:
    others = ranking.deck_mask & ~ranking.suit_mask[Suit.SPADES]

    def check(hand: HandState, seat: int, allowed: int) -> int:
        if hand.tricks:
            return allowed
        return allowed & others or allowed

    return (PlayFilter("no-trump-first-trick", check,
                       "no spade may be played to the first trick unless the player holds nothing else",
                       order=30, source=_SOURCE, constants={"others": others}),)


# The same check as source, so the rules can inline it (see spadeskit.plugin.PlayFilter).
_SOURCE = """\
if not hand.tricks and allowed & {others}:
    allowed = allowed & {others}
"""
