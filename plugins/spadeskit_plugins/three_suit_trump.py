"""The 1970s three-handed game of Spades.

Three players on their own, 32 cards (A K Q J 10 9 8 7), ten each dealt 3-4-3 with two
cards left over as the blind.  From the dealer's left each player may pick up the blind
or pass; the first to pick it up is the bidder, takes the blind and discards two (which
count for the bidder).  Every suit trumps the suits below it: spades > clubs > hearts >
diamonds, and a trick goes to the highest card of the highest suit in it.  The bidder
scores game points by card points taken (300 in the deck); if all pass the hand is
played "for least" with no trump.  First to seven game points wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from spadeskit import MatchEnd, Pass, PickUp, ScoreLine, SpadesError
from spadeskit.core.actions import Action
from spadeskit.core.cards import STANDARD_DECK, Card, Suit
from spadeskit.core.results import HandSummary
from spadeskit.core.seating import CardRank, Contract, DealPlan, Step, TableSpec
from spadeskit.core.state import GameState, MatchState
from spadeskit.plugin import (
    Option,
    PlayFilter,
    PluginInfo,
    Ranking,
    choice,
    follow_suit,
    hookimpl,
    int_range,
)

from ._common import count, match_end, printed_rank

PLUGIN = PluginInfo(
    name="three-suit-trump",
    kind="variant",
    summary="The 1970s three-handed game: a blind, card points, every suit trumps those below it.",
    options=(
        Option("target", 7, "Game points that win the match (1 to 100).", int_range(1, 100)),
        Option(
            "for_least_ties",
            "all-tied-score",
            "When all pass and several tie for fewest points: all-tied-score, nobody-scores "
            "or fewest-tricks (of those tied, the fewest tricks score).",
            choice("all-tied-score", "nobody-scores", "fewest-tricks"),
        ),
    ),
)

# What the kit (spadeskit.testing) checks these rules against: see its oracles.
ORACLES = {
    "lead": "anytime",
    "auction": "pick-up",
    "score": "card-points",
    "options": {
        "target": "1..100",
        "for_least_ties": "'all-tied-score'|'nobody-scores'|'fewest-tricks'",
    },
    "defaults": {"target": 7, "for_least_ties": "all-tied-score"},
}

# Worked examples the kit runs (spadeskit.testing.examples): the rules page, pinned.
_DEAL = (
    "AS KS QS AC KC QC AH KH AD KD",
    "JS 10S 9S JC 10C 9C JH 10H 9H 8H",
    "8S 7S 8C 7C QH 7H QD JD 10D 9D",
)
_ALL = [f"{rank}{suit}" for suit in "SCHD" for rank in ("A", "K", "Q", "J", "10", "9", "8", "7")]
# All pass: N takes 210 card points (the blind with the last trick), E 45 in 3 tricks,
# S 45 in 2 tricks.
_FOR_LEAST = [
    "7D 8D 9D 10D AS AC AH AD KS QS JS KC QC JC KD QD JD",
    "7S 8S 9S 10S 7C 8C 9C 10C 7H",
    "8H 9H 10H KH QH JH",
]
EXAMPLES = (
    {
        "rule": "the first to pick up the blind is the bidder and discards 2",
        "deal": _DEAL,
        "blind": "8D 7D",
        "dealer": 2,
        "actions": ["pick up"],
        "perft": (1, 66),
    },
    {
        "rule": "the highest card of the highest-ranking suit in the trick wins",
        "deal": _DEAL,
        "blind": "8D 7D",
        "dealer": 2,
        "actions": ["pick up", "discard 7D 8D", "play AD", "play 8H", "play QD"],
        "winner": "E",
    },
    {
        "rule": "card points: A of spades 40, other aces 20, K Q J ten each, 10 9 8 7 "
        "five each; a bidder with 150-195 scores 1 game point",
        "hands": [
            [
                "pick_up - -",
                "10 0 0",
                [
                    "AS KS QS AC KC QC AH KH AD KD 8D 7D",
                    "JS 10S 9S JC 10C 9C JH 10H 9H 8H",
                    "8S 7S 8C 7C QH 7H QD JD 10D 9D",
                ],
            ]
        ],
        "after": (1, 0, 0),
        "lines": [
            "N (bidder) took 170 points: 1 game point",
            "E (opponent) took 65 points: 0 game points",
            "S (opponent) took 65 points: 0 game points",
        ],
    },
    {
        "rule": "all pass: the fewest card points score 1; tied players each score 1",
        "hands": [["pass pass pass", "5 3 2", _FOR_LEAST]],
        "after": (0, 1, 1),
    },
    {
        "rule": "all pass, for_least_ties fewest-tricks: of those tied, the fewest tricks score",
        "options": {"for_least_ties": "fewest-tricks"},
        "hands": [["pass pass pass", "5 3 2", _FOR_LEAST]],
        "after": (0, 0, 1),
        "lines": [
            "N (for least) took 210 points: 0 game points",
            "E (for least) took 45 points: 0 game points",
            "S (for least) took 45 points: 1 game point",
        ],
    },
    {
        "rule": "a bidder who takes all 300 card points scores 4 game points",
        "hands": [["pick_up - -", "10 0 0", [" ".join(_ALL), "", ""]]],
        "after": (4, 0, 0),
    },
    {
        "rule": "card points need the cards each player won: a sheet without them refuses",
        "hands": [["pick_up - -", "10 0 0"]],
        "refused": "give the cards each seat won",
    },
    {
        "rule": "all pass, for_least_ties nobody-scores: the one player with fewest scores",
        "options": {"for_least_ties": "nobody-scores"},
        "hands": [
            [
                "pass pass pass",
                "5 3 2",
                [
                    "JC QC KC AC 7D 8D 9D 10D JD QD AD 8H AH JS QS KS AS",
                    "7S 8S 9S 10S 7C 8C 9C 10C 7H",
                    "9H 10H KH QH JH KD",
                ],
            ]
        ],
        "after": (0, 1, 0),
    },
    {
        "rule": "all pass, for_least_ties nobody-scores: a tie for fewest scores nothing",
        "options": {"for_least_ties": "nobody-scores"},
        "hands": [["pass pass pass", "5 3 2", _FOR_LEAST]],
        "after": (0, 0, 0),
    },
    {
        "rule": "all pass: the hand is played with no trump",
        "deal": _DEAL,
        "blind": "8D 7D",
        "dealer": 2,
        "actions": ["pass", "pass", "pass", "play AD", "play 8H", "play QD"],
        "winner": "N",
    },
)

SEATS = ("N", "E", "S")
DECK: tuple[Card, ...] = tuple(c for c in STANDARD_DECK if c.rank >= 7)
LADDER = {Suit.SPADES: 4, Suit.CLUBS: 3, Suit.HEARTS: 2, Suit.DIAMONDS: 1}
_AUCTION: tuple[Action, ...] = (PickUp(), Pass())


def card_points(card: Card) -> int:
    """Return a card's points: A♠ 40, other aces 20, K Q J 10, 10 9 8 7 five each."""
    if card.rank == 14:
        return 40 if card.suit is Suit.SPADES else 20
    return 10 if card.rank >= 11 else 5


