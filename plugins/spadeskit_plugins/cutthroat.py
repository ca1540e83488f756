"""Cutthroat: three-handed Spades, every player on their own.

The 2♠ is removed, leaving 51 cards, 17 each.  Each player bids 0–17 (0 is nil, ±100)
and scores alone with the standard scoring: 10 per trick bid, 1 per overtrick (a bag),
−10 per trick bid when set, 100 off for every 10 bags.  First to 200 wins; a player at
or below −200 loses (option ``floor``, ``None`` for none).  A player who takes all 17
tricks wins the match at once (option ``all_tricks="win"``) or scores 200 for that hand
instead of their contract (``all_tricks="score-200"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spadeskit import MatchEnd, ScoreLine
from spadeskit.core.actions import Action
from spadeskit.core.cards import STANDARD_DECK, Card, parse_card
from spadeskit.core.results import HandResult, HandSummary
from spadeskit.core.seating import DealPlan, TableSpec
from spadeskit.core.state import MatchState
from spadeskit.plugin import (
    Option,
    PluginInfo,
    choice,
    hookimpl,
    is_nil,
)

from ._common import (
    BAG_LIMIT,
    BAG_PENALTY,
    NIL_VALUE,
    SOLO_RANGES,
    contract_lines,
    floor_option,
    individual_table,
    match_end,
    nil_and_bids,
    signed,
    target_option,
)
from ._spades import (  # noqa: F401  (shared hook implementations, registered with this module)
    spadeskit_auction_next,
    spadeskit_card_rank,
    spadeskit_next_dealer,
    spadeskit_play_filters,
    spadeskit_trick_strength,
)

PLUGIN = PluginInfo(
    name="cutthroat",
    kind="variant",
    summary="Three-handed Spades: no 2 of spades, 17 cards each, every player alone, first to 200.",
    options=(
        target_option(200),
        floor_option("player"),
        NIL_VALUE,
        BAG_LIMIT,
        BAG_PENALTY,
        Option(
            "all_tricks",
            "win",
            "A player who takes all 17 tricks: 'win' ends the match at once in their favour; "
            "'score-200' scores them 200 for the hand instead of their contract.",
            choice("win", "score-200"),
        ),
    ),
)

# What the kit (spadeskit.testing) checks these rules against: see its oracles.
ORACLES = {
    "options": {**SOLO_RANGES, "all_tricks": "'win'|'score-200'"},
    "defaults": {
        "target": 200,
        "floor": -200,
        "nil_value": 100,
        "bag_limit": 10,
        "bag_penalty": 100,
        "all_tricks": "win",
    },
}

# Worked examples the kit runs (spadeskit.testing.examples): the rules page, pinned.
EXAMPLES = (
    {
        "rule": "each player scores standard's contract and nil alone",
        "bids": "5 5 nil",
        "books": "6 11 0",
        "points": (51, 56, 100),
        "lines": [
            "N bid 5, took 6: +50, 1 bag (+1)",
            "E bid 5, took 11: +50, 6 bags (+6)",
            "S nil, took 0: +100",
        ],
    },
    {
        "rule": "a player who bid and takes all 17 tricks wins at once",
        "hands": [["1 1 1", "17 0 0"]],
        "winner": "N",
        "lines": [
            "N bid 1, took 17: +10, 16 bags (+16)",
            "N reached 10 bags: -100",
            "E bid 1, took 0: set, -10",
            "S bid 1, took 0: set, -10",
        ],
    },
    {
        "rule": "with all_tricks score-200, taking all 17 scores 200 instead",
        "options": {"all_tricks": "score-200"},
        "bids": "1 1 1",
        "books": "17 0 0",
        "points": (200, -10, -10),
        "lines": [
            "N took all 17 tricks: +200",
            "E bid 1, took 0: set, -10",
            "S bid 1, took 0: set, -10",
        ],
    },
)

SEATS = ("N", "E", "S")
HAND = 17
DECK: tuple[Card, ...] = tuple(c for c in STANDARD_DECK if c != parse_card("2S"))
_BIDS = nil_and_bids(HAND)


@hookimpl
def spadeskit_table() -> TableSpec:
    return individual_table(SEATS, DECK, DealPlan(hand_size=HAND))


@hookimpl
def spadeskit_auction_actions() -> Sequence[Action]:
    return _BIDS


@hookimpl
def spadeskit_score_hand(
    summary: HandSummary, match: MatchState, table: TableSpec, options: Any
) -> Sequence[ScoreLine]:
    lines: list[ScoreLine] = []
    for seat in range(table.players):
        if (
            summary.books[seat] == HAND
            and not is_nil(summary.bids[seat])
            and options["all_tricks"] == "score-200"
        ):
            lines.append(
                ScoreLine(
                    seat, 200, f"{SEATS[seat]} took all {HAND} tricks: {signed(200)}", kind="bonus"
                )
            )
        else:
            lines += contract_lines(seat, summary, match, table, options)
    return lines


@hookimpl
def spadeskit_match_end(
    match: MatchState, result: HandResult, table: TableSpec, options: Any
) -> MatchEnd | None:
    if options["all_tricks"] == "win" and HAND in result.books:
        seat = result.books.index(HAND)
        if not is_nil(result.bids[seat]):  # a nil bidder who takes them has failed the nil
            return MatchEnd(seat, f"{SEATS[seat]} bid and took all {HAND} tricks, and wins at once")
    return match_end(match.scores, table.side_names, options["target"], options["floor"])
