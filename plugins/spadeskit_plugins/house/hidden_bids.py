"""``hidden-bids``: bids are sealed until everyone has bid.

No view shows another seat's bid while the auction is on; each seat sees its own.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

from spadeskit.core.state import GameState, Phase
from spadeskit.core.views import View
from spadeskit.plugin import PluginInfo, hookimpl

from .._common import DEAL

PLUGIN = PluginInfo(
    name="hidden-bids",
    kind="house-rule",
    summary="Bids are sealed: no one sees another seat's bid until all have bid.",
    fits=("standard", "cutthroat", "two-handed"),
)

# What the kit (spadeskit.testing) checks these rules against: see its oracles.
ORACLES = {"sealed_bids": True}

# Worked examples the kit runs (spadeskit.testing.examples): sealed bids change what is
# shown, never what may be bid (the kit's view checks cover the sealing itself).
EXAMPLES = (
    {
        "rule": "bids stay those of the variant while they are sealed",
        "deal": DEAL,
        "actions": ["bid 3"],
        "legal": ["nil", *(f"bid {n}" for n in range(1, 14))],
    },
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
