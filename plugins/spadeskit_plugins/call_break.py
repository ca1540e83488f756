"""Call Break: four players alone, spades trump, and you must head the trick.

The game played across Nepal and India.  52 cards, ace high, 13 each, every player on
their own.  Each calls (bids) 1 to ``max_call`` tricks (8; no nil), the player left of
the dealer first, who also leads; the deal passes left.  Follow suit if you can, and
when following, beat every card of the led suit already in the trick if you can, unless
the trick has been trumped (option ``must_head``); void in the led suit, play a spade if
you can, one that beats every spade already in the trick if you can; otherwise any card.
Spades may be led at any time.  A call made scores the call plus 0.1 for each extra
trick; a call failed scores minus the call.  Scores are kept in tenths (``score_unit``
10) and shown with one decimal.  After ``rounds`` hands (5) the highest total wins; a tie
at the top plays one more hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from spadeskit import Bid, MatchEnd, ScoreLine
from spadeskit.core.actions import Action
from spadeskit.core.cards import STANDARD_DECK, Suit
from spadeskit.core.results import HandSummary
from spadeskit.core.seating import DealPlan, TableSpec, show_points
from spadeskit.core.state import MatchState
from spadeskit.plugin import (
    Option,
    PlayFilter,
    PluginInfo,
    Ranking,
    choice,
    head_the_trick,
    hookimpl,
    int_range,
)

from ._common import count
from ._spades import (  # noqa: F401  (shared hook implementations, registered with this module)
    spadeskit_auction_next,
    spadeskit_card_rank,
    spadeskit_next_dealer,
    spadeskit_trick_strength,
)

PLUGIN = PluginInfo(
    name="call-break",
    kind="variant",
    summary="Four players alone call 1-8 tricks; you must head the trick; scores in tenths "
    "over 5 rounds.",
    options=(
        Option("max_call", 8, "The highest call (bid) allowed, from 1 to 13.", int_range(1, 13)),
        Option(
            "must_head",
            True,
            "True: a player following suit must beat every card of the led suit "
            "already in the trick if able (unless the trick has been trumped); False: "
            "following suit "
            "is enough.",
            choice(True, False),
        ),
        Option(
            "rounds",
            5,
            "Hands in a match (1 to 100); a tie for the highest total plays one more.",
            int_range(1, 100),
        ),
    ),
)

# What the kit (spadeskit.testing) checks these rules against: see its oracles.
ORACLES = {
    "follow": lambda options: "head" if options["must_head"] else "follow",
    "lead": "anytime",
    "auction": "calls",
    "score": "call-break",
    "end": "rounds",
    "options": {"max_call": "1..13", "must_head": "True|False", "rounds": "1..100"},
    "defaults": {"max_call": 8, "must_head": True, "rounds": 5},
}

# Worked examples the kit runs (spadeskit.testing.examples): the rules page, pinned.
_DEAL = (
    "AS 2S 3S AH KH AC KC QC AD KD QD JD 10D",
    "KS QS JS 10S QH JH 10H JC 10C 9D 8D 7D 6D",
    "9S 8S 7S 9H 8H 7H 6H 9C 8C 7C 6C 5D 4D",
    "6S 5S 4S 5H 4H 3H 2H 5C 4C 3C 2C 3D 2D",
)
EXAMPLES = (
    {
        "rule": "a made call scores +call and 0.1 a trick over; a failed one -call (tenths)",
        "bids": "3 4 2 4",
        "books": "4 3 2 4",
        "points": (31, -40, 20, 40),
        "lines": [
            "N called 3, took 4, 1 extra trick: +3.1",
            "E called 4, took 3: failed, -4.0",
            "S called 2, took 2: +2.0",
            "W called 4, took 4: +4.0",
        ],
    },
    {
        "rule": "a follower must beat every card of the led suit if able",
        "deal": _DEAL,
        "dealer": 2,
        "actions": ["bid 1", "bid 1", "bid 1", "bid 1", "play 3H"],
        "legal": "AH KH",
    },
    {
        "rule": "a follower who cannot beat the trick follows suit with any card",
        "deal": _DEAL,
        "dealer": 2,
        "actions": ["bid 1", "bid 1", "bid 1", "bid 1", "play 3H", "play AH"],
        "legal": "QH JH 10H",
    },
    {
        "rule": "calls are 1 to 8",
        "deal": _DEAL,
        "legal": [f"bid {n}" for n in range(1, 9)],
    },
    {
        "rule": "after the rounds the highest total wins",
        "hands": [["1 1 1 1", "4 3 3 3"]] * 5,
        "winner": "N",
    },
    {
        "rule": "the match lasts five rounds",
        "hands": [["1 1 1 1", "4 3 3 3"]] * 4,
        "winner": None,
    },
)

SEATS = ("N", "E", "S", "W")
UNIT = 10
"""Scores are stored in tenths: a made call of 4 with one extra trick is 41 (shown 4.1)."""


@hookimpl
def spadeskit_table() -> TableSpec:
    seats = tuple((s,) for s in range(4))
    return TableSpec(4, SEATS, seats, SEATS, STANDARD_DECK, DealPlan(hand_size=13), score_unit=UNIT)


@hookimpl
def spadeskit_auction_actions(options: Any) -> Sequence[Action]:
    return _calls(options["max_call"])


_CALLS: dict[int, tuple[Action, ...]] = {}


def _calls(most: int) -> tuple[Action, ...]:
    found = _CALLS.get(most)
    if found is None:
        found = _CALLS[most] = tuple(Bid(n) for n in range(1, most + 1))
    return found


@hookimpl
def spadeskit_play_filters(ranking: Ranking, options: Any) -> Sequence[PlayFilter]:
    """Follow suit and head the trick; void: trump and over-trump if able (the library's
    ``head_the_trick`` building block, spades trumps)."""
    return (head_the_trick(ranking, options["must_head"], Suit.SPADES),)


@hookimpl
def spadeskit_score_hand(summary: HandSummary, table: TableSpec) -> Sequence[ScoreLine]:
    lines = []
    for seat in range(table.players):
        bid = summary.bids[seat]
        call = bid.tricks if isinstance(bid, Bid) else 0
        took = summary.books[seat]
        if took >= call:
            points = UNIT * call + (took - call)
        else:
            points = -UNIT * call
        lines.append(
            ScoreLine(
                seat, points, partial(_line, SEATS[seat], call, took, points), kind="contract"
            )
        )
    return lines


def _line(name: str, call: int, took: int, points: int) -> str:
    shown = show_points(points, UNIT)
    sign = "" if shown.startswith("-") else "+"
    if took >= call:
        extra = f", {count(took - call, 'extra trick')}" if took > call else ""
        return f"{name} called {call}, took {took}{extra}: {sign}{shown}"
    return f"{name} called {call}, took {took}: failed, {shown}"


@hookimpl
def spadeskit_match_end(match: MatchState, options: Any) -> MatchEnd | None:
    played = sum(1 for r in match.results if not r.void)
    if played < options["rounds"]:
        return None
    top = max(match.scores)
    leaders = [s for s, score in enumerate(match.scores) if score == top]
    if len(leaders) > 1:
        return None  # a tie at the top plays one more hand
    extra = played - options["rounds"]
    rounds = count(played, "round") + (
        f" ({count(extra, 'extra round')} to break a tie)" if extra else ""
    )
    return MatchEnd(
        leaders[0], f"won by {SEATS[leaders[0]]} with {show_points(top, UNIT)} after {rounds}"
    )
