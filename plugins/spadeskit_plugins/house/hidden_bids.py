"""``hidden-bids``: bids are sealed until everyone has bid.

No view shows another seat's bid while the auction is on; each seat sees its own.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

from spadeskit.core.state import GameState, Phase
from spadeskit.core.views import View
from spadeskit.plugin import PluginInfo, hookimpl

PLUGIN = PluginInfo(
    name="hidden-bids",
    kind="house-rule",
    summary="Bids are sealed: no one sees another seat's bid until all have bid.",
    fits=("standard", "cutthroat", "two-handed"),
)


@hookimpl(wrapper=True)
def spadeskit_view(
    view: View, game: GameState, seat: int | None
) -> Generator[None, View | None, View | None]:
    redacted = yield
    if game.hand.phase is not Phase.AUCTION:
        return redacted
    shown = redacted or view
    return attrs.evolve(
        shown, bids=tuple(b if s == seat else None for s, b in enumerate(shown.bids))
    )
