"""Six-handed Spades: six players, two decks.

Two standard decks shuffled together, both 2♣ removed: 102 cards, 17 each, 17 tricks
a hand.  Partners sit opposite (three sides of two: N/S, NE/SW, SE/NW; option
``teams="three-pairs"``) or alternate round the table (two sides of three: N/SE/SW
against NE/S/NW; ``teams="two-threes"``).  Each player bids 1–17 or nil; a side's
contract is the sum of its non-nil bids, scored as in standard (bags, 10 bags −100,
nil ±100).  Follow suit; spades are trump and are led only once broken.  When both
copies of a card fall in one trick, the first played beats the second (option
``identical="second"``: the second beats the first).  A player may hold both copies;
they are the same card, played with one ``Play``.  First to 500; a side at −200 loses.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spadeskit.core.actions import Action
from spadeskit.core.cards import STANDARD_DECK, Card, parse_card
from spadeskit.core.seating import DealPlan, TableSpec
from spadeskit.plugin import (
    Option,
    PluginInfo,
    choice,
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
    name="six-handed",
    kind="variant",
    summary="Six players, two decks less both 2 of clubs: 17 each, three pairs or two threes.",
    options=(
        target_option(500),
        floor_option("side"),
        NIL_VALUE,
        NIL_TRICKS,
        BAG_LIMIT,
        BAG_PENALTY,
        Option(
            "teams",
            "three-pairs",
            "'three-pairs': partners sit opposite (N/S, NE/SW, SE/NW); 'two-threes': "
            "every other seat (N/SE/SW against NE/S/NW).",
            choice("three-pairs", "two-threes"),
        ),
        Option(
            "identical",
            "first",
            "When both copies of a card fall in one trick and it is the best card: 'first' "
            "(the first played wins) or 'second' (the second played wins).",
            choice("first", "second"),
        ),
    ),
)

SEATS = ("N", "NE", "SE", "S", "SW", "NW")
HAND = 17
DECK: tuple[Card, ...] = 2 * tuple(c for c in STANDARD_DECK if c != parse_card("2C"))
TEAMS = {
    "three-pairs": (((0, 3), (1, 4), (2, 5)), ("N/S", "NE/SW", "SE/NW")),
    "two-threes": (((0, 2, 4), (1, 3, 5)), ("N/SE/SW", "NE/S/NW")),
}
_BIDS = nil_and_bids(HAND)

# What the kit (spadeskit.testing) checks these rules against: see its oracles.
ORACLES = {
    "identical": lambda options: options["identical"],
    "options": {
        **STANDARD_RANGES,
        "teams": "'three-pairs'|'two-threes'",
        "identical": "'first'|'second'",
    },
}

# A deal the worked examples start from (NW deals, N bids and leads first).  N and SE
# each hold an A♥; N holds both A♠, SW both 2♠, NW both 2♥.
DEAL = (
    "AS AS KS AH KH QH JH AC KC QC JC AD KD QD JD 10D 9D",
    "KS QS QS KH QH JH 10H 10C 9C 8C 10D 9D 8D 7D 6D 5D 4D",
    "JS 10S 9S AH 9H 8H 7H 6H AC KC QC JC 10C 8D 7D 6D 5D",
    "JS 10S 9S 8S 10H 9H 8H 7H 5H 9C 8C 7C 6C 5C AD 4D 3D",
    "8S 7S 6S 5S 4S 3S 2S 2S 6H 5H 4H 3H 7C 6C KD QD 2D",
    "7S 6S 5S 4S 3S 4H 3H 2H 2H 5C 4C 4C 3C 3C JD 3D 2D",
)
_BIDS_DONE = ["bid 2"] * 6
_HEARTS = ["play AH", "play 10H", "play AH", "play 5H", "play 6H", "play 2H"]

# Worked examples the kit runs (spadeskit.testing.examples): the rules page, pinned.
EXAMPLES = (
    {
        "rule": "each side's contract is the sum of its non-nil bids, scored as in standard",
        "bids": "3 2 nil 4 2 1",
        "books": "4 3 0 3 2 5",
        "points": (70, 41, 114),
    },
    {
        "rule": "two sides of three: each side's non-nil bids make its contract",
        "options": {"teams": "two-threes"},
        "bids": "3 2 nil 4 2 1",
        "books": "4 3 0 3 2 5",
        "points": (151, 74),
    },
    {
        "rule": "a player holding both copies of a card has one play of it",
        "deal": DEAL,
        "actions": [*_BIDS_DONE, *_HEARTS[:5]],
        "legal": "4H 3H 2H",
    },
    {
        "rule": "both copies of a card in one trick: the first played wins",
        "deal": DEAL,
        "actions": [*_BIDS_DONE, *_HEARTS],
        "winner": "N",
    },
    {
        "rule": "with identical second, the second copy played wins",
        "options": {"identical": "second"},
        "deal": DEAL,
        "actions": [*_BIDS_DONE, *_HEARTS],
        "winner": "SE",
    },
    {
        "rule": "a side at or below -200 loses",
        "hands": [["9 3 3 9 3 3", "0 6 5 0 3 3"], ["9 3 3 9 3 3", "0 6 5 0 3 3"]],
        "winner": "NE/SW",
    },
)


@hookimpl
def spadeskit_table(options: Any) -> TableSpec:
    sides, names = TEAMS[options["teams"]]
    return TableSpec(len(SEATS), SEATS, sides, names, DECK, DealPlan(hand_size=HAND))


@hookimpl
def spadeskit_auction_actions() -> Sequence[Action]:
    return _BIDS


@hookimpl
def spadeskit_trick_winner(
    plays: tuple[tuple[int, Card], ...], strongest: int, options: Any
) -> int | None:
    """With ``identical="second"``, give a trick whose best card was played twice to
    the second copy (the strength table gives it to the first)."""
    if options["identical"] != "second":
        return None
    best = next(card for seat, card in plays if seat == strongest)
    return [seat for seat, card in plays if card == best][-1]
