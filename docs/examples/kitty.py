"""``kitty``: three-handed Spades with the whole deck and a one-card kitty.

Cutthroat takes the 2♠ out so that 51 cards deal evenly.  Under this house rule the 2♠
stays in: each player gets 17 cards and the 52nd is a kitty, dealt face down, which the
dealer (with ``kitty_to="left-of-dealer"``, the player on the dealer's left) picks up
before the auction, then discards one card face down.  Nobody else sees the kitty or
the discard.  Everything else is cutthroat's.

The deal plan says it all: ``blind=1`` sets a card aside, ``kitty_to`` gives it to a
seat (counted clockwise from the dealer) at the deal, and the engine then asks that
seat to discard as many before anyone bids.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import attrs

from spadeskit.plugin import STANDARD_DECK, Option, PluginInfo, TableSpec, choice, hookimpl

PLUGIN = PluginInfo(
    name="kitty",
    kind="house-rule",
    summary="Three-handed with all 52 cards: the dealer picks up the odd card, discards one.",
    options=(
        Option(
            "kitty_to",
            "dealer",
            "Who picks up the kitty: 'dealer' or 'left-of-dealer'.",
            choice("dealer", "left-of-dealer"),
        ),
    ),
    fits=("cutthroat",),
)

# What the kit (spadeskit.testing) checks: the option's range; the rest is cutthroat's.
ORACLES = {"options": {"kitty_to": "'dealer'|'left-of-dealer'"}}

# The deal of the worked examples: N, E, S, and the kitty; S deals.
_DEAL = (
    "AS KS QS JS 10S 9S AH KH QH JH 10H 9H AD KD QD JD 10D",
    "8S 7S 6S 5S 4S 3S 8H 7H 6H 5H 4H 3H 2H 9D 8D 7D 6D",
    "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C 5D 4D 3D 2D",
)
EXAMPLES = (
    {
        "rule": "the dealer picks up the kitty and first discards one of 18 cards",
        "variant": "cutthroat",
        "deal": _DEAL,
        "blind": "2S",
        "dealer": 2,
        "perft": (1, 18),
    },
    {
        "rule": "after the discard the auction begins left of the dealer, bids 0 to 17",
        "variant": "cutthroat",
        "deal": _DEAL,
        "blind": "2S",
        "dealer": 2,
        "actions": ["discard 2S"],
        "legal": ["nil", *(f"bid {n}" for n in range(1, 18))],
    },
    {
        "rule": "with kitty_to left-of-dealer, the player left of the dealer picks it up",
        "variant": "cutthroat",
        "options": {"kitty_to": "left-of-dealer"},
        "deal": _DEAL,
        "blind": "2S",
        "dealer": 2,
        "actions": ["discard 2S"],
        "legal": ["nil", *(f"bid {n}" for n in range(1, 18))],
    },
)

SEATS_FROM_DEALER = {"dealer": 0, "left-of-dealer": 1}


@hookimpl(wrapper=True)
def spadeskit_table(options: Any) -> Generator[None, TableSpec, TableSpec]:
    """Put the 2♠ back and deal the 52nd card as a kitty."""
    table = yield
    deal = attrs.evolve(table.deal, blind=1, kitty_to=SEATS_FROM_DEALER[options["kitty_to"]])
    return attrs.evolve(table, deck=STANDARD_DECK, deal=deal)