def _line_text(name: str, why: str, points: int, earned: int) -> str:
    return f"{name} ({why}) took {points} points: {count(earned, 'game point')}"


def game_points(points: int) -> int:
    """Return the bidder's game points for the card points taken (0 below 150)."""
    if points >= 300:
        return 4
    if points >= 250:
        return 3
    if points >= 200:
        return 2
    return 1 if points >= 150 else 0


@hookimpl
def spadeskit_table() -> TableSpec:
    return TableSpec(
        3,
        SEATS,
        ((0,), (1,), (2,)),
        SEATS,
        DECK,
        DealPlan(hand_size=10, packets=(3, 4, 3), blind=2),
    )


@hookimpl
def spadeskit_card_rank(card: Card) -> CardRank | None:
    return printed_rank(card)


@hookimpl
def spadeskit_card_points(card: Card) -> int:
    return card_points(card)


@hookimpl
def spadeskit_trick_strength(rank: CardRank, led: Suit, trump: str) -> int | None:
    if trump == "ladder":
        return LADDER[rank.suit] * 100 + rank.strength
    if trump == "none":
        return rank.strength if rank.suit == led else 0
    return None


@hookimpl
def spadeskit_play_filters(ranking: Ranking) -> Sequence[PlayFilter]:
    return (follow_suit(ranking),)


@hookimpl
def spadeskit_auction_next(game: GameState, table: TableSpec) -> int | Contract:
    hand = game.hand
    leader = (hand.dealer + 1) % table.players
    for seat, action in hand.auction:
        if isinstance(action, PickUp):
            return Contract(
                leader=leader,
                trump="ladder",
                declarer=seat,
                blind_to="declarer",
                steps=(Step(seat, "discard", 2),),
            )
    if len(hand.auction) < table.players:
        return (hand.dealer + 1 + len(hand.auction)) % table.players
    return Contract(leader=leader, trump="none", blind_to="last-trick")


@hookimpl
def spadeskit_auction_actions() -> Sequence[Action]:
    return _AUCTION


@hookimpl
def spadeskit_score_hand(
    summary: HandSummary, table: TableSpec, options: Any
) -> Sequence[ScoreLine]:
    points = summary.points  # each seat's card points, counted by the engine
    if points is None:
        raise SpadesError(
            "three-suit-trump scores card points: give the cards each seat won (HandSummary.won)"
        )
    names = table.seat_names
    seats = range(table.players)
    bidder = summary.declarer
    earned = [0] * table.players
    if bidder is not None:
        earned[bidder] = game_points(points[bidder])
        if earned[bidder] == 0:
            for seat in seats:
                if seat != bidder:
                    earned[seat] = 1
        why = {seat: ("bidder" if seat == bidder else "opponent") for seat in seats}
    else:
        fewest = min(points)
        tied = [s for s in seats if points[s] == fewest]
        rule = options["for_least_ties"]
        if len(tied) > 1 and rule == "nobody-scores":
            tied = []
        elif len(tied) > 1 and rule == "fewest-tricks":
            least = min(summary.books[s] for s in tied)
            tied = [s for s in tied if summary.books[s] == least]
        for seat in tied:
            earned[seat] = 1
        why = {seat: "for least" for seat in seats}
    # The line's text is built only when someone reads it.
    return [
        ScoreLine(
            seat,
            earned[seat],
            partial(_line_text, names[seat], why[seat], points[seat], earned[seat]),
            kind="game-points",
        )
        for seat in seats
    ]


@hookimpl
def spadeskit_match_end(match: MatchState, table: TableSpec, options: Any) -> MatchEnd | None:
    return match_end(match.scores, table.side_names, options["target"], None)


@hookimpl
def spadeskit_next_dealer(dealer: int, table: TableSpec) -> int:
    return (dealer + 1) % table.players
