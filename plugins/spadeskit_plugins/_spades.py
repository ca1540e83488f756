"""Hook implementations shared by the variants where spades are always trump.

``standard``, ``cutthroat`` and ``two-handed`` play the same cards the same way: printed
ranks, spades trump, follow suit, spades led only once broken, each seat bids once from
the dealer's left, who also leads, and the deal passes clockwise.  A variant module
takes these by importing them: pluggy registers every ``@hookimpl`` function found in
the module, wherever it was defined.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spadeskit.core.cards import Card, Suit
from spadeskit.core.results import HandResult, HandSummary, MatchEnd, ScoreLine
from spadeskit.core.seating import CardRank, Contract, TableSpec
from spadeskit.core.state import GameState, MatchState
from spadeskit.plugin import (
    PlayFilter,
    Ranking,
    follow_suit,
    hookimpl,
    no_lead_until_broken,
)

from ._common import (
    contract_lines,
    each_bids_once,
    match_end,
    printed_rank,
    spades_trump_strength,
)

__all__ = [
    "spadeskit_auction_next",
    "spadeskit_card_rank",
    "spadeskit_next_dealer",
    "spadeskit_play_filters",
    "spadeskit_trick_strength",
]


@hookimpl
def spadeskit_card_rank(card: Card) -> CardRank | None:
    return printed_rank(card)


@hookimpl
def spadeskit_trick_strength(rank: CardRank, led: Suit, trump: str) -> int | None:
    return spades_trump_strength(rank, led, trump)


@hookimpl
def spadeskit_play_filters(ranking: Ranking) -> Sequence[PlayFilter]:
    return (follow_suit(ranking), no_lead_until_broken(ranking, Suit.SPADES))


@hookimpl
def spadeskit_auction_next(game: GameState, table: TableSpec) -> int | Contract:
    seat = each_bids_once(game, table)
    return Contract(leader=(game.hand.dealer + 1) % table.players) if seat is None else seat


@hookimpl
def spadeskit_next_dealer(dealer: int, result: HandResult, table: TableSpec) -> int:
    return (dealer + 1) % table.players


@hookimpl
def spadeskit_score_hand(
    summary: HandSummary, match: MatchState, table: TableSpec, options: Any
) -> Sequence[ScoreLine]:
    """Score each side's contract, nils and bag penalty."""
    return [
        line
        for side in range(len(table.sides))
        for line in contract_lines(side, summary, match, table, options)
    ]


@hookimpl
def spadeskit_match_end(match: MatchState, table: TableSpec, options: Any) -> MatchEnd | None:
    """End the match at the ``target`` option, or when a side falls to the ``floor``."""
    return match_end(match.scores, table.side_names, options["target"], options["floor"])
