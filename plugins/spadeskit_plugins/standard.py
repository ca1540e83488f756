"""Standard partnership Spades (seed 001; RULINGS.md "standard").

Four players, partners across (N/S against E/W), 52 cards, spades always trump.  Each
player bids 0–13 (0 is nil); a side's contract is the sum of its non-nil bids.  Made:
+10 per contracted trick and +1 per overtrick (a bag); set: −10 per contracted trick.
Nil ±100 beside the partner's contract; a nil bidder's tricks count as bags, never
toward the contract.  Every 10 bags cost 100.  First to 500 wins; a side at −200 loses.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spadeskit import Bid, BlindNil, MatchEnd, Nil, ScoreLine
from spadeskit.actions import Action
from spadeskit.cards import STANDARD_DECK, Card, Suit
from spadeskit.plugin import (
    Option,
    PlayFilter,
    PluginInfo,
    Ranking,
    follow_suit,
    hookimpl,
    int_range,
    no_lead_until_broken,
)
from spadeskit.results import HandResult, HandSummary
from spadeskit.state import GameState, MatchState
from spadeskit.table import CardRank, Contract, TableSpec

from ._common import (
    bags_text,
    each_bids_once,
    is_nil,
    partnership_table,
    printed_rank,
    signed,
    spades_trump_strength,
    target_or_floor,
)

PLUGIN = PluginInfo(
    name="standard",
    kind="variant",
    summary="Partnership Spades: bid 0-13 with nil, spades trump, bags, first to 500.",
    options=(
        Option("target", 500, "Score that wins the match at the end of a hand.", int_range(1)),
        Option("floor", -200, "A side at or below this score loses.", int_range(None, 0)),
        Option("nil_value", 100, "Points won by a nil that takes no trick, lost otherwise.", int_range(0)),
        Option("blind_nil_value", 200, "Points for a blind nil (with the blind-nil house rule).", int_range(0)),
        Option("bag_limit", 10, "Bags that trigger the bag penalty.", int_range(1)),
        Option("bag_penalty", 100, "Points lost each time the bag counter reaches the limit.", int_range(0)),
    ),
)

_BIDS: tuple[Action, ...] = (Nil(),) + tuple(Bid(n) for n in range(1, 14))


@hookimpl
def spadeskit_table() -> TableSpec:
    return partnership_table(STANDARD_DECK)


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
def spadeskit_auction_actions() -> Sequence[Action]:
    return _BIDS


def contract_lines(side: int, summary: HandSummary, match: MatchState, table: TableSpec,
                   options: Any) -> list[ScoreLine]:
    """Return one side's score lines: contract, each nil, and the bag penalty."""
    seats = table.sides[side]
    name = table.side_names[side]
    bids, books = summary.bids, summary.books
    bidders = [s for s in seats if not is_nil(bids[s])]
    lines = []
    bags = 0
    if bidders:
        contract = sum(b.tricks for s in bidders if isinstance(b := bids[s], Bid))
        took = sum(books[s] for s in bidders)
        if took >= contract:
            over = took - contract
            bags += over
            text = f"{name} bid {contract}, took {took}: {signed(10 * contract)}"
            if over:
                text += f", {bags_text(over)}"
            lines.append(ScoreLine(side, 10 * contract + over, text, bags=over))
        else:
            lines.append(ScoreLine(side, -10 * contract,
                                   f"{name} bid {contract}, took {took}: set, {signed(-10 * contract)}"))
    for seat in seats:
        bid = bids[seat]
        if not is_nil(bid):
            continue
        blind = isinstance(bid, BlindNil)
        value = options["blind_nil_value"] if blind else options["nil_value"]
        took = books[seat]
        label = f"{table.seat_names[seat]} {'blind nil' if blind else 'nil'}, took {took}"
        if took == 0:
            lines.append(ScoreLine(side, value, f"{label}: {signed(value)}"))
        else:
            bags += took
            lines.append(ScoreLine(side, -value + took, f"{label}: {signed(-value)}, {bags_text(took)}", bags=took))
    limit, penalty = options["bag_limit"], options["bag_penalty"]
    times = (match.bags[side] + bags) // limit if match.bags[side] + bags >= limit else 0
    if times:
        lines.append(ScoreLine(side, -penalty * times,
                               f"{name} reached {limit * times} bags: {signed(-penalty * times)}",
                               bags=-limit * times))
    return lines


@hookimpl
def spadeskit_score_hand(summary: HandSummary, match: MatchState, table: TableSpec,
                         options: Any) -> Sequence[ScoreLine]:
    return [line for side in range(len(table.sides))
            for line in contract_lines(side, summary, match, table, options)]


@hookimpl
def spadeskit_match_end(match: MatchState, table: TableSpec, options: Any) -> MatchEnd | None:
    return target_or_floor(match.scores, table.side_names, options["target"], options["floor"])


@hookimpl
def spadeskit_next_dealer(dealer: int, result: HandResult, table: TableSpec) -> int:
    return (dealer + 1) % table.players
