"""Suicide Spades: in every partnership one partner bids nil and the other at least 4.

The first partner to speak chooses: nil, or a bid of ``suicide_min_bid`` (4) or more.
The second partner must then do the other thing.  Scoring is standard's.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

from spadeskit.plugin import (
    Action,
    Bid,
    GameState,
    Nil,
    Option,
    PluginInfo,
    TableSpec,
    hookimpl,
    int_range,
)

PLUGIN = PluginInfo(
    name="suicide",
    kind="house-rule",
    summary="In every partnership one partner must bid nil and the other at least 4.",
    options=(
        Option(
            "suicide_min_bid", 4, "The least the partner of a nil bidder may bid.", int_range(1, 13)
        ),
    ),
    fits=("standard",),
    # With hidden-bids, what a seat may bid would reveal its partner's sealed bid.  Under
    # mirror or whiz a seat's bid is fixed by its spades, so a seat could be left with
    # no bid at all: the game would be stuck.
    conflicts=("blind-nil", "hidden-bids", "mirror", "whiz"),
)

# What spadeskit's kit checks this rule against: the auction is suicide's own (the kit's
# bids oracle has no reference for it, so the kit relies on the tests below), and the
# documented range of the option.
ORACLES = {"auction": "own", "options": {"suicide_min_bid": "1..13"}}

# Worked examples the kit runs: the rule stated once more, as hands on paper.
EXAMPLES = (
    {
        "rule": "one partner bids nil, the other at least 4; scored as standard",
        "bids": "nil 4 5 nil",
        "books": "0 5 6 2",
        "points": (151, -57),
    },
    {
        "rule": "the partner of a number bidder may not bid a number too",
        "bids": "4 4 5 nil",
        "books": "4 4 5 0",
        "refused": True,
    },
)


@hookimpl(wrapper=True)
def spadeskit_auction_actions(
    game: GameState, seat: int, table: TableSpec, options: Any
) -> Generator[None, Sequence[Action], Sequence[Action]]:
    """Narrow the variant's bids to what suicide allows this seat."""
    offered = yield
    least = options["suicide_min_bid"]
    high = tuple(b for b in offered if isinstance(b, Bid) and b.tricks >= least)
    partner = next(s for s in table.sides[table.side_of[seat]] if s != seat)
    said = game.hand.bids[partner]
    if said is None:
        return (Nil(),) + high
    return high if isinstance(said, Nil) else (Nil(),)
